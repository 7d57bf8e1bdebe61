/**
 * /billing/plans/{planId}: one plan (issue 18, ADR 045): its price, billing and features, and what
 * changing the account to it costs now (pro rata for the part of the current period left, or a new
 * period paid whole); the change is a plain form (works without JavaScript), debited or returned
 * through the ledger, and the screen goes on to /billing with what happened.
 */
import { getFormProps, useForm } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation, useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { changePlan, quotePlanChange } from "~api/plans/change";
import { getPlan } from "~api/plans/services";
import { canWrite } from "~api/policy/policy";
import { z } from "~api/lib/zod";
import { PlanFeatures, PlanPrice } from "~/components/billing/plan-bits";
import { CsrfInput, FormErrors } from "~/components/forms/fields";
import { PageHeader } from "~/components/shell/page-header";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { orHttpError, requireRoute } from "~/lib/auth.server";
import { formatDate, formatMoney } from "~/lib/format";
import { handleForm, type FormReply } from "~/lib/forms.server";
import type { Lng } from "~/lib/i18n";
import type { RootData } from "~/root";

export const handle = { crumb: "plans:crumbs.plan" };

const schema = z.object({});
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  if (!UUID.test(params.planId ?? "")) throw new Response("Not found", { status: 404 });
  const [plan, quote] = await Promise.all([orHttpError(getPlan(ctx, params.planId!)), orHttpError(quotePlanChange(ctx, params.planId!))]);
  return json({ plan, quote, canChange: canWrite(ctx.actor, "plans") }, { headers: { "Cache-Control": "private, no-store" } });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const ctx = await requireRoute(request);
  if (!UUID.test(params.planId ?? "")) throw new Response("Not found", { status: 404 });
  return handleForm(request, schema, async () => {
    const done = await changePlan(ctx, params.planId!);
    return redirect(`/billing?changed=${done.plan_id}&charged=${done.charged}`);
  });
}

export default function PlanPage() {
  const { plan, quote, canChange } = useLoaderData<typeof loader>();
  const last = useActionData<FormReply>();
  const busy = useNavigation().state === "submitting";
  const lng = (useRouteLoaderData<RootData>("root")?.lng ?? "pt-BR") as Lng;
  const { t } = useTranslation("plans");
  const [form, fields] = useForm({ id: "change-plan", lastResult: last?.result });
  const amount = formatMoney(Math.abs(quote.amount), quote.currency, lng);
  const errors = [...(form.errors ?? []), ...((fields as Record<string, { errors?: string[] }>).plan?.errors ?? [])];
  return (
    <div className="space-y-6">
      <PageHeader description={t("plan.description")} />
      <Card className="max-w-xl" data-plan={plan.name}>
        <CardHeader>
          <CardTitle>{plan.name}</CardTitle>
          <p className="text-sm text-muted-foreground">{t(`services.${plan.service}`, { defaultValue: plan.service })}</p>
        </CardHeader>
        <CardContent className="space-y-4">
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
            <dt className="text-muted-foreground">{t("plan.price")}</dt>
            <dd>
              <PlanPrice plan={plan} lng={lng} />
            </dd>
          </dl>
          <PlanFeatures plan={plan} />
          {quote.current ? (
            <p className="text-sm font-medium" data-testid="plan-current">
              {t("plan.isCurrent")}
            </p>
          ) : (
            <div className="space-y-3 rounded-md border p-3" data-testid="plan-quote">
              <p className="text-sm font-medium">{quote.amount > 0 ? t("plan.costNow", { amount }) : quote.amount < 0 ? t("plan.refundNow", { amount }) : t("plan.freeNow")}</p>
              {quote.prorated && quote.period_end ? (
                <p className="text-sm text-muted-foreground">{t("plan.prorated", { date: formatDate(quote.period_end, lng) })}</p>
              ) : quote.period_end ? (
                <p className="text-sm text-muted-foreground">{t("plan.newPeriod", { date: formatDate(quote.period_end, lng) })}</p>
              ) : plan.price > 0 ? (
                <p className="text-sm text-muted-foreground">{t("plan.oneOff")}</p>
              ) : null}
              {canChange ? (
                <Form method="post" {...getFormProps(form)} className="space-y-3">
                  <CsrfInput />
                  <FormErrors errors={errors} />
                  <Button type="submit" disabled={busy}>
                    {t("plan.change")}
                  </Button>
                </Form>
              ) : (
                <p className="text-sm text-muted-foreground">{t("plan.noPermission")}</p>
              )}
            </div>
          )}
          <Link to="/plans" className="inline-block text-sm underline">
            {t("plan.back")}
          </Link>
        </CardContent>
      </Card>
    </div>
  );
}
