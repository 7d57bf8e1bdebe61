/**
 * /admin/sms/sales (issue 23): SMS revenue — the customers' price of the messages charged and not
 * refunded — per customer (the most first; a row's link narrows to it) and per route over a period
 * of São Paulo days (default the last 7, at most 31), in reach. For platform staff also the
 * providers' cost (recorded on /admin/providers) and the margin and its rate (ADR 070); "cost
 * unknown" where a message has no cost in force; a reseller sees revenue only.
 * api/admin-sms/reports.ts adminSmsSales.
 */
import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData, useRouteLoaderData } from "@remix-run/react";
import type { Margin } from "~api/admin-sms/reports";
import { adminSmsSales } from "~api/admin-sms/reports";
import { amounts, hrefOf, PeriodForm, rateOf, ReachLine } from "~/components/admin-reports/parts";
import { FiguresTable } from "~/components/charts/figures-table";
import { PageHeader } from "~/components/shell/page-header";
import { formatCount } from "~/components/sms-reports/format";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { formatMoney } from "~/lib/format";
import { NO_STORE, periodReport } from "~/lib/admin-reports.server";
import type { Lng } from "~/lib/i18n";
import { useTranslation } from "~/lib/react-i18n";
import type { RootData } from "~/root";

export const handle = { crumb: "adminReports:crumbs.sales" };
const PATH = "/admin/sms/sales";

export async function loader({ request }: LoaderFunctionArgs) {
  return json(await periodReport(request, [], adminSmsSales), { headers: NO_STORE });
}

/** Cost, margin and margin rate of one or more currencies ("cost unknown" where a message has no cost). */
function useMarginText(lng: Lng) {
  const { t } = useTranslation("adminReports");
  const each = (list: Margin[], one: (m: Margin) => string) => (list.length ? list.map(one).join(" + ") : "—");
  return {
    cost: (list: Margin[]) => each(list, (m) => (m.cost === null ? t("sales.costUnknown") : formatMoney(m.cost, m.currency, lng))),
    margin: (list: Margin[]) => each(list, (m) => (m.margin === null ? "—" : formatMoney(m.margin, m.currency, lng))),
    rate: (list: Margin[]) => each(list, (m) => (m.margin_rate === null ? "—" : rateOf(m.margin_rate, lng))),
  };
}

export default function AdminSmsSalesScreen() {
  const { report: r, values, errors } = useLoaderData<typeof loader>();
  const lng = (useRouteLoaderData<RootData>("root")?.lng ?? "pt-BR") as Lng;
  const { t } = useTranslation("adminReports");
  const n = (v: number) => formatCount(v, lng);
  const keep = { from: values.from, to: values.to };
  const m = useMarginText(lng);
  const margins = r?.margin ?? null;
  const uncosted = margins?.reduce((s, x) => s + x.uncosted, 0) ?? 0;
  const marginCols = <R,>(of: (row: R) => Margin[] | null) =>
    margins
      ? [
          { key: "cost", label: t("figures.cost"), value: (row: R) => m.cost(of(row) ?? []) },
          { key: "margin", label: t("figures.margin"), value: (row: R) => m.margin(of(row) ?? []) },
          { key: "margin_rate", label: t("figures.marginRate"), value: (row: R) => m.rate(of(row) ?? []) },
        ]
      : [];
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
                    ...(margins
                      ? ([
                          ["cost", m.cost(margins)],
                          ["margin", m.margin(margins)],
                          ["marginRate", m.rate(margins)],
                        ] as const)
                      : []),
                  ] as const
                ).map(([k, v]) => (
                  <div key={k} data-figure={k}>
                    <dt className="text-sm text-muted-foreground">{t(`figures.${k}`)}</dt>
                    <dd className="text-2xl font-semibold tabular-nums">{v}</dd>
                  </div>
                ))}
              </dl>
              {margins ? (
                <p className="mt-4 text-sm text-muted-foreground" data-testid="margin-note">
                  {uncosted > 0 ? t("sales.uncosted", { count: uncosted }) : t("sales.costed")}
                </p>
              ) : (
                <p className="mt-4 text-sm text-muted-foreground" data-testid="no-margin">
                  {t("sales.noMargin")}
                </p>
              )}
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
                  ...marginCols<(typeof r.customers)[number]>((c) => (c.margin ? [c.margin] : null)),
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
                region={t("sales.routes")}
                columns={[
                  { key: "messages", label: t("figures.messages"), value: (x) => n(x.messages) },
                  { key: "segments", label: t("figures.segments"), value: (x) => n(x.segments) },
                  { key: "revenue", label: t("figures.revenue"), value: (x) => amounts(x.revenue, lng) },
                  ...marginCols<(typeof r.routes)[number]>((x) => x.margin),
                ]}
              />
            </CardContent>
          </Card>
        </>
      ) : null}
    </div>
  );
}
