/**
 * /whatsapp/insights: the last 7 or 30 São Paulo days (?days=, links that work without JavaScript):
 * sent, delivered, read, failed with their rates, cost, messages received, and the messages per day
 * (the SMS charts: server-drawn SVG and the table beside it).
 */
import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { CHART_DAYS } from "~api/sms/report-constants";
import { whatsappInsights } from "~api/whatsapp/reports";
import { BarChart } from "~/components/sms-reports/bar-chart";
import { DayTable } from "~/components/sms-reports/day-table";
import { WhatsappInsightFigures } from "~/components/whatsapp/insight-figures";
import { PageHeader } from "~/components/shell/page-header";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader } from "~/components/ui/card";
import { orHttpError, requireRoute } from "~/lib/auth.server";
import { formatMoney } from "~/lib/format";
import type { RootData } from "~/root";

export const handle = { crumb: "whatsapp:crumbs.insights" };

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  const days = new URL(request.url).searchParams.get("days") ?? undefined;
  const insights = await orHttpError(whatsappInsights(ctx, { days: days === "30" ? "30" : "7" }));
  return json({ insights }, { headers: { "Cache-Control": "private, no-store" } });
}

export default function WhatsappInsights() {
  const { insights: i } = useLoaderData<typeof loader>();
  const lng = useRouteLoaderData<RootData>("root")?.lng ?? "pt-BR";
  const { t } = useTranslation("whatsapp");
  const totals = i.data.reduce(
    (acc, d) => {
      acc.total += d.total;
      acc.segments += d.segments;
      acc.cost += d.cost;
      for (const [k, v] of Object.entries(d.statuses)) acc.statuses[k] = (acc.statuses[k] ?? 0) + (v ?? 0);
      return acc;
    },
    { total: 0, segments: 0, cost: 0, statuses: {} as Record<string, number> },
  );
  return (
    <div className="space-y-6">
      <PageHeader description={t("reports.insightsDescription")} />
      <nav aria-label={t("reports.days")} className="flex gap-2">
        {CHART_DAYS.map((d) => (
          <Button key={d} asChild variant={i.days === d ? "default" : "outline"} size="sm">
            <Link to={`/whatsapp/insights?days=${d}`} aria-current={i.days === d ? "page" : undefined}>
              {t(`reports.days${d}`)}
            </Link>
          </Button>
        ))}
      </nav>
      <WhatsappInsightFigures i={i} cost={formatMoney(i.cost, i.currency, lng)} lng={lng} />
      <Card>
        <CardHeader />
        <CardContent className="space-y-6">
          <BarChart data={i.data} lng={lng} label={t("reports.chart")} />
          <DayTable rows={i.data} totals={totals} lng={lng} currency={i.currency} segments={false} />
        </CardContent>
      </Card>
    </div>
  );
}
