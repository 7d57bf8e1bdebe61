import { Link } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import type { ImportView } from "~api/imports/services";
import { ImportStatusBadge } from "./status-badge";
import { formatCount } from "./numbers";
import { useErrorText } from "~/components/forms/fields";
import { Alert, AlertDescription, AlertTitle } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader } from "~/components/ui/card";
import { formatDate } from "~/lib/format";
import type { Lng } from "~/lib/i18n";

type Counts = Pick<ImportView, "processedRows" | "totalRows" | "insertedRows" | "mergedRows" | "errorCount" | "rowsPerSecond">;

function Stat({ label, value, name }: { label: string; value: string; name: string }) {
  return (
    <div className="rounded-md border p-3" data-stat={name}>
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="text-lg font-semibold tabular-nums">{value}</dd>
    </div>
  );
}

function Stats({ imp, lng, live }: { imp: Counts; lng: Lng; live: boolean }) {
  const { t } = useTranslation("imports");
  const n = (v: number) => formatCount(v, lng);
  return (
    <dl className="grid gap-3 sm:grid-cols-2 lg:grid-cols-5">
      <Stat
        name="processed"
        label={live ? t("progress.processed") : t("summary.total")}
        value={live ? t("progress.ofTotal", { processed: n(imp.processedRows), total: n(imp.totalRows) }) : n(imp.processedRows)}
      />
      <Stat name="speed" label={t("progress.speed")} value={t("progress.perSecond", { rate: n(imp.rowsPerSecond) })} />
      <Stat name="inserted" label={t("progress.inserted")} value={n(imp.insertedRows)} />
      <Stat name="merged" label={t("progress.merged")} value={n(imp.mergedRows)} />
      <Stat name="errors" label={t("progress.errors")} value={n(imp.errorCount)} />
    </dl>
  );
}

/** Queued or running: percent bar and counters (the route keeps them fresh). */
export function ImportProgress({ imp, lng }: { imp: ImportView; lng: Lng }) {
  const { t } = useTranslation("imports");
  const percent = Math.max(0, Math.min(100, Math.floor(imp.percent)));
  return (
    <Card aria-live="polite">
      <CardHeader>
        <div className="flex flex-wrap items-center gap-2">
          <h2 className="leading-none font-semibold">{t("progress.title")}</h2>
          <ImportStatusBadge status={imp.status} />
        </div>
        <CardDescription>
          {imp.status === "queued" ? t("progress.queued") : t("progress.running")} {t("progress.live")}
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        <div className="space-y-1">
          <div
            role="progressbar"
            aria-label={t("progress.label")}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={percent}
            className="h-3 w-full overflow-hidden rounded-full bg-muted"
          >
            <div className="h-full rounded-full bg-primary transition-[width] duration-500" style={{ width: `${percent}%` }} />
          </div>
          <p className="text-right text-sm font-medium tabular-nums" data-percent={percent}>
            {t("progress.percent", { percent })}
          </p>
        </div>
        <Stats imp={imp} lng={lng} live />
      </CardContent>
    </Card>
  );
}

/** Completed or failed: what happened, the error report, the group, another import. */
export function ImportSummary({ imp, lng, groupName, failureParams }: { imp: ImportView; lng: Lng; groupName: string | null; failureParams?: Record<string, unknown> }) {
  const { t } = useTranslation("imports");
  const errorText = useErrorText();
  const failed = imp.status === "failed";
  return (
    <Card>
      <CardHeader>
        <div className="flex flex-wrap items-center gap-2">
          <h2 className="leading-none font-semibold">{failed ? t("summary.failed") : t("summary.completed")}</h2>
          <ImportStatusBadge status={imp.status} />
        </div>
        <CardDescription>
          {imp.startedAt ? t("summary.startedAt", { date: formatDate(imp.startedAt, lng, true) }) : null}
          {imp.startedAt && imp.finishedAt ? " · " : null}
          {imp.finishedAt ? t("summary.finishedAt", { date: formatDate(imp.finishedAt, lng, true) }) : null}
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        {failed ? (
          <Alert variant="destructive">
            <AlertTitle>{t("summary.failed")}</AlertTitle>
            <AlertDescription>{errorText(imp.failure ?? "errors.IMPORT_FAILED", failureParams)}</AlertDescription>
          </Alert>
        ) : null}
        <Stats imp={imp} lng={lng} live={false} />
        {imp.errorCount === 0 && !failed ? <p className="text-sm text-muted-foreground">{t("summary.noErrors")}</p> : null}
        <div className="flex flex-wrap gap-2">
          {imp.errorCount > 0 ? (
            <Button asChild variant="outline">
              <a href={`/contacts/import/${imp.id}/errors`} download>
                {t("summary.downloadErrors")}
              </a>
            </Button>
          ) : null}
          {imp.groupId ? (
            <Button asChild variant="outline">
              <Link to={`/contacts?group=${imp.groupId}`}>{groupName ? t("summary.openGroup", { name: groupName }) : t("summary.openGroupFallback")}</Link>
            </Button>
          ) : null}
          <Button asChild>
            <Link to="/contacts/import">{t("summary.another")}</Link>
          </Button>
        </div>
      </CardContent>
    </Card>
  );
}
