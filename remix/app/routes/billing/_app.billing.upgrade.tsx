/**
 * /billing/upgrade: the plans of one service side by side (issue 18): price and billing, each
 * feature yes or no, the account's current plan marked; "Choose" opens the plan's page with what
 * changing costs now (pro rata). The service is a GET form: works without JavaScript.
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { listPlans } from "~api/plans/services";
import { PLAN_PERMISSIONS } from "../../../../models/constants";
import { PlanPrice } from "~/components/billing/plan-bits";
import { PageHeader } from "~/components/shell/page-header";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent } from "~/components/ui/card";
import { NativeSelect, NativeSelectOption } from "~/components/ui/native-select";
import { orHttpError, requireRoute } from "~/lib/auth.server";
import type { Lng } from "~/lib/i18n";
import type { RootData } from "~/root";

export const handle = { crumb: "plans:crumbs.upgrade" };

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  const all = (await orHttpError(listPlans(ctx))).filter((p) => !p.is_trial);
  const services = [...new Set(all.map((p) => p.service))];
  const asked = new URL(request.url).searchParams.get("service");
  // The service asked for; else the one with the most plans to compare.
  const service =
    asked && services.includes(asked) ? asked : ([...services].sort((a, b) => all.filter((p) => p.service === b).length - all.filter((p) => p.service === a).length)[0] ?? null);
  return json({ services, service, plans: all.filter((p) => p.service === service) }, { headers: { "Cache-Control": "private, no-store" } });
}

export default function Upgrade() {
  const { services, service, plans } = useLoaderData<typeof loader>();
  const lng = (useRouteLoaderData<RootData>("root")?.lng ?? "pt-BR") as Lng;
  const { t } = useTranslation("plans");
  return (
    <div className="space-y-6">
      <PageHeader description={t("upgrade.description")} />
      <Form method="get" className="flex max-w-md items-end gap-2">
        <label className="grid flex-1 gap-1 text-sm">
          {t("upgrade.service")}
          <NativeSelect name="service" defaultValue={service ?? undefined}>
            {services.map((s) => (
              <NativeSelectOption key={s} value={s}>
                {t(`services.${s}`, { defaultValue: s })}
              </NativeSelectOption>
            ))}
          </NativeSelect>
        </label>
        <Button type="submit" variant="outline">
          {t("upgrade.show")}
        </Button>
      </Form>
      <Card>
        <CardContent className="overflow-x-auto pt-6">
          {plans.length === 0 ? (
            <p className="py-6 text-center text-sm text-muted-foreground">{t("upgrade.none")}</p>
          ) : (
            <table className="w-full text-sm" data-testid="compare">
              <thead>
                <tr className="text-left">
                  <th className="py-2 text-muted-foreground">{t("upgrade.feature")}</th>
                  {plans.map((p) => (
                    <th key={p.id} scope="col" data-plan={p.name} className="py-2">
                      {p.name} {p.current ? <Badge>{t("upgrade.current")}</Badge> : null}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                <tr className="border-t">
                  <th scope="row" className="py-2 text-left font-normal text-muted-foreground">
                    {t("upgrade.price")}
                  </th>
                  {plans.map((p) => (
                    <td key={p.id}>
                      <PlanPrice plan={p} lng={lng} />
                    </td>
                  ))}
                </tr>
                {PLAN_PERMISSIONS.map((perm) => (
                  <tr key={perm} className="border-t" data-feature={perm}>
                    <th scope="row" className="py-2 text-left font-normal text-muted-foreground">
                      {t(`permissions.${perm}`)}
                    </th>
                    {plans.map((p) => (
                      <td key={p.id}>{(p.permissions as Record<string, boolean | undefined>)[perm] ? t("upgrade.yes") : t("upgrade.no")}</td>
                    ))}
                  </tr>
                ))}
                <tr className="border-t">
                  <td />
                  {plans.map((p) => (
                    <td key={p.id} className="py-2">
                      {p.current ? (
                        <span className="text-muted-foreground">{t("upgrade.current")}</span>
                      ) : (
                        <Link to={`/billing/plans/${p.id}`} className="font-medium underline" data-choose={p.name}>
                          {t("upgrade.choose")}
                        </Link>
                      )}
                    </td>
                  ))}
                </tr>
              </tbody>
            </table>
          )}
        </CardContent>
      </Card>
    </div>
  );
}
