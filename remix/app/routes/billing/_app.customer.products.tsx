/**
 * /customer/products: the account's products (issue 18, ADR 048; GET /api/customer/products's
 * use-case) — per product its channel, kind, credits left of the period's credits, cycle, price in
 * its currency, current period and renewal date (São Paulo). Read-only: staff hire and change
 * products (/admin/customers/{id}/products…). Owner, admin and finance (the policy's route tag).
 */
import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { myProducts } from "~api/products/products";
import { ProductsTable } from "~/components/billing/products-table";
import { PageHeader } from "~/components/shell/page-header";
import { Card, CardContent } from "~/components/ui/card";
import { orHttpError, requireRoute } from "~/lib/auth.server";
import type { Lng } from "~/lib/i18n";
import type { RootData } from "~/root";

export const handle = { crumb: "products:crumbs.mine" };

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  const cursor = new URL(request.url).searchParams.get("cursor") ?? undefined;
  const { data, next_cursor } = await orHttpError(myProducts(ctx, { cursor, limit: "50" }));
  return json({ products: data, next_cursor }, { headers: { "Cache-Control": "private, no-store" } });
}

export default function CustomerProducts() {
  const { products, next_cursor } = useLoaderData<typeof loader>();
  const lng = (useRouteLoaderData<RootData>("root")?.lng ?? "pt-BR") as Lng;
  const { t } = useTranslation("products");
  return (
    <div className="space-y-6">
      <PageHeader description={t("mine.description")} />
      <Card>
        <CardContent className="space-y-4 pt-6">
          {products.length ? <ProductsTable products={products} lng={lng} /> : <p className="text-sm text-muted-foreground">{t("mine.none")}</p>}
          {next_cursor ? (
            <Link to={`?${new URLSearchParams({ cursor: next_cursor })}`} className="inline-block text-sm underline">
              {t("more")}
            </Link>
          ) : null}
        </CardContent>
      </Card>
    </div>
  );
}
