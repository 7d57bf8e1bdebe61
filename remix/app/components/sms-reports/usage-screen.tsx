/** Usage per day (/sms/usage and /sms/reports/usage): messages, segments and cost in R$ for a period (default this month). */
import { useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { Figures } from "./figures";
import { formatCount, formatDay } from "./format";
import { RangeForm } from "./range-form";
import { PageHeader } from "~/components/shell/page-header";
import { Card, CardContent, CardHeader } from "~/components/ui/card";
import { FiguresTable } from "~/components/charts/figures-table";
import { formatMoney } from "~/lib/format";
import type { usageLoader } from "~/lib/sms-reports.server";
import type { RootData } from "~/root";

export function UsageScreen({ action }: { action: string }) {
  const { usage, values, errors } = useLoaderData<typeof usageLoader>();
  const lng = useRouteLoaderData<RootData>("root")?.lng ?? "pt-BR";
  const { t } = useTranslation("smsReports");
  return (
    <div className="space-y-6">
      <PageHeader description={t("usage.description")} />
      <Card>
        <CardHeader>
          <RangeForm action={action} values={{ from: values.from || usage?.from || "", to: values.to || usage?.to || "" }} errors={errors} />
        </CardHeader>
      </Card>
      {usage ? (
        <>
          <Figures
            items={[
              { key: "messages", label: t("usage.messages"), value: formatCount(usage.totals.messages, lng) },
              { key: "segments", label: t("usage.segments"), value: formatCount(usage.totals.segments, lng) },
              { key: "cost", label: t("usage.cost"), value: formatMoney(usage.totals.cost, usage.currency, lng) },
            ]}
          />
          <Card>
            <CardContent className="pt-6">
              <FiguresTable
                head={t("days.day")}
                rows={usage.data}
                rowKey={(d) => d.day}
                rowLabel={(d) => formatDay(d.day, lng, true)}
                rowAttr="day"
                columns={[
                  { key: "messages", label: t("usage.messages"), value: (d) => formatCount(d.messages, lng) },
                  { key: "segments", label: t("usage.segments"), value: (d) => formatCount(d.segments, lng) },
                  { key: "cost", label: t("usage.cost"), value: (d) => formatMoney(d.cost, usage.currency, lng) },
                ]}
                totals={{ label: t("days.totals"), row: { day: "total", ...usage.totals } }}
              />
            </CardContent>
          </Card>
        </>
      ) : null}
    </div>
  );
}
