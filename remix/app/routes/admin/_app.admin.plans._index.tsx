/**
 * /admin/plans (issue 23, ADR 064): every plan of the platform, active or not, with how many
 * accounts hold it; a service filter (a GET form); each row opens its edit page. Platform staff only.
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { PageHeader } from "~/components/shell/page-header";
import { Button } from "~/components/ui/button";
import { Card, CardContent } from "~/components/ui/card";
import { Label } from "~/components/ui/label";
import { NativeSelect, NativeSelectOption } from "~/components/ui/native-select";
import { orHttpError, requireRoute } from "~/lib/auth.server";
import { formatMoney } from "~/lib/format";
import type { Lng } from "~/lib/i18n";
import { useTranslation } from "~/lib/react-i18n";
import type { RootData } from "~/root";
import { listAdminPlans } from "~api/plans/admin";
import { PLAN_PERMISSIONS, PLAN_SERVICES } from "~api/plans/constants";

export const handle = { crumb: "adminCatalogue:crumbs.plans" };

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  const service = new URL(request.url).searchParams.get("service") ?? "";
  const known = (PLAN_SERVICES as readonly string[]).includes(service) ? service : "";
  const page = await orHttpError(listAdminPlans(ctx, { service: known || undefined }));
  return json({ ...page, service: known }, { headers: { "Cache-Control": "private, no-store" } });
}

export default function AdminPlans() {
  const { data, service } = useLoaderData<typeof loader>();
  const lng = (useRouteLoaderData<RootData>("root")?.lng ?? "pt-BR") as Lng;
  const { t } = useTranslation(["adminCatalogue", "plans"]);
  return (
    <div className="space-y-6">
      <PageHeader description={t("adminCatalogue:plans.description")} />
      <div className="flex flex-wrap items-end justify-between gap-4">
        <Form method="get" className="flex items-end gap-2">
          <div className="grid gap-1">
            <Label htmlFor="plans-service">{t("adminCatalogue:plans.fields.service")}</Label>
            <NativeSelect id="plans-service" name="service" defaultValue={service}>
              <NativeSelectOption value="">{t("adminCatalogue:filters.all")}</NativeSelectOption>
              {PLAN_SERVICES.map((s) => (
                <NativeSelectOption key={s} value={s}>
                  {t(`plans:services.${s}`)}
                </NativeSelectOption>
              ))}
            </NativeSelect>
          </div>
          <Button type="submit" variant="outline">
            {t("adminCatalogue:filters.apply")}
          </Button>
        </Form>
        <Button asChild>
          <Link to="/admin/plans/create">{t("adminCatalogue:plans.create")}</Link>
        </Button>
      </div>
      <Card>
        <CardContent className="overflow-x-auto pt-6">
          {data.length === 0 ? (
            <p className="py-6 text-center text-sm text-muted-foreground">{t("adminCatalogue:plans.empty")}</p>
          ) : (
            <table className="w-full text-sm">
              <thead>
                <tr className="text-left text-muted-foreground">
                  <th className="py-2">{t("adminCatalogue:plans.fields.name")}</th>
                  <th>{t("adminCatalogue:plans.fields.service")}</th>
                  <th className="text-right">{t("adminCatalogue:plans.fields.price")}</th>
                  <th className="pl-4">{t("adminCatalogue:plans.fields.billingCycle")}</th>
                  <th>{t("adminCatalogue:plans.fields.permissions")}</th>
                  <th className="text-right">{t("adminCatalogue:plans.holders")}</th>
                  <th className="pl-4">{t("adminCatalogue:plans.status")}</th>
                </tr>
              </thead>
              <tbody>
                {data.map((p) => (
                  <tr key={p.id} data-plan-id={p.id} className="border-t">
                    <td className="py-2">
                      <Link to={`/admin/plans/${p.id}/edit`} className="underline">
                        {p.name}
                      </Link>
                      {p.is_trial ? <span className="ml-2 text-xs text-muted-foreground">{t("plans:plans.trialBadge")}</span> : null}
                    </td>
                    <td>{t(`plans:services.${p.service}`)}</td>
                    <td className="text-right">{formatMoney(p.price, p.currency, lng)}</td>
                    <td className="pl-4">{t(`plans:cycles.${p.billing_cycle}`)}</td>
                    <td>
                      {PLAN_PERMISSIONS.filter((k) => p.permissions[k])
                        .map((k) => t(`plans:permissions.${k}`))
                        .join(", ") || "—"}
                    </td>
                    <td className="text-right">{p.holders}</td>
                    <td className="pl-4">{p.active ? t("adminCatalogue:plans.active") : t("adminCatalogue:plans.inactive")}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </CardContent>
      </Card>
    </div>
  );
}
