/**
 * /mail/dashboard: the account's e-mails of the last 7 or 30 São Paulo days (links, no
 * JavaScript; GET /api/email/messages/charts's figures): cards of the period's totals (sent,
 * delivered, opened, bounced or blocked, cost), the e-mails per day as an SVG chart drawn on the
 * server by status group, and the days in a table.
 */
import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { emailCharts } from "~api/email/figures";
import { CHART_DAYS } from "~api/sms/report-constants";
import { countOf as count, EmailDayChart, EmailGroupCells, EmailGroupHeads } from "~/components/email/day-figures";
import { PageHeader } from "~/components/shell/page-header";
import { Figures } from "~/components/sms-reports/figures";
import { formatCount, formatDay } from "~/components/sms-reports/format";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { orHttpError, requireRoute } from "~/lib/auth.server";
import { formatMoney } from "~/lib/format";
import type { Lng } from "~/lib/i18n";
import type { RootData } from "~/root";

export const handle = { crumb: "emailReports:crumbs.dashboard" };

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  const days = new URL(request.url).searchParams.get("days") === "30" ? "30" : "7";
  return json({ charts: await orHttpError(emailCharts(ctx, { days })) }, { headers: { "Cache-Control": "private, no-store" } });
}

export default function MailDashboard() {
  const { charts } = useLoaderData<typeof loader>();
  const lng = (useRouteLoaderData<RootData>("root")?.lng ?? "pt-BR") as Lng;
  const { t } = useTranslation("emailReports");
  const s = charts.totals.statuses;
  const title = t("dashboard.chartTitle", { count: charts.days });
  return (
    <div className="space-y-6">
      <PageHeader
        description={t("dashboard.description")}
        actions={
          <nav aria-label={t("dashboard.period")} className="flex gap-2">
            {CHART_DAYS.map((d) => (
              <Button key={d} asChild variant={charts.days === d ? "default" : "outline"}>
                <Link to={`/mail/dashboard?days=${d}`} aria-current={charts.days === d ? "page" : undefined}>
                  {t("dashboard.days", { count: d })}
                </Link>
              </Button>
            ))}
          </nav>
        }
      />
      <Figures
        items={[
          { key: "messages", label: t("dashboard.messages"), value: formatCount(charts.totals.total, lng) },
          { key: "delivered", label: t("dashboard.delivered"), value: formatCount(count(s, ["delivered", "opened", "clicked"]), lng) },
          { key: "opened", label: t("dashboard.opened"), value: formatCount(count(s, ["opened", "clicked"]), lng) },
          { key: "bounced", label: t("dashboard.bounced"), value: formatCount(count(s, ["bounced", "blocked"]), lng) },
          { key: "cost", label: t("dashboard.cost"), value: formatMoney(charts.totals.cost, charts.currency, lng) },
        ]}
      />
      <Card>
        <CardHeader>
          <CardTitle>{title}</CardTitle>
        </CardHeader>
        <CardContent className="space-y-6">
          <EmailDayChart data={charts.data} lng={lng} label={title} />
          <Table>
            <TableHeader>
              <TableRow>
                <TableHead>{t("dashboard.day")}</TableHead>
                <TableHead className="text-right">{t("dashboard.messages")}</TableHead>
                <EmailGroupHeads />
                <TableHead className="text-right">{t("dashboard.cost")}</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {charts.data.map((d) => (
                <TableRow key={d.day} data-day={d.day}>
                  <TableCell>{formatDay(d.day, lng, true)}</TableCell>
                  <TableCell className="text-right tabular-nums" data-col="total">
                    {formatCount(d.total, lng)}
                  </TableCell>
                  <EmailGroupCells statuses={d.statuses} lng={lng} />
                  <TableCell className="text-right tabular-nums" data-col="cost">
                    {formatMoney(d.cost, charts.currency, lng)}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </CardContent>
      </Card>
    </div>
  );
}
