/**
 * /flows/reports (issue 20): the flows' results over São Paulo days (a GET form: flow, from, to;
 * default the last 30 days; api/flows/streams.ts `flowReport`). Per flow, the streams that entered
 * and how they ended; per flow a funnel of its steps in the path order of its definition (how many
 * streams reached each step, and how many finished, dropped or were handed off there) as plain CSS
 * bars; and a page of the streams (filtered by status) linking to each one's path. Works without JavaScript.
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { STREAM_STATUSES } from "~api/flows/engine";
import { flowReport } from "~api/flows/streams";
import { isAppError } from "~api/lib/errors";
import { STREAM_BADGE } from "~/components/flows/stream-status";
import { ErrorText } from "~/components/forms/fields";
import { PageHeader } from "~/components/shell/page-header";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { NativeSelect, NativeSelectOption } from "~/components/ui/native-select";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { requireRoute } from "~/lib/auth.server";
import { formatDate } from "~/lib/format";
import type { Lng } from "~/lib/i18n";
import { useTranslation } from "~/lib/react-i18n";
import type { RootData } from "~/root";

export const handle = { crumb: "flows:reports.crumb" };

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  const q = new URL(request.url).searchParams;
  const values = { flow: q.get("flow") ?? "", from: q.get("from") ?? "", to: q.get("to") ?? "", status: q.get("status") ?? "", cursor: q.get("cursor") ?? "" };
  const input = Object.fromEntries(Object.entries(values).filter(([, v]) => v.trim() !== ""));
  try {
    const { data } = await flowReport(ctx, input);
    return json({ report: data, errors: {} as Record<string, string[]>, values }, { headers: { "Cache-Control": "private, no-store" } });
  } catch (e) {
    if (!isAppError(e) || e.code !== "VALIDATION") throw e;
    // The form keeps what was typed; the report of the defaults is not shown under a wrong filter.
    const { data } = await flowReport(ctx, {});
    return json(
      { report: { ...data, insights: [], streams: [], next_cursor: null, filters: { ...data.filters, ...values } }, errors: e.fields ?? {}, values },
      { status: 422, headers: { "Cache-Control": "private, no-store" } },
    );
  }
}

const COUNTS = ["entered", "finished", "dropped", "handed_off", "cancelled", "failed", "live"] as const;
type Funnel = { node_id: string; node_type: string; entered: number; finished: number; dropped: number; handed_off: number };

/** A horizontal bar per step: its length the streams that reached it (of the flow's entered), the ends there as segments. */
function FunnelBars({ nodes, total }: { nodes: Funnel[]; total: number }) {
  const { t } = useTranslation("flows");
  const pct = (n: number) => `${total ? Math.max((n / total) * 100, n ? 1 : 0) : 0}%`;
  return (
    <ol className="space-y-2" data-testid="funnel">
      {nodes.map((n) => (
        <li
          key={n.node_id}
          data-node={n.node_id}
          data-entered={n.entered}
          data-finished={n.finished}
          data-dropped={n.dropped}
          data-handed-off={n.handed_off}
          className="grid gap-1 text-sm sm:grid-cols-[14rem_1fr]"
        >
          <div className="truncate">
            <span className="font-medium">{t(`nodes.${n.node_type}`)}</span> <code className="text-xs text-muted-foreground">{n.node_id}</code>
          </div>
          <div className="space-y-0.5">
            <div
              className="flex h-4 w-full overflow-hidden rounded bg-muted"
              role="img"
              aria-label={t("reports.barLabel", { node: n.node_id, entered: n.entered, finished: n.finished, dropped: n.dropped, handed_off: n.handed_off })}
            >
              <div className="h-full bg-primary/70" style={{ width: pct(n.entered - n.finished - n.dropped - n.handed_off) }} />
              <div className="h-full bg-success" style={{ width: pct(n.finished) }} />
              <div className="h-full bg-secondary-foreground/50" style={{ width: pct(n.handed_off) }} />
              <div className="h-full bg-warning" style={{ width: pct(n.dropped) }} />
            </div>
            <p className="text-xs text-muted-foreground tabular-nums">
              {t("reports.nodeLine", { entered: n.entered, finished: n.finished, dropped: n.dropped, handed_off: n.handed_off })}
            </p>
          </div>
        </li>
      ))}
    </ol>
  );
}

