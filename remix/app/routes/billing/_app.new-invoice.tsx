/**
 * /new-invoice: top up the prepaid balance (issue 18, ADR 043). The amount in reais; the top-up is a
 * pending invoice charged as Pix at the payment provider, and the screen goes on to the invoice
 * (/invoice/{id}) with its QR code and "copia e cola". A plain form: works without JavaScript.
 */
import { getFormProps, useForm } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { Form, useActionData, useNavigation } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { createTopup, TOPUP_MAX, TOPUP_MIN } from "~api/billing/invoices";
import { CsrfInput, FormErrors, TextField } from "~/components/forms/fields";
import { PageHeader } from "~/components/shell/page-header";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader } from "~/components/ui/card";
import { requireRoute } from "~/lib/auth.server";
import { handleForm, type FormReply } from "~/lib/forms.server";
import { newInvoiceSchema } from "~/forms/billing";
import { useLazyValidate } from "~/lib/lazy-validate";

export const handle = { crumb: "billing:crumbs.newInvoice" };

export async function loader({ request }: LoaderFunctionArgs) {
  await requireRoute(request);
  return json({ min: TOPUP_MIN, max: TOPUP_MAX }, { headers: { "Cache-Control": "private, no-store" } });
}

export async function action({ request }: ActionFunctionArgs) {
  const ctx = await requireRoute(request);
  return handleForm(request, newInvoiceSchema, async ({ amount }) => {
    const { data } = await createTopup(ctx, { amount });
    return redirect(`/invoice/${data.id}`);
  });
}

export default function NewInvoice() {
  const last = useActionData<FormReply>();
  const busy = useNavigation().state === "submitting";
  const { t } = useTranslation("billing");
  const [form, fields] = useForm({
    id: "new-invoice",
    lastResult: last?.result,
    onValidate: useLazyValidate(() => import("~/forms/billing").then((m) => m.newInvoiceSchema)),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  return (
    <div className="space-y-6">
      <PageHeader description={t("newInvoice.description")} />
      <Card className="max-w-md">
        <CardHeader>
          <h2 className="leading-none font-semibold">{t("newInvoice.title")}</h2>
          <CardDescription>{t("newInvoice.limits")}</CardDescription>
        </CardHeader>
        <CardContent>
          <Form method="post" {...getFormProps(form)} className="space-y-4">
            <CsrfInput />
            <FormErrors errors={form.errors} />
            <TextField field={fields.amount} label={t("newInvoice.amount")} description={t("newInvoice.amountHint")} autoComplete="off" />
            <Button type="submit" className="w-full" disabled={busy}>
              {t("newInvoice.submit")}
            </Button>
          </Form>
        </CardContent>
      </Card>
    </div>
  );
}
