/**
 * /admin/analytics (issue 23; platform staff): active and new accounts, messages per channel (SMS,
 * WhatsApp, e-mail, RCS, live chat) and revenue (the ledger's revenue book, per currency) of a
 * period of São Paulo days (default the last 30, at most 31) against the period of the same length
 * just before it, with the growth. api/admin-sms/analytics.ts adminAnalytics. A plain GET form.
 */
import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { adminAnalytics, type Compared } from "~api/admin-sms/analytics";
import { PeriodForm } from "~/components/admin-reports/parts";
import { PageHeader } from "~/components/shell/page-header";
import { formatCount, formatDay, formatPercent } from "~/components/sms-reports/format";
import { Card, CardContent } from "~/components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { NO_STORE, periodReport } from "~/lib/admin-reports.server";
import { formatMoney } from "~/lib/format";
import type { Lng } from "~/lib/i18n";
import { useTranslation } from "~/lib/react-i18n";
import type { RootData } from "~/root";

export const handle = { crumb: "adminReports:crumbs.analytics" };
const PATH = "/admin/analytics";

export async function loader({ request }: LoaderFunctionArgs) {
  return json(await periodReport(request, [], adminAnalytics), { headers: NO_STORE });
}

export default function AdminAnalyticsScreen() {
  const { report: r, values, errors } = useLoaderData<typeof loader>();
  const lng = (useRouteLoaderData<RootData>("root")?.lng ?? "pt-BR") as Lng;
  const { t } = useTranslation("adminReports");
  const n = (v: number) => formatCount(v, lng);
  const rows: Array<{ key: string; label: string; c: Compared; fmt: (v: number) => string }> = r
    ? [
        { key: "active_accounts", label: t("analytics.activeAccounts"), c: r.active_accounts, fmt: n },
        { key: "new_accounts", label: t("analytics.newAccounts"), c: r.new_accounts, fmt: n },
        { key: "messages", label: t("analytics.messages"), c: r.messages, fmt: n },
        ...r.channels.map((x) => ({ key: `channel-${x.channel}`, label: `${t("analytics.channels")}: ${t(`analytics.channel.${x.channel}`)}`, c: x, fmt: n })),
        ...r.revenue.map((x) => ({
          key: `revenue-${x.currency}`,
          label: t("analytics.revenue", { currency: x.currency }),
          c: x,
          fmt: (v: number) => formatMoney(v, x.currency, lng),
        })),
      ]
    : [];
  return (
    <div className="space-y-6">
      <PageHeader description={t("description.analytics")} />
      <PeriodForm action={PATH} values={{ from: r?.from ?? values.from, to: r?.to ?? values.to, account_id: "" }} errors={errors} account={null} />
      {r ? (
        <Card>
          <CardContent className="space-y-3 pt-6">
            <p className="text-sm text-muted-foreground">
              {t("analytics.periods", {
                from: formatDay(r.from, lng, true),
                to: formatDay(r.to, lng, true),
                prevFrom: formatDay(r.previous.from, lng, true),
                prevTo: formatDay(r.previous.to, lng, true),
              })}
            </p>
            <Table region={t("crumbs.analytics")}>
              <TableHeader>
                <TableRow>
                  <TableHead>{t("analytics.figure")}</TableHead>
                  <TableHead className="text-right">{t("analytics.period")}</TableHead>
                  <TableHead className="text-right">{t("analytics.previous")}</TableHead>
                  <TableHead className="text-right">{t("analytics.growth")}</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {rows.map((x) => (
                  <TableRow key={x.key} data-figure={x.key}>
                    <TableCell>{x.label}</TableCell>
                    <TableCell className="text-right tabular-nums" data-col="value">
                      {x.fmt(x.c.value)}
                    </TableCell>
                    <TableCell className="text-right tabular-nums" data-col="previous">
                      {x.fmt(x.c.previous)}
                    </TableCell>
                    <TableCell className="text-right tabular-nums" data-col="growth">
                      {x.c.growth === null ? t("analytics.noGrowth") : formatPercent(x.c.growth, lng)}
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </CardContent>
        </Card>
      ) : null}
    </div>
  );
}
