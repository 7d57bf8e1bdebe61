/**
 * /admin/customers/{customerId}/plans/{planId} (issue 23, ADR 064): one plan of a customer — its
 * price, cycle, permissions, start, paid period and end — and, for the platform's staff while it is
 * held, "End plan" (at once: it does not renew, its features close, nothing is returned). A
 * reseller's owner or admin reads its own customers' plans without the button. Works without JavaScript.
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useActionData, useLoaderData, useNavigation, useRouteLoaderData } from "@remix-run/react";
import { FormErrors } from "~/components/forms/fields";
import { IntentForm } from "~/components/forms/intent-form";
import { PageHeader } from "~/components/shell/page-header";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader } from "~/components/ui/card";
import { orHttpError, requireRoute } from "~/lib/auth.server";
import { formatDate, formatMoney } from "~/lib/format";
import { handleForm, type FormReply } from "~/lib/forms.server";
import type { Lng } from "~/lib/i18n";
import { useTranslation } from "~/lib/react-i18n";
import { redirectWithToast } from "~/lib/toast.server";
import type { RootData } from "~/root";
import { endPlanSchema } from "~/forms/admin-catalogue";
import { managesPlans } from "~api/plans/admin";
import { endCustomerPlan, getCustomerPlan } from "~api/plans/customer-plans";
import { PLAN_PERMISSIONS } from "~api/plans/constants";

export const handle = {
  crumb: (data: unknown) => ({ key: "adminCatalogue:crumbs.customerPlan", params: { name: (data as { plan?: { name?: string } } | undefined)?.plan?.name ?? "" } }),
};

export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  const { data } = await orHttpError(getCustomerPlan(ctx, params.customerId ?? "", params.planId ?? ""));
  return json({ plan: data, canEnd: managesPlans(ctx.actor) }, { headers: { "Cache-Control": "private, no-store" } });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const ctx = await requireRoute(request);
  const customerId = params.customerId ?? "";
  const planId = params.planId ?? "";
  return handleForm(request, endPlanSchema, async () => {
    await endCustomerPlan(ctx, customerId, planId);
    return redirectWithToast(request, `/admin/customers/${customerId}/plans/${planId}`, { type: "success", title: "adminCatalogue:customerPlans.ended" });
  });
}

export default function CustomerPlan() {
  const { plan: p, canEnd } = useLoaderData<typeof loader>();
  const last = useActionData<FormReply>();
  const busy = useNavigation().state === "submitting";
  const lng = (useRouteLoaderData<RootData>("root")?.lng ?? "pt-BR") as Lng;
  const { t } = useTranslation(["adminCatalogue", "plans"]);
  const row = (label: string, value: string) => (
    <div className="grid grid-cols-2 gap-2 border-t py-2 text-sm first:border-t-0">
      <dt className="text-muted-foreground">{label}</dt>
      <dd>{value}</dd>
    </div>
  );
  return (
    <div className="space-y-6">
      <PageHeader description={`${p.customer.name} · ${p.name}`} />
      <Card className="max-w-xl">
        <CardContent className="pt-6">
          <dl data-plan-status={p.current ? "current" : "ended"}>
            {row(t("adminCatalogue:plans.fields.service"), t(`plans:services.${p.service}`))}
            {row(t("adminCatalogue:plans.fields.price"), `${formatMoney(p.price, p.currency, lng)} ${t(`plans:cycles.${p.billing_cycle}`)}`)}
            {row(
              t("adminCatalogue:plans.fields.permissions"),
              PLAN_PERMISSIONS.filter((k) => p.permissions[k])
                .map((k) => t(`plans:permissions.${k}`))
                .join(", ") || "—",
            )}
            {row(t("adminCatalogue:customerPlans.startsAt"), formatDate(p.starts_at, lng, true))}
            {row(t("adminCatalogue:customerPlans.period"), p.period_start ? `${formatDate(p.period_start, lng)} – ${formatDate(p.period_end, lng)}` : t("plans:billing.noRenewal"))}
            {row(
              t("adminCatalogue:customerPlans.status"),
              p.current ? t("adminCatalogue:customerPlans.current") : t("adminCatalogue:customerPlans.endedAt", { date: formatDate(p.ends_at, lng, true) }),
            )}
          </dl>
        </CardContent>
      </Card>
      {canEnd && p.current ? (
        <Card className="max-w-xl">
          <CardHeader>
            <h2 className="leading-none font-semibold">{t("adminCatalogue:customerPlans.end")}</h2>
            <CardDescription>{t("adminCatalogue:customerPlans.endHint")}</CardDescription>
          </CardHeader>
          <CardContent className="space-y-3">
            <FormErrors errors={(last?.result as { error?: Record<string, string[]> } | undefined)?.error?.[""]} />
            <IntentForm intent="end">
              <Button type="submit" variant="destructive" disabled={busy}>
                {t("adminCatalogue:customerPlans.end")}
              </Button>
            </IntentForm>
          </CardContent>
        </Card>
      ) : null}
      <Link to={`/admin/customers/${p.customer.id}`} className="inline-block text-sm underline">
        {t("adminCatalogue:backToCustomer")}
      </Link>
    </div>
  );
}
