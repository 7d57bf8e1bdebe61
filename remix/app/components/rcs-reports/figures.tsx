/**
 * Pieces of the RCS report screens (/rcs/insights, /rcs/reports and platform staff's
 * /admin/rcs/reports/*): the figure cards, the per-day chart and table, the tables by type, agent
 * and price class, and the agent and type fields of their GET forms. Costs come formatted (`money`):
 * one currency on a customer's screens, several on staff's.
 */
import { Form, Link } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { CHART_DAYS } from "~api/sms/report-constants";
import { FiguresTable } from "~/components/charts/figures-table";
import { BarChart } from "~/components/sms-reports/bar-chart";
import { Figures } from "~/components/sms-reports/figures";
import { formatCount, formatDay, formatPercent } from "~/components/sms-reports/format";
import { ErrorText } from "~/components/forms/fields";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { Label } from "~/components/ui/label";
import { NativeSelect, NativeSelectOption } from "~/components/ui/native-select";
import type { Lng } from "~/lib/i18n";

export const RCS_TYPE_OPTIONS = ["text", "link", "midia", "card", "card-carousel"] as const;

type Counts = { messages: number; delivered: number; read: number; failed: number };
type Totals = Counts & {
  sent: number;
  waiting: number;
  delivery_rate: number;
  read_rate: number;
  failure_rate: number;
  basic: number;
  rich: number;
  received: number;
  fallback_sms: number;
};

/** The period's figures as cards. */
export function RcsFigures({ i, cost, lng }: { i: Totals; cost: string; lng: Lng }) {
  const { t } = useTranslation("rcs");
  const n = (v: number) => formatCount(v, lng);
  const count = (k: "messages" | "sent" | "delivered" | "read" | "failed" | "waiting" | "basic" | "rich" | "received") => ({ key: k, label: t(`reports.${k}`), value: n(i[k]) });
  return (
    <Figures
      items={[
        count("messages"),
        count("sent"),
        count("delivered"),
        count("read"),
        count("failed"),
        count("waiting"),
        { key: "deliveryRate", label: t("reports.deliveryRate"), value: formatPercent(i.delivery_rate, lng) },
        { key: "readRate", label: t("reports.readRate"), value: formatPercent(i.read_rate, lng) },
        { key: "failureRate", label: t("reports.failureRate"), value: formatPercent(i.failure_rate, lng) },
        { key: "cost", label: t("reports.cost"), value: cost },
        count("basic"),
        count("rich"),
        count("received"),
        { key: "fallbackSms", label: t("reports.fallbackSms"), value: n(i.fallback_sms) },
      ]}
    />
  );
}

type Day = Counts & { day: string; statuses: Record<string, number> };

/** The messages per day: the SMS reports' bars and the table beside them (messages, delivered, read, failed, cost), with totals. */
export function RcsDays<D extends Day>({ rows, totals, lng, money }: { rows: D[]; totals: Counts; lng: Lng; money: (row: D | "total") => string }) {
  const { t } = useTranslation("rcs");
  const n = (v: number) => formatCount(v, lng);
  return (
    <>
      <BarChart data={rows.map((d) => ({ day: d.day, total: d.messages, statuses: d.statuses }))} lng={lng} label={t("reports.chart")} />
      <FiguresTable<Counts & { day: string; row: D | "total" }>
        head={t("reports.day")}
        rows={rows.map((r) => ({ ...r, row: r }))}
        rowKey={(r) => r.day}
        rowLabel={(r) => formatDay(r.day, lng, true)}
        rowAttr="day"
        columns={[...countColumns(t, n), { key: "cost", label: t("reports.cost"), value: (r) => money(r.row) }]}
        totals={{ label: t("reports.total"), row: { day: "total", ...totals, row: "total" } }}
      />
    </>
  );
}

type T = (key: string) => string;
function countColumns<R extends Counts>(t: T, n: (v: number) => string) {
  return (["messages", "delivered", "read", "failed"] as const).map((k) => ({ key: k, label: t(`reports.${k}`), value: (r: R) => n(r[k]) }));
}

type Breakdown<C> = {
  types: Array<Counts & { type: string; cost: C }>;
  agents: Array<Counts & { agent: { id: string | null; name: string; rbm_agent_id: string }; cost: C; account?: { name: string } }>;
  classes: Array<{ class: string; messages: number; cost: C }>;
  statuses: Record<string, number>;
};

