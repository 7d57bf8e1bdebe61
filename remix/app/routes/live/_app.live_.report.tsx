/**
 * /live/report: one agent's statistic for a period — the screen of GET /omni/agents/{id}/statistic
 * (api/live/reports.ts agentStatistic). A GET form (works without JavaScript): the agent (reports
 * readers pick any agent of the account, an attendant sees their own) and the period (São Paulo
 * days 00:00:00–23:59:59, default today, at most 31 days). The figures, the attended conversations
 * per day as a server-drawn chart and the table beside it. /live/reports is its all-agents sibling.
 */
import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { agentReportOptions, agentStatistic } from "~api/live/reports";
import { can } from "~api/policy/policy";
import { DayBars } from "~/components/charts/day-bars";
import { FiguresTable } from "~/components/charts/figures-table";
import { AgentFilters } from "~/components/live-reports/agent-filters";
import { formatDuration } from "~/components/live-reports/period-filters";
import { Figures } from "~/components/sms-reports/figures";
import { formatCount, formatDay } from "~/components/sms-reports/format";
import { PageHeader } from "~/components/shell/page-header";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { orHttpError, requireRoute } from "~/lib/auth.server";
import { periodValues, withFieldErrors } from "~/lib/live-reports.server";
import type { RootData } from "~/root";

export const handle = { crumb: "liveReports:crumbs.agent" };

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  const params = new URL(request.url).searchParams;
  const { begin, end } = periodValues(params);
  const { agents, pick } = await orHttpError(agentReportOptions(ctx));
  const asked = String(params.get("agent_id") ?? "").trim();
  // Without a choice: oneself when one attends, else the first agent of the account.
  const agentId = asked || (agents.some((a) => a.id === ctx.actor.userId) ? ctx.actor.userId : (agents[0]?.id ?? ""));
  const values = { begin, end, agent_id: agentId };
  const headers = { "Cache-Control": "private, no-store" };
  const toAll = can(ctx.actor, "/live/reports");
  // A reader's choice must be one of the account's agents; an attendant asking for someone else is refused by the use-case (403).
  if (pick && asked && !agents.some((a) => a.id === asked)) {
    return json({ values, agents, pick, toAll, stat: null, errors: { agent_id: ["validation.option"] } as Record<string, string[]> }, { headers });
  }
  const { value: stat, errors } = agentId ? await orHttpError(withFieldErrors(() => agentStatistic(ctx, agentId, { begin, end }))) : { value: null, errors: {} };
  return json({ values, agents, pick, toAll, stat, errors }, { headers });
}

export default function LiveAgentReport() {
  const { values, agents, pick, toAll, stat, errors } = useLoaderData<typeof loader>();
  const lng = useRouteLoaderData<RootData>("root")?.lng ?? "pt-BR";
  const { t } = useTranslation("liveReports");
  const n = (v: number) => formatCount(v, lng);
  const name = agents.find((a) => a.id === stat?.agent_id)?.name ?? "";
  return (
    <div className="space-y-6">
      <PageHeader
        description={t("agent.description")}
        actions={
          toAll ? (
            <Button asChild variant="outline">
              <Link to={`/live/reports?${new URLSearchParams({ begin: values.begin, end: values.end })}`}>{t("agent.toAll")}</Link>
            </Button>
          ) : null
        }
      />
      <Card>
        <CardContent className="pt-6">
          {agents.length === 0 ? (
            <p className="text-sm text-muted-foreground">{t("agent.noAgents")}</p>
          ) : (
            <AgentFilters values={values} errors={errors} agents={agents} pick={pick} />
          )}
        </CardContent>
      </Card>
      {stat ? (
        <>
          <div className="min-w-0 space-y-1" data-agent={stat.agent_id}>
            <h2 className="text-lg font-semibold break-words">{name}</h2>
            <p className="text-sm text-muted-foreground" data-period>
              {t("agent.period", { begin: formatDay(stat.begin, lng, true), end: formatDay(stat.end, lng, true) })}
            </p>
          </div>
          <Figures
            items={[
              { key: "total_calls", label: t("agent.figures.total"), value: n(stat.total_calls) },
              { key: "closed_calls", label: t("agent.figures.closed"), value: n(stat.closed_calls) },
              { key: "transferred_calls", label: t("agent.figures.transferred"), value: n(stat.transferred_calls) },
              { key: "average_service_time", label: t("agent.figures.service"), value: formatDuration(stat.average_service_time) },
              { key: "messages_sent", label: t("agent.figures.messages"), value: n(stat.messages_sent) },
              { key: "active_calls", label: t("agent.figures.active"), value: n(stat.active_calls) },
            ]}
          />
          <Card>
            <CardHeader>
              <CardTitle>{t("agent.days")}</CardTitle>
              <CardDescription>{t("agent.daysHelp")}</CardDescription>
            </CardHeader>
            <CardContent className="space-y-6">
              <DayBars
                data={stat.days}
                lng={lng}
                label={t("agent.chart")}
                barTitle={(count) => t("agent.barTitle", { count })}
                series={[{ key: "rooms", label: t("agent.columns.rooms"), className: "fill-primary" }]}
              />
              <FiguresTable
                head={t("reports.columns.day")}
                rows={stat.days}
                rowKey={(d) => d.day}
                rowLabel={(d) => formatDay(d.day, lng, true)}
                rowAttr="day"
                region={t("agent.days")}
                columns={[
                  { key: "rooms", label: t("agent.columns.rooms"), value: (d) => n(d.rooms) },
                  { key: "messages", label: t("agent.columns.messages"), value: (d) => n(d.messages) },
                ]}
              />
            </CardContent>
          </Card>
        </>
      ) : null}
    </div>
  );
}
