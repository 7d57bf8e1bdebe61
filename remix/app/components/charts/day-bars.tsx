/**
 * Per-day stacked bars drawn on the server as SVG (no JavaScript): each series a band, a <title>
 * per bar, a legend; the same figures are in the table beside it. The SMS dashboard (statuses) and
 * the live reports and usage (conversations, messages) draw with it.
 */
import { formatCount, formatDay } from "~/components/sms-reports/format";
import type { Lng } from "~/lib/i18n";

export type Series = { key: string; label: string; className: string };

export function DayBars({
  data,
  series,
  lng,
  label,
  barTitle,
  totalOf,
}: {
  data: Array<{ day: string } & Record<string, number | string>>;
  series: readonly Series[];
  lng: Lng;
  label: string;
  barTitle: (total: number) => string;
  /** A day's total (default: the sum of its series). */
  totalOf?: (d: { day: string } & Record<string, number | string>) => number;
}) {
  const W = 720;
  const H = 220;
  const pad = { top: 10, right: 8, bottom: 28, left: 40 };
  const total = totalOf ?? ((d: Record<string, number | string>) => series.reduce((s, x) => s + Number(d[x.key] ?? 0), 0));
  const max = Math.max(1, ...data.map(total));
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
        <text x={pad.left - 6} y={y(max) + 4} textAnchor="end" className="fill-muted-foreground text-[11px]">
          {max}
        </text>
        <text x={pad.left - 6} y={y(0) + 4} textAnchor="end" className="fill-muted-foreground text-[11px]">
          0
        </text>
        {data.map((d, i) => {
          const x = pad.left + i * slot + (slot - bar) / 2;
          let acc = 0;
          return (
            <g key={d.day} data-bar-day={d.day} data-total={total(d)}>
              <title>{`${formatDay(d.day, lng)}: ${barTitle(total(d))}`}</title>
              {series.map((s) => {
                const n = Number(d[s.key] ?? 0);
                if (!n) return null;
                const top = y(acc + n);
                const height = y(acc) - top;
                acc += n;
                return <rect key={s.key} x={x} y={top} width={bar} height={Math.max(0.5, height)} className={s.className} />;
              })}
              {i % every === 0 || i === data.length - 1 ? (
                <text x={x + bar / 2} y={H - 10} textAnchor="middle" className="fill-muted-foreground text-[11px]">
                  {formatDay(d.day, lng)}
                </text>
              ) : null}
            </g>
          );
        })}
      </svg>
      <figcaption className="flex flex-wrap gap-4 text-xs text-muted-foreground">
        {series.map((s) => (
          <span key={s.key} className="inline-flex items-center gap-1.5">
            <svg viewBox="0 0 10 10" className="size-2.5" aria-hidden="true">
              <rect width="10" height="10" className={s.className} />
            </svg>
            {s.label}
          </span>
        ))}
      </figcaption>
    </figure>
  );
}

/** A horizontal share bar per row (tabulations, channels): label, count, bar. */
export function ShareList({ rows, lng, empty }: { rows: Array<{ key: string; label: string; value: number }>; lng: Lng; empty: string }) {
  const max = Math.max(1, ...rows.map((r) => r.value));
  if (rows.length === 0) return <p className="py-4 text-sm text-muted-foreground">{empty}</p>;
  return (
    <ul className="space-y-3">
      {rows.map((r) => (
        <li key={r.key} data-share={r.key} className="space-y-1">
          <div className="flex justify-between gap-4 text-sm">
            <span>{r.label}</span>
            <span className="tabular-nums" data-count>
              {formatCount(r.value, lng)}
            </span>
          </div>
          <div className="h-2 rounded bg-muted" aria-hidden="true">
            <div className="h-2 rounded bg-primary" style={{ width: `${(r.value / max) * 100}%` }} />
          </div>
        </li>
      ))}
    </ul>
  );
}
