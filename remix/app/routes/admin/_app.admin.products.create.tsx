/**
 * /admin/products/create (issue 23, ADR 064): the platform's staff pick a customer (a GET search by
 * name, then a link), then hire a product for it with the same form and the same use-case as
 * /admin/customers/{id}/products/create (api/products/products.ts hireProduct: its validation, its
 * `product` posting, 402 on the price when the balance does not cover it). Works without
 * JavaScript; on success the product with a toast.
 */
import { getFormProps, useForm } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { SelectField } from "~/components/forms/controls";
import { CsrfInput, FormErrors, TextField } from "~/components/forms/fields";
import { PageHeader } from "~/components/shell/page-header";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { orHttpError, requireRoute } from "~/lib/auth.server";
import { handleForm, type FormReply } from "~/lib/forms.server";
import { useLazyValidate } from "~/lib/lazy-validate";
import { useTranslation } from "~/lib/react-i18n";
import { redirectWithToast } from "~/lib/toast.server";
import { hireProductSchema } from "~/forms/admin-products";
import { customerInReach, listCustomers } from "~api/customers/customers";
import { CHANNELS, CURRENCIES, CYCLES, KINDS } from "~api/products/constants";
import { hireProduct, managesProducts } from "~api/products/products";

export const handle = { crumb: "adminCatalogue:crumbs.productCreate" };

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  if (!managesProducts(ctx.actor)) throw new Response("FORBIDDEN", { status: 403 });
  const params = new URL(request.url).searchParams;
  const chosen = params.get("customer");
  if (chosen) {
    const customer = await orHttpError(customerInReach(ctx, chosen));
    return json({ customer, q: "", found: [] as Array<{ id: string; name: string }> }, { headers: { "Cache-Control": "private, no-store" } });
  }
  const q = (params.get("q") ?? "").trim().slice(0, 100);
  const { data } = await orHttpError(listCustomers(ctx, { q: q || undefined, limit: "20" }));
  return json({ customer: null, q, found: data.map((c) => ({ id: c.id, name: c.name })) }, { headers: { "Cache-Control": "private, no-store" } });
}

export async function action({ request }: ActionFunctionArgs) {
  const ctx = await requireRoute(request);
  const customerId = new URL(request.url).searchParams.get("customer") ?? "";
  return handleForm(request, hireProductSchema, async (v) => {
    const kind = v.kind;
    const { data } = await hireProduct(ctx, customerId, { ...v, credits: kind === "credits" && v.credits ? Number(v.credits) : kind === "credits" ? undefined : null });
    return redirectWithToast(request, `/admin/products/${data.id}`, { type: "success", title: "products:admin.hired" });
  });
}

function PickCustomer({ q, found }: { q: string; found: Array<{ id: string; name: string }> }) {
  const { t } = useTranslation("adminCatalogue");
  return (
    <Card className="max-w-xl">
      <CardHeader>
        <h2 className="leading-none font-semibold">{t("products.pick")}</h2>
        <CardDescription>{t("products.pickHint")}</CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        <Form method="get" role="search" className="flex items-end gap-2">
          <div className="grid flex-1 gap-1">
            <Label htmlFor="pick-q">{t("products.search")}</Label>
            <Input id="pick-q" name="q" type="search" defaultValue={q} maxLength={100} />
          </div>
          <Button type="submit" variant="outline">
            {t("filters.apply")}
          </Button>
        </Form>
        {found.length === 0 ? (
          <p className="text-sm text-muted-foreground">{t("products.noCustomer")}</p>
        ) : (
          <ul className="space-y-1 text-sm">
            {found.map((c) => (
              <li key={c.id}>
                <Link to={`?customer=${c.id}`} className="underline" data-pick={c.id}>
                  {c.name}
                </Link>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}

function HireForm({ customer }: { customer: { id: string; name: string; currency: string } }) {
  const last = useActionData<FormReply>();
  const busy = useNavigation().state === "submitting";
  const { t } = useTranslation(["products", "adminCatalogue"]);
  const [form, fields] = useForm({
    lastResult: last?.result,
    defaultValue: { channel: "sms", billing_cycle: "monthly", currency: customer.currency, kind: "credits" },
    onValidate: useLazyValidate(() => import("~/forms/admin-products").then((m) => m.hireProductSchema)),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  const options = <T extends string>(values: readonly T[], ns: string) => values.map((v) => ({ value: v, label: ns ? t(`products:${ns}.${v}`) : v }));
  return (
    <Card className="max-w-xl">
      <CardHeader>
        <h2 className="leading-none font-semibold">{t("products:admin.hire")}</h2>
        <CardDescription>{t("adminCatalogue:products.for", { name: customer.name })}</CardDescription>
      </CardHeader>
      <CardContent>
        <Form method="post" action={`?customer=${customer.id}`} {...getFormProps(form)} className="space-y-4">
          <CsrfInput />
          <FormErrors errors={form.errors} />
          <SelectField field={fields.channel} label={t("products:fields.channel")} options={options(CHANNELS, "channels")} />
          <TextField field={fields.name} label={t("products:fields.name")} autoComplete="off" />
          <SelectField field={fields.billing_cycle} label={t("products:fields.billingCycle")} options={options(CYCLES, "cycles")} />
          <SelectField field={fields.currency} label={t("products:fields.currency")} options={options(CURRENCIES, "")} />
          <SelectField field={fields.kind} label={t("products:fields.kind")} options={options(KINDS, "kinds")} />
          <TextField field={fields.credits} label={t("products:fields.credits")} description={t("products:fields.creditsHint")} type="number" autoComplete="off" />
          <TextField field={fields.price} label={t("products:fields.price")} description={t("products:fields.priceHint")} autoComplete="off" />
          <Button type="submit" disabled={busy}>
            {t("products:admin.submit")}
          </Button>
        </Form>
        <Link to="/admin/products/create" className="mt-4 inline-block text-sm underline">
          {t("adminCatalogue:products.otherCustomer")}
        </Link>
      </CardContent>
    </Card>
  );
}

export default function CreateProduct() {
  const { customer, q, found } = useLoaderData<typeof loader>();
  const { t } = useTranslation("adminCatalogue");
  return (
    <div className="space-y-6">
      <PageHeader description={t("products.createDescription")} />
      {customer ? <HireForm customer={customer} /> : <PickCustomer q={q} found={found} />}
      <Link to="/admin/products" className="inline-block text-sm underline">
        {t("products.back")}
      </Link>
    </div>
  );
}
