/**
 * Messages per day as stacked bars, drawn on the server as SVG (no JavaScript): delivered,
 * in flight (sent or waiting), unavailable, failed, refused. Each bar has a <title> with its
 * figures, and the same figures are in the table that follows the chart.
 */
import { useTranslation } from "~/lib/react-i18n";
import { DayBars } from "~/components/charts/day-bars";
import type { Lng } from "~/lib/i18n";

export type ChartDayData = { day: string; total: number; statuses: Partial<Record<string, number>> };

export const CHART_GROUPS = [
  { key: "delivered", statuses: ["delivered", "read", "received"], className: "fill-success" },
  { key: "inFlight", statuses: ["sent", "sending", "queued", "pending", "scheduled"], className: "fill-muted-foreground/40" },
  { key: "unavailable", statuses: ["unavailable"], className: "fill-warning" },
  { key: "failed", statuses: ["failed"], className: "fill-destructive" },
  { key: "refused", statuses: ["rejected", "optout"], className: "fill-foreground/60" },
] as const;

export const groupCount = (d: Pick<ChartDayData, "statuses">, statuses: readonly string[]) => statuses.reduce((s, k) => s + (d.statuses[k] ?? 0), 0);

export function BarChart({ data, lng, label }: { data: ChartDayData[]; lng: Lng; label: string }) {
  const { t } = useTranslation("smsReports");
  const days = data.map((d) => ({ day: d.day, total: d.total, ...Object.fromEntries(CHART_GROUPS.map((g) => [g.key, groupCount(d, g.statuses)])) }));
  const series = CHART_GROUPS.map((g) => ({ key: g.key, label: t(`charts.groups.${g.key}`), className: g.className }));
  return <DayBars data={days} series={series} lng={lng} label={label} barTitle={(count) => t("charts.barTitle", { count })} totalOf={(d) => Number(d.total)} />;
}
