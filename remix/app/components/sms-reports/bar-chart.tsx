/**
 * Messages per day as stacked bars, drawn on the server as SVG (no JavaScript): delivered,
 * in flight (sent or waiting), unavailable, failed, refused. Each bar has a <title> with its
 * figures, and the same figures are in the table that follows the chart.
 */
import { useTranslation } from "react-i18next";
import { formatDay } from "./format";
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
  const W = 720;
  const H = 220;
  const pad = { top: 10, right: 8, bottom: 28, left: 40 };
  const max = Math.max(1, ...data.map((d) => d.total));
  const innerW = W - pad.left - pad.right;
  const innerH = H - pad.top - pad.bottom;
  const slot = innerW / Math.max(1, data.length);
  const bar = Math.max(2, slot * 0.7);
  const y = (v: number) => pad.top + innerH - (v / max) * innerH;
  const every = data.length > 14 ? 5 : 1;
  return (
    <figure className="space-y-2">
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={label} className="h-auto w-full" data-chart-days={data.length}>
        <line x1={pad.left} x2={W - pad.right} y1={y(0)} y2={y(0)} className="stroke-border" />
        <line x1={pad.left} x2={W - pad.right} y1={y(max)} y2={y(max)} className="stroke-border" strokeDasharray="4 4" />
        <text x={pad.left - 6} y={y(max) + 4} textAnchor="end" className="fill-muted-foreground text-[11px]">{max}</text>
        <text x={pad.left - 6} y={y(0) + 4} textAnchor="end" className="fill-muted-foreground text-[11px]">0</text>
        {data.map((d, i) => {
          const x = pad.left + i * slot + (slot - bar) / 2;
          let acc = 0;
          return (
            <g key={d.day} data-bar-day={d.day} data-total={d.total}>
              <title>{`${formatDay(d.day, lng)}: ${t("charts.barTitle", { count: d.total })}`}</title>
              {CHART_GROUPS.map((g) => {
                const n = groupCount(d, g.statuses);
                if (!n) return null;
                const top = y(acc + n);
                const height = y(acc) - top;
                acc += n;
                return <rect key={g.key} x={x} y={top} width={bar} height={Math.max(0.5, height)} className={g.className} />;
              })}
              {i % every === 0 || i === data.length - 1 ? (
                <text x={x + bar / 2} y={H - 10} textAnchor="middle" className="fill-muted-foreground text-[11px]">{formatDay(d.day, lng)}</text>
              ) : null}
            </g>
          );
        })}
      </svg>
      <figcaption className="flex flex-wrap gap-4 text-xs text-muted-foreground">
        {CHART_GROUPS.map((g) => (
          <span key={g.key} className="inline-flex items-center gap-1.5">
            <svg viewBox="0 0 10 10" className="size-2.5" aria-hidden="true"><rect width="10" height="10" className={g.className} /></svg>
            {t(`charts.groups.${g.key}`)}
          </span>
        ))}
      </figcaption>
    </figure>
  );
}
