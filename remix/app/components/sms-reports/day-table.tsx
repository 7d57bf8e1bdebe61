import { useTranslation } from "~/lib/react-i18n";
import { CHART_GROUPS, groupCount, type ChartDayData } from "./bar-chart";
import { formatCount, formatDay } from "./format";
import { Table, TableBody, TableCell, TableFooter, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { formatMoney } from "~/lib/format";
import type { Lng } from "~/lib/i18n";

export type DayRow = ChartDayData & { segments: number; cost: number };

/** Per day: messages, the chart's status groups, segments (unless `segments` is false: WhatsApp has none) and cost; totals in the footer. */
export function DayTable({ rows, totals, lng, currency, segments = true }: { rows: DayRow[]; totals: Omit<DayRow, "day">; lng: Lng; currency: string; segments?: boolean }) {
  const { t } = useTranslation("smsReports");
  const cells = (d: Omit<DayRow, "day">) => (
    <>
      <TableCell className="text-right tabular-nums" data-col="total">
        {formatCount(d.total, lng)}
      </TableCell>
      {CHART_GROUPS.map((g) => (
        <TableCell key={g.key} className="text-right tabular-nums" data-col={g.key}>
          {formatCount(groupCount(d, g.statuses), lng)}
        </TableCell>
      ))}
      {segments ? (
        <TableCell className="text-right tabular-nums" data-col="segments">
          {formatCount(d.segments, lng)}
        </TableCell>
      ) : null}
      <TableCell className="text-right tabular-nums" data-col="cost">
        {formatMoney(d.cost, currency, lng)}
      </TableCell>
    </>
  );
  return (
    <Table>
      <TableHeader>
        <TableRow>
          <TableHead>{t("days.day")}</TableHead>
          <TableHead className="text-right">{t("days.total")}</TableHead>
          {CHART_GROUPS.map((g) => (
            <TableHead key={g.key} className="text-right">
              {t(`charts.groups.${g.key}`)}
            </TableHead>
          ))}
          {segments ? <TableHead className="text-right">{t("days.segments")}</TableHead> : null}
          <TableHead className="text-right">{t("days.cost")}</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {rows.map((d) => (
          <TableRow key={d.day} data-day={d.day}>
            <TableCell>{formatDay(d.day, lng, true)}</TableCell>
            {cells(d)}
          </TableRow>
        ))}
      </TableBody>
      <TableFooter>
        <TableRow data-day="total">
          <TableCell>{t("days.totals")}</TableCell>
          {cells(totals)}
        </TableRow>
      </TableFooter>
    </Table>
  );
}
