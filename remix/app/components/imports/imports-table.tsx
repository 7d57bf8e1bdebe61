import { Link } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import type { ImportView } from "~api/imports/services";
import { ImportStatusBadge } from "./status-badge";
import { formatCount } from "./numbers";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { formatDate } from "~/lib/format";
import type { Lng } from "~/lib/i18n";

export type ImportRow = Pick<ImportView, "id" | "status" | "files" | "totalRows" | "errorCount" | "createdAt">;

/** The account's recent imports: when, which files, where each one stands. */
export function ImportsTable({ rows, lng }: { rows: ImportRow[]; lng: Lng }) {
  const { t } = useTranslation("imports");
  return (
    <Table>
      <TableHeader>
        <TableRow>
          <TableHead>{t("recent.date")}</TableHead>
          <TableHead>{t("recent.files")}</TableHead>
          <TableHead>{t("recent.status")}</TableHead>
          <TableHead className="text-right">{t("recent.rows")}</TableHead>
          <TableHead className="text-right">{t("recent.errors")}</TableHead>
          <TableHead className="text-right">
            <span className="sr-only">{t("recent.open")}</span>
          </TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {rows.map((r) => {
          const date = formatDate(r.createdAt, lng, true);
          return (
            <TableRow key={r.id} data-import-id={r.id}>
              <TableCell>
                <time dateTime={r.createdAt}>{date}</time>
              </TableCell>
              <TableCell className="max-w-xs truncate" title={r.files.map((f) => f.name).join(", ")}>
                {r.files.map((f) => f.name).join(", ")}
              </TableCell>
              <TableCell>
                <ImportStatusBadge status={r.status} />
              </TableCell>
              <TableCell className="text-right tabular-nums">{r.status === "uploaded" ? "—" : formatCount(r.totalRows, lng)}</TableCell>
              <TableCell className="text-right tabular-nums">{r.status === "uploaded" ? "—" : formatCount(r.errorCount, lng)}</TableCell>
              <TableCell className="text-right">
                <Link to={`/contacts/import/${r.id}`} className="text-primary hover:underline" aria-label={t("recent.openLabel", { date })}>
                  {t("recent.open")}
                </Link>
              </TableCell>
            </TableRow>
          );
        })}
      </TableBody>
    </Table>
  );
}
