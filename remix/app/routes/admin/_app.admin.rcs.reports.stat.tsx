/**
 * /admin/rcs/reports/stat (platform staff): the synthetic report (api/rcs/admin-reports.ts
 * adminRcsSintetic) of a period (a GET form: default the last 7 São Paulo days, at most 31), every
 * account's or one's: one row per customer account and day with its RCS messages, basic and rich,
 * SMS sent instead and revenue; the period's totals; keyset pages (plain links).
 */
import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { adminRcsSintetic, assertRcsStaff } from "~api/rcs/admin-reports";
import { formatCount, formatDay } from "~/components/sms-reports/format";
import { RangeForm } from "~/components/sms-reports/range-form";
import { PageHeader } from "~/components/shell/page-header";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { CursorPager } from "~/components/whatsapp/cursor-pager";
import { AccountField, AccountMatches, formatAmounts, hrefOf } from "~/components/whatsapp/admin-reports";
import { formatMoney } from "~/lib/format";
import type { Lng } from "~/lib/i18n";
import { staffPeriodReport } from "~/lib/whatsapp-admin.server";
import type { RootData } from "~/root";

export const handle = { crumb: "rcs:adminReports.statTitle" };

const PATH = "/admin/rcs/reports/stat";

export async function loader({ request }: LoaderFunctionArgs) {
  const cursor = new URL(request.url).searchParams.get("cursor")?.trim() ?? "";
  const { report, values, filter, errors } = await staffPeriodReport(
    request,
    (c) => assertRcsStaff(c, "stat"),
    (ctx, input) => adminRcsSintetic(ctx, { ...input, cursor: cursor || undefined }),
  );
  return json({ report, values, filter, errors, cursor }, { headers: { "Cache-Control": "private, no-store" } });
}

export default function AdminRcsStatScreen() {
  const { report: r, values, filter, errors, cursor } = useLoaderData<typeof loader>();
  const lng = (useRouteLoaderData<RootData>("root")?.lng ?? "pt-BR") as Lng;
  const { t } = useTranslation(["rcs", "smsReports"]);
  const n = (v: number) => formatCount(v, lng);
  const period = { from: values.from || r?.from || "", to: values.to || r?.to || "" };
  const account = filter.account ? { account: filter.account.name, account_id: filter.account.id } : {};
  const statuses = (s: Record<string, number>) =>
    Object.entries(s)
      .sort(([, a], [, b]) => b - a)
      .map(([k, v]) => `${t(`smsReports:status.${k}`)} ${n(v)}`)
      .join(" · ");
  return (
    <div className="space-y-6">
      <PageHeader description={t("adminReports.statDescription")} />
      <Card>
        <CardHeader>
          <RangeForm action={PATH} values={period} errors={errors}>
            <AccountField filter={filter} />
          </RangeForm>
        </CardHeader>
      </Card>
      <AccountMatches matches={filter.matches} href={(a) => hrefOf(PATH, { ...period, account: a.name, account_id: a.id })} />
      {r ? (
        <>
          <Card data-report="totals">
            <CardHeader>
              <CardTitle>{t("adminReports.totals")}</CardTitle>
            </CardHeader>
            <CardContent>
              <dl className="grid gap-3 sm:grid-cols-3">
                {[
                  ["messages", t("reports.messages"), n(r.totals.messages)],
                  ["basic", t("reports.basic"), n(r.totals.basic)],
                  ["rich", t("reports.rich"), n(r.totals.rich)],
                  ["fallbackSms", t("reports.fallbackSms"), n(r.totals.fallback_sms)],
                  ["revenue", t("adminReports.revenue"), formatAmounts(r.totals.revenue, lng)],
                  ["statuses", t("adminReports.statuses"), statuses(r.totals.statuses) || "—"],
                ].map(([k, label, value]) => (
                  <div key={k} data-figure={k}>
                    <dt className="text-sm text-muted-foreground">{label}</dt>
                    <dd className="font-semibold tabular-nums">{value}</dd>
                  </div>
                ))}
              </dl>
            </CardContent>
          </Card>
          <Card data-report="sintetic">
            <CardContent className="space-y-4 pt-6">
              {r.data.length === 0 ? (
                <p className="py-8 text-center text-sm text-muted-foreground">{t("reports.noMessages")}</p>
              ) : (
                <Table>
                  <TableHeader>
                    <TableRow>
                      <TableHead>{t("reports.day")}</TableHead>
                      <TableHead>{t("adminReports.account")}</TableHead>
                      <TableHead className="text-right">{t("reports.messages")}</TableHead>
                      <TableHead>{t("adminReports.statuses")}</TableHead>
                      <TableHead className="text-right">{t("reports.basic")}</TableHead>
                      <TableHead className="text-right">{t("reports.rich")}</TableHead>
                      <TableHead className="text-right">{t("reports.fallbackSms")}</TableHead>
                      <TableHead className="text-right">{t("adminReports.revenue")}</TableHead>
                    </TableRow>
                  </TableHeader>
                  <TableBody>
                    {r.data.map((row) => (
                      <TableRow key={`${row.day}-${row.account.id}`} data-account={row.account.id} data-day={row.day}>
                        <TableCell className="whitespace-nowrap">{formatDay(row.day, lng, true)}</TableCell>
                        <TableCell>
                          <Link to={hrefOf(PATH, { ...period, account: row.account.name, account_id: row.account.id })} className="text-primary hover:underline">
                            {row.account.name}
                          </Link>
                        </TableCell>
                        <TableCell className="text-right tabular-nums" data-col="messages">
                          {n(row.messages)}
                        </TableCell>
                        <TableCell className="text-xs" data-col="statuses">
                          {statuses(row.statuses)}
                        </TableCell>
                        <TableCell className="text-right tabular-nums" data-col="basic">
                          {n(row.basic)}
                        </TableCell>
                        <TableCell className="text-right tabular-nums" data-col="rich">
                          {n(row.rich)}
                        </TableCell>
                        <TableCell className="text-right tabular-nums" data-col="fallback">
                          {n(row.fallback_sms)}
                        </TableCell>
                        <TableCell className="text-right tabular-nums" data-col="revenue">
                          {formatMoney(row.revenue, row.currency, lng)}
                        </TableCell>
                      </TableRow>
                    ))}
                  </TableBody>
                </Table>
              )}
              <CursorPager cursor={cursor} next={r.next_cursor} href={(c) => hrefOf(PATH, { ...period, ...account, ...(c ? { cursor: c } : {}) })} />
            </CardContent>
          </Card>
        </>
      ) : null}
    </div>
  );
}
