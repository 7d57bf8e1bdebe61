/**
 * /live/reports: the figures of the conversations started in a period (default today, at most 31
 * days), optionally of one department or agent — a GET form, so it works without JavaScript —
 * with messages per day as a server-drawn chart, per tabulation, per channel and per agent (each
 * agent's name opens their own statistic, /live/report, for the same period).
 */
import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { liveReport, reportFilterOptions } from "~api/live/reports";
import { DayBars, ShareList } from "~/components/charts/day-bars";
import { FiguresTable } from "~/components/charts/figures-table";
import { formatDuration, PeriodFilters } from "~/components/live-reports/period-filters";
import { Figures } from "~/components/sms-reports/figures";
import { formatCount, formatDay } from "~/components/sms-reports/format";
import { PageHeader } from "~/components/shell/page-header";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { orHttpError, requireRoute } from "~/lib/auth.server";
import { periodValues, withFieldErrors } from "~/lib/live-reports.server";
import type { RootData } from "~/root";

export const handle = { crumb: "liveReports:crumbs.reports" };

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  const values = periodValues(new URL(request.url).searchParams);
  const options = await orHttpError(reportFilterOptions(ctx));
  const { value: report, errors } = await withFieldErrors(() => liveReport(ctx, values));
  return json({ values, options, report, errors }, { headers: { "Cache-Control": "private, no-store" } });
}

export default function LiveReports() {
  const { values, options, report, errors } = useLoaderData<typeof loader>();
  const lng = useRouteLoaderData<RootData>("root")?.lng ?? "pt-BR";
  const { t } = useTranslation("liveReports");
  const n = (v: number) => formatCount(v, lng);
  return (
    <div className="space-y-6">
      <PageHeader
        description={t("reports.description")}
        actions={
          <div className="flex flex-wrap gap-2">
            <Button asChild variant="outline">
              <Link to={`/live/report?${new URLSearchParams({ begin: values.begin, end: values.end })}`}>{t("reports.toAgent")}</Link>
            </Button>
            <Button asChild variant="outline">
              <Link to="/chat/reports">{t("reports.toExports")}</Link>
            </Button>
          </div>
        }
      />
      <Card>
        <CardContent className="pt-6">
          <PeriodFilters action="/live/reports" values={values} errors={errors} options={options} />
        </CardContent>
      </Card>
      {report ? (
        <>
          <Figures
            items={[
              { key: "started", label: t("reports.figures.started"), value: n(report.totals.started) },
              { key: "attended", label: t("reports.figures.attended"), value: n(report.totals.attended) },
              { key: "closed", label: t("reports.figures.closed"), value: n(report.totals.closed) },
              { key: "transferred", label: t("reports.figures.transferred"), value: n(report.totals.transferred) },
              { key: "returned", label: t("reports.figures.returned"), value: n(report.totals.returned) },
              { key: "offline", label: t("reports.figures.offline"), value: n(report.totals.offline) },
              { key: "average_wait", label: t("reports.figures.average_wait"), value: formatDuration(report.totals.average_wait_seconds) },
              { key: "average_service", label: t("reports.figures.average_service"), value: formatDuration(report.totals.average_service_seconds) },
            ]}
          />
          <Card>
            <CardHeader>
              <CardTitle>{t("reports.days")}</CardTitle>
            </CardHeader>
            <CardContent className="space-y-6">
              <DayBars
                data={report.days}
                lng={lng}
                label={t("reports.chart")}
                barTitle={(count) => t("reports.barTitle", { count })}
                series={[
                  { key: "visitor", label: t("reports.columns.visitor"), className: "fill-primary" },
                  { key: "agent", label: t("reports.columns.agent"), className: "fill-success" },
                ]}
              />
              <FiguresTable
                head={t("reports.columns.day")}
                rows={report.days}
                rowKey={(d) => d.day}
                rowLabel={(d) => formatDay(d.day, lng, true)}
                rowAttr="day"
                columns={[
                  { key: "visitor", label: t("reports.columns.visitor"), value: (d) => n(d.visitor) },
                  { key: "agent", label: t("reports.columns.agent"), value: (d) => n(d.agent) },
                  { key: "total", label: t("reports.columns.total"), value: (d) => n(d.total) },
                ]}
              />
            </CardContent>
          </Card>
          <div className="grid gap-6 lg:grid-cols-2">
            <Card>
              <CardHeader>
                <CardTitle>{t("reports.tabulations")}</CardTitle>
              </CardHeader>
              <CardContent>
                <ShareList
                  lng={lng}
                  empty={t("reports.empty")}
                  rows={report.tabulations.map((r) => ({ key: r.tabulation_id ?? "none", label: r.name ?? t("reports.noTabulation"), value: r.rooms }))}
                />
              </CardContent>
            </Card>
            <Card>
              <CardHeader>
                <CardTitle>{t("reports.channels")}</CardTitle>
              </CardHeader>
              <CardContent>
                <ShareList lng={lng} empty={t("reports.empty")} rows={report.channels.map((r) => ({ key: r.channel, label: t(`channels.${r.channel}`), value: r.rooms }))} />
              </CardContent>
            </Card>
          </div>
          <Card>
            <CardHeader>
              <CardTitle>{t("reports.agents")}</CardTitle>
            </CardHeader>
            <CardContent>
              {report.agents.length === 0 ? (
                <p className="py-4 text-sm text-muted-foreground">{t("reports.empty")}</p>
              ) : (
                <Table>
                  <TableHeader>
                    <TableRow>
                      <TableHead>{t("reports.columns.name")}</TableHead>
                      <TableHead className="text-right">{t("reports.columns.rooms")}</TableHead>
                      <TableHead className="text-right">{t("reports.columns.service")}</TableHead>
                      <TableHead className="text-right">{t("reports.columns.messages")}</TableHead>
                    </TableRow>
                  </TableHeader>
                  <TableBody>
                    {report.agents.map((a) => (
                      <TableRow key={a.agent_id} data-agent={a.agent_id}>
                        <TableCell>
                          <Link
                            className="underline-offset-4 hover:underline"
                            to={`/live/report?${new URLSearchParams({ agent_id: a.agent_id, begin: values.begin, end: values.end })}`}
                          >
                            {a.name || a.email}
                          </Link>
                        </TableCell>
                        <TableCell className="text-right tabular-nums">{n(a.rooms)}</TableCell>
                        <TableCell className="text-right tabular-nums">{formatDuration(a.average_service_seconds)}</TableCell>
                        <TableCell className="text-right tabular-nums">{n(a.messages_sent)}</TableCell>
                      </TableRow>
                    ))}
                  </TableBody>
                </Table>
              )}
            </CardContent>
          </Card>
        </>
      ) : null}
    </div>
  );
}
