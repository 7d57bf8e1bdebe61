/**
 * /admin/customers/{customerId}/short-codes/create (issue 23, ADR 063): the platform's staff
 * assign a short code to a customer — its number (a free one of the inventory, or a new one),
 * nickname, the carriers it is homologated with, status and monthly price in reais. The customer
 * then sees it on /sms/short-codes and sends from it. A plain form (works without JavaScript);
 * on success the customer's short codes tab with a toast.
 */
import { getFormProps, useForm } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { createCustomerShortCode, isStaff } from "~api/customers/admin";
import { getCustomer } from "~api/customers/customers";
import { ShortCodeFields } from "~/components/customers/short-code-fields";
import { CsrfInput, FormErrors, TextField } from "~/components/forms/fields";
import { PageHeader } from "~/components/shell/page-header";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader } from "~/components/ui/card";
import { orHttpError, requireRoute } from "~/lib/auth.server";
import { handleForm, type FormReply } from "~/lib/forms.server";
import { redirectWithToast } from "~/lib/toast.server";
import { shortCodeFormSchema } from "~/forms/admin-customer";
import { useLazyValidate } from "~/lib/lazy-validate";

export const handle = { crumb: "customers:crumbs.shortCodeCreate" };

export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  const { data } = await orHttpError(getCustomer(ctx, params.customerId ?? ""));
  if (!isStaff(ctx)) throw new Response("FORBIDDEN", { status: 403 });
  return json({ customer: { id: data.id, name: data.name } }, { headers: { "Cache-Control": "private, no-store" } });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const ctx = await requireRoute(request);
  const id = params.customerId ?? "";
  return handleForm(request, shortCodeFormSchema, async (v) => {
    await createCustomerShortCode(ctx, id, v);
    return redirectWithToast(request, `/admin/customers/${id}?tab=shortcodes`, { type: "success", title: "customers:shortCodes.created" });
  });
}

export default function CreateShortCode() {
  const { customer } = useLoaderData<typeof loader>();
  const last = useActionData<FormReply>();
  const busy = useNavigation().state === "submitting";
  const { t } = useTranslation("customers");
  const [form, fields] = useForm({
    lastResult: last?.result,
    defaultValue: { status: "active", monthly_price: "990,00", deliverability: ["Vivo", "Claro", "TIM"] },
    onValidate: useLazyValidate(() => import("~/forms/admin-customer").then((m) => m.shortCodeFormSchema)),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  return (
    <div className="space-y-6">
      <PageHeader description={customer.name} />
      <Card className="max-w-xl">
        <CardHeader>
          <h2 className="leading-none font-semibold">{t("shortCodes.create")}</h2>
          <CardDescription>{t("shortCodes.createDescription")}</CardDescription>
        </CardHeader>
        <CardContent>
          <Form method="post" {...getFormProps(form)} className="space-y-4">
            <CsrfInput />
            <FormErrors errors={form.errors} />
            <TextField field={fields.number} label={t("shortCodes.number")} description={t("shortCodes.numberHint")} autoComplete="off" />
            <ShortCodeFields fields={fields} />
            <Button type="submit" disabled={busy}>
              {t("shortCodes.submit")}
            </Button>
          </Form>
        </CardContent>
      </Card>
      <Link to={`/admin/customers/${customer.id}?tab=shortcodes`} className="inline-block text-sm underline">
        {t("shortCodes.back")}
      </Link>
    </div>
  );
}