/** The period by status, by type, by price class and by agent (each agent with its account on staff's screens). */
export function RcsBreakdown<C>({ b, lng, money }: { b: Breakdown<C>; lng: Lng; money: (cost: C) => string }) {
  const { t } = useTranslation(["rcs", "smsReports"]);
  const n = (v: number) => formatCount(v, lng);
  const costColumn = { key: "cost", label: t("reports.cost"), value: (r: { cost: C }) => money(r.cost) };
  const card = (key: string, title: string, body: React.ReactNode) => (
    <Card data-report={key}>
      <CardHeader>
        <CardTitle>{title}</CardTitle>
      </CardHeader>
      <CardContent>{body}</CardContent>
    </Card>
  );
  const statuses = Object.entries(b.statuses).sort(([, x], [, y]) => y - x);
  return (
    <div className="grid gap-6 lg:grid-cols-2">
      {card(
        "status",
        t("reports.byStatus"),
        <FiguresTable
          region={t("reports.byStatus")}
          head={t("reports.status")}
          rows={statuses}
          rowKey={([s]) => s}
          rowLabel={([s]) => t(`smsReports:status.${s}`)}
          rowAttr="status"
          columns={[{ key: "messages", label: t("reports.messages"), value: ([, v]) => n(v) }]}
        />,
      )}
      {card(
        "class",
        t("reports.byClass"),
        <FiguresTable
          region={t("reports.byClass")}
          head={t("reports.class")}
          rows={b.classes}
          rowKey={(r) => r.class}
          rowLabel={(r) => t(`reports.classes.${r.class}`)}
          rowAttr="class"
          columns={[{ key: "messages", label: t("reports.messages"), value: (r) => n(r.messages) }, costColumn]}
        />,
      )}
      {card(
        "type",
        t("reports.byType"),
        <FiguresTable
          region={t("reports.byType")}
          head={t("reports.type")}
          rows={b.types}
          rowKey={(r) => r.type}
          rowLabel={(r) => t(`reports.types.${r.type}`)}
          rowAttr="type"
          columns={[...countColumns(t, n), costColumn]}
        />,
      )}
      {card(
        "agent",
        t("reports.byAgent"),
        b.agents.length === 0 ? (
          <p className="text-sm text-muted-foreground">{t("reports.noMessages")}</p>
        ) : (
          <FiguresTable
            region={t("reports.byAgent")}
            head={t("reports.agent")}
            rows={b.agents}
            rowKey={(r) => r.agent.rbm_agent_id}
            rowLabel={(r) => (
              <span className="break-all">
                {r.agent.name}
                {r.account ? <span className="block text-xs text-muted-foreground">{r.account.name}</span> : null}
              </span>
            )}
            rowAttr="agent"
            columns={[...countColumns(t, n), costColumn]}
          />
        ),
      )}
    </div>
  );
}

/** The agent and type fields of a report's GET form (inside RangeForm or beside the days). */
export function RcsFilterFields({
  agents,
  values,
  errors,
}: {
  agents: Array<{ id: string; name: string }> | null;
  values: { agent: string; type: string };
  errors: Record<string, string[] | undefined>;
}) {
  const { t } = useTranslation("rcs");
  const select = (name: "agent" | "type", options: Array<{ value: string; label: string }>, any: string) => (
    <div className="grid gap-1.5">
      <Label htmlFor={`rcs-${name}`}>{t(`reports.${name}`)}</Label>
      <NativeSelect id={`rcs-${name}`} name={name} defaultValue={values[name]} aria-invalid={errors[name]?.length ? true : undefined}>
        <NativeSelectOption value="">{any}</NativeSelectOption>
        {options.map((o) => (
          <NativeSelectOption key={o.value} value={o.value}>
            {o.label}
          </NativeSelectOption>
        ))}
      </NativeSelect>
      <ErrorText errors={errors[name]} />
    </div>
  );
  return (
    <>
      {agents
        ? select(
            "agent",
            agents.map((a) => ({ value: a.id, label: a.name })),
            t("reports.anyAgent"),
          )
        : null}
      {select(
        "type",
        RCS_TYPE_OPTIONS.map((v) => ({ value: v, label: t(`reports.types.${v}`) })),
        t("reports.anyType"),
      )}
    </>
  );
}

/** The insights screens' head: the 7 and 30 days as links (`href` keeps the other filters), then their GET form (`children`: its fields). */
export function RcsInsightsFilters({ days, href, action, children }: { days: number; href: (days: number) => string; action: string; children: React.ReactNode }) {
  const { t } = useTranslation("rcs");
  return (
    <>
      <nav aria-label={t("reports.days")} className="flex gap-2">
        {CHART_DAYS.map((d) => (
          <Button key={d} asChild variant={days === d ? "default" : "outline"} size="sm">
            <Link to={href(d)} aria-current={days === d ? "page" : undefined}>
              {t(`reports.days${d}`)}
            </Link>
          </Button>
        ))}
      </nav>
      <Form method="get" action={action} aria-label={t("adminReports.filters.label")} className="flex flex-wrap items-start gap-3">
        <input type="hidden" name="days" value={String(days)} />
        {children}
        <Button type="submit" variant="secondary" className="mt-6">
          {t("adminReports.filters.submit")}
        </Button>
      </Form>
    </>
  );
}

type Report<C> = Totals & Breakdown<C> & { cost: C; data: Array<Day & { cost: C }> };

/** A report's figures, its days (chart and table) and its breakdown: what the insights screens show under their filters. */
export function RcsInsightsBody<C>({ i, lng, money }: { i: Report<C>; lng: Lng; money: (cost: C) => string }) {
  return (
    <>
      <RcsFigures i={i} cost={money(i.cost)} lng={lng} />
      <Card>
        <CardHeader />
        <CardContent className="space-y-6">
          <RcsDays rows={i.data} totals={i} lng={lng} money={(r) => money(r === "total" ? i.cost : r.cost)} />
        </CardContent>
      </Card>
      <RcsBreakdown b={i} lng={lng} money={money} />
    </>
  );
}
