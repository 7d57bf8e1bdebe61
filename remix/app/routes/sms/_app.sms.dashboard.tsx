/**
 * /sms/dashboard: the last 7 or 30 days (links, no JavaScript) — messages per day as an SVG chart
 * drawn on the server, the period's totals, the days in a table and the carriers.
 */
import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { CHART_DAYS } from "~api/sms/report-constants";
import { smsCarriers, smsCharts } from "~api/sms/reports";
import { BarChart } from "~/components/sms-reports/bar-chart";
import { CarriersTable } from "~/components/sms-reports/carriers-table";
import { DayTable } from "~/components/sms-reports/day-table";
import { Figures } from "~/components/sms-reports/figures";
import { formatCount } from "~/components/sms-reports/format";
import { PageHeader } from "~/components/shell/page-header";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { orHttpError, requireRoute } from "~/lib/auth.server";
import { formatMoney } from "~/lib/format";
import type { RootData } from "~/root";

export const handle = { crumb: "smsReports:crumbs.dashboard" };

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  const raw = new URL(request.url).searchParams.get("days");
  const days = raw === "30" ? "30" : "7";
  const [charts, carriers] = await Promise.all([orHttpError(smsCharts(ctx, { days })), orHttpError(smsCarriers(ctx, { days }))]);
  return json({ charts, carriers: carriers.data }, { headers: { "Cache-Control": "private, no-store" } });
}

export default function SmsDashboard() {
  const { charts, carriers } = useLoaderData<typeof loader>();
  const lng = useRouteLoaderData<RootData>("root")?.lng ?? "pt-BR";
  const { t } = useTranslation("smsReports");
  const s = charts.totals.statuses;
  const delivered = (s.delivered ?? 0) + (s.read ?? 0);
  const finals = delivered + (s.failed ?? 0) + (s.unavailable ?? 0);
  return (
    <div className="space-y-6">
      <PageHeader
        description={t("dashboard.description")}
        actions={
          <nav aria-label={t("dashboard.period")} className="flex gap-2">
            {CHART_DAYS.map((d) => (
              <Button key={d} asChild variant={charts.days === d ? "default" : "outline"}>
                <Link to={`/sms/dashboard?days=${d}`} aria-current={charts.days === d ? "page" : undefined}>
                  {t("dashboard.days", { count: d })}
                </Link>
              </Button>
            ))}
          </nav>
        }
      />
      <Figures
        items={[
          { key: "messages", label: t("insights.messages"), value: formatCount(charts.totals.total, lng) },
          { key: "delivered", label: t("insights.delivered"), value: formatCount(delivered, lng) },
          { key: "rate", label: t("insights.deliveryRate"), value: finals ? `${((delivered / finals) * 100).toFixed(1)}%` : "—" },
          { key: "cost", label: t("insights.cost"), value: formatMoney(charts.totals.cost, charts.currency, lng) },
        ]}
      />
      <Card>
        <CardHeader>
          <CardTitle>{t("dashboard.chartTitle", { count: charts.days })}</CardTitle>
        </CardHeader>
        <CardContent className="space-y-6">
          <BarChart data={charts.data} lng={lng} label={t("dashboard.chartTitle", { count: charts.days })} />
          <DayTable rows={charts.data} totals={charts.totals} lng={lng} currency={charts.currency} />
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>{t("carriers.title")}</CardTitle>
        </CardHeader>
        <CardContent>
          <CarriersTable rows={carriers} lng={lng} />
        </CardContent>
      </Card>
    </div>
  );
}
