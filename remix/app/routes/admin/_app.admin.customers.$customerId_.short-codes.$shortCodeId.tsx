/**
 * /admin/customers/{customerId}/short-codes/{shortCodeId} (issue 23, ADR 063): one short code of a
 * customer — its number, nickname, carriers, status, monthly price — with the staff's edit form and
 * "Remove from customer" (confirmed in a disclosure; the number goes back to the inventory). A
 * reseller reads it. Plain forms switched by `intent`: no JavaScript needed; each success redirects
 * with a toast.
 */
import { getFormProps, useForm } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation, useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { deleteCustomerShortCode, getCustomerShortCode, isStaff, updateCustomerShortCode } from "~api/customers/admin";
import { ShortCodeFields } from "~/components/customers/short-code-fields";
import { ConfirmDelete } from "~/components/forms/confirm-delete";
import { CsrfInput, FormErrors } from "~/components/forms/fields";
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
import { deleteShortCodeFormSchema, editShortCodeFormSchema } from "~/forms/admin-customer";
import { useLazyValidate } from "~/lib/lazy-validate";

export const handle = {
  crumb: (data: unknown) => ({ key: "customers:crumbs.shortCode", params: { number: (data as { shortCode?: { number?: string } } | undefined)?.shortCode?.number ?? "" } }),
};

export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  const { data } = await orHttpError(getCustomerShortCode(ctx, params.customerId ?? "", params.shortCodeId ?? ""));
  return json({ shortCode: data, staff: isStaff(ctx) }, { headers: { "Cache-Control": "private, no-store" } });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const ctx = await requireRoute(request);
  const customerId = params.customerId ?? "";
  const shortCodeId = params.shortCodeId ?? "";
  const intent = (await request.clone().formData()).get("intent");
  if (intent === "delete") {
    return handleForm(request, deleteShortCodeFormSchema, async () => {
      await deleteCustomerShortCode(ctx, customerId, shortCodeId);
      return redirectWithToast(request, `/admin/customers/${customerId}?tab=shortcodes`, { type: "success", title: "customers:shortCodes.released" });
    });
  }
  return handleForm(request, editShortCodeFormSchema, async ({ intent: _, ...v }) => {
    await updateCustomerShortCode(ctx, customerId, shortCodeId, { ...v, nickname: v.nickname ?? "" });
    return redirectWithToast(request, `/admin/customers/${customerId}/short-codes/${shortCodeId}`, { type: "success", title: "customers:shortCodes.saved" });
  });
}

export default function CustomerShortCode() {
  const { shortCode: s, staff } = useLoaderData<typeof loader>();
  const last = useActionData<FormReply>();
  const busy = useNavigation().state === "submitting";
  const lng = (useRouteLoaderData<RootData>("root")?.lng ?? "pt-BR") as Lng;
  const { t } = useTranslation("customers");
  const [form, fields] = useForm({
    id: `short-code-${s.id}-${s.updated_at}`,
    lastResult: last?.result,
    defaultValue: { nickname: s.nickname, deliverability: s.deliverability, status: s.status, monthly_price: reaisText(s.monthly_price) },
    onValidate: useLazyValidate(() => import("~/forms/admin-customer").then((m) => m.editShortCodeFormSchema)),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  return (
    <div className="space-y-6">
      <PageHeader description={t("shortCodes.pageDescription")} />
      <Card className="max-w-xl">
        <CardHeader>
          <h2 className="leading-none font-semibold">{t("shortCodes.title")}</h2>
        </CardHeader>
        <CardContent>
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm" data-short-code={s.number} data-status={s.status}>
            <dt className="text-muted-foreground">{t("shortCodes.number")}</dt>
            <dd className="font-mono">{s.number}</dd>
            <dt className="text-muted-foreground">{t("shortCodes.nickname")}</dt>
            <dd>{s.nickname}</dd>
            <dt className="text-muted-foreground">{t("shortCodes.deliverability")}</dt>
            <dd data-col="deliverability">{s.deliverability.join(", ") || t("shortCodes.noCarrier")}</dd>
            <dt className="text-muted-foreground">{t("shortCodes.status")}</dt>
            <dd>{t(`shortCodes.statuses.${s.status}`)}</dd>
            <dt className="text-muted-foreground">{t("shortCodes.monthlyPrice")}</dt>
            <dd data-col="price">{formatMoney(s.monthly_price, "BRL", lng)}</dd>
            <dt className="text-muted-foreground">{t("shortCodes.since")}</dt>
            <dd>{formatDate(s.created_at, lng)}</dd>
          </dl>
        </CardContent>
      </Card>
      {staff ? (
        <Card className="max-w-xl">
          <CardHeader>
            <h2 className="leading-none font-semibold">{t("shortCodes.edit")}</h2>
            <CardDescription>{t("shortCodes.editDescription")}</CardDescription>
          </CardHeader>
          <CardContent className="space-y-4">
            <Form method="post" {...getFormProps(form)} className="space-y-4">
              <CsrfInput />
              <input type="hidden" name="intent" value="save" />
              <FormErrors errors={form.errors} />
              <ShortCodeFields fields={fields} />
              <Button type="submit" disabled={busy}>
                {t("shortCodes.save")}
              </Button>
            </Form>
            <ConfirmDelete
              id={s.id}
              summary={t("shortCodes.delete.summary")}
              label={t("shortCodes.delete.label", { number: s.number })}
              body={t("shortCodes.delete.body", { number: s.number })}
              confirm={t("shortCodes.delete.confirm")}
            />
          </CardContent>
        </Card>
      ) : null}
      <Link to={`/admin/customers/${s.account_id}?tab=shortcodes`} className="inline-block text-sm underline">
        {t("shortCodes.back")}
      </Link>
    </div>
  );
}
