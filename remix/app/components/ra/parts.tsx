/** Pieces of the /ra screens (issue 23, ADR 067): a complaint's status, the complaints table, an answer time. */
import { Link } from "@remix-run/react";
import type { ComplaintView } from "~api/ra/services";
import { Badge } from "~/components/ui/badge";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { formatDate } from "~/lib/format";
import type { Lng } from "~/lib/i18n";
import { useTranslation } from "~/lib/react-i18n";

const VARIANT = { unanswered: "destructive", answered: "success", replied: "warning", evaluated: "secondary" } as const;

export function RaStatusBadge({ status }: { status: ComplaintView["status"] }) {
  const { t } = useTranslation("ra");
  return (
    <Badge variant={VARIANT[status]} data-status={status}>
      {t(`status.${status}`)}
    </Badge>
  );
}

/** Seconds as "2 d 3 h", "5 h 10 min" or "12 min". */
export function duration(seconds: number | null, t: (k: string, o?: Record<string, unknown>) => string): string {
  if (seconds === null) return "—";
  const m = Math.round(seconds / 60);
  const d = Math.floor(m / 1440);
  const h = Math.floor((m % 1440) / 60);
  if (d > 0) return t("duration.days", { d, h });
  if (h > 0) return t("duration.hours", { h, m: m % 60 });
  return t("duration.minutes", { m });
}

export function ComplaintsTable({ complaints, lng }: { complaints: ComplaintView[]; lng: Lng }) {
  const { t } = useTranslation("ra");
  if (complaints.length === 0) return <p className="text-sm text-muted-foreground">{t("list.empty")}</p>;
  return (
    <Table region={t("list.caption")}>
      <TableHeader>
        <TableRow>
          <TableHead>{t("list.title")}</TableHead>
          <TableHead>{t("list.consumer")}</TableHead>
          <TableHead>{t("list.status")}</TableHead>
          <TableHead>{t("list.created")}</TableHead>
          <TableHead>{t("list.score")}</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {complaints.map((c) => (
          <TableRow key={c.id} data-complaint={c.ra_id}>
            <TableCell>
              <Link to={`/ra/view-ticket/${c.id}`} className="font-medium underline-offset-4 hover:underline">
                {c.title}
              </Link>
              <span className="block text-xs text-muted-foreground">#{c.ra_id}</span>
            </TableCell>
            <TableCell>{c.consumer_name ?? "—"}</TableCell>
            <TableCell>
              <RaStatusBadge status={c.status} />
            </TableCell>
            <TableCell>{formatDate(c.created_at, lng, true)}</TableCell>
            <TableCell>{c.score ?? "—"}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
