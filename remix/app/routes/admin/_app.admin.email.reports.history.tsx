/**
 * /admin/email/reports/history (platform staff): every account's e-mails of a range of São Paulo
 * days, newest first, each naming its account; filtered by account and the customer history's
 * filters (a GET form, no JavaScript needed) and paged by keyset as /mail/history. A row's date
 * opens the e-mail (its fields, events and content in a sandboxed frame) in a panel above the list
 * (?message={id}, the filters kept).
 */
import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { adminEmailMessage, adminEmailMessages, emailStaffCheck } from "~api/email/admin-reports";
import { previewDocument } from "~api/email/history";
import { EMAIL_STATUSES } from "~api/email/statuses";
import { EmailHistoryFilterForm } from "~/components/email/history-screen";
import type { EmailHistoryFilters } from "~/components/email/history-filters";
import { EmailMessageDetail } from "~/components/email/message-screen";
import { EmailMessagesTable } from "~/components/email/messages-table";
import { FormErrors } from "~/components/forms/fields";
import { PageHeader } from "~/components/shell/page-header";
import { formatDay } from "~/components/sms-reports/format";
import { Card, CardContent, CardDescription, CardHeader } from "~/components/ui/card";
import { AccountField, AccountMatches, hrefOf, MessagePanel } from "~/components/whatsapp/admin-reports";
import { CursorPager } from "~/components/whatsapp/cursor-pager";
import { orHttpError, requireRoute } from "~/lib/auth.server";
import { EMAIL_FIELD_OF, emailHistoryInput, emailHistoryValues } from "~/lib/email-history.server";
import type { Lng } from "~/lib/i18n";
import { filterErrors } from "~/lib/sms-reports.server";
import { accountFilter, accountParams, accountReady } from "~/lib/whatsapp-admin.server";
import type { RootData } from "~/root";

export const handle = { crumb: "emailReports:crumbs.adminHistory" };

const PATH = "/admin/email/reports/history";

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  const params = new URL(request.url).searchParams;
  const values = emailHistoryValues(params);
  const cursor = params.get("cursor")?.trim() ?? "";
  const filter = await accountFilter(ctx, params, emailStaffCheck("history"));
  let shown: ReturnType<typeof filterErrors<keyof EmailHistoryFilters>> = { errors: {}, formErrors: [] };
  let page: Awaited<ReturnType<typeof adminEmailMessages>> | null = null;
  if (accountReady(filter)) {
    try {
      page = await adminEmailMessages(ctx, { ...emailHistoryInput(values, cursor), account_id: filter.account?.id });
    } catch (e) {
      shown = filterErrors(e, EMAIL_FIELD_OF);
    }
  }
  const messageId = params.get("message")?.trim() ?? "";
  const message = messageId ? (await orHttpError(adminEmailMessage(ctx, messageId))).data : null;
  return json(
    {
      page,
      values,
      cursor,
      filter,
      accountParams: accountParams(filter),
      ...shown,
      message,
      preview: message ? previewDocument(message.html, message.text) : "",
      statuses: EMAIL_STATUSES,
    },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

export default function AdminEmailHistoryScreen() {
  const { page, values, cursor, filter, accountParams, errors, formErrors, message, preview, statuses } = useLoaderData<typeof loader>();
  const lng = (useRouteLoaderData<RootData>("root")?.lng ?? "pt-BR") as Lng;
  const { t } = useTranslation("emailReports");
  /** This screen with the filters shown (and the page shown, for a message's panel). */
  const hrefWith = (extra: Record<string, string>) => hrefOf(PATH, { ...values, ...accountParams, ...extra });
  return (
    <div className="space-y-6">
      <PageHeader description={t("admin.historyDescription")} />
      {message ? (
        <MessagePanel title={t("crumbs.message")} close={t("admin.closeMessage")} closeHref={hrefWith(cursor ? { cursor } : {})}>
          <EmailMessageDetail m={message} preview={preview} lng={lng} />
        </MessagePanel>
      ) : null}
      <Card>
        <CardHeader className="gap-4">
          <EmailHistoryFilterForm path={PATH} values={values} errors={errors} statuses={statuses}>
            <AccountField filter={filter} />
          </EmailHistoryFilterForm>
          <FormErrors errors={formErrors} />
          {page ? <CardDescription>{t("history.range", { from: formatDay(values.start, lng, true), to: formatDay(values.end, lng, true) })}</CardDescription> : null}
        </CardHeader>
        <CardContent className="space-y-4">
          <AccountMatches matches={filter.matches} href={(a) => hrefOf(PATH, { ...values, account: a.name, account_id: a.id })} />
          {!page ? null : page.data.length === 0 ? (
            <p className="py-8 text-center text-sm text-muted-foreground">{t("history.empty")}</p>
          ) : (
            <EmailMessagesTable rows={page.data} lng={lng} account detailHref={(id) => hrefWith({ ...(cursor ? { cursor } : {}), message: id })} />
          )}
          {page ? <CursorPager cursor={cursor} next={page.next_cursor} href={(c) => hrefWith(c ? { cursor: c } : {})} /> : null}
        </CardContent>
      </Card>
    </div>
  );
}
