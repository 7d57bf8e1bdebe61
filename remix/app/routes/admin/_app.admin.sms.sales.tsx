/**
 * /admin/sms/sales (issue 23): SMS revenue — the customers' price of the messages charged and not
 * refunded — per customer (the most first; a row's link narrows to it) and per route over a period
 * of São Paulo days (default the last 7, at most 31), in reach. No margin: the provider's cost is
 * not recorded (ADR 065), and the screen says so. api/admin-sms/reports.ts adminSmsSales.
 */
import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { adminSmsSales } from "~api/admin-sms/reports";
import { amounts, hrefOf, PeriodForm, ReachLine } from "~/components/admin-reports/parts";
import { FiguresTable } from "~/components/charts/figures-table";
import { PageHeader } from "~/components/shell/page-header";
import { formatCount } from "~/components/sms-reports/format";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { NO_STORE, periodReport } from "~/lib/admin-reports.server";
import type { Lng } from "~/lib/i18n";
import { useTranslation } from "~/lib/react-i18n";
import type { RootData } from "~/root";

export const handle = { crumb: "adminReports:crumbs.sales" };
const PATH = "/admin/sms/sales";

export async function loader({ request }: LoaderFunctionArgs) {
  return json(await periodReport(request, [], adminSmsSales), { headers: NO_STORE });
}

export default function AdminSmsSalesScreen() {
  const { report: r, values, errors } = useLoaderData<typeof loader>();
  const lng = (useRouteLoaderData<RootData>("root")?.lng ?? "pt-BR") as Lng;
  const { t } = useTranslation("adminReports");
  const n = (v: number) => formatCount(v, lng);
  const keep = { from: values.from, to: values.to };
  return (
    <div className="space-y-6">
      <PageHeader description={t("description.sales")} />
      <PeriodForm action={PATH} values={{ from: r?.from ?? values.from, to: r?.to ?? values.to, account_id: values.account_id }} errors={errors} account={r?.account ?? null} />
      {r ? (
        <>
          <ReachLine reach={r.reach} account={r.account} allHref={hrefOf(PATH, keep)} />
          <Card>
            <CardContent className="pt-6">
              <dl className="grid grid-cols-1 gap-4 sm:grid-cols-3" data-testid="sales-totals">
                {(
                  [
                    ["revenue", amounts(r.revenue, lng)],
                    ["messages", n(r.messages)],
                    ["segments", n(r.segments)],
                  ] as const
                ).map(([k, v]) => (
                  <div key={k} data-figure={k}>
                    <dt className="text-sm text-muted-foreground">{t(`figures.${k}`)}</dt>
                    <dd className="text-2xl font-semibold tabular-nums">{v}</dd>
                  </div>
                ))}
              </dl>
              <p className="mt-4 text-sm text-muted-foreground" data-testid="no-margin">
                {t("sales.noMargin")}
              </p>
            </CardContent>
          </Card>
          <Card>
            <CardHeader>
              <CardTitle>{t("sales.customers")}</CardTitle>
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
                region={t("sales.customers")}
                columns={[
                  { key: "messages", label: t("figures.messages"), value: (c) => n(c.messages) },
                  { key: "segments", label: t("figures.segments"), value: (c) => n(c.segments) },
                  { key: "revenue", label: t("figures.revenue"), value: (c) => amounts([{ currency: c.currency, amount: c.revenue }], lng) },
                ]}
              />
            </CardContent>
          </Card>
          <Card>
            <CardHeader>
              <CardTitle>{t("sales.routes")}</CardTitle>
            </CardHeader>
            <CardContent>
              <FiguresTable
                head={t("filters.route")}
                rows={r.routes}
                rowKey={(x) => x.route ?? "-"}
                rowLabel={(x) => x.route ?? "—"}
                rowAttr="route"
                columns={[
                  { key: "messages", label: t("figures.messages"), value: (x) => n(x.messages) },
                  { key: "segments", label: t("figures.segments"), value: (x) => n(x.segments) },
                  { key: "revenue", label: t("figures.revenue"), value: (x) => amounts(x.revenue, lng) },
                ]}
              />
            </CardContent>
          </Card>
        </>
      ) : null}
    </div>
  );
}
