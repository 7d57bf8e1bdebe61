/** /sms/reports/stat: per day of a period (default the last 7 days, at most 31): messages per status, segments and cost, as a chart and a table. */
import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { isAppError } from "~api/lib/errors";
import { smsStat } from "~api/sms/reports";
import { BarChart } from "~/components/sms-reports/bar-chart";
import { DayTable } from "~/components/sms-reports/day-table";
import { RangeForm } from "~/components/sms-reports/range-form";
import { PageHeader } from "~/components/shell/page-header";
import { Card, CardContent, CardHeader } from "~/components/ui/card";
import { requireRoute } from "~/lib/auth.server";
import type { RootData } from "~/root";

export const handle = { crumb: "smsReports:crumbs.stat" };

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  const params = new URL(request.url).searchParams;
  const values = { from: params.get("from")?.trim() ?? "", to: params.get("to")?.trim() ?? "" };
  try {
    return json({ stat: await smsStat(ctx, values), values, errors: {} as Record<string, string[]> });
  } catch (e) {
    if (!isAppError(e) || e.code !== "VALIDATION") throw e;
    return json({ stat: null, values, errors: (e.fields ?? {}) as Record<string, string[]> });
  }
}

export default function SmsReportsStat() {
  const { stat, values, errors } = useLoaderData<typeof loader>();
  const lng = useRouteLoaderData<RootData>("root")?.lng ?? "pt-BR";
  const { t } = useTranslation("smsReports");
  return (
    <div className="space-y-6">
      <PageHeader description={t("stat.description")} />
      <Card>
        <CardHeader>
          <RangeForm action="/sms/reports/stat" values={{ from: values.from || stat?.from || "", to: values.to || stat?.to || "" }} errors={errors} />
        </CardHeader>
        {stat ? (
          <CardContent className="space-y-6">
            <BarChart data={stat.data} lng={lng} label={t("stat.chart")} />
            <DayTable rows={stat.data} totals={stat.totals} lng={lng} currency={stat.currency} />
          </CardContent>
        ) : null}
      </Card>
    </div>
  );
}
