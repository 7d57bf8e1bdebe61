/**
 * /admin/sms/dashboard (issue 23): outbound SMS of every customer in reach today, in the last 7
 * and 30 São Paulo days (sent, delivered and its rate, failures, revenue per currency) and per day.
 * api/admin-sms/reports.ts adminSmsDashboard.
 */
import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { adminSmsDashboard } from "~api/admin-sms/reports";
import { amounts, rateOf, ReachLine } from "~/components/admin-reports/parts";
import { FiguresTable } from "~/components/charts/figures-table";
import { PageHeader } from "~/components/shell/page-header";
import { formatCount, formatDay } from "~/components/sms-reports/format";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { NO_STORE } from "~/lib/admin-reports.server";
import { orHttpError, requireRoute } from "~/lib/auth.server";
import type { Lng } from "~/lib/i18n";
import { useTranslation } from "~/lib/react-i18n";
import type { RootData } from "~/root";

export const handle = { crumb: "adminReports:crumbs.dashboard" };

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  return json({ d: await orHttpError(adminSmsDashboard(ctx)) }, { headers: NO_STORE });
}

export default function AdminSmsDashboardScreen() {
  const { d } = useLoaderData<typeof loader>();
  const lng = (useRouteLoaderData<RootData>("root")?.lng ?? "pt-BR") as Lng;
  const { t } = useTranslation("adminReports");
  const n = (v: number) => formatCount(v, lng);
  return (
    <div className="space-y-6">
      <PageHeader description={t("description.dashboard")} />
      <ReachLine reach={d.reach} account={null} allHref="/admin/sms/dashboard" />
      <div className="grid gap-4 md:grid-cols-3">
        {(["today", "last7", "last30"] as const).map((k) => {
          const w = d[k];
          return (
            <Card key={k} data-window={k}>
              <CardHeader>
                <CardTitle>{t(`dashboard.${k}`)}</CardTitle>
              </CardHeader>
              <CardContent>
                <dl className="grid grid-cols-2 gap-3">
                  {(
                    [
                      ["messages", n(w.messages)],
                      ["sent", n(w.sent)],
                      ["delivered", n(w.delivered)],
                      ["deliveryRate", rateOf(w.delivery_rate, lng)],
                      ["failed", n(w.failed)],
                      ["revenue", amounts(w.revenue, lng)],
                    ] as const
                  ).map(([f, v]) => (
                    <div key={f} data-figure={f}>
                      <dt className="text-sm text-muted-foreground">{t(`figures.${f}`)}</dt>
                      <dd className="text-lg font-semibold tabular-nums">{v}</dd>
                    </div>
                  ))}
                </dl>
              </CardContent>
            </Card>
          );
        })}
      </div>
      <Card>
        <CardHeader>
          <CardTitle>{t("dashboard.perDay")}</CardTitle>
        </CardHeader>
        <CardContent>
          <FiguresTable
            head={t("dashboard.day")}
            rows={[...d.data].reverse()}
            rowKey={(r) => r.day}
            rowLabel={(r) => formatDay(r.day, lng, true)}
            rowAttr="day"
            region={t("dashboard.perDay")}
            columns={[
              { key: "messages", label: t("figures.messages"), value: (r) => n(r.messages) },
              { key: "sent", label: t("figures.sent"), value: (r) => n(r.sent) },
              { key: "delivered", label: t("figures.delivered"), value: (r) => n(r.delivered) },
              { key: "rate", label: t("figures.deliveryRate"), value: (r) => rateOf(r.delivery_rate, lng) },
              { key: "failed", label: t("figures.failed"), value: (r) => n(r.failed) },
              { key: "revenue", label: t("figures.revenue"), value: (r) => amounts(r.revenue, lng) },
            ]}
          />
        </CardContent>
      </Card>
    </div>
  );
}
