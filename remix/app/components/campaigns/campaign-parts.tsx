/** Pieces of the campaign screens: status badge, progress bar (plain HTML, no JavaScript) and per-status counts. */
import { useTranslation } from "~/lib/react-i18n";
import { Badge } from "~/components/ui/badge";

const VARIANT: Record<string, "default" | "secondary" | "destructive" | "outline" | "success" | "warning"> = {
  scheduled: "outline",
  preparing: "outline",
  running: "default",
  paused: "warning",
  canceled: "destructive",
  completed: "success",
  failed: "destructive",
};

export function CampaignStatusBadge({ status }: { status: string }) {
  const { t } = useTranslation("smsOps");
  return (
    <Badge variant={VARIANT[status] ?? "secondary"} data-status={status}>
      {t(`campaigns.status.${status}`)}
    </Badge>
  );
}

/** A progress bar with its sentence as text (screen readers and no-JS alike). */
export function ProgressBar({ percent, label }: { percent: number; label: string }) {
  const { t } = useTranslation("smsOps");
  const p = Math.min(100, Math.max(0, Math.round(percent)));
  return (
    <div className="space-y-1">
      <div
        role="progressbar"
        aria-label={t("campaigns.progressLabel")}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={p}
        className="h-2 w-full overflow-hidden rounded-full bg-muted"
      >
        <div className="h-full rounded-full bg-primary transition-[width]" style={{ width: `${p}%` }} />
      </div>
      <p className="text-xs text-muted-foreground" data-testid="campaign-progress">
        {label}
      </p>
    </div>
  );
}

/** Message statuses in pipeline order, so counts read the same way everywhere. */
export const STATUS_ORDER = ["scheduled", "pending", "queued", "sending", "sent", "delivered", "read", "unavailable", "failed", "rejected", "optout"];

export function StatusCounts({ counts, compact = false }: { counts: Record<string, number>; compact?: boolean }) {
  const { t, i18n } = useTranslation("smsOps");
  const rank = (s: string) => (STATUS_ORDER.includes(s) ? STATUS_ORDER.indexOf(s) : STATUS_ORDER.length);
  const entries = Object.entries(counts).sort(([a], [b]) => rank(a) - rank(b));
  const fmt = (n: number) => new Intl.NumberFormat(i18n.language).format(n);
  if (entries.length === 0) return <p className="text-sm text-muted-foreground">{t("campaigns.noMessages")}</p>;
  if (compact) {
    return (
      <p className="text-xs text-muted-foreground">
        {entries.map(([s, n], i) => (
          <span key={s} data-count={s}>
            {i > 0 ? " · " : ""}
            {t(`messageStatus.${s}`)} {fmt(n)}
          </span>
        ))}
      </p>
    );
  }
  return (
    <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4" data-testid="campaign-counts">
      {entries.map(([s, n]) => (
        <div key={s} className="rounded-md border p-3" data-count={s}>
          <dt className="text-xs text-muted-foreground">{t(`messageStatus.${s}`)}</dt>
          <dd className="text-lg font-semibold tabular-nums">{fmt(n)}</dd>
        </div>
      ))}
    </dl>
  );
}
