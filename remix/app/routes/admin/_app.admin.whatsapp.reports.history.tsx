/**
 * /admin/whatsapp/reports/history (platform staff): every account's WhatsApp messages (both
 * directions) of a range of São Paulo days, newest first, each naming its account; filtered by
 * account, status, sender and recipient (a GET form, no JavaScript needed) and paged by keyset as
 * the customer history. A row's date opens the message with its events in a panel above the list
 * (?message={id}, the filters kept).
 */
import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { saoPauloToday } from "~api/sms/history";
import { adminWhatsappMessage, adminWhatsappMessages } from "~api/whatsapp/admin-reports";
import { ErrorText, FormErrors } from "~/components/forms/fields";
import { PageHeader } from "~/components/shell/page-header";
import { CursorPager } from "~/components/whatsapp/cursor-pager";
import { formatDay } from "~/components/sms-reports/format";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { NativeSelect, NativeSelectOption } from "~/components/ui/native-select";
import { AccountField, AccountMatches, hrefOf, MessagePanel } from "~/components/whatsapp/admin-reports";
import { WhatsappMessageDetail } from "~/components/whatsapp/message-screen";
import { MessagesTable } from "~/components/whatsapp/messages-table";
import { orHttpError, requireRoute } from "~/lib/auth.server";
import type { Lng } from "~/lib/i18n";
import { filterErrors } from "~/lib/sms-reports.server";
import { accountFilter, accountParams, accountReady } from "~/lib/whatsapp-admin.server";
import { WHATSAPP_STATUSES } from "~/lib/whatsapp.server";
import type { RootData } from "~/root";

export const handle = { crumb: "admin:whatsappReports.historyTitle" };

const PATH = "/admin/whatsapp/reports/history";
const FILTERS = ["start", "end", "status", "from", "to"] as const;
type Filter = (typeof FILTERS)[number];
/** The use-case's input paths as the form's fields. */
const FIELD_OF: Record<string, Filter> = { "created_at.gte": "start", "created_at.lte": "end", status: "status", from: "from", to: "to" };

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  const params = new URL(request.url).searchParams;
  const get = (k: string) => params.get(k)?.trim() ?? "";
  const end = get("end") || saoPauloToday();
  const values: Record<Filter, string> = { start: get("start") || end, end, status: get("status"), from: get("from"), to: get("to") };
  const cursor = get("cursor");
  const filter = await accountFilter(ctx, params);
  let shown: ReturnType<typeof filterErrors<Filter>> = { errors: {}, formErrors: [] };
  let page: Awaited<ReturnType<typeof adminWhatsappMessages>> | null = null;
  if (accountReady(filter)) {
    try {
      page = await adminWhatsappMessages(ctx, {
        status: values.status,
        from: values.from,
        to: values.to,
        created_at: { gte: values.start, lte: values.end },
        cursor: cursor || undefined,
        account_id: filter.account?.id,
      });
    } catch (e) {
      shown = filterErrors(e, FIELD_OF);
    }
  }
  const messageId = get("message");
  const message = messageId ? (await orHttpError(adminWhatsappMessage(ctx, messageId))).data : null;
  return json(
    { page, values, cursor, filter, accountParams: accountParams(filter), ...shown, message, statuses: WHATSAPP_STATUSES },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

export default function AdminWhatsappHistoryScreen() {
  const { page, values, cursor, filter, accountParams, errors, formErrors, message, statuses } = useLoaderData<typeof loader>();
  const lng = (useRouteLoaderData<RootData>("root")?.lng ?? "pt-BR") as Lng;
  const { t } = useTranslation(["admin", "whatsapp", "smsReports", "common"]);
  /** This screen with the filters shown (and the page shown, for a message's panel). */
  const hrefWith = (extra: Record<string, string>) => hrefOf(PATH, { ...values, ...accountParams, ...extra });
  const field = (name: Filter, label: string, input: React.ReactNode) => (
    <div className="grid gap-1.5">
      <Label htmlFor={`admin-wa-${name}`}>{label}</Label>
      {input}
      <ErrorText id={`admin-wa-${name}-error`} errors={errors[name]} />
    </div>
  );
  const invalid = (name: Filter) => (errors[name]?.length ? { "aria-invalid": true, "aria-describedby": `admin-wa-${name}-error` } : {});
  const text = (name: "from" | "to", label: string, type: string) =>
    field(name, label, <Input id={`admin-wa-${name}`} type={type} name={name} defaultValue={values[name]} maxLength={40} {...invalid(name)} />);

  return (
    <div className="space-y-6">
      <PageHeader description={t("whatsappReports.historyDescription")} />
      {message ? (
        <MessagePanel title={t("whatsapp:crumbs.message")} close={t("whatsappReports.closeMessage")} closeHref={hrefWith(cursor ? { cursor } : {})}>
          <WhatsappMessageDetail m={message} lng={lng} />
        </MessagePanel>
      ) : null}
      <Card>
        <CardHeader className="gap-4">
          <Form method="get" action={PATH} role="search" aria-label={t("whatsapp:history.filters.label")} className="grid gap-3 sm:grid-cols-2 sm:items-start lg:grid-cols-4">
            {field("start", t("whatsapp:history.filters.start"), <Input id="admin-wa-start" type="date" name="start" defaultValue={values.start} required {...invalid("start")} />)}
            {field("end", t("whatsapp:history.filters.end"), <Input id="admin-wa-end" type="date" name="end" defaultValue={values.end} required {...invalid("end")} />)}
            {field(
              "status",
              t("whatsapp:history.filters.status"),
              <NativeSelect id="admin-wa-status" name="status" defaultValue={values.status} {...invalid("status")}>
                <NativeSelectOption value="">{t("whatsapp:history.filters.anyStatus")}</NativeSelectOption>
                {statuses.map((s) => (
                  <NativeSelectOption key={s} value={s}>
                    {t(`smsReports:status.${s}`)}
                  </NativeSelectOption>
                ))}
              </NativeSelect>,
            )}
            <AccountField filter={filter} />
            {text("from", t("whatsappReports.from"), "text")}
            {text("to", t("whatsapp:history.filters.to"), "tel")}
            <div className="flex gap-2 sm:pt-6">
              <Button type="submit" variant="secondary">
                {t("whatsapp:history.filters.submit")}
              </Button>
              <Button asChild variant="ghost">
                <Link to={PATH}>{t("whatsapp:history.filters.clear")}</Link>
              </Button>
            </div>
          </Form>
          <FormErrors errors={formErrors} />
          {page ? <CardDescription>{t("whatsapp:history.range", { from: formatDay(values.start, lng, true), to: formatDay(values.end, lng, true) })}</CardDescription> : null}
        </CardHeader>
        <CardContent className="space-y-4">
          <AccountMatches matches={filter.matches} href={(a) => hrefOf(PATH, { ...values, account: a.name, account_id: a.id })} />
          {!page ? null : page.data.length === 0 ? (
            <p className="py-8 text-center text-sm text-muted-foreground">{t("whatsapp:history.empty")}</p>
          ) : (
            <MessagesTable rows={page.data} lng={lng} account detailHref={(id) => hrefWith({ ...(cursor ? { cursor } : {}), message: id })} />
          )}
          {page ? <CursorPager cursor={cursor} next={page.next_cursor} href={(c) => hrefWith(c ? { cursor: c } : {})} /> : null}
        </CardContent>
      </Card>
    </div>
  );
}