export default function FlowReports() {
  const { report, errors, values } = useLoaderData<typeof loader>();
  const lng = (useRouteLoaderData<RootData>("root")?.lng ?? "pt-BR") as Lng;
  const { t } = useTranslation("flows");
  const f = report.filters;
  const nextHref = report.next_cursor
    ? `?${new URLSearchParams({ ...(f.flow ? { flow: f.flow } : {}), from: f.from, to: f.to, ...(f.status ? { status: f.status } : {}), cursor: report.next_cursor })}`
    : null;
  return (
    <div className="space-y-6">
      <PageHeader
        description={t("reports.description")}
        actions={
          <Button asChild variant="outline">
            <Link to="/flows">{t("create.back")}</Link>
          </Button>
        }
      />
      <Form method="get" className="flex flex-wrap items-start gap-3" aria-label={t("reports.filter")}>
        <div className="grid gap-1.5">
          <Label htmlFor="report-flow">{t("reports.flow")}</Label>
          <NativeSelect id="report-flow" name="flow" defaultValue={values.flow || f.flow} aria-invalid={errors.flow?.length ? true : undefined}>
            <NativeSelectOption value="">{t("reports.allFlows")}</NativeSelectOption>
            {report.flows.map((x) => (
              <NativeSelectOption key={x.id} value={x.id}>
                {x.name}
              </NativeSelectOption>
            ))}
          </NativeSelect>
          <ErrorText errors={errors.flow} />
        </div>
        {(["from", "to"] as const).map((k) => (
          <div key={k} className="grid gap-1.5">
            <Label htmlFor={`report-${k}`}>{t(`reports.${k}`)}</Label>
            <Input id={`report-${k}`} type="date" name={k} defaultValue={values[k] || f[k]} aria-invalid={errors[k]?.length ? true : undefined} />
            <ErrorText errors={errors[k]} />
          </div>
        ))}
        <div className="grid gap-1.5">
          <Label htmlFor="report-status">{t("reports.streamStatus")}</Label>
          <NativeSelect id="report-status" name="status" defaultValue={values.status || f.status} aria-invalid={errors.status?.length ? true : undefined}>
            <NativeSelectOption value="">{t("list.all")}</NativeSelectOption>
            {STREAM_STATUSES.map((s) => (
              <NativeSelectOption key={s} value={s}>
                {t(`streamStatus.${s}.label`)}
              </NativeSelectOption>
            ))}
          </NativeSelect>
          <ErrorText errors={errors.status} />
        </div>
        <Button type="submit" variant="secondary" className="mt-6">
          {t("list.apply")}
        </Button>
      </Form>

      <Card>
        <CardHeader>
          <CardTitle>
            <h2>{t("reports.perFlow")}</h2>
          </CardTitle>
        </CardHeader>
        <CardContent>
          {report.insights.length === 0 ? (
            <p className="py-6 text-center text-sm text-muted-foreground" data-testid="reports-empty">
              {t("reports.empty")}
            </p>
          ) : (
            <Table>
              <TableHeader>
                <TableRow>
                  <TableHead>{t("fields.name")}</TableHead>
                  {COUNTS.map((c) => (
                    <TableHead key={c} className="text-right">
                      {t(`reports.counts.${c}`)}
                    </TableHead>
                  ))}
                </TableRow>
              </TableHeader>
              <TableBody>
                {report.insights.map((x) => (
                  <TableRow key={x.flow_id} data-testid="report-flow" data-flow-id={x.flow_id}>
                    <TableCell className="font-medium">
                      <Link to={`?${new URLSearchParams({ flow: x.flow_id, from: f.from, to: f.to })}`} className="underline-offset-4 hover:underline">
                        {x.name}
                      </Link>
                    </TableCell>
                    {COUNTS.map((c) => (
                      <TableCell key={c} className="text-right tabular-nums" data-count={c}>
                        {x[c]}
                      </TableCell>
                    ))}
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
        </CardContent>
      </Card>

      {report.insights.map((x) => (
        <Card key={x.flow_id} data-testid="report-funnel" data-flow-id={x.flow_id}>
          <CardHeader>
            <CardTitle>
              <h2>{t("reports.funnel", { name: x.name })}</h2>
            </CardTitle>
          </CardHeader>
          <CardContent className="space-y-3">
            <ul className="flex flex-wrap gap-3 text-xs text-muted-foreground" aria-label={t("reports.legend")}>
              <li className="flex items-center gap-1">
                <span className="inline-block size-3 rounded bg-primary/70" /> {t("reports.passed")}
              </li>
              <li className="flex items-center gap-1">
                <span className="inline-block size-3 rounded bg-success" /> {t("reports.counts.finished")}
              </li>
              <li className="flex items-center gap-1">
                <span className="inline-block size-3 rounded bg-secondary-foreground/50" /> {t("reports.counts.handed_off")}
              </li>
              <li className="flex items-center gap-1">
                <span className="inline-block size-3 rounded bg-warning" /> {t("reports.counts.dropped")}
              </li>
            </ul>
            <FunnelBars nodes={x.nodes} total={x.entered} />
          </CardContent>
        </Card>
      ))}

      <Card>
        <CardHeader>
          <CardTitle>
            <h2>{t("reports.streams")}</h2>
          </CardTitle>
        </CardHeader>
        <CardContent className="space-y-4">
          {report.streams.length === 0 ? (
            <p className="py-6 text-center text-sm text-muted-foreground">{t("reports.noStreams")}</p>
          ) : (
            <Table>
              <TableHeader>
                <TableRow>
                  <TableHead>{t("stream.started")}</TableHead>
                  <TableHead>{t("stream.flow")}</TableHead>
                  <TableHead>{t("fields.status")}</TableHead>
                  <TableHead>{t("fields.channel")}</TableHead>
                  <TableHead className="text-right">{t("reports.steps")}</TableHead>
                  <TableHead>
                    <span className="sr-only">{t("reports.open")}</span>
                  </TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {report.streams.map((s) => (
                  <TableRow key={s.id} data-testid="report-stream" data-stream-id={s.id}>
                    <TableCell className="whitespace-nowrap">{formatDate(s.started_at, lng, true)}</TableCell>
                    <TableCell>
                      {s.flow_name} {t("list.versionN", { version: s.version })}
                    </TableCell>
                    <TableCell>
                      <Badge variant={STREAM_BADGE[s.status] ?? "outline"} title={t(`streamStatus.${s.status}.hint`)}>
                        {t(`streamStatus.${s.status}.label`)}
                      </Badge>
                    </TableCell>
                    <TableCell>{t(`channels.${s.channel}`)}</TableCell>
                    <TableCell className="text-right tabular-nums">{s.steps}</TableCell>
                    <TableCell>
                      <Link to={`/flows/${s.flow_id}/stream/${s.id}`} className="underline-offset-4 hover:underline">
                        {t("reports.open")}
                      </Link>
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
          {nextHref ? (
            <Button asChild variant="outline" size="sm">
              <Link to={nextHref}>{t("reports.more")}</Link>
            </Button>
          ) : null}
        </CardContent>
      </Card>
    </div>
  );
}
