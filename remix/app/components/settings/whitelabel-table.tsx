/** Platform staff: every brand on the platform. */
import { useTranslation } from "~/lib/react-i18n";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { formatDate } from "~/lib/format";
import type { Lng } from "~/lib/i18n";

export type WhitelabelRow = { id: string; name: string; color: string; host: string; updatedAt: string };

export function WhitelabelTable({ rows, lng }: { rows: WhitelabelRow[]; lng: Lng }) {
  const { t } = useTranslation(["admin", "common"]);
  return (
    <Card data-testid="whitelabel-table">
      <CardHeader>
        <CardTitle>{t("whitelabel.all")}</CardTitle>
      </CardHeader>
      <CardContent>
        <Table>
          <TableHeader>
            <TableRow>
              <TableHead>{t("whitelabel.name")}</TableHead>
              <TableHead>{t("whitelabel.host")}</TableHead>
              <TableHead>{t("whitelabel.color")}</TableHead>
              <TableHead>{t("whitelabel.updatedAt")}</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {rows.length === 0 ? (
              <TableRow>
                <TableCell colSpan={4} className="text-center text-muted-foreground">
                  {t("whitelabel.none")}
                </TableCell>
              </TableRow>
            ) : null}
            {rows.map((w) => (
              <TableRow key={w.id}>
                <TableCell className="font-medium">{w.name}</TableCell>
                <TableCell className="font-mono">{w.host}</TableCell>
                <TableCell>
                  <span className="inline-flex items-center gap-2 font-mono">
                    <span className="inline-block size-4 rounded border" style={{ background: w.color }} aria-hidden /> {w.color}
                  </span>
                </TableCell>
                <TableCell>{formatDate(w.updatedAt, lng, true)}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </CardContent>
    </Card>
  );
}
