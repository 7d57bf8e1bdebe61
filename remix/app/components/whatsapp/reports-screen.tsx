/**
 * /whatsapp/reports and /whatsapp/jv/reports (the On-Premises numbers' messages, ADR 035): the
 * WhatsApp statistics of a period (default the last 7 days, at most 31; a GET form): messages per
 * day as the SMS chart and table with totals, per status and per Meta pricing category (count and cost).
 */
import { useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { FiguresTable } from "~/components/charts/figures-table";
import { BarChart } from "~/components/sms-reports/bar-chart";
import { DayTable } from "~/components/sms-reports/day-table";
import { formatCount } from "~/components/sms-reports/format";
import { RangeForm } from "~/components/sms-reports/range-form";
import { PageHeader } from "~/components/shell/page-header";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { formatMoney } from "~/lib/format";
import type { WhatsappReportsData } from "~/lib/whatsapp.server";
import type { RootData } from "~/root";

/** The outbound statuses a WhatsApp message goes through, in display order. */
const STATUSES = ["queued", "sending", "sent", "delivered", "read", "failed", "rejected", "optout"] as const;

export function WhatsappReportsScreen() {
  const { base, stat, values, errors } = useLoaderData<WhatsappReportsData>();
  const lng = useRouteLoaderData<RootData>("root")?.lng ?? "pt-BR";
  const { t } = useTranslation(["whatsapp", "smsReports"]);
  return (
    <div className="space-y-6">
      <PageHeader description={t(base === "/whatsapp/jv" ? "jv.reportsDescription" : "reports.statDescription")} />
      <Card>
        <CardHeader>
          <RangeForm action={`${base}/reports`} values={{ from: values.from || stat?.from || "", to: values.to || stat?.to || "" }} errors={errors} />
        </CardHeader>
        {stat ? (
          <CardContent className="space-y-6">
            <BarChart data={stat.data} lng={lng} label={t("reports.chart")} />
            <DayTable rows={stat.data} totals={stat.totals} lng={lng} currency={stat.currency} segments={false} />
          </CardContent>
        ) : null}
      </Card>
      {stat ? (
        <div className="grid gap-6 lg:grid-cols-2">
          <Card data-report="status">
            <CardHeader>
              <CardTitle>{t("reports.byStatus")}</CardTitle>
            </CardHeader>
            <CardContent>
              <FiguresTable
                head={t("reports.status")}
                rows={STATUSES.map((s) => ({ status: s, n: stat.totals.statuses[s] ?? 0 }))}
                rowKey={(r) => r.status}
                rowLabel={(r) => t(`smsReports:status.${r.status}`)}
                rowAttr="status"
                columns={[{ key: "messages", label: t("reports.messages"), value: (r) => formatCount(r.n, lng) }]}
                totals={{ label: t("reports.total"), row: { status: "total", n: stat.totals.total } }}
              />
            </CardContent>
          </Card>
          <Card data-report="category">
            <CardHeader>
              <CardTitle>{t("reports.byCategory")}</CardTitle>
            </CardHeader>
            <CardContent>
              <FiguresTable
                head={t("reports.category")}
                rows={stat.categories}
                rowKey={(r) => r.category}
                rowLabel={(r) => t(`category.${r.category}`)}
                rowAttr="category"
                columns={[
                  { key: "messages", label: t("reports.messages"), value: (r) => formatCount(r.messages, lng) },
                  { key: "cost", label: t("reports.cost"), value: (r) => formatMoney(r.cost, stat.currency, lng) },
                ]}
                totals={{ label: t("reports.total"), row: { category: "total" as never, ...stat.category_totals } }}
              />
            </CardContent>
          </Card>
        </div>
      ) : null}
    </div>
  );
}
