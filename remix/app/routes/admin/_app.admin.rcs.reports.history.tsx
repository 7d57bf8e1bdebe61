/**
 * /admin/rcs/reports/history (platform staff): every account's RCS messages (both directions) of
 * a range of São Paulo days, newest first, each naming its account; filtered by account, status,
 * type and recipient (a GET form, no JavaScript needed) and paged by keyset
 * (api/rcs/admin-reports.ts adminRcsMessages). A row's date narrows the list to that message.
 */
import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { adminRcsMessages, assertRcsStaff } from "~api/rcs/admin-reports";
import { saoPauloToday } from "~api/sms/history";
import { ErrorText, FormErrors } from "~/components/forms/fields";
import { RcsFilterFields } from "~/components/rcs-reports/figures";
import { PageHeader } from "~/components/shell/page-header";
import { formatDay } from "~/components/sms-reports/format";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { NativeSelect, NativeSelectOption } from "~/components/ui/native-select";
import { AccountField, AccountMatches, hrefOf } from "~/components/whatsapp/admin-reports";
import { CursorPager } from "~/components/whatsapp/cursor-pager";
import { MessagesTable } from "~/components/whatsapp/messages-table";
import { requireRoute } from "~/lib/auth.server";
import type { Lng } from "~/lib/i18n";
import { filterErrors } from "~/lib/sms-reports.server";
import { accountFilter, accountParams, accountReady } from "~/lib/whatsapp-admin.server";
import type { RootData } from "~/root";

export const handle = { crumb: "rcs:adminReports.historyTitle" };

const PATH = "/admin/rcs/reports/history";
const FILTERS = ["start", "end", "status", "type", "to", "id"] as const;
type Filter = (typeof FILTERS)[number];
/** The use-case's input paths as the form's fields. */
const FIELD_OF: Record<string, Filter> = { "created_at.gte": "start", "created_at.lte": "end", status: "status", type: "type", to: "to", id: "id" };
/** The statuses an RCS message goes through (ADR 055), and an inbound one's. */
const STATUSES = ["queued", "sending", "sent", "delivered", "read", "failed", "received"] as const;

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  const params = new URL(request.url).searchParams;
  const get = (k: string) => params.get(k)?.trim() ?? "";
  const end = get("end") || saoPauloToday();
  const values: Record<Filter, string> = { start: get("start") || end, end, status: get("status"), type: get("type"), to: get("to"), id: get("id") };
  const cursor = get("cursor");
  const filter = await accountFilter(ctx, params, (c) => assertRcsStaff(c, "history"));
  let shown: ReturnType<typeof filterErrors<Filter>> = { errors: {}, formErrors: [] };
  let page: Awaited<ReturnType<typeof adminRcsMessages>> | null = null;
  if (accountReady(filter)) {
    try {
      page = await adminRcsMessages(ctx, {
        status: values.status,
        type: values.type,
        to: values.to,
        id: values.id,
        created_at: { gte: values.start, lte: values.end },
        cursor: cursor || undefined,
        account_id: filter.account?.id,
      });
    } catch (e) {
      shown = filterErrors(e, FIELD_OF);
    }
  }
  return json({ page, values, cursor, filter, accountParams: accountParams(filter), ...shown }, { headers: { "Cache-Control": "private, no-store" } });
}

export default function AdminRcsHistoryScreen() {
  const { page, values, cursor, filter, accountParams, errors, formErrors } = useLoaderData<typeof loader>();
  const lng = (useRouteLoaderData<RootData>("root")?.lng ?? "pt-BR") as Lng;
  const { t } = useTranslation(["rcs", "smsReports"]);
  const hrefWith = (extra: Record<string, string>) => hrefOf(PATH, { ...values, ...accountParams, ...extra });
  const field = (name: Filter, label: string, input: React.ReactNode) => (
    <div className="grid gap-1.5">
      <Label htmlFor={`admin-rcs-${name}`}>{label}</Label>
      {input}
      <ErrorText id={`admin-rcs-${name}-error`} errors={errors[name]} />
    </div>
  );
  const invalid = (name: Filter) => (errors[name]?.length ? { "aria-invalid": true, "aria-describedby": `admin-rcs-${name}-error` } : {});
  return (
    <div className="space-y-6">
      <PageHeader description={t("adminReports.historyDescription")} />
      <Card>
        <CardHeader className="gap-4">
          <Form method="get" action={PATH} role="search" aria-label={t("adminReports.filters.label")} className="grid gap-3 sm:grid-cols-2 sm:items-start lg:grid-cols-4">
            {field("start", t("adminReports.filters.start"), <Input id="admin-rcs-start" type="date" name="start" defaultValue={values.start} required {...invalid("start")} />)}
            {field("end", t("adminReports.filters.end"), <Input id="admin-rcs-end" type="date" name="end" defaultValue={values.end} required {...invalid("end")} />)}
            {field(
              "status",
              t("adminReports.filters.status"),
              <NativeSelect id="admin-rcs-status" name="status" defaultValue={values.status} {...invalid("status")}>
                <NativeSelectOption value="">{t("adminReports.filters.anyStatus")}</NativeSelectOption>
                {STATUSES.map((s) => (
                  <NativeSelectOption key={s} value={s}>
                    {t(`smsReports:status.${s}`)}
                  </NativeSelectOption>
                ))}
              </NativeSelect>,
            )}
            <RcsFilterFields agents={null} values={{ agent: "", type: values.type }} errors={errors} />
            <AccountField filter={filter} />
            {field("to", t("adminReports.filters.to"), <Input id="admin-rcs-to" type="tel" name="to" defaultValue={values.to} maxLength={40} {...invalid("to")} />)}
            {values.id ? <input type="hidden" name="id" value={values.id} /> : null}
            <div className="flex gap-2 sm:pt-6">
              <Button type="submit" variant="secondary">
                {t("adminReports.filters.submit")}
              </Button>
              <Button asChild variant="ghost">
                <Link to={PATH}>{t("adminReports.filters.clear")}</Link>
              </Button>
            </div>
          </Form>
          <FormErrors errors={formErrors} />
          {page ? <CardDescription>{t("adminReports.range", { from: formatDay(values.start, lng, true), to: formatDay(values.end, lng, true) })}</CardDescription> : null}
        </CardHeader>
        <CardContent className="space-y-4">
          <AccountMatches matches={filter.matches} href={(a) => hrefOf(PATH, { ...values, account: a.name, account_id: a.id })} />
          {!page ? null : page.data.length === 0 ? (
            <p className="py-8 text-center text-sm text-muted-foreground">{t("adminReports.empty")}</p>
          ) : (
            <MessagesTable rows={page.data} lng={lng} account typeLabel={(type) => t(`reports.types.${type}`, { defaultValue: type })} detailHref={(id) => hrefWith({ id })} />
          )}
          {page ? <CursorPager cursor={cursor} next={page.next_cursor} href={(c) => hrefWith(c ? { cursor: c } : {})} /> : null}
        </CardContent>
      </Card>
    </div>
  );
}
