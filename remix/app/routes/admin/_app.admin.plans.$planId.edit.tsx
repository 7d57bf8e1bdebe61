/**
 * /admin/plans/{planId}/edit (issue 23, ADR 064): one plan's form (as create) and "Delete plan".
 * While accounts hold it, its service, currency and billing cycle stay (a field error says so) and
 * deleting is refused with the translated reason (PLAN_IN_USE: uncheck Active instead); a plan only
 * ended plans name is deactivated rather than deleted, and the toast says which. Plain forms
 * switched by `intent`: everything works without JavaScript; each success redirects with a toast.
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { PlanForm } from "~/components/admin-catalogue/plan-form";
import { FormErrors } from "~/components/forms/fields";
import { IntentForm } from "~/components/forms/intent-form";
import { PageHeader } from "~/components/shell/page-header";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader } from "~/components/ui/card";
import { orHttpError, requireRoute } from "~/lib/auth.server";
import { handleForm, type FormReply } from "~/lib/forms.server";
import { reaisText } from "~/lib/money-input";
import { useTranslation } from "~/lib/react-i18n";
import { redirectWithToast } from "~/lib/toast.server";
import { deletePlanSchema, planFormSchema, planInputOf } from "~/forms/admin-catalogue";
import { deleteAdminPlan, getAdminPlan, updateAdminPlan } from "~api/plans/admin";
import { PLAN_PERMISSIONS } from "~api/plans/constants";

export const handle = {
  crumb: (data: unknown) => ({ key: "adminCatalogue:crumbs.planEdit", params: { name: (data as { plan?: { name?: string } } | undefined)?.plan?.name ?? "" } }),
};

export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  const { data } = await orHttpError(getAdminPlan(ctx, params.planId ?? ""));
  return json({ plan: data }, { headers: { "Cache-Control": "private, no-store" } });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const ctx = await requireRoute(request);
  const id = params.planId ?? "";
  const intent = (await request.clone().formData()).get("intent");
  if (intent === "delete") {
    return handleForm(request, deletePlanSchema, async () => {
      const r = await deleteAdminPlan(ctx, id);
      return redirectWithToast(request, "/admin/plans", { type: "success", title: r.outcome === "deleted" ? "adminCatalogue:plans.deleted" : "adminCatalogue:plans.deactivated" });
    });
  }
  return handleForm(request, planFormSchema, async (v) => {
    await updateAdminPlan(ctx, id, planInputOf(v));
    return redirectWithToast(request, `/admin/plans/${id}/edit`, { type: "success", title: "adminCatalogue:plans.saved" });
  });
}

export default function EditPlan() {
  const { plan: p } = useLoaderData<typeof loader>();
  const last = useActionData<FormReply>();
  const nav = useNavigation();
  const busy = nav.state === "submitting";
  const { t } = useTranslation("adminCatalogue");
  const deleting = last && (last.result as { initialValue?: { intent?: string } })?.initialValue?.intent === "delete";
  const on = (b: boolean) => (b ? "on" : "");
  const defaults: Record<string, string> = {
    name: p.name,
    service: p.service,
    price: reaisText(p.price),
    currency: p.currency,
    billing_cycle: p.billing_cycle,
    is_trial: on(p.is_trial),
    duration_days: p.duration_days === null ? "" : String(p.duration_days),
    active: on(p.active),
    ...Object.fromEntries(PLAN_PERMISSIONS.map((k) => [k, on(p.permissions[k] === true)])),
  };
  return (
    <div className="space-y-6">
      <PageHeader description={p.name} />
      <p className="text-sm text-muted-foreground" data-holders={p.holders}>
        {t("plans.heldBy", { count: p.holders })}
      </p>
      <div className="grid gap-6 md:grid-cols-2">
        <Card>
          <CardHeader>
            <h2 className="leading-none font-semibold">{t("plans.edit")}</h2>
            <CardDescription>{p.holders > 0 ? t("plans.heldHint") : t("plans.pricesHint")}</CardDescription>
          </CardHeader>
          <CardContent>
            <PlanForm id={`plan-${p.id}-${p.updated_at}`} last={deleting ? undefined : last} busy={busy} submit={t("plans.save")} defaults={defaults} />
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <h2 className="leading-none font-semibold">{t("plans.delete")}</h2>
            <CardDescription>{t("plans.deleteHint")}</CardDescription>
          </CardHeader>
          <CardContent className="space-y-3">
            {deleting ? <FormErrors errors={(last.result as { error?: Record<string, string[]> }).error?.[""]} /> : null}
            <IntentForm intent="delete">
              <Button type="submit" variant="destructive" disabled={busy}>
                {t("plans.delete")}
              </Button>
            </IntentForm>
          </CardContent>
        </Card>
      </div>
      <Link to="/admin/plans" className="inline-block text-sm underline">
        {t("plans.back")}
      </Link>
    </div>
  );
}
