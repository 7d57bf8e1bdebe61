/**
 * /admin/customers/create (issue 23, ADR 063): a new customer account — company name, corporate
 * name, billing e-mail, currency and, for the platform's staff, whether it is a reseller. A
 * reseller's new account is its own customer. The form carries an idempotency key made with the
 * page, so posting it twice (a double press, a resubmission) creates one account. A plain form
 * (works without JavaScript): errors next to each field; on success the customer's page, where its
 * owner is attached next.
 */
import { randomUUID } from "node:crypto";
import { getFormProps, useForm } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { createCustomer, isStaff } from "~api/customers/admin";
import { reach } from "~api/customers/customers";
import { listCurrencies } from "~api/accounts/services";
import { SelectField } from "~/components/forms/controls";
import { CsrfInput, FormErrors, TextField } from "~/components/forms/fields";
import { PageHeader } from "~/components/shell/page-header";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader } from "~/components/ui/card";
import { orHttpError, requireRoute } from "~/lib/auth.server";
import { handleForm, type FormReply } from "~/lib/forms.server";
import { redirectWithToast } from "~/lib/toast.server";
import { createCustomerFormSchema } from "~/forms/admin-customer";
import { useLazyValidate } from "~/lib/lazy-validate";

export const handle = { crumb: "customers:crumbs.create" };

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  await orHttpError(Promise.resolve().then(() => reach(ctx)));
  const currencies = (await listCurrencies()).map((c) => c.code.trim());
  return json({ currencies, staff: isStaff(ctx), key: randomUUID() }, { headers: { "Cache-Control": "private, no-store" } });
}

export async function action({ request }: ActionFunctionArgs) {
  const ctx = await requireRoute(request);
  return handleForm(request, createCustomerFormSchema, async ({ key, ...v }) => {
    const { data } = await createCustomer(ctx, v, key);
    return redirectWithToast(request, `/admin/customers/${data.id}`, { type: "success", title: "customers:create.done" });
  });
}

export default function CreateCustomer() {
  const { currencies, staff, key } = useLoaderData<typeof loader>();
  const last = useActionData<FormReply>();
  const busy = useNavigation().state === "submitting";
  const { t } = useTranslation("customers");
  const [form, fields] = useForm({
    lastResult: last?.result,
    defaultValue: { currency: "BRL", type: "customer" },
    onValidate: useLazyValidate(() => import("~/forms/admin-customer").then((m) => m.createCustomerFormSchema)),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  return (
    <div className="space-y-6">
      <PageHeader description={t("create.description")} />
      <Card className="max-w-xl">
        <CardHeader>
          <h2 className="leading-none font-semibold">{t("create.title")}</h2>
          <CardDescription>{t("create.hint")}</CardDescription>
        </CardHeader>
        <CardContent>
          <Form method="post" {...getFormProps(form)} className="space-y-4">
            <CsrfInput />
            <input type="hidden" name="key" value={key} />
            <FormErrors errors={form.errors} />
            <TextField field={fields.name} label={t("fields.name")} autoComplete="off" />
            <TextField field={fields.corporate_name} label={t("fields.corporateName")} autoComplete="off" />
            <TextField field={fields.billing_email} label={t("fields.billingEmail")} type="email" autoComplete="off" />
            <SelectField field={fields.currency} label={t("fields.currency")} options={currencies.map((c) => ({ value: c, label: c }))} />
            {staff ? (
              <SelectField
                field={fields.type}
                label={t("fields.type")}
                options={[
                  { value: "customer", label: t("types.customer") },
                  { value: "reseller", label: t("types.reseller") },
                ]}
              />
            ) : null}
            <Button type="submit" disabled={busy}>
              {t("create.submit")}
            </Button>
          </Form>
        </CardContent>
      </Card>
      <Link to="/admin/customers" className="inline-block text-sm underline">
        {t("detail.back")}
      </Link>
    </div>
  );
}
