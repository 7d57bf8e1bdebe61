/**
 * /admin/sms/reports (issue 23): every customer's outbound SMS in reach (platform staff: all;
 * a reseller: its customers) over a period of São Paulo days (default the last 7, at most 31),
 * filtered by route, provider, status and one customer (a row's link): totals, per status, per
 * route and provider, per customer. api/admin-sms/reports.ts adminSmsReport. A plain GET form.
 */
import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { adminSmsReport } from "~api/admin-sms/reports";
import { amounts, hrefOf, PeriodForm, rateOf, ReachLine } from "~/components/admin-reports/parts";
import { FiguresTable } from "~/components/charts/figures-table";
import { PageHeader } from "~/components/shell/page-header";
import { formatCount } from "~/components/sms-reports/format";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { Label } from "~/components/ui/label";
import { Input } from "~/components/ui/input";
import { NativeSelect, NativeSelectOption } from "~/components/ui/native-select";
import { NO_STORE, periodReport } from "~/lib/admin-reports.server";
import type { Lng } from "~/lib/i18n";
import { useTranslation } from "~/lib/react-i18n";
import type { RootData } from "~/root";

export const handle = { crumb: "adminReports:crumbs.reports" };
const PATH = "/admin/sms/reports";
const ROUTES = ["T1", "T2", "T4", "T6"];
const STATUSES = ["scheduled", "queued", "sending", "sent", "delivered", "failed", "unavailable", "rejected", "optout"];

export async function loader({ request }: LoaderFunctionArgs) {
  const out = await periodReport(request, ["route", "provider", "status"], adminSmsReport);
  return json(out, { headers: NO_STORE });
}

export default function AdminSmsReportsScreen() {
  const { report: r, values, errors } = useLoaderData<typeof loader>();
  const lng = (useRouteLoaderData<RootData>("root")?.lng ?? "pt-BR") as Lng;
  const { t } = useTranslation("adminReports");
  const n = (v: number) => formatCount(v, lng);
  const keep = { from: values.from, to: values.to, route: values.route, provider: values.provider, status: values.status };
  return (
    <div className="space-y-6">
      <PageHeader description={t("description.reports")} />
      <PeriodForm action={PATH} values={{ from: r?.from ?? values.from, to: r?.to ?? values.to, account_id: values.account_id }} errors={errors} account={r?.account ?? null}>
        <div className="grid gap-1.5">
          <Label htmlFor="report-route">{t("filters.route")}</Label>
          <NativeSelect id="report-route" name="route" defaultValue={values.route}>
            <NativeSelectOption value="">{t("filters.any")}</NativeSelectOption>
            {ROUTES.map((x) => (
              <NativeSelectOption key={x} value={x}>
                {x}
              </NativeSelectOption>
            ))}
          </NativeSelect>
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor="report-provider">{t("filters.provider")}</Label>
          <Input id="report-provider" name="provider" defaultValue={values.provider} maxLength={41} />
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor="report-status">{t("filters.status")}</Label>
          <NativeSelect id="report-status" name="status" defaultValue={values.status}>
            <NativeSelectOption value="">{t("filters.any")}</NativeSelectOption>
            {STATUSES.map((x) => (
              <NativeSelectOption key={x} value={x}>
                {x}
              </NativeSelectOption>
            ))}
          </NativeSelect>
        </div>
      </PeriodForm>
      {r ? (
        <>
          <ReachLine reach={r.reach} account={r.account} allHref={hrefOf(PATH, keep)} />
          <Card>
            <CardContent className="pt-6">
              <dl className="grid grid-cols-2 gap-4 sm:grid-cols-6" data-testid="report-totals">
                {(
                  [
                    ["messages", n(r.messages)],
                    ["segments", n(r.segments)],
                    ["sent", n(r.sent)],
                    ["delivered", n(r.delivered)],
                    ["failed", n(r.failed)],
                    ["deliveryRate", rateOf(r.delivery_rate, lng)],
                  ] as const
                ).map(([k, v]) => (
                  <div key={k} data-figure={k}>
                    <dt className="text-sm text-muted-foreground">{t(`figures.${k}`)}</dt>
                    <dd className="text-2xl font-semibold tabular-nums">{v}</dd>
                  </div>
                ))}
              </dl>
              <p className="mt-4 text-sm" data-figure="revenue">
                {t("figures.revenue")}: {amounts(r.revenue, lng)}
              </p>
            </CardContent>
          </Card>
          <Card>
            <CardHeader>
              <CardTitle>{t("reports.statuses")}</CardTitle>
            </CardHeader>
            <CardContent>
              {r.statuses.length ? (
                <FiguresTable
                  head={t("filters.status")}
                  rows={r.statuses}
                  rowKey={(s) => s.status}
                  rowLabel={(s) => s.status}
                  rowAttr="status"
                  columns={[{ key: "messages", label: t("figures.messages"), value: (s) => n(s.messages) }]}
                />
              ) : (
                <p className="text-sm text-muted-foreground">{t("figures.none")}</p>
              )}
            </CardContent>
          </Card>
          <Card>
            <CardHeader>
              <CardTitle>{t("reports.routes")}</CardTitle>
            </CardHeader>
            <CardContent>
              <FiguresTable
                head={t("reports.routeProvider")}
                rows={r.routes}
                rowKey={(x) => `${x.route ?? "-"}/${x.provider ?? "-"}`}
                rowLabel={(x) => `${x.route ?? t("reports.unknown")} / ${x.provider ?? t("reports.unknown")}`}
                rowAttr="route"
                region={t("reports.routes")}
                columns={[
                  { key: "messages", label: t("figures.messages"), value: (x) => n(x.messages) },
                  { key: "delivered", label: t("figures.delivered"), value: (x) => n(x.delivered) },
                  { key: "failed", label: t("figures.failed"), value: (x) => n(x.failed) },
                  { key: "rate", label: t("figures.deliveryRate"), value: (x) => rateOf(x.delivery_rate, lng) },
                  { key: "revenue", label: t("figures.revenue"), value: (x) => amounts(x.revenue, lng) },
                ]}
              />
            </CardContent>
          </Card>
          <Card>
            <CardHeader>
              <CardTitle>{t("reports.customers")}</CardTitle>
            </CardHeader>
            <CardContent>
              <FiguresTable
                head={t("reports.customer")}
                rows={r.customers}
                rowKey={(c) => c.account.id}
                rowLabel={(c) => (
                  <Link to={hrefOf(PATH, { ...keep, account_id: c.account.id })} className="text-primary hover:underline">
                    {c.account.name}
                  </Link>
                )}
                rowAttr="account"
                region={t("reports.customers")}
                columns={[
                  { key: "messages", label: t("figures.messages"), value: (c) => n(c.messages) },
                  { key: "delivered", label: t("figures.delivered"), value: (c) => n(c.delivered) },
                  { key: "failed", label: t("figures.failed"), value: (c) => n(c.failed) },
                  { key: "rate", label: t("figures.deliveryRate"), value: (c) => rateOf(c.delivery_rate, lng) },
                  { key: "revenue", label: t("figures.revenue"), value: (c) => amounts([{ currency: c.currency, amount: c.revenue }], lng) },
                ]}
              />
            </CardContent>
          </Card>
        </>
      ) : null}
    </div>
  );
}
