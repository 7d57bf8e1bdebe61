/**
 * The catalogue's table (/catalog/list and /catalog/list/registered): each product's thumbnail,
 * name (a link to edit it), reference, price in the account's currency (with the discount), the
 * channels it is published to; with `select`, a checkbox per row for the bulk delete; `actions`
 * adds a cell per row (the registered list's "send as" links).
 */
import { Link, useRouteLoaderData } from "@remix-run/react";
import { Badge } from "~/components/ui/badge";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { formatMoney } from "~/lib/format";
import type { Lng } from "~/lib/i18n";
import { useTranslation } from "~/lib/react-i18n";
import type { RootData } from "~/root";

export type ProductRow = {
  id: string;
  name: string;
  reference: string;
  brand: string;
  currency: string;
  price_cents: number;
  discount_cents: number;
  final_price_cents: number;
  published_channels: string[];
  thumb: string | null;
};

export function ProductTable({ products, select, actions }: { products: ProductRow[]; select?: boolean; actions?: (p: ProductRow) => React.ReactNode }) {
  const { t } = useTranslation("catalog");
  const lng = (useRouteLoaderData<RootData>("root")?.lng ?? "pt-BR") as Lng;
  return (
    <Table>
      <TableHeader>
        <TableRow>
          {select ? (
            <TableHead className="w-8">
              <span className="sr-only">{t("list.select")}</span>
            </TableHead>
          ) : null}
          <TableHead className="w-14">
            <span className="sr-only">{t("fields.image")}</span>
          </TableHead>
          <TableHead>{t("fields.name")}</TableHead>
          <TableHead>{t("fields.reference")}</TableHead>
          <TableHead className="text-right">{t("list.price")}</TableHead>
          <TableHead>{t("fields.publishedChannels")}</TableHead>
          {actions ? <TableHead>{t("list.send")}</TableHead> : null}
        </TableRow>
      </TableHeader>
      <TableBody>
        {products.map((p) => (
          <TableRow key={p.id} data-product-id={p.id}>
            {select ? (
              <TableCell>
                <input type="checkbox" name="ids" value={p.id} aria-label={t("list.selectOne", { name: p.name })} className="size-4 accent-primary" />
              </TableCell>
            ) : null}
            <TableCell>
              {p.thumb ? (
                <img src={p.thumb} alt={t("images.thumbAlt", { name: p.name })} width={40} height={40} loading="lazy" className="size-10 rounded border object-cover" />
              ) : (
                <span className="block size-10 rounded border bg-muted" aria-hidden="true" />
              )}
            </TableCell>
            <TableCell className="font-medium whitespace-normal">
              <Link to={`/catalog/list/${p.id}`} className="underline-offset-2 hover:underline">
                {p.name}
              </Link>
              {p.brand ? <span className="block text-xs text-muted-foreground">{p.brand}</span> : null}
            </TableCell>
            <TableCell className="text-muted-foreground">{p.reference || "—"}</TableCell>
            <TableCell className="text-right tabular-nums">
              {p.discount_cents > 0 ? (
                <>
                  <s className="block text-xs text-muted-foreground">{formatMoney(p.price_cents, p.currency, lng)}</s>
                  {formatMoney(p.final_price_cents, p.currency, lng)}
                </>
              ) : (
                formatMoney(p.price_cents, p.currency, lng)
              )}
            </TableCell>
            <TableCell>
              <div className="flex flex-wrap gap-1">
                {p.published_channels.length
                  ? p.published_channels.map((c) => (
                      <Badge key={c} variant="secondary">
                        {t(`channels.${c}`)}
                      </Badge>
                    ))
                  : "—"}
              </div>
            </TableCell>
            {actions ? <TableCell>{actions(p)}</TableCell> : null}
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
