/**
 * /catalog/list (issue 22): the account's catalogue — searched by name, brand, model, reference or
 * barcode, newest first, 50 a page; each row's thumbnail, price and channels, a link to edit; a
 * bulk delete of the rows ticked (behind a confirmation); "New product". Plain forms: works
 * without JavaScript.
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { deleteProducts, listProducts } from "~api/catalog/products";
import { z } from "~api/lib/zod";
import { ProductTable } from "~/components/catalog/product-table";
import { CsrfInput, FormErrors } from "~/components/forms/fields";
import { PageHeader } from "~/components/shell/page-header";
import { Button } from "~/components/ui/button";
import { Card, CardContent } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { CursorPager } from "~/components/whatsapp/cursor-pager";
import { orHttpError, requireRoute } from "~/lib/auth.server";
import { tableRow } from "~/lib/catalog.server";
import { handleForm, type FormReply } from "~/lib/forms.server";
import { useTranslation } from "~/lib/react-i18n";
import { redirectWithToast } from "~/lib/toast.server";

export const handle = { crumb: "catalog:list.title" };

const PATH = "/catalog/list";
const PAGE = 50;
const bulkSchema = z.object({ intent: z.literal("bulk-delete"), ids: z.array(z.string()).min(1, "catalog.errors.noneTicked") });

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  const url = new URL(request.url);
  const q = url.searchParams.get("q") ?? "";
  const cursor = url.searchParams.get("cursor") ?? "";
  const page = await orHttpError(listProducts(ctx, { q: q || undefined, cursor: cursor || undefined, limit: PAGE }));
  return json({ products: page.data.map(tableRow), next: page.next_cursor, q, cursor }, { headers: { "Cache-Control": "private, no-store" } });
}

export async function action({ request }: ActionFunctionArgs) {
  const ctx = await requireRoute(request);
  return handleForm(request, bulkSchema, async ({ ids }) => {
    const { deleted } = await deleteProducts(ctx, { ids });
    return redirectWithToast(request, PATH, { type: "success", title: "catalog:list.deleted", params: { count: deleted } });
  });
}

export default function CatalogList() {
  const { products, next, q, cursor } = useLoaderData<typeof loader>();
  const last = useActionData<FormReply>();
  const { t } = useTranslation("catalog");
  const href = (c?: string) => {
    const p = new URLSearchParams();
    if (q) p.set("q", q);
    if (c) p.set("cursor", c);
    const s = p.toString();
    return s ? `${PATH}?${s}` : PATH;
  };
  return (
    <div className="space-y-6">
      <PageHeader
        description={t("list.description")}
        actions={
          <div className="flex flex-wrap gap-2">
            <Button asChild size="sm" variant="outline">
              <Link to="/catalog/list/registered">{t("registered.title")}</Link>
            </Button>
            <Button asChild size="sm">
              <Link to="/catalog/list/new">{t("list.new")}</Link>
            </Button>
          </div>
        }
      />
      <Card>
        <CardContent className="space-y-4 pt-6">
          <Form method="get" className="flex flex-wrap items-end gap-2" role="search">
            <div className="grid min-w-0 flex-1 gap-1">
              <Label htmlFor="catalog-q">{t("list.search")}</Label>
              <Input id="catalog-q" name="q" defaultValue={q} type="search" />
            </div>
            <Button type="submit" variant="outline" size="sm">
              {t("list.filter")}
            </Button>
          </Form>
          {products.length === 0 ? (
            <p className="py-6 text-center text-sm text-muted-foreground" data-empty>
              {q ? t("list.noMatch") : t("list.empty")}
            </p>
          ) : (
            <Form method="post" className="space-y-3">
              <CsrfInput />
              <input type="hidden" name="intent" value="bulk-delete" />
              <FormErrors errors={last ? [...(last.result.error?.ids ?? []), ...(last.result.error?.[""] ?? [])] : undefined} />
              <div className="overflow-x-auto">
                <ProductTable products={products} select />
              </div>
              <details>
                <summary className="inline-flex h-8 cursor-pointer list-none items-center rounded-md border border-destructive/40 px-3 text-sm font-medium text-destructive hover:bg-destructive/10">
                  {t("list.bulkDelete")}
                </summary>
                <div className="mt-2 max-w-72 space-y-2 rounded-md border bg-popover p-3 text-sm shadow-sm">
                  <p>{t("list.bulkDeleteBody")}</p>
                  <Button type="submit" variant="destructive" size="sm">
                    {t("list.bulkDeleteConfirm")}
                  </Button>
                </div>
              </details>
            </Form>
          )}
          <CursorPager cursor={cursor} next={next} href={href} />
        </CardContent>
      </Card>
    </div>
  );
}
