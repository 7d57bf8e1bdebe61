/**
 * /pipelines/reports: the boards' reports (issue 22; spec section 2) — open deals' value per
 * column and per owner, deals won and lost by period (day, week or month), and the average time a
 * deal stays in each column — for one board or all, one owner or all, over a period (Sao Paulo
 * days, default the last 30). Figures are the use-case's (api/pipelines/reports); the filter is a
 * GET form: works without JavaScript.
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { isAppError } from "~api/lib/errors";
import { boardReports, listBoards } from "~api/pipelines/services";
import { ErrorText } from "~/components/forms/fields";
import { usePipelineFormat } from "~/components/pipelines/format";
import { PageHeader } from "~/components/shell/page-header";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { NativeSelect, NativeSelectOption } from "~/components/ui/native-select";
import { Table, TableBody, TableCell, TableFooter, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { orHttpError, requireRoute } from "~/lib/auth.server";
import { ownerOptions } from "~/lib/pipeline-options.server";
import { useTranslation } from "~/lib/react-i18n";

export const handle = { crumb: "pipelines:reports.title" };

const GROUPS = ["day", "week", "month"] as const;

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  const q = Object.fromEntries(new URL(request.url).searchParams);
  const filters = { board_id: q.board_id ?? "", owner_id: q.owner_id ?? "", from: q.from ?? "", to: q.to ?? "", group: q.group ?? "" };
  const [{ data: boards }, owners] = await Promise.all([orHttpError(listBoards(ctx)), ownerOptions(ctx)]);
  try {
    const { data } = await boardReports(ctx, filters);
    return json({ boards, owners, report: data, errors: null }, { headers: { "Cache-Control": "private, no-store" } });
  } catch (e) {
    // A filter refused (a malformed date, from after to): the form says which; the default report shows.
    if (!isAppError(e) || e.code !== "VALIDATION") return orHttpError(Promise.reject(e));
    const { data } = await boardReports(ctx, {});
    return json({ boards, owners, report: data, errors: e.fields ?? { "": [`errors.${e.code}`] } }, { headers: { "Cache-Control": "private, no-store" } });
  }
}

/** Seconds as the largest whole units that say it: "2 d 3 h", "5 h 10 min", "12 min". */
function useDuration() {
  const { t } = useTranslation("pipelines");
  return (seconds: number | null) => {
    if (seconds === null) return "—";
    const s = Math.round(seconds);
    const d = Math.floor(s / 86_400);
    const h = Math.floor((s % 86_400) / 3600);
    const m = Math.floor((s % 3600) / 60);
    if (d > 0) return t("reports.duration.dh", { d, h });
    if (h > 0) return t("reports.duration.hm", { h, m });
    return t("reports.duration.m", { m: Math.max(m, s > 0 ? 1 : 0) });
  };
}

