/** /sms/reports/campaign: campaigns of a period (default the last 30 days) with their messages per status and cost. */
import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { isAppError } from "~api/lib/errors";
import { MAX_LIMIT } from "~api/lib/page";
import { smsCampaignReport } from "~api/sms/reports";
import { CHART_GROUPS, groupCount } from "~/components/sms-reports/bar-chart";
import { formatCount } from "~/components/sms-reports/format";
import { RangeForm } from "~/components/sms-reports/range-form";
import { PageHeader } from "~/components/shell/page-header";
import { Card, CardContent, CardHeader } from "~/components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { requireRoute } from "~/lib/auth.server";
import { formatDate, formatMoney } from "~/lib/format";
import type { RootData } from "~/root";

export const handle = { crumb: "smsReports:crumbs.campaign" };

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  const params = new URL(request.url).searchParams;
  const values = { from: params.get("from")?.trim() ?? "", to: params.get("to")?.trim() ?? "" };
  try {
    return json({ report: await smsCampaignReport(ctx, { ...values, limit: MAX_LIMIT }), values, errors: {} as Record<string, string[]> });
  } catch (e) {
    if (!isAppError(e) || e.code !== "VALIDATION") throw e;
    return json({ report: null, values, errors: (e.fields ?? {}) as Record<string, string[]> });
  }
}

export default function SmsReportsCampaign() {
  const { report, values, errors } = useLoaderData<typeof loader>();
  const lng = useRouteLoaderData<RootData>("root")?.lng ?? "pt-BR";
  const { t } = useTranslation("smsReports");
  return (
    <div className="space-y-6">
      <PageHeader description={t("campaign.description")} />
      <Card>
        <CardHeader>
          <RangeForm action="/sms/reports/campaign" values={{ from: values.from || report?.from || "", to: values.to || report?.to || "" }} errors={errors} />
        </CardHeader>
        {report ? (
          <CardContent>
            {report.data.length === 0 ? (
              <p className="py-8 text-center text-sm text-muted-foreground">{t("campaign.empty")}</p>
            ) : (
              <Table>
                <TableHeader>
                  <TableRow>
                    <TableHead>{t("campaign.name")}</TableHead>
                    <TableHead>{t("campaign.created")}</TableHead>
                    <TableHead>{t("campaign.state")}</TableHead>
                    <TableHead className="text-right">{t("campaign.total")}</TableHead>
                    {CHART_GROUPS.map((g) => (
                      <TableHead key={g.key} className="text-right">
                        {t(`charts.groups.${g.key}`)}
                      </TableHead>
                    ))}
                    <TableHead className="text-right">{t("days.cost")}</TableHead>
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {report.data.map((c) => (
                    <TableRow key={c.id} data-campaign-id={c.id}>
                      <TableCell>{c.name || t("campaign.unnamed")}</TableCell>
                      <TableCell className="whitespace-nowrap">{formatDate(c.created_at, lng, true)}</TableCell>
                      <TableCell>{t(`campaign.states.${c.status}`)}</TableCell>
                      <TableCell className="text-right tabular-nums" data-col="total">
                        {formatCount(c.messages, lng)}
                      </TableCell>
                      {CHART_GROUPS.map((g) => (
                        <TableCell key={g.key} className="text-right tabular-nums" data-col={g.key}>
                          {formatCount(groupCount(c, g.statuses), lng)}
                        </TableCell>
                      ))}
                      <TableCell className="text-right tabular-nums" data-col="cost">
                        {formatMoney(c.cost, report.currency, lng)}
                      </TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            )}
          </CardContent>
        ) : null}
      </Card>
    </div>
  );
}
