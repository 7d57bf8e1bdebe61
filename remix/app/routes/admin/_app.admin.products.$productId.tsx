/**
 * /admin/products/{productId} (issue 23, ADR 064): one customer product, found by its id among the
 * customers the person may see (another's is 404): its customer and the product table; the
 * platform's staff get a link to the customer's product page, where it is edited or cancelled.
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { ProductsTable } from "~/components/billing/products-table";
import { PageHeader } from "~/components/shell/page-header";
import { Card, CardContent } from "~/components/ui/card";
import { orHttpError, requireRoute } from "~/lib/auth.server";
import type { Lng } from "~/lib/i18n";
import { useTranslation } from "~/lib/react-i18n";
import type { RootData } from "~/root";
import { getAnyProduct } from "~api/products/across";
import { managesProducts } from "~api/products/products";

export const handle = {
  crumb: (data: unknown) => ({ key: "adminCatalogue:crumbs.product", params: { name: (data as { product?: { name?: string } } | undefined)?.product?.name ?? "" } }),
};

export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  const { data } = await orHttpError(getAnyProduct(ctx, params.productId ?? ""));
  return json({ product: data, canManage: managesProducts(ctx.actor) }, { headers: { "Cache-Control": "private, no-store" } });
}

export default function AdminProduct() {
  const { product: p, canManage } = useLoaderData<typeof loader>();
  const lng = (useRouteLoaderData<RootData>("root")?.lng ?? "pt-BR") as Lng;
  const { t } = useTranslation("adminCatalogue");
  return (
    <div className="space-y-6">
      <PageHeader description={p.name} />
      <p className="text-sm">
        {t("customer")}:{" "}
        <Link to={`/admin/customers/${p.account_id}`} className="underline" data-customer={p.account_id}>
          {p.customer_name}
        </Link>
      </p>
      <Card>
        <CardContent className="pt-6">
          <ProductsTable products={[p]} lng={lng} />
        </CardContent>
      </Card>
      {canManage ? (
        <Link to={`/admin/customers/${p.account_id}/products/${p.id}`} className="inline-block text-sm underline">
          {t("products.manage")}
        </Link>
      ) : null}
      <Link to="/admin/products" className="ml-4 inline-block text-sm underline">
        {t("products.back")}
      </Link>
    </div>
  );
}
