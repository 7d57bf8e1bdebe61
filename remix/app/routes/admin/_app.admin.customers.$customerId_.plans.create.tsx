/**
 * /admin/customers/{customerId}/plans/create (issue 23, ADR 064): the platform's staff give a
 * customer a plan of the catalogue. It is the customer's own plan change (ADR 045) done for it: a
 * plan that renews starts its period today (or, replacing one of the same service inside its
 * period, pays the difference pro rata), its fee debited from the customer's balance as a
 * `plan_fee` posting; when balance and credit limit do not cover it the form says so on the plan
 * and nothing changes. A plain form; on success the customer's plan with a toast.
 */
import { getFormProps, useForm } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation, useRouteLoaderData } from "@remix-run/react";
import { SelectField } from "~/components/forms/controls";
import { CsrfInput, FormErrors } from "~/components/forms/fields";
import { PageHeader } from "~/components/shell/page-header";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader } from "~/components/ui/card";
import { orHttpError, requireRoute } from "~/lib/auth.server";
import { formatMoney } from "~/lib/format";
import { handleForm, type FormReply } from "~/lib/forms.server";
import type { Lng } from "~/lib/i18n";
import { useLazyValidate } from "~/lib/lazy-validate";
import { useTranslation } from "~/lib/react-i18n";
import { redirectWithToast } from "~/lib/toast.server";
import type { RootData } from "~/root";
import { assignPlanFormSchema } from "~/forms/admin-catalogue";
import { customerInReach } from "~api/customers/customers";
import { listAdminPlans, managesPlans } from "~api/plans/admin";
import { assignCustomerPlan } from "~api/plans/customer-plans";

export const handle = { crumb: "adminCatalogue:crumbs.customerPlanCreate" };

export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  const customer = await orHttpError(customerInReach(ctx, params.customerId ?? ""));
  if (!managesPlans(ctx.actor)) throw new Response("FORBIDDEN", { status: 403 });
  const { data } = await listAdminPlans(ctx);
  const plans = data
    .filter((p) => p.active && !p.is_trial)
    .map((p) => ({ id: p.id, name: p.name, service: p.service, price: p.price, currency: p.currency, cycle: p.billing_cycle }));
  return json({ customer, plans }, { headers: { "Cache-Control": "private, no-store" } });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const ctx = await requireRoute(request);
  const id = params.customerId ?? "";
  return handleForm(request, assignPlanFormSchema, async (v) => {
    const { data } = await assignCustomerPlan(ctx, id, { plan_id: v.plan_id });
    return redirectWithToast(request, `/admin/customers/${id}/plans/${data.plan_id}`, { type: "success", title: "adminCatalogue:customerPlans.assigned" });
  });
}

export default function AssignPlan() {
  const { customer, plans } = useLoaderData<typeof loader>();
  const last = useActionData<FormReply>();
  const busy = useNavigation().state === "submitting";
  const lng = (useRouteLoaderData<RootData>("root")?.lng ?? "pt-BR") as Lng;
  const { t } = useTranslation(["adminCatalogue", "plans"]);
  const [form, fields] = useForm({
    lastResult: last?.result,
    onValidate: useLazyValidate(() => import("~/forms/admin-catalogue").then((m) => m.assignPlanFormSchema)),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  const options = plans.map((p) => ({
    value: p.id,
    label: `${t(`plans:services.${p.service}`)} · ${p.name} · ${formatMoney(p.price, p.currency, lng)} ${t(`plans:cycles.${p.cycle}`)}`,
  }));
  return (
    <div className="space-y-6">
      <PageHeader description={customer.name} />
      <Card className="max-w-xl">
        <CardHeader>
          <h2 className="leading-none font-semibold">{t("adminCatalogue:customerPlans.assign")}</h2>
          <CardDescription>{t("adminCatalogue:customerPlans.assignHint")}</CardDescription>
        </CardHeader>
        <CardContent>
          <Form method="post" {...getFormProps(form)} className="space-y-4">
            <CsrfInput />
            <FormErrors errors={form.errors} />
            <SelectField field={fields.plan_id} label={t("adminCatalogue:customerPlans.plan")} options={options} placeholder={t("adminCatalogue:customerPlans.choose")} />
            <Button type="submit" disabled={busy}>
              {t("adminCatalogue:customerPlans.assign")}
            </Button>
          </Form>
        </CardContent>
      </Card>
      <Link to={`/admin/customers/${customer.id}`} className="inline-block text-sm underline">
        {t("adminCatalogue:backToCustomer")}
      </Link>
    </div>
  );
}
