import { useTranslation } from "~/lib/react-i18n";
import type { StoredResult } from "~api/lookup/services";
import { Badge } from "~/components/ui/badge";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { formatDate, formatMoney } from "~/lib/format";
import type { Lng } from "~/lib/i18n";

/** Valid or not, and why a list's line was not looked up. */
export function ValidityBadge({ r }: { r: Pick<StoredResult, "status" | "valid"> }) {
  const { t } = useTranslation("lookup");
  if (r.status === "bad_line") return <Badge variant="outline">{t("lookup:status.bad_line")}</Badge>;
  return r.valid ? <Badge variant="secondary">{t("lookup:status.valid")}</Badge> : <Badge variant="destructive">{t("lookup:status.invalid")}</Badge>;
}

/** Lookup results: number, validity, type, country, carrier, portability, price, when. */
export function ResultsTable({ rows, lng, withLine = false, region }: { rows: StoredResult[]; lng: Lng; withLine?: boolean; region: string }) {
  const { t } = useTranslation("lookup");
  return (
    <Table region={region}>
      <TableHeader>
        <TableRow>
          {withLine ? <TableHead className="text-right">{t("lookup:columns.line")}</TableHead> : null}
          <TableHead>{t("lookup:columns.number")}</TableHead>
          <TableHead>{t("lookup:columns.valid")}</TableHead>
          <TableHead>{t("lookup:columns.type")}</TableHead>
          <TableHead>{t("lookup:columns.country")}</TableHead>
          <TableHead>{t("lookup:columns.carrier")}</TableHead>
          <TableHead>{t("lookup:columns.ported")}</TableHead>
          <TableHead className="text-right">{t("lookup:columns.price")}</TableHead>
          {withLine ? null : <TableHead>{t("lookup:columns.createdAt")}</TableHead>}
        </TableRow>
      </TableHeader>
      <TableBody>
        {rows.map((r) => (
          <TableRow key={r.id} data-result-number={r.number}>
            {withLine ? <TableCell className="text-right tabular-nums">{r.line}</TableCell> : null}
            <TableCell className="font-mono">{r.number}</TableCell>
            <TableCell>
              <ValidityBadge r={r} />
            </TableCell>
            <TableCell>{r.type ? t(`lookup:types.${r.type}`) : "—"}</TableCell>
            <TableCell>{r.country ?? "—"}</TableCell>
            <TableCell>{r.carrier ?? "—"}</TableCell>
            <TableCell>{r.ported === null ? "—" : r.ported ? t("lookup:ported.yes", { from: r.originalCarrier ?? "—" }) : t("lookup:ported.no")}</TableCell>
            <TableCell className="text-right tabular-nums">{formatMoney(r.price, r.currency, lng)}</TableCell>
            {withLine ? null : (
              <TableCell>
                <time dateTime={r.createdAt}>{formatDate(r.createdAt, lng, true)}</time>
              </TableCell>
            )}
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
