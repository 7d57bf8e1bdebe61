/**
 * /admin/products (issue 23, ADR 064): every customer product the person may see — the platform's
 * staff every customer's, a reseller's owner or admin its own customers' — newest first, filtered
 * by customer and status (a GET form), keyset pages ("More"). A row opens the product. No script needed.
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { CustomerFilter } from "~/components/admin-catalogue/customer-filter";
import { filtersOf, MoreLink } from "~/components/admin-catalogue/more-link";
import { PageHeader } from "~/components/shell/page-header";
import { Button } from "~/components/ui/button";
import { Card, CardContent } from "~/components/ui/card";
import { Label } from "~/components/ui/label";
import { NativeSelect, NativeSelectOption } from "~/components/ui/native-select";
import { customerOptions } from "~/lib/admin-catalogue.server";
import { orHttpError, requireRoute } from "~/lib/auth.server";
import { formatMoney } from "~/lib/format";
import type { Lng } from "~/lib/i18n";
import { useTranslation } from "~/lib/react-i18n";
import type { RootData } from "~/root";
import { listAllProducts } from "~api/products/across";
import { managesProducts } from "~api/products/products";

export const handle = { crumb: "adminCatalogue:crumbs.products" };
const STATUSES = ["active", "suspended", "cancelled"] as const;

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  const filters = filtersOf(request.url, ["customer_id", "status"]);
  const page = await orHttpError(listAllProducts(ctx, { ...filters, cursor: new URL(request.url).searchParams.get("cursor") ?? undefined, limit: "50" }));
  return json({ ...page, filters, customers: await customerOptions(ctx), canHire: managesProducts(ctx.actor) }, { headers: { "Cache-Control": "private, no-store" } });
}

export default function AdminProducts() {
  const { data, next_cursor, filters, customers, canHire } = useLoaderData<typeof loader>();
  const lng = (useRouteLoaderData<RootData>("root")?.lng ?? "pt-BR") as Lng;
  const { t } = useTranslation(["adminCatalogue", "products"]);
  return (
    <div className="space-y-6">
      <PageHeader description={t("adminCatalogue:products.description")} />
      <div className="flex flex-wrap items-end justify-between gap-4">
        <Form method="get" className="flex flex-wrap items-end gap-2">
          <CustomerFilter id="products-customer" customers={customers} value={filters.customer_id} />
          <div className="grid gap-1">
            <Label htmlFor="products-status">{t("products:fields.status")}</Label>
            <NativeSelect id="products-status" name="status" defaultValue={filters.status}>
              <NativeSelectOption value="">{t("adminCatalogue:filters.all")}</NativeSelectOption>
              {STATUSES.map((s) => (
                <NativeSelectOption key={s} value={s}>
                  {t(`products:statuses.${s}`)}
                </NativeSelectOption>
              ))}
            </NativeSelect>
          </div>
          <Button type="submit" variant="outline">
            {t("adminCatalogue:filters.apply")}
          </Button>
        </Form>
        {canHire ? (
          <Button asChild>
            <Link to="/admin/products/create">{t("adminCatalogue:products.create")}</Link>
          </Button>
        ) : null}
      </div>
      <Card>
        <CardContent className="overflow-x-auto pt-6">
          {data.length === 0 ? (
            <p className="py-6 text-center text-sm text-muted-foreground">{t("adminCatalogue:products.empty")}</p>
          ) : (
            <table className="w-full text-sm">
              <thead>
                <tr className="text-left text-muted-foreground">
                  <th className="py-2">{t("adminCatalogue:customer")}</th>
                  <th>{t("products:fields.name")}</th>
                  <th>{t("products:fields.channel")}</th>
                  <th>{t("products:fields.kind")}</th>
                  <th className="text-right">{t("products:fields.price")}</th>
                  <th className="pl-4">{t("products:fields.status")}</th>
                </tr>
              </thead>
              <tbody>
                {data.map((p) => (
                  <tr key={p.id} data-product-id={p.id} className="border-t">
                    <td className="py-2">
                      <Link to={`/admin/customers/${p.account_id}`} className="underline">
                        {p.customer_name}
                      </Link>
                    </td>
                    <td>
                      <Link to={`/admin/products/${p.id}`} className="underline">
                        {p.name}
                      </Link>
                    </td>
                    <td>{t(`products:channels.${p.channel}`)}</td>
                    <td>{t(`products:kinds.${p.kind}`)}</td>
                    <td className="text-right">{formatMoney(p.price, p.currency, lng)}</td>
                    <td className="pl-4">{t(`products:statuses.${p.status}`)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          <MoreLink filters={filters} next={next_cursor} />
        </CardContent>
      </Card>
    </div>
  );
}
