import { useTranslation } from "~/lib/react-i18n";
import { formatCount, formatPercent } from "./format";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import type { Lng } from "~/lib/i18n";

export type CarrierData = { carrier: string | null; total: number; delivered: number; failed: number; unavailable: number; delivery_rate: number };

export function CarriersTable({ rows, lng }: { rows: CarrierData[]; lng: Lng }) {
  const { t } = useTranslation("smsReports");
  if (!rows.length) return <p className="text-sm text-muted-foreground">{t("carriers.empty")}</p>;
  return (
    <Table>
      <TableHeader>
        <TableRow>
          <TableHead>{t("carriers.carrier")}</TableHead>
          <TableHead className="text-right">{t("carriers.total")}</TableHead>
          <TableHead className="text-right">{t("carriers.delivered")}</TableHead>
          <TableHead className="text-right">{t("carriers.failed")}</TableHead>
          <TableHead className="text-right">{t("carriers.unavailable")}</TableHead>
          <TableHead className="text-right">{t("carriers.rate")}</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {rows.map((c) => (
          <TableRow key={c.carrier ?? ""} data-carrier={c.carrier ?? ""}>
            <TableCell>{c.carrier ?? t("carriers.unknown")}</TableCell>
            <TableCell className="text-right tabular-nums">{formatCount(c.total, lng)}</TableCell>
            <TableCell className="text-right tabular-nums">{formatCount(c.delivered, lng)}</TableCell>
            <TableCell className="text-right tabular-nums">{formatCount(c.failed, lng)}</TableCell>
            <TableCell className="text-right tabular-nums">{formatCount(c.unavailable, lng)}</TableCell>
            <TableCell className="text-right tabular-nums">{formatPercent(c.delivery_rate, lng)}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
