/** Usage per day (/sms/usage and /sms/reports/usage): messages, segments and cost in R$ for a period (default this month). */
import { useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { Figures } from "./figures";
import { formatCount, formatDay } from "./format";
import { RangeForm } from "./range-form";
import { PageHeader } from "~/components/shell/page-header";
import { Card, CardContent, CardHeader } from "~/components/ui/card";
import { Table, TableBody, TableCell, TableFooter, TableHead, TableHeader, TableRow } from "~/components/ui/table";
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
              <Table>
                <TableHeader>
                  <TableRow>
                    <TableHead>{t("days.day")}</TableHead>
                    <TableHead className="text-right">{t("usage.messages")}</TableHead>
                    <TableHead className="text-right">{t("usage.segments")}</TableHead>
                    <TableHead className="text-right">{t("usage.cost")}</TableHead>
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {usage.data.map((d) => (
                    <TableRow key={d.day} data-day={d.day}>
                      <TableCell>{formatDay(d.day, lng, true)}</TableCell>
                      <TableCell className="text-right tabular-nums" data-col="messages">{formatCount(d.messages, lng)}</TableCell>
                      <TableCell className="text-right tabular-nums" data-col="segments">{formatCount(d.segments, lng)}</TableCell>
                      <TableCell className="text-right tabular-nums" data-col="cost">{formatMoney(d.cost, usage.currency, lng)}</TableCell>
                    </TableRow>
                  ))}
                </TableBody>
                <TableFooter>
                  <TableRow data-day="total">
                    <TableCell>{t("days.totals")}</TableCell>
                    <TableCell className="text-right tabular-nums">{formatCount(usage.totals.messages, lng)}</TableCell>
                    <TableCell className="text-right tabular-nums">{formatCount(usage.totals.segments, lng)}</TableCell>
                    <TableCell className="text-right tabular-nums">{formatMoney(usage.totals.cost, usage.currency, lng)}</TableCell>
                  </TableRow>
                </TableFooter>
              </Table>
            </CardContent>
          </Card>
        </>
      ) : null}
    </div>
  );
}
