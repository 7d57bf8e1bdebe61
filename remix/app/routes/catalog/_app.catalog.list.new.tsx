/** /catalog/list/new (issue 22): a new catalogue product; saved, it opens its own page to add images. Works without JavaScript. */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { createProduct } from "~api/catalog/products";
import { EMPTY_PRODUCT, ProductForm } from "~/components/catalog/product-form";
import { PageHeader } from "~/components/shell/page-header";
import { Card, CardContent } from "~/components/ui/card";
import { productFormSchema, productInput } from "~/forms/catalog-product";
import { requireRoute } from "~/lib/auth.server";
import { accountCurrency } from "~/lib/catalog.server";
import { handleForm, type FormReply } from "~/lib/forms.server";
import { useTranslation } from "~/lib/react-i18n";
import { redirectWithToast } from "~/lib/toast.server";

export const handle = { crumb: "catalog:form.newTitle" };

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request, "/catalog/list");
  return json({ currency: await accountCurrency(ctx) }, { headers: { "Cache-Control": "private, no-store" } });
}

export async function action({ request }: ActionFunctionArgs) {
  const ctx = await requireRoute(request, "/catalog/list");
  return handleForm(request, productFormSchema, async (v) => {
    const { data } = await createProduct(ctx, productInput(v));
    return redirectWithToast(request, `/catalog/list/${data.id}`, { type: "success", title: "catalog:form.created", params: { name: data.name } });
  });
}

export default function NewCatalogProduct() {
  const { currency } = useLoaderData<typeof loader>();
  const last = useActionData<FormReply>();
  const busy = useNavigation().state === "submitting";
  const { t } = useTranslation("catalog");
  return (
    <div className="space-y-6">
      <PageHeader description={t("form.newDescription")} />
      <Card className="max-w-3xl">
        <CardContent className="pt-6">
          <ProductForm product={EMPTY_PRODUCT} last={last} busy={busy} currency={currency} submit={t("form.create")} />
        </CardContent>
      </Card>
    </div>
  );
}
