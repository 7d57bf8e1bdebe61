/**
 * /admin/customers/{customerId}/products/create (issue 18, ADR 048): the platform's staff hire a
 * product for a customer — channel, name, billing cycle, currency, credits or unlimited, price in
 * reais. Its price is debited from the customer's balance at once (a `product` posting); when the
 * balance and credit limit do not cover it the form says so on the price and nothing is written.
 * A plain form (works without JavaScript); on success the customer's page with a toast.
 */
import { getFormProps, useForm } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { getCustomer } from "~api/customers/customers";
import { hireProduct, managesProducts } from "~api/products/products";
import { CHANNELS, CURRENCIES, CYCLES, KINDS } from "~api/products/constants";
import { SelectField } from "~/components/forms/controls";
import { CsrfInput, FormErrors, TextField } from "~/components/forms/fields";
import { PageHeader } from "~/components/shell/page-header";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader } from "~/components/ui/card";
import { orHttpError, requireRoute } from "~/lib/auth.server";
import { handleForm, type FormReply } from "~/lib/forms.server";
import { redirectWithToast } from "~/lib/toast.server";
import { hireProductSchema } from "~/forms/admin-products";
import { useLazyValidate } from "~/lib/lazy-validate";

export const handle = { crumb: "products:crumbs.create" };

export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  if (!managesProducts(ctx.actor)) throw new Response("FORBIDDEN", { status: 403 });
  const { data } = await orHttpError(getCustomer(ctx, params.customerId ?? ""));
  return json({ customer: { id: data.id, name: data.name, currency: data.currency } }, { headers: { "Cache-Control": "private, no-store" } });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const ctx = await requireRoute(request);
  const id = params.customerId ?? "";
  return handleForm(request, hireProductSchema, async (v) => {
    const kind = v.kind;
    await hireProduct(ctx, id, { ...v, credits: kind === "credits" && v.credits ? Number(v.credits) : kind === "credits" ? undefined : null });
    return redirectWithToast(request, `/admin/customers/${id}`, { type: "success", title: "products:admin.hired" });
  });
}

export default function HireProduct() {
  const { customer } = useLoaderData<typeof loader>();
  const last = useActionData<FormReply>();
  const busy = useNavigation().state === "submitting";
  const { t } = useTranslation(["products", "customers"]);
  const [form, fields] = useForm({
    lastResult: last?.result,
    defaultValue: { channel: "sms", billing_cycle: "monthly", currency: customer.currency, kind: "credits" },
    onValidate: useLazyValidate(() => import("~/forms/admin-products").then((m) => m.hireProductSchema)),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  const options = <T extends string>(values: readonly T[], ns: string) => values.map((v) => ({ value: v, label: ns ? t(`${ns}.${v}`) : v }));
  return (
    <div className="space-y-6">
      <PageHeader description={customer.name} />
      <Card className="max-w-xl">
        <CardHeader>
          <h2 className="leading-none font-semibold">{t("admin.hire")}</h2>
          <CardDescription>{t("admin.createDescription")}</CardDescription>
        </CardHeader>
        <CardContent>
          <Form method="post" {...getFormProps(form)} className="space-y-4">
            <CsrfInput />
            <FormErrors errors={form.errors} />
            <SelectField field={fields.channel} label={t("fields.channel")} options={options(CHANNELS, "channels")} />
            <TextField field={fields.name} label={t("fields.name")} autoComplete="off" />
            <SelectField field={fields.billing_cycle} label={t("fields.billingCycle")} options={options(CYCLES, "cycles")} />
            <SelectField field={fields.currency} label={t("fields.currency")} options={options(CURRENCIES, "")} />
            <SelectField field={fields.kind} label={t("fields.kind")} options={options(KINDS, "kinds")} />
            <TextField field={fields.credits} label={t("fields.credits")} description={t("fields.creditsHint")} type="number" autoComplete="off" />
            <TextField field={fields.price} label={t("fields.price")} description={t("fields.priceHint")} autoComplete="off" />
            <Button type="submit" disabled={busy}>
              {t("admin.submit")}
            </Button>
          </Form>
        </CardContent>
      </Card>
      <Link to={`/admin/customers/${customer.id}`} className="inline-block text-sm underline">
        {t("admin.back")}
      </Link>
    </div>
  );
}