export default function PipelineReports() {
  const { boards, owners, report, errors } = useLoaderData<typeof loader>();
  const { t } = useTranslation("pipelines");
  const f = usePipelineFormat();
  const duration = useDuration();
  const err = (k: string) => (errors as Record<string, string[] | undefined> | null)?.[k] ?? null;
  const several = !report.filters.board_id && boards.length > 1;
  const columnTotal = report.by_column.reduce((s, c) => s + Number(c.value_cents), 0);
  const ownerTotal = report.by_owner.reduce((s, c) => s + Number(c.value_cents), 0);
  return (
    <div className="space-y-6">
      <PageHeader
        description={t("reports.description")}
        actions={
          <Link to="/pipelines" className="text-sm underline">
            {t("boards.all")}
          </Link>
        }
      />
      <Card>
        <CardContent className="pt-6">
          <Form method="get" className="grid gap-4 sm:grid-cols-2 lg:grid-cols-6 lg:items-end">
            <div className="space-y-1 lg:col-span-2">
              <Label htmlFor="report-board">{t("reports.filters.board")}</Label>
              <NativeSelect id="report-board" name="board_id" defaultValue={report.filters.board_id ?? ""}>
                <NativeSelectOption value="">{t("reports.filters.allBoards")}</NativeSelectOption>
                {boards.map((b) => (
                  <NativeSelectOption key={b.id} value={b.id}>
                    {b.name}
                  </NativeSelectOption>
                ))}
              </NativeSelect>
            </div>
            <div className="space-y-1">
              <Label htmlFor="report-owner">{t("reports.filters.owner")}</Label>
              <NativeSelect id="report-owner" name="owner_id" defaultValue={report.filters.owner_id ?? ""}>
                <NativeSelectOption value="">{t("reports.filters.allOwners")}</NativeSelectOption>
                {owners.map((o) => (
                  <NativeSelectOption key={o.id} value={o.id}>
                    {o.name}
                  </NativeSelectOption>
                ))}
              </NativeSelect>
            </div>
            <div className="space-y-1">
              <Label htmlFor="report-from">{t("reports.filters.from")}</Label>
              <Input id="report-from" name="from" type="date" defaultValue={report.filters.from} aria-invalid={err("from") ? true : undefined} />
              <ErrorText errors={err("from")} />
            </div>
            <div className="space-y-1">
              <Label htmlFor="report-to">{t("reports.filters.to")}</Label>
              <Input id="report-to" name="to" type="date" defaultValue={report.filters.to} aria-invalid={err("to") ? true : undefined} />
              <ErrorText errors={err("to")} />
            </div>
            <div className="space-y-1">
              <Label htmlFor="report-group">{t("reports.filters.group")}</Label>
              <NativeSelect id="report-group" name="group" defaultValue={report.filters.group}>
                {GROUPS.map((g) => (
                  <NativeSelectOption key={g} value={g}>
                    {t(`reports.groups.${g}`)}
                  </NativeSelectOption>
                ))}
              </NativeSelect>
            </div>
            <div className="sm:col-span-2 lg:col-span-6">
              <ErrorText errors={err("")} />
              <Button type="submit">{t("reports.filters.apply")}</Button>
            </div>
          </Form>
        </CardContent>
      </Card>

      <div className="grid gap-6 xl:grid-cols-2">
        <Card>
          <CardHeader>
            <CardTitle>
              <h2>{t("reports.byColumn.title")}</h2>
            </CardTitle>
            <CardDescription>{t("reports.byColumn.description")}</CardDescription>
          </CardHeader>
          <CardContent>
            {report.by_column.length === 0 ? (
              <p className="text-sm text-muted-foreground">{t("reports.none")}</p>
            ) : (
              <div className="overflow-x-auto">
                <Table data-report="by-column">
                  <TableHeader>
                    <TableRow>
                      <TableHead>{t("reports.fields.column")}</TableHead>
                      <TableHead className="text-right">{t("reports.fields.deals")}</TableHead>
                      <TableHead className="text-right">{t("reports.fields.value")}</TableHead>
                      <TableHead className="text-right">{t("reports.fields.products")}</TableHead>
                    </TableRow>
                  </TableHeader>
                  <TableBody>
                    {report.by_column.map((c) => (
                      <TableRow key={c.column_id}>
                        <TableCell className="whitespace-normal">{several ? `${c.board_name} · ${c.column_name}` : c.column_name}</TableCell>
                        <TableCell className="text-right tabular-nums">{c.deals}</TableCell>
                        <TableCell className="text-right tabular-nums">{f.money(c.value_cents)}</TableCell>
                        <TableCell className="text-right tabular-nums">{f.money(c.products_cents)}</TableCell>
                      </TableRow>
                    ))}
                  </TableBody>
                  <TableFooter>
                    <TableRow>
                      <TableCell className="font-semibold">{t("reports.total")}</TableCell>
                      <TableCell className="text-right tabular-nums">{report.by_column.reduce((s, c) => s + c.deals, 0)}</TableCell>
                      <TableCell className="text-right font-semibold tabular-nums">{f.money(columnTotal)}</TableCell>
                      <TableCell />
                    </TableRow>
                  </TableFooter>
                </Table>
              </div>
            )}
          </CardContent>
        </Card>

        <Card>
          <CardHeader>
            <CardTitle>
              <h2>{t("reports.byOwner.title")}</h2>
            </CardTitle>
            <CardDescription>{t("reports.byOwner.description")}</CardDescription>
          </CardHeader>
          <CardContent>
            {report.by_owner.length === 0 ? (
              <p className="text-sm text-muted-foreground">{t("reports.none")}</p>
            ) : (
              <div className="overflow-x-auto">
                <Table data-report="by-owner">
                  <TableHeader>
                    <TableRow>
                      <TableHead>{t("reports.fields.owner")}</TableHead>
                      <TableHead className="text-right">{t("reports.fields.deals")}</TableHead>
                      <TableHead className="text-right">{t("reports.fields.value")}</TableHead>
                      <TableHead className="text-right">{t("reports.fields.products")}</TableHead>
                    </TableRow>
                  </TableHeader>
                  <TableBody>
                    {report.by_owner.map((o) => (
                      <TableRow key={o.owner_id ?? "none"}>
                        <TableCell>{o.owner_name || t("deal.noOwner")}</TableCell>
                        <TableCell className="text-right tabular-nums">{o.deals}</TableCell>
                        <TableCell className="text-right tabular-nums">{f.money(o.value_cents)}</TableCell>
                        <TableCell className="text-right tabular-nums">{f.money(o.products_cents)}</TableCell>
                      </TableRow>
                    ))}
                  </TableBody>
                  <TableFooter>
                    <TableRow>
                      <TableCell className="font-semibold">{t("reports.total")}</TableCell>
                      <TableCell className="text-right tabular-nums">{report.by_owner.reduce((s, c) => s + c.deals, 0)}</TableCell>
                      <TableCell className="text-right font-semibold tabular-nums">{f.money(ownerTotal)}</TableCell>
                      <TableCell />
                    </TableRow>
                  </TableFooter>
                </Table>
              </div>
            )}
          </CardContent>
        </Card>
      </div>

      <Card>
        <CardHeader>
          <CardTitle>
            <h2>{t("reports.outcomes.title")}</h2>
          </CardTitle>
          <CardDescription>
            {t("reports.outcomes.description", {
              from: f.day(report.filters.from),
              to: f.day(report.filters.to),
              sold: report.totals.sold,
              soldValue: f.money(report.totals.sold_cents),
              lost: report.totals.lost,
              lostValue: f.money(report.totals.lost_cents),
            })}
          </CardDescription>
        </CardHeader>
        <CardContent>
          {report.outcomes.length === 0 ? (
            <p className="text-sm text-muted-foreground">{t("reports.outcomes.none")}</p>
          ) : (
            <div className="overflow-x-auto">
              <Table data-report="outcomes">
                <TableHeader>
                  <TableRow>
                    <TableHead>{t(`reports.groups.${report.filters.group}`)}</TableHead>
                    <TableHead className="text-right">{t("reports.fields.sold")}</TableHead>
                    <TableHead className="text-right">{t("reports.fields.soldValue")}</TableHead>
                    <TableHead className="text-right">{t("reports.fields.lost")}</TableHead>
                    <TableHead className="text-right">{t("reports.fields.lostValue")}</TableHead>
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {report.outcomes.map((p) => (
                    <TableRow key={p.period}>
                      <TableCell>{report.filters.group === "month" ? p.period.slice(0, 7) : f.day(p.period)}</TableCell>
                      <TableCell className="text-right tabular-nums">{p.sold}</TableCell>
                      <TableCell className="text-right tabular-nums">{f.money(p.sold_cents)}</TableCell>
                      <TableCell className="text-right tabular-nums">{p.lost}</TableCell>
                      <TableCell className="text-right tabular-nums">{f.money(p.lost_cents)}</TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </div>
          )}
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle>
            <h2>{t("reports.time.title")}</h2>
          </CardTitle>
          <CardDescription>{t("reports.time.description")}</CardDescription>
        </CardHeader>
        <CardContent>
          {report.time_in_column.length === 0 ? (
            <p className="text-sm text-muted-foreground">{t("reports.none")}</p>
          ) : (
            <div className="overflow-x-auto">
              <Table data-report="time-in-column">
                <TableHeader>
                  <TableRow>
                    <TableHead>{t("reports.fields.column")}</TableHead>
                    <TableHead className="text-right">{t("reports.fields.average")}</TableHead>
                    <TableHead className="text-right">{t("reports.fields.stays")}</TableHead>
                    <TableHead className="text-right">{t("reports.fields.current")}</TableHead>
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {report.time_in_column.map((c) => (
                    <TableRow key={c.column_id}>
                      <TableCell className="whitespace-normal">{c.column_name}</TableCell>
                      <TableCell className="text-right tabular-nums">{duration(c.average_seconds === null ? null : Number(c.average_seconds))}</TableCell>
                      <TableCell className="text-right tabular-nums">{c.stays}</TableCell>
                      <TableCell className="text-right tabular-nums">{c.current}</TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </div>
          )}
        </CardContent>
      </Card>
    </div>
  );
}
