/**
 * Usage per day (/sms/usage, /sms/reports/usage and /mail/usage): messages, segments and cost for a
 * period (default this month). Channel-neutral: `segments` false hides the segments (an e-mail is
 * one), `description` is the channel's own text.
 */
import { useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { Figures } from "./figures";
import { formatCount, formatDay } from "./format";
import { RangeForm } from "./range-form";
import { PageHeader } from "~/components/shell/page-header";
import { Card, CardContent, CardHeader } from "~/components/ui/card";
import { FiguresTable } from "~/components/charts/figures-table";
import { formatMoney } from "~/lib/format";
import type { usageLoader } from "~/lib/sms-reports.server";
import type { RootData } from "~/root";

export function UsageScreen({ action, segments = true, description }: { action: string; segments?: boolean; description?: string }) {
  const { usage, values, errors } = useLoaderData<typeof usageLoader>();
  const lng = useRouteLoaderData<RootData>("root")?.lng ?? "pt-BR";
  const { t } = useTranslation("smsReports");
  return (
    <div className="space-y-6">
      <PageHeader description={description ?? t("usage.description")} />
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
              ...(segments ? [{ key: "segments", label: t("usage.segments"), value: formatCount(usage.totals.segments, lng) }] : []),
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
                  ...(segments ? [{ key: "segments", label: t("usage.segments"), value: (d: (typeof usage.data)[number]) => formatCount(d.segments, lng) }] : []),
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
