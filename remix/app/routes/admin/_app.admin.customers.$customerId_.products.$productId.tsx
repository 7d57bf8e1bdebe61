/**
 * /admin/customers/{customerId}/products/{productId} (issue 18, ADR 048): one product of a
 * customer for the platform's staff — what it is, its credits left, period and renewal — with the
 * edit form (name, credits, price from the next renewal; nothing charged or returned now) and
 * "Cancel product" (it covers nothing more and does not renew; nothing is returned). Plain forms
 * switched by `intent`: everything works without JavaScript; each success redirects with a toast.
 */
import { getFormProps, useForm } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation, useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { cancelCustomerProduct, getCustomerProduct, updateCustomerProduct } from "~api/products/products";
import { ProductsTable } from "~/components/billing/products-table";
import { CsrfInput, FormErrors, TextField } from "~/components/forms/fields";
import { IntentForm } from "~/components/forms/intent-form";
import { PageHeader } from "~/components/shell/page-header";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader } from "~/components/ui/card";
import { orHttpError, requireRoute } from "~/lib/auth.server";
import { handleForm, type FormReply } from "~/lib/forms.server";
import type { Lng } from "~/lib/i18n";
import { reaisText } from "~/lib/money-input";
import { redirectWithToast } from "~/lib/toast.server";
import type { RootData } from "~/root";
import { cancelProductSchema, editProductSchema } from "~/forms/admin-products";
import { useLazyValidate } from "~/lib/lazy-validate";

export const handle = {
  crumb: (data: unknown) => ({ key: "products:crumbs.product", params: { name: (data as { product?: { name?: string } } | undefined)?.product?.name ?? "" } }),
};

export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  const { data } = await orHttpError(getCustomerProduct(ctx, params.customerId ?? "", params.productId ?? ""));
  return json({ product: data }, { headers: { "Cache-Control": "private, no-store" } });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const ctx = await requireRoute(request);
  const customerId = params.customerId ?? "";
  const productId = params.productId ?? "";
  const intent = (await request.clone().formData()).get("intent");
  if (intent === "cancel") {
    return handleForm(request, cancelProductSchema, async () => {
      await cancelCustomerProduct(ctx, customerId, productId);
      return redirectWithToast(request, `/admin/customers/${customerId}/products/${productId}`, { type: "success", title: "products:admin.cancelled" });
    });
  }
  return handleForm(request, editProductSchema, async (v) => {
    await updateCustomerProduct(ctx, customerId, productId, { name: v.name, price: v.price, ...(v.credits ? { credits: Number(v.credits) } : {}) });
    return redirectWithToast(request, `/admin/customers/${customerId}/products/${productId}`, { type: "success", title: "products:admin.saved" });
  });
}

export default function CustomerProduct() {
  const { product: p } = useLoaderData<typeof loader>();
  const last = useActionData<FormReply>();
  const busy = useNavigation().state === "submitting";
  const lng = (useRouteLoaderData<RootData>("root")?.lng ?? "pt-BR") as Lng;
  const { t } = useTranslation("products");
  const [form, fields] = useForm({
    id: `product-${p.id}-${p.updated_at}`,
    lastResult: last?.result,
    defaultValue: { name: p.name, credits: p.credits === null ? "" : String(p.credits), price: reaisText(p.price) },
    onValidate: useLazyValidate(() => import("~/forms/admin-products").then((m) => m.editProductSchema)),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  const open = p.status !== "cancelled";
  return (
    <div className="space-y-6">
      <PageHeader description={p.name} />
      <Card>
        <CardContent className="pt-6">
          <ProductsTable products={[p]} lng={lng} />
        </CardContent>
      </Card>
      {open ? (
        <div className="grid gap-6 md:grid-cols-2">
          <Card>
            <CardHeader>
              <h2 className="leading-none font-semibold">{t("admin.save")}</h2>
              <CardDescription>{t("admin.editDescription")}</CardDescription>
            </CardHeader>
            <CardContent>
              <Form method="post" {...getFormProps(form)} className="space-y-4">
                <CsrfInput />
                <input type="hidden" name="intent" value="save" />
                <FormErrors errors={form.errors} />
                <TextField field={fields.name} label={t("fields.name")} autoComplete="off" />
                {p.kind === "credits" ? <TextField field={fields.credits} label={t("fields.credits")} type="number" autoComplete="off" /> : null}
                <TextField field={fields.price} label={t("fields.price")} description={t("fields.priceHint")} autoComplete="off" />
                <Button type="submit" disabled={busy}>
                  {t("admin.save")}
                </Button>
              </Form>
            </CardContent>
          </Card>
          <Card>
            <CardHeader>
              <h2 className="leading-none font-semibold">{t("admin.cancel")}</h2>
              <CardDescription>{t("admin.cancelDescription")}</CardDescription>
            </CardHeader>
            <CardContent>
              <IntentForm intent="cancel">
                <Button type="submit" variant="destructive" disabled={busy}>
                  {t("admin.cancel")}
                </Button>
              </IntentForm>
            </CardContent>
          </Card>
        </div>
      ) : (
        <p className="text-sm text-muted-foreground">{t("admin.readOnly")}</p>
      )}
      <Link to={`/admin/customers/${p.account_id}`} className="inline-block text-sm underline">
        {t("admin.back")}
      </Link>
    </div>
  );
}
