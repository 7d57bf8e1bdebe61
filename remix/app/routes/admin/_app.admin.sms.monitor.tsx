/**
 * /admin/sms/monitor (issue 23; platform staff): the platform's SMS right now —
 * messages per second per minute of the last minutes, the queue per route and per shard of the
 * dispatch stream (entries, pending, lag, dead letters), the last hour per provider (delivery
 * rate, errors). api/admin-sms/monitor.ts adminSmsMonitor (GET /api/admin/sms/monitor).
 * With JavaScript the loader is read again on each tick of the realtime service's
 * /realtime/sms-monitor (the dispatch stream moved; components/admin-reports/use-monitor-ticks) and
 * every MONITOR_REFRESH_SECONDS while the tab is visible (deliveries do not touch the stream);
 * without it a <noscript> meta refresh and a plain refresh link do the same.
 */
import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { adminSmsMonitor } from "~api/admin-sms/monitor";
import { rateOf } from "~/components/admin-reports/parts";
import { useMonitorTicks } from "~/components/admin-reports/use-monitor-ticks";
import { FiguresTable } from "~/components/charts/figures-table";
import { useRefresh } from "~/components/live/use-refresh";
import { PageHeader } from "~/components/shell/page-header";
import { formatCount } from "~/components/sms-reports/format";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { NO_STORE } from "~/lib/admin-reports.server";
import { orHttpError, requireRoute } from "~/lib/auth.server";
import { formatDate } from "~/lib/format";
import type { Lng } from "~/lib/i18n";
import { useTranslation } from "~/lib/react-i18n";
import type { RootData } from "~/root";

export const handle = { crumb: "adminReports:crumbs.monitor" };
const PATH = "/admin/sms/monitor";
const MONITOR_REFRESH_SECONDS = 5;

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  return json({ m: await orHttpError(adminSmsMonitor(ctx)) }, { headers: NO_STORE });
}

export default function AdminSmsMonitorScreen() {
  const { m } = useLoaderData<typeof loader>();
  const lng = (useRouteLoaderData<RootData>("root")?.lng ?? "pt-BR") as Lng;
  const { t } = useTranslation("adminReports");
  useRefresh(MONITOR_REFRESH_SECONDS * 1000);
  useMonitorTicks();
  const n = (v: number) => formatCount(v, lng);
  const time = (iso: string) => formatDate(iso, lng, true);
  return (
    <div className="space-y-6">
      <noscript>
        <meta httpEquiv="refresh" content={String(MONITOR_REFRESH_SECONDS)} />
      </noscript>
      <PageHeader description={t("description.monitor")} />
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="text-sm text-muted-foreground">
          <span data-testid="monitor-at">{t("monitor.at", { time: time(m.at) })}</span> {t("monitor.refreshing", { seconds: MONITOR_REFRESH_SECONDS })}
        </p>
        <Button asChild variant="outline" size="sm">
          <Link to={PATH} reloadDocument>
            {t("monitor.refresh")}
          </Link>
        </Button>
      </div>
      <div className="grid grid-cols-1 gap-4 md:grid-cols-2">
        <Card>
          <CardHeader>
            <CardTitle>{t("monitor.throughput", { minutes: m.minutes })}</CardTitle>
          </CardHeader>
          <CardContent className="space-y-3">
            <p className="text-2xl font-semibold tabular-nums" data-figure="per-second">
              {t("monitor.perSecond", { rate: m.per_second.toLocaleString(lng) })}
            </p>
            <FiguresTable
              head={t("monitor.minute")}
              rows={[...m.throughput].reverse()}
              rowKey={(r) => r.minute}
              rowLabel={(r) => time(r.minute)}
              rowAttr="minute"
              columns={[
                { key: "accepted", label: t("monitor.accepted"), value: (r) => n(r.accepted) },
                { key: "sent", label: t("figures.sent"), value: (r) => n(r.sent) },
                { key: "rate", label: t("monitor.rate"), value: (r) => r.per_second.toLocaleString(lng) },
              ]}
            />
          </CardContent>
        </Card>
        <div className="min-w-0 space-y-4">
          <Card>
            <CardHeader>
              <CardTitle>{t("monitor.queue")}</CardTitle>
            </CardHeader>
            <CardContent className="space-y-3">
              <p className="text-sm" data-figure="waiting">
                {t("monitor.waiting", { n: n(m.waiting) })}
              </p>
              <FiguresTable
                head={t("filters.route")}
                rows={m.queue}
                rowKey={(q) => q.route || "-"}
                rowLabel={(q) => `${q.route || "—"}${q.provider ? ` (${q.provider})` : ""}`}
                rowAttr="route"
                columns={[
                  { key: "queued", label: t("monitor.queued"), value: (q) => n(q.queued) },
                  { key: "sending", label: t("monitor.sending"), value: (q) => n(q.sending) },
                ]}
              />
            </CardContent>
          </Card>
          <Card>
            <CardHeader>
              <CardTitle>{t("monitor.streams")}</CardTitle>
            </CardHeader>
            <CardContent>
              <FiguresTable
                head={t("monitor.shard")}
                rows={m.streams}
                rowKey={(s) => String(s.shard)}
                rowLabel={(s) => `${s.stream}:${s.shard}`}
                rowAttr="shard"
                columns={[
                  { key: "length", label: t("monitor.length"), value: (s) => n(s.length) },
                  { key: "pending", label: t("monitor.pending"), value: (s) => n(s.pending) },
                  { key: "lag", label: t("monitor.lag"), value: (s) => (s.lag === null ? "—" : n(s.lag)) },
                  { key: "dead", label: t("monitor.dead"), value: (s) => n(s.dead) },
                ]}
              />
            </CardContent>
          </Card>
        </div>
      </div>
      <Card>
        <CardHeader>
          <CardTitle>{t("monitor.providers")}</CardTitle>
        </CardHeader>
        <CardContent>
          {m.providers.length ? (
            <FiguresTable
              head={t("filters.provider")}
              rows={m.providers}
              rowKey={(p) => p.provider || "-"}
              rowLabel={(p) => p.provider || "—"}
              rowAttr="provider"
              region={t("monitor.providers")}
              columns={[
                { key: "messages", label: t("figures.messages"), value: (p) => n(p.messages) },
                { key: "sent", label: t("figures.sent"), value: (p) => n(p.sent) },
                { key: "delivered", label: t("figures.delivered"), value: (p) => n(p.delivered) },
                { key: "rate", label: t("figures.deliveryRate"), value: (p) => rateOf(p.delivery_rate, lng) },
                { key: "failed", label: t("figures.failed"), value: (p) => n(p.failed) },
                { key: "errors", label: t("monitor.errors"), value: (p) => p.errors.map((e) => `${e.code} (${n(e.messages)})`).join(", ") || "—" },
              ]}
            />
          ) : (
            <p className="text-sm text-muted-foreground">{t("monitor.noProviders")}</p>
          )}
        </CardContent>
      </Card>
    </div>
  );
}
