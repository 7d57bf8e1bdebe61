/**
 * A list of CSV exports (the SMS history's on /sms/exports, the conversations' on /chat/reports):
 * when, which filter, status, rows, download. While one is queued or processing the screen follows
 * it: with JavaScript the loader is refetched every 3 s; without it a <noscript> meta refresh reloads
 * the page. Each screen names its locale namespace (the same `exports.*` keys) and its file route.
 */
import { useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { useRefresh } from "~/components/live/use-refresh";
import { formatCount } from "~/components/sms-reports/format";
import { ExportStatusBadge } from "~/components/sms-reports/status-badge";
import { Card, CardContent } from "~/components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { formatDate } from "~/lib/format";
import type { RootData } from "~/root";

export const EXPORTS_REFRESH_SECONDS = 3;
/** 2026-11-25 as 25/11/2026. */
export const dmy = (day: string) => day.split("-").reverse().join("/");

type ExportRow<F> = { id: string; created_at: string; status: string; rows: number; filter: F };

export function ExportsTable<F>({
  exports,
  ns,
  describe,
  fileHref,
}: {
  exports: ExportRow<F>[];
  ns: "smsReports" | "liveReports";
  describe: (filter: F) => string;
  fileHref: (id: string) => string;
}) {
  const lng = useRouteLoaderData<RootData>("root")?.lng ?? "pt-BR";
  const { t } = useTranslation(ns);
  const active = exports.some((e) => e.status === "queued" || e.status === "processing");
  useRefresh(EXPORTS_REFRESH_SECONDS * 1000, active);
  return (
    <Card>
      {active ? (
        <noscript>
          <meta httpEquiv="refresh" content={String(EXPORTS_REFRESH_SECONDS)} />
        </noscript>
      ) : null}
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
                <TableHead className="text-right">
                  <span className="sr-only">{t("exports.columns.file")}</span>
                </TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {exports.map((e) => (
                <TableRow key={e.id} data-export-id={e.id} data-export-status={e.status}>
                  <TableCell className="whitespace-nowrap">
                    <time dateTime={e.created_at}>{formatDate(e.created_at, lng, true)}</time>
                  </TableCell>
                  <TableCell>{describe(e.filter)}</TableCell>
                  <TableCell>
                    <ExportStatusBadge status={e.status} />
                    {e.status === "failed" ? <p className="mt-1 text-xs text-destructive">{t("exports.failed")}</p> : null}
                  </TableCell>
                  <TableCell className="text-right tabular-nums">{e.status === "done" ? formatCount(e.rows, lng) : "—"}</TableCell>
                  <TableCell className="text-right">
                    {e.status === "done" ? (
                      <a
                        href={fileHref(e.id)}
                        download
                        className="text-primary hover:underline"
                        aria-label={t("exports.downloadLabel", { date: formatDate(e.created_at, lng, true) })}
                      >
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
  );
}
