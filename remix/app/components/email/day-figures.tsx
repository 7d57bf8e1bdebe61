/**
 * E-mails per São Paulo day, as the e-mail report screens show them (/mail/dashboard, /mail/reports,
 * platform staff's /admin/email/reports/stat): the chart of the days by outcome (e-mail's status
 * groups, drawn on the server as SVG) and the table of the days per status (every e-mail status
 * the period has, with the total and, for one account, the cost).
 */
import { useTranslation } from "~/lib/react-i18n";
import { EMAIL_STATUSES } from "~api/email/statuses";
import { DayBars } from "~/components/charts/day-bars";
import { FiguresTable } from "~/components/charts/figures-table";
import { formatCount, formatDay } from "~/components/sms-reports/format";
import { TableCell, TableHead } from "~/components/ui/table";
import { formatMoney } from "~/lib/format";
import type { Lng } from "~/lib/i18n";

/** The chart's bands: e-mail's statuses by outcome. */
export const EMAIL_CHART_GROUPS = [
  { key: "delivered", statuses: ["delivered"], className: "fill-success" },
  { key: "opened", statuses: ["opened", "clicked"], className: "fill-primary" },
  { key: "inFlight", statuses: ["scheduled", "queued", "sending", "deferred", "sent"], className: "fill-muted-foreground/40" },
  { key: "bounced", statuses: ["bounced", "blocked", "failed"], className: "fill-destructive" },
  { key: "refused", statuses: ["dropped", "rejected", "optout"], className: "fill-warning" },
] as const;

type Statuses = Partial<Record<string, number>>;
export const countOf = (statuses: Statuses, keys: readonly string[]) => keys.reduce((s, k) => s + (statuses[k] ?? 0), 0);

export type EmailDay = { day: string; total: number; statuses: Statuses; cost?: number };

/** The days as stacked bars by EMAIL_CHART_GROUPS (a <title> per bar; the same figures are in the table). */
export function EmailDayChart({ data, lng, label }: { data: EmailDay[]; lng: Lng; label: string }) {
  const { t } = useTranslation("emailReports");
  return (
    <DayBars
      data={data.map((d) => ({ day: d.day, total: d.total, ...Object.fromEntries(EMAIL_CHART_GROUPS.map((g) => [g.key, countOf(d.statuses, g.statuses)])) }))}
      series={EMAIL_CHART_GROUPS.map((g) => ({ key: g.key, label: t(`dashboard.groups.${g.key}`), className: g.className }))}
      lng={lng}
      label={label}
      barTitle={(n) => t("dashboard.barTitle", { count: n })}
      totalOf={(d) => Number(d.total)}
    />
  );
}

/** Per day: the e-mails, then one column per e-mail status the period has (EMAIL_STATUSES' order), and the cost when `currency` is given; totals in the footer. */
export function EmailStatusTable({ rows, totals, lng, currency }: { rows: EmailDay[]; totals: Omit<EmailDay, "day">; lng: Lng; currency?: string }) {
  const { t } = useTranslation(["emailReports", "smsReports"]);
  const n = (v: number) => formatCount(v, lng);
  const shown = EMAIL_STATUSES.filter((s) => (totals.statuses[s] ?? 0) > 0);
  return (
    <FiguresTable<EmailDay>
      head={t("dashboard.day")}
      rows={rows}
      rowKey={(r) => r.day}
      rowLabel={(r) => formatDay(r.day, lng, true)}
      rowAttr="day"
      columns={[
        { key: "total", label: t("dashboard.messages"), value: (r) => n(r.total) },
        ...shown.map((s) => ({ key: s, label: t(`smsReports:status.${s}`), value: (r: EmailDay) => n(r.statuses[s] ?? 0) })),
        ...(currency ? [{ key: "cost", label: t("dashboard.cost"), value: (r: EmailDay) => formatMoney(r.cost ?? 0, currency, lng) }] : []),
      ]}
      totals={{ label: t("smsReports:days.totals"), row: { day: "total", ...totals } }}
    />
  );
}

/** The heads of EMAIL_CHART_GROUPS' columns in a table of e-mails by outcome (per day, per campaign). */
export function EmailGroupHeads() {
  const { t } = useTranslation("emailReports");
  return (
    <>
      {EMAIL_CHART_GROUPS.map((g) => (
        <TableHead key={g.key} className="text-right">
          {t(`dashboard.groups.${g.key}`)}
        </TableHead>
      ))}
    </>
  );
}

/** A row's cells under EmailGroupHeads: its e-mails of each group (`data-col` the group). */
export function EmailGroupCells({ statuses, lng }: { statuses: Statuses; lng: Lng }) {
  return (
    <>
      {EMAIL_CHART_GROUPS.map((g) => (
        <TableCell key={g.key} className="text-right tabular-nums" data-col={g.key}>
          {formatCount(countOf(statuses, g.statuses), lng)}
        </TableCell>
      ))}
    </>
  );
}
