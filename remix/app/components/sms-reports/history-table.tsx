import { Link } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { SmsStatusBadge } from "./status-badge";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { formatDate } from "~/lib/format";
import type { Lng } from "~/lib/i18n";

export type HistoryRow = { id: string; created_at: string; direction: string; sender: string; recipient: string; body: string; segments: number; status: string; type?: string };

/** One line per SMS: date, type, sender, recipient, message, parts, status; the date opens the detail. */
export function HistoryTable({ rows, lng, detailBase }: { rows: HistoryRow[]; lng: Lng; detailBase: string }) {
  const { t } = useTranslation("smsReports");
  return (
    <Table>
      <TableHeader>
        <TableRow>
          <TableHead>{t("history.columns.date")}</TableHead>
          <TableHead>{t("history.columns.type")}</TableHead>
          <TableHead>{t("history.columns.sender")}</TableHead>
          <TableHead>{t("history.columns.recipient")}</TableHead>
          <TableHead>{t("history.columns.message")}</TableHead>
          <TableHead className="text-right">{t("history.columns.parts")}</TableHead>
          <TableHead>{t("history.columns.status")}</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {rows.map((m) => (
          <TableRow key={m.id} data-message-id={m.id}>
            <TableCell className="whitespace-nowrap">
              <Link to={`${detailBase}/${m.id}`} className="text-primary hover:underline" aria-label={t("history.open", { date: formatDate(m.created_at, lng, true) })}>
                <time dateTime={m.created_at}>{formatDate(m.created_at, lng, true)}</time>
              </Link>
            </TableCell>
            <TableCell>
              {t(`type.${m.type === "location" ? "location" : "text"}`)} · {t(`direction.${m.direction}`)}
            </TableCell>
            <TableCell>{m.sender}</TableCell>
            <TableCell className="whitespace-nowrap">{m.recipient}</TableCell>
            <TableCell className="max-w-xs truncate" title={m.body}>
              {m.body}
            </TableCell>
            <TableCell className="text-right tabular-nums">{m.segments}</TableCell>
            <TableCell>
              <SmsStatusBadge status={m.status} />
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
