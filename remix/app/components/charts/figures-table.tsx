/**
 * The table of figures beside a chart (per day, per channel…): a label column, then right-aligned
 * numbers, an optional totals row. Each row carries `data-{rowAttr}` and each cell `data-col`.
 */
import type { ReactNode } from "react";
import { Table, TableBody, TableCell, TableFooter, TableHead, TableHeader, TableRow } from "~/components/ui/table";

export type FigureColumn<R> = { key: string; label: string; value: (row: R) => ReactNode };

export function FiguresTable<R>({
  head,
  rows,
  rowKey,
  rowLabel,
  rowAttr,
  columns,
  totals,
  region,
}: {
  head: string;
  rows: readonly R[];
  rowKey: (row: R) => string;
  rowLabel: (row: R) => ReactNode;
  /** The data attribute naming each row (data-day="2026-11-25", data-channel="webchat"). */
  rowAttr: string;
  columns: ReadonlyArray<FigureColumn<R>>;
  totals?: { label: ReactNode; row: R };
  /** The table's name where its box may scroll (ui/table's `region`). */
  region?: string;
}) {
  return (
    <Table region={region}>
      <TableHeader>
        <TableRow>
          <TableHead>{head}</TableHead>
          {columns.map((c) => (
            <TableHead key={c.key} className="text-right">
              {c.label}
            </TableHead>
          ))}
        </TableRow>
      </TableHeader>
      <TableBody>
        {rows.map((r) => (
          <TableRow key={rowKey(r)} {...{ [`data-${rowAttr}`]: rowKey(r) }}>
            <TableCell>{rowLabel(r)}</TableCell>
            {columns.map((c) => (
              <TableCell key={c.key} className="text-right tabular-nums" data-col={c.key}>
                {c.value(r)}
              </TableCell>
            ))}
          </TableRow>
        ))}
      </TableBody>
      {totals ? (
        <TableFooter>
          <TableRow {...{ [`data-${rowAttr}`]: "total" }}>
            <TableCell>{totals.label}</TableCell>
            {columns.map((c) => (
              <TableCell key={c.key} className="text-right tabular-nums" data-col={c.key}>
                {c.value(totals.row)}
              </TableCell>
            ))}
          </TableRow>
        </TableFooter>
      ) : null}
    </Table>
  );
}
