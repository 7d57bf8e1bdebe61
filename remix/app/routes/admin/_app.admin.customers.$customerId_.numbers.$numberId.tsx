/**
 * /admin/customers/{customerId}/numbers/{numberId} (issue 23, ADR 063): one of the customer's
 * "numbers" — a WhatsApp number it connected (what /numbers/active lists beside its short codes;
 * the short codes have their own pages) — with what Meta or the BSP reports about it (display
 * number, verified name, quality rating, messaging limit), its templates, and the monthly price
 * the platform charges for it, which the staff change here. A plain form: no JavaScript needed.
 */
import { getFormProps, useForm } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation, useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { getCustomerNumber, isStaff, updateCustomerNumber } from "~api/customers/admin";
import { CsrfInput, FormErrors, TextField } from "~/components/forms/fields";
import { PageHeader } from "~/components/shell/page-header";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader } from "~/components/ui/card";
import { orHttpError, requireRoute } from "~/lib/auth.server";
import { formatDate, formatMoney } from "~/lib/format";
import { handleForm, type FormReply } from "~/lib/forms.server";
import type { Lng } from "~/lib/i18n";
import { reaisText } from "~/lib/money-input";
import { redirectWithToast } from "~/lib/toast.server";
import type { RootData } from "~/root";
import { numberFormSchema } from "~/forms/admin-customer";
import { useLazyValidate } from "~/lib/lazy-validate";

export const handle = {
  crumb: (data: unknown) => ({
    key: "customers:crumbs.number",
    params: { number: (data as { number?: { display_phone_number?: string } } | undefined)?.number?.display_phone_number ?? "" },
  }),
};

export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  const { data } = await orHttpError(getCustomerNumber(ctx, params.customerId ?? "", params.numberId ?? ""));
  return json({ number: data, staff: isStaff(ctx) }, { headers: { "Cache-Control": "private, no-store" } });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const ctx = await requireRoute(request);
  const customerId = params.customerId ?? "";
  const numberId = params.numberId ?? "";
  return handleForm(request, numberFormSchema, async (v) => {
    await updateCustomerNumber(ctx, customerId, numberId, v);
    return redirectWithToast(request, `/admin/customers/${customerId}/numbers/${numberId}`, { type: "success", title: "customers:numbers.saved" });
  });
}

export default function CustomerNumber() {
  const { number: n, staff } = useLoaderData<typeof loader>();
  const last = useActionData<FormReply>();
  const busy = useNavigation().state === "submitting";
  const lng = (useRouteLoaderData<RootData>("root")?.lng ?? "pt-BR") as Lng;
  const { t } = useTranslation("customers");
  const [form, fields] = useForm({
    id: `number-${n.id}-${n.updated_at}`,
    lastResult: last?.result,
    defaultValue: { monthly_price: reaisText(n.monthly_price) },
    onValidate: useLazyValidate(() => import("~/forms/admin-customer").then((m) => m.numberFormSchema)),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  return (
    <div className="space-y-6">
      <PageHeader description={t("numbers.pageDescription")} />
      <Card className="max-w-xl">
        <CardHeader>
          <h2 className="leading-none font-semibold">{n.display_phone_number || n.phone_number_id}</h2>
          <CardDescription>{n.verified_name}</CardDescription>
        </CardHeader>
        <CardContent>
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm" data-number={n.id}>
            <dt className="text-muted-foreground">{t("numbers.integration")}</dt>
            <dd>{t(`numbers.integrations.${n.integration}`)}</dd>
            <dt className="text-muted-foreground">{t("numbers.phoneNumberId")}</dt>
            <dd className="font-mono">{n.phone_number_id}</dd>
            {n.waba_id ? (
              <>
                <dt className="text-muted-foreground">{t("numbers.waba")}</dt>
                <dd className="font-mono">{n.waba_id}</dd>
              </>
            ) : null}
            <dt className="text-muted-foreground">{t("numbers.quality")}</dt>
            <dd>{n.quality_rating}</dd>
            <dt className="text-muted-foreground">{t("numbers.limit")}</dt>
            <dd>{n.messaging_limit || "—"}</dd>
            <dt className="text-muted-foreground">{t("numbers.templates")}</dt>
            <dd>{n.templates}</dd>
            <dt className="text-muted-foreground">{t("numbers.monthlyPrice")}</dt>
            <dd data-col="price">{formatMoney(n.monthly_price, "BRL", lng)}</dd>
            <dt className="text-muted-foreground">{t("numbers.since")}</dt>
            <dd>{formatDate(n.created_at, lng)}</dd>
          </dl>
        </CardContent>
      </Card>
      {staff ? (
        <Card className="max-w-xl">
          <CardHeader>
            <h2 className="leading-none font-semibold">{t("numbers.priceTitle")}</h2>
            <CardDescription>{t("numbers.priceDescription")}</CardDescription>
          </CardHeader>
          <CardContent>
            <Form method="post" {...getFormProps(form)} className="space-y-4">
              <CsrfInput />
              <FormErrors errors={form.errors} />
              <TextField field={fields.monthly_price} label={t("numbers.monthlyPrice")} description={t("shortCodes.priceHint")} autoComplete="off" />
              <Button type="submit" disabled={busy}>
                {t("numbers.save")}
              </Button>
            </Form>
          </CardContent>
        </Card>
      ) : null}
      <Link to={`/admin/customers/${n.account_id}?tab=shortcodes`} className="inline-block text-sm underline">
        {t("shortCodes.back")}
      </Link>
    </div>
  );
}
