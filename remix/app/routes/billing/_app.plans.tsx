/**
 * /plans: the catalogue of plans by service (issue 18), the account's current plan marked; each
 * plan opens its page (/billing/plans/{id}) with what changing to it costs now. No script needed.
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { listPlans } from "~api/plans/services";
import { PlanFeatures, PlanPrice } from "~/components/billing/plan-bits";
import { PageHeader } from "~/components/shell/page-header";
import { Badge } from "~/components/ui/badge";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { orHttpError, requireRoute } from "~/lib/auth.server";
import type { Lng } from "~/lib/i18n";
import type { RootData } from "~/root";

export const handle = { crumb: "plans:crumbs.plans" };

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  const plans = await orHttpError(listPlans(ctx));
  return json({ plans: plans.filter((p) => !p.is_trial || p.current) }, { headers: { "Cache-Control": "private, no-store" } });
}

export default function Plans() {
  const { plans } = useLoaderData<typeof loader>();
  const lng = (useRouteLoaderData<RootData>("root")?.lng ?? "pt-BR") as Lng;
  const { t } = useTranslation("plans");
  const services = [...new Set(plans.map((p) => p.service))];
  return (
    <div className="space-y-6">
      <PageHeader description={t("plans.description")} />
      <Link to="/billing/upgrade" className="inline-block text-sm font-medium underline">
        {t("billing.compare")}
      </Link>
      {services.map((service) => (
        <section key={service} className="space-y-3" data-service={service}>
          <h2 className="text-lg font-semibold">{t(`services.${service}`, { defaultValue: service })}</h2>
          <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
            {plans
              .filter((p) => p.service === service)
              .map((p) => (
                <Card key={p.id} data-plan={p.name} className={p.current ? "border-primary" : undefined}>
                  <CardHeader>
                    <CardTitle className="flex items-center justify-between gap-2">
                      {p.name}
                      {p.current ? <Badge>{t("plans.current")}</Badge> : null}
                      {p.is_trial ? <Badge variant="warning">{t("plans.trialBadge")}</Badge> : null}
                    </CardTitle>
                  </CardHeader>
                  <CardContent className="space-y-3">
                    <PlanPrice plan={p} lng={lng} />
                    <PlanFeatures plan={p} />
                    <Link to={`/billing/plans/${p.id}`} className="inline-block text-sm font-medium underline">
                      {t("plans.see")}
                    </Link>
                  </CardContent>
                </Card>
              ))}
          </div>
        </section>
      ))}
    </div>
  );
}
