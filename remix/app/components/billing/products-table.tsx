/**
 * A table of an account's products (ADR 048): channel, name, kind, credits left of the period's
 * credits, cycle, price in its currency (Intl), current period and renewal date in São Paulo time,
 * status. The customer's /customer/products and the staff's customer page (with a link to each).
 */
import { Link } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import type { ProductOut } from "~api/products/products";
import { Badge } from "~/components/ui/badge";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { formatDate, formatMoney } from "~/lib/format";
import type { Lng } from "~/lib/i18n";

export function ProductsTable({ products, lng, href }: { products: ProductOut[]; lng: Lng; href?: (p: ProductOut) => string }) {
  const { t } = useTranslation("products");
  const status = (p: ProductOut) => (p.status === "active" && p.used_up ? "usedUp" : p.status);
  return (
    <Table data-products="">
      <TableHeader>
        <TableRow>
          <TableHead>{t("fields.channel")}</TableHead>
          <TableHead>{t("fields.name")}</TableHead>
          <TableHead>{t("fields.kind")}</TableHead>
          <TableHead className="text-right">{t("fields.creditsLeft")}</TableHead>
          <TableHead>{t("fields.billingCycle")}</TableHead>
          <TableHead className="text-right">{t("fields.price")}</TableHead>
          <TableHead>{t("fields.period")}</TableHead>
          <TableHead>{t("fields.renewsAt")}</TableHead>
          <TableHead>{t("fields.status")}</TableHead>
          {href ? <TableHead /> : null}
        </TableRow>
      </TableHeader>
      <TableBody>
        {products.map((p) => (
          <TableRow key={p.id} data-product={p.id} data-status={status(p)}>
            <TableCell>{t(`channels.${p.channel}`)}</TableCell>
            <TableCell>{p.name}</TableCell>
            <TableCell>{t(`kinds.${p.kind}`)}</TableCell>
            <TableCell data-col="credits" className="text-right">
              {p.kind === "credits" ? t("mine.ofTotal", { left: (p.credits_left ?? 0).toLocaleString(lng), total: (p.credits ?? 0).toLocaleString(lng) }) : t("mine.unlimited")}
            </TableCell>
            <TableCell>{t(`cycles.${p.billing_cycle}`)}</TableCell>
            <TableCell data-col="price" className="text-right">
              {formatMoney(p.price, p.currency, lng)}
            </TableCell>
            <TableCell>
              {p.period_end ? `${formatDate(p.period_start, lng)} – ${formatDate(p.period_end, lng)}` : t("mine.openEnded", { start: formatDate(p.period_start, lng) })}
            </TableCell>
            <TableCell data-col="renews">{p.renews_at ? formatDate(p.renews_at, lng) : t("mine.noRenewal")}</TableCell>
            <TableCell>
              <Badge variant={p.status === "active" && !p.used_up ? "success" : p.status === "suspended" ? "warning" : "secondary"}>{t(`statuses.${status(p)}`)}</Badge>
            </TableCell>
            {href ? (
              <TableCell>
                <Link to={href(p)} className="underline">
                  {t("admin.open")}
                </Link>
              </TableCell>
            ) : null}
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
