import { Form } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { RoleBadge } from "~/components/users/role-badge";
import { CsrfInput } from "~/components/forms/fields";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { formatMoney } from "~/lib/format";
import type { Lng } from "~/lib/i18n";

export type AccountRow = { id: string; name: string; type: string; role: string; balance: number | string; currency: string };

/** Minor-unit digits of a currency (BRL 2, JPY 0, BHD 3), as Intl knows them. */
export function minorDigits(currency: string) {
  try {
    return new Intl.NumberFormat("en", { style: "currency", currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
}

/** The person's accounts; every other account has a plain switch form (POST /accounts/switch). */
export function AccountsTable({ rows, currentId, lng }: { rows: AccountRow[]; currentId: string; lng: Lng }) {
  const { t } = useTranslation(["accounts", "common"]);
  return (
    <Table>
      <TableHeader>
        <TableRow>
          <TableHead>{t("columns.name")}</TableHead>
          <TableHead>{t("columns.type")}</TableHead>
          <TableHead>{t("columns.role")}</TableHead>
          <TableHead className="text-right">{t("columns.balance")}</TableHead>
          <TableHead className="text-right">{t("columns.actions")}</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {rows.map((a) => {
          const current = a.id === currentId;
          return (
            <TableRow key={a.id} data-account-id={a.id} aria-current={current || undefined}>
              <TableCell className="font-medium">
                <span className="inline-flex items-center gap-2">
                  {a.name}
                  {current ? <Badge variant="success">{t("current")}</Badge> : null}
                </span>
              </TableCell>
              <TableCell>{t(`types.${a.type}`)}</TableCell>
              <TableCell>
                <RoleBadge role={a.role} />
              </TableCell>
              <TableCell className="text-right tabular-nums">{formatMoney(Number(a.balance), a.currency, lng, minorDigits(a.currency))}</TableCell>
              <TableCell className="text-right">
                {current ? null : (
                  <Form method="post" action="/accounts/switch" className="inline">
                    <CsrfInput />
                    <input type="hidden" name="accountId" value={a.id} />
                    <Button type="submit" variant="outline" size="sm" aria-label={t("switchLabel", { name: a.name })}>
                      {t("switch")}
                    </Button>
                  </Form>
                )}
              </TableCell>
            </TableRow>
          );
        })}
      </TableBody>
    </Table>
  );
}
