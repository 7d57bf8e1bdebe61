/**
 * The account's exports (/sms/exports and /sms/reports/exports): when, which filter, status, rows,
 * download. While one is queued or processing the page reloads itself every 3 s (a meta refresh:
 * no JavaScript needed; with JavaScript the loader is revalidated instead).
 */
import { useLoaderData, useRevalidator, useRouteLoaderData } from "@remix-run/react";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { formatCount } from "./format";
import { ExportStatusBadge } from "./status-badge";
import { PageHeader } from "~/components/shell/page-header";
import { Button } from "~/components/ui/button";
import { Card, CardContent } from "~/components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { formatDate } from "~/lib/format";
import type { exportsLoader } from "~/lib/sms-reports.server";
import type { RootData } from "~/root";

const REFRESH_SECONDS = 3;
const dmy = (day: string) => day.split("-").reverse().join("/");

export function ExportsScreen({ historyPath }: { historyPath: string }) {
  const { exports } = useLoaderData<typeof exportsLoader>();
  const lng = useRouteLoaderData<RootData>("root")?.lng ?? "pt-BR";
  const { t } = useTranslation("smsReports");
  const active = exports.some((e) => e.status === "queued" || e.status === "processing");
  const revalidator = useRevalidator();
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => revalidator.state === "idle" && revalidator.revalidate(), REFRESH_SECONDS * 1000);
    return () => clearInterval(timer);
  }, [active, revalidator]);

  const describe = (f: (typeof exports)[number]["filter"]) => {
    const parts = [f.sent_at.from === f.sent_at.to ? dmy(f.sent_at.from) : `${dmy(f.sent_at.from)} – ${dmy(f.sent_at.to)}`];
    if (f.status) parts.push(t(`status.${f.status}`));
    if (f.from) parts.push(t("exports.filterFrom", { v: f.from }));
    if (f.to) parts.push(t("exports.filterTo", { v: f.to }));
    if (f.id) parts.push(t("exports.filterId", { v: f.id.slice(0, 8) }));
    return parts.join(" · ");
  };

  return (
    <div className="space-y-6">
      {active ? (
        <noscript>
          <meta httpEquiv="refresh" content={String(REFRESH_SECONDS)} />
        </noscript>
      ) : null}
      <PageHeader
        description={t("exports.description")}
        actions={
          <Button asChild variant="outline">
            <a href={historyPath}>{t("exports.toHistory")}</a>
          </Button>
        }
      />
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
                    <TableCell>{describe(e.filter)}</TableCell>
                    <TableCell>
                      <ExportStatusBadge status={e.status} />
                      {e.status === "failed" ? <p className="mt-1 text-xs text-destructive">{t("exports.failed")}</p> : null}
                    </TableCell>
                    <TableCell className="text-right tabular-nums">{e.status === "done" ? formatCount(e.rows, lng) : "—"}</TableCell>
                    <TableCell className="text-right">
                      {e.status === "done" ? (
                        <a href={`/sms/exports/${e.id}/file`} download className="text-primary hover:underline" aria-label={t("exports.downloadLabel", { date: formatDate(e.created_at, lng, true) })}>
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
