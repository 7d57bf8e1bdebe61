/**
 * /admin/plans/create (issue 23, ADR 064): the platform's staff create a plan — name, service,
 * price in reais, currency, billing cycle, trial and its days, permissions as checkboxes, active.
 * A plain form (works without JavaScript), errors translated next to each field; on success the
 * list with a toast.
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useActionData, useNavigation } from "@remix-run/react";
import { PlanForm } from "~/components/admin-catalogue/plan-form";
import { PageHeader } from "~/components/shell/page-header";
import { Card, CardContent, CardDescription, CardHeader } from "~/components/ui/card";
import { requireRoute } from "~/lib/auth.server";
import { handleForm, type FormReply } from "~/lib/forms.server";
import { useTranslation } from "~/lib/react-i18n";
import { redirectWithToast } from "~/lib/toast.server";
import { planFormSchema, planInputOf } from "~/forms/admin-catalogue";
import { createAdminPlan, managesPlans } from "~api/plans/admin";

export const handle = { crumb: "adminCatalogue:crumbs.planCreate" };

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  if (!managesPlans(ctx.actor)) throw new Response("FORBIDDEN", { status: 403 });
  return json({}, { headers: { "Cache-Control": "private, no-store" } });
}

export async function action({ request }: ActionFunctionArgs) {
  const ctx = await requireRoute(request);
  return handleForm(request, planFormSchema, async (v) => {
    const { data } = await createAdminPlan(ctx, planInputOf(v));
    return redirectWithToast(request, "/admin/plans", { type: "success", title: "adminCatalogue:plans.created", params: { name: data.name } });
  });
}

export default function CreatePlan() {
  const last = useActionData<FormReply>();
  const busy = useNavigation().state === "submitting";
  const { t } = useTranslation("adminCatalogue");
  return (
    <div className="space-y-6">
      <PageHeader description={t("plans.createDescription")} />
      <Card className="max-w-xl">
        <CardHeader>
          <h2 className="leading-none font-semibold">{t("plans.create")}</h2>
          <CardDescription>{t("plans.pricesHint")}</CardDescription>
        </CardHeader>
        <CardContent>
          <PlanForm
            id="plan-create"
            last={last}
            busy={busy}
            submit={t("plans.create")}
            defaults={{ service: "sms", currency: "BRL", billing_cycle: "monthly", price: "0,00", active: "on" }}
          />
        </CardContent>
      </Card>
      <Link to="/admin/plans" className="inline-block text-sm underline">
        {t("plans.back")}
      </Link>
    </div>
  );
}
