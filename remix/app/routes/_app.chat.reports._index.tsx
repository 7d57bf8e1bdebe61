/**
 * /chat/reports: request a CSV export of the conversations of a period (a plain POST form: no
 * JavaScript needed; the toast says 'Report export: queued for processing'), and the account's
 * exports with their state and download. While one is queued or processing the page reloads
 * itself every 3 s (a meta refresh without JavaScript; with it, the loader is revalidated).
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useActionData, useLoaderData, useRevalidator, useRouteLoaderData } from "@remix-run/react";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { createLiveExport, listLiveExports } from "../../../api/live/report-exports";
import { reportFilterOptions } from "../../../api/live/reports";
import { CsrfInput, FormErrors } from "~/components/forms/fields";
import { PeriodFilters } from "~/components/live-reports/period-filters";
import { formatCount } from "~/components/sms-reports/format";
import { ExportStatusBadge } from "~/components/sms-reports/status-badge";
import { PageHeader } from "~/components/shell/page-header";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { orHttpError, requireRoute } from "~/lib/auth.server";
import { formatDate } from "~/lib/format";
import { handleForm, type FormReply } from "~/lib/forms.server";
import { periodValues } from "~/lib/live-reports.server";
import { redirectWithToast } from "~/lib/toast.server";
import type { RootData } from "~/root";

export const handle = { crumb: "liveReports:crumbs.exports" };

const REFRESH_SECONDS = 3;
const dmy = (day: string) => day.split("-").reverse().join("/");

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  const [options, exports] = await Promise.all([orHttpError(reportFilterOptions(ctx)), orHttpError(listLiveExports(ctx))]);
  return json({ options, exports, values: periodValues(new URL(request.url).searchParams) }, { headers: { "Cache-Control": "private, no-store" } });
}

export async function action({ request }: ActionFunctionArgs) {
  const ctx = await requireRoute(request);
  return handleForm(request, null, async (_, form) => {
    await createLiveExport(ctx, periodValues(form));
    return redirectWithToast(request, "/chat/reports", { type: "success", title: "liveReports:exports.queued" });
  });
}

export default function ChatReports() {
  const { options, exports, values } = useLoaderData<typeof loader>();
  const last = useActionData<FormReply>();
  const lng = useRouteLoaderData<RootData>("root")?.lng ?? "pt-BR";
  const { t } = useTranslation("liveReports");
  const active = exports.some((e) => e.status === "queued" || e.status === "processing");
  const revalidator = useRevalidator();
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => revalidator.state === "idle" && revalidator.revalidate(), REFRESH_SECONDS * 1000);
    return () => clearInterval(timer);
  }, [active, revalidator]);
  const errors = (last?.result.error ?? {}) as Record<string, string[] | undefined>;
  const name = (list: Array<{ id: string; name: string }>, id: string | null) => (id ? list.find((x) => x.id === id)?.name ?? id.slice(0, 8) : null);

  return (
    <div className="space-y-6">
      {active ? (
        <noscript>
          <meta httpEquiv="refresh" content={String(REFRESH_SECONDS)} />
        </noscript>
      ) : null}
      <PageHeader description={t("exports.description")} />
      <Card>
        <CardHeader><CardTitle>{t("exports.request")}</CardTitle></CardHeader>
        <CardContent className="space-y-3">
          <FormErrors errors={errors[""]} />
          <PeriodFilters action="/chat/reports?index" method="post" values={values} errors={errors} options={options} submitLabel={t("exports.submit")}>
            <CsrfInput />
          </PeriodFilters>
        </CardContent>
      </Card>
      <Card>
        <CardContent className="pt-6">
          {exports.length === 0 ? (
            <p className="py-8 text-center text-sm text-muted-foreground">{t("exports.empty")}</p>
          ) : (
            <Table>
              <TableHeader>
                <TableRow>
                  <TableHead>{t("exports.columns.date")}</TableHead>
                  <TableHead>{t("exports.columns.filter")}</TableHead>
                  <TableHead>{t("exports.columns.status")}</TableHead>
                  <TableHead className="text-right">{t("exports.columns.rows")}</TableHead>
                  <TableHead className="text-right"><span className="sr-only">{t("exports.columns.file")}</span></TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {exports.map((e) => (
                  <TableRow key={e.id} data-export-id={e.id} data-export-status={e.status}>
                    <TableCell className="whitespace-nowrap"><time dateTime={e.created_at}>{formatDate(e.created_at, lng, true)}</time></TableCell>
                    <TableCell>
                      {[
                        e.filter.begin === e.filter.end ? dmy(e.filter.begin) : `${dmy(e.filter.begin)} – ${dmy(e.filter.end)}`,
                        name(options.departments, e.filter.department_id),
                        name(options.agents, e.filter.agent_id),
                      ].filter(Boolean).join(" · ")}
                    </TableCell>
                    <TableCell>
                      <ExportStatusBadge status={e.status} />
                      {e.status === "failed" ? <p className="mt-1 text-xs text-destructive">{t("exports.failed")}</p> : null}
                    </TableCell>
                    <TableCell className="text-right tabular-nums">{e.status === "done" ? formatCount(e.rows, lng) : "—"}</TableCell>
                    <TableCell className="text-right">
                      {e.status === "done" ? (
                        <a href={`/chat/reports/${e.id}/file`} download className="text-primary hover:underline" aria-label={t("exports.downloadLabel", { date: formatDate(e.created_at, lng, true) })}>
                          {t("exports.download")}
                        </a>
                      ) : e.status === "failed" ? null : (
                        <span className="text-sm text-muted-foreground">{t("exports.preparing")}</span>
                      )}
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
        </CardContent>
      </Card>
    </div>
  );
}
