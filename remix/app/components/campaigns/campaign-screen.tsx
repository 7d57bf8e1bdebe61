/**
 * One campaign (/sms/campaigns/{id}, /whatsapp/campaigns/{id}): its progress bar, per-status counts
 * and details, with pause / resume / cancel (plain POST forms with CSRF) and delete once finished.
 * While it runs the page refetches itself every 5 s; without JavaScript a <noscript> meta refresh
 * reloads it (a meta refresh with scripts on could reload the page in the middle of a pause or
 * cancel and lose its notice). When the campaign's links were shortened per recipient (ADR 060), a
 * "Who clicked" card: recipients with a code, how many clicked, per link, and the last who clicked.
 */
import { Form, Link, useActionData, useLoaderData, useNavigation, useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { CampaignStatusBadge, ProgressBar, StatusCounts } from "~/components/campaigns/campaign-parts";
import { ConfirmDelete } from "~/components/forms/confirm-delete";
import { CsrfInput, FormErrors } from "~/components/forms/fields";
import { useRefresh } from "~/components/live/use-refresh";
import { PageHeader } from "~/components/shell/page-header";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader } from "~/components/ui/card";
import type { campaignLoader } from "~/lib/campaigns.server";
import { formatDate, formatMoney } from "~/lib/format";
import type { FormReply } from "~/lib/forms.server";
import { intlLocale } from "~/lib/i18n";
import type { RootData } from "~/root";

const REFRESH_SECONDS = 5;
const LIVE = ["scheduled", "preparing", "running"];
const FINISHED = ["completed", "canceled", "failed"];

function ControlButton({ status, label, variant = "secondary", busy }: { status: string; label: string; variant?: "secondary" | "destructive" | "default"; busy: boolean }) {
  return (
    <Form method="post" className="inline">
      <CsrfInput />
      <input type="hidden" name="intent" value="control" />
      <input type="hidden" name="status" value={status} />
      <Button type="submit" variant={variant} disabled={busy} data-action={status}>
        {label}
      </Button>
    </Form>
  );
}

/** One campaign of the route's channel: progress, counts, controls and details. */
export function CampaignScreen() {
  const { campaign: c, clicks, canControl, base } = useLoaderData<typeof campaignLoader>();
  const last = useActionData<FormReply>();
  const busy = useNavigation().state === "submitting";
  const lng = useRouteLoaderData<RootData>("root")?.lng ?? "pt-BR";
  const { t } = useTranslation(["smsOps", "sms", "common"]);
  const fmt = (v: number) => new Intl.NumberFormat(intlLocale[lng]).format(v);
  const errors = last?.result.error
    ? Object.values(last.result.error)
        .flat()
        .filter((e): e is string => typeof e === "string")
    : null;
  const live = LIVE.includes(c.status);
  useRefresh(REFRESH_SECONDS * 1000, live && !busy);
  const info: Array<[string, string | null]> = [
    ["sender", c.sender || null],
    ["route", c.route],
    ["cost", formatMoney(c.cost, c.currency, lng)],
    ["created", formatDate(c.created_at, lng, true)],
    ["scheduled", c.scheduled_at ? formatDate(c.scheduled_at, lng, true) : null],
    ["started", c.started_at ? formatDate(c.started_at, lng, true) : null],
    ["completed", c.completed_at ? formatDate(c.completed_at, lng, true) : null],
    ["canceled", c.canceled_at ? formatDate(c.canceled_at, lng, true) : null],
  ];
  const canPause = ["scheduled", "preparing", "running"].includes(c.status);
  const canResume = c.status === "paused";
  const canCancel = ["scheduled", "preparing", "running", "paused"].includes(c.status);
  return (
    <div className="space-y-6">
      {live ? (
        <noscript>
          <meta httpEquiv="refresh" content={String(REFRESH_SECONDS)} />
        </noscript>
      ) : null}
      <PageHeader
        description={<CampaignStatusBadge status={c.status} />}
        actions={
          <Button asChild variant="ghost">
            <Link to={`${base}/campaigns`}>{t("campaigns.actions.back")}</Link>
          </Button>
        }
      />
      <FormErrors errors={errors} />
      <Card>
        <CardHeader>
          <h2 className="leading-none font-semibold">{t("campaigns.columns.progress")}</h2>
          {live ? <CardDescription>{t("campaigns.autoRefresh", { seconds: REFRESH_SECONDS })}</CardDescription> : null}
        </CardHeader>
        <CardContent className="space-y-6">
          <ProgressBar percent={c.progress} label={t("campaigns.progress", { percent: c.progress, done: fmt(c.done), total: fmt(Math.max(c.total, c.done)) })} />
          <div className="space-y-2">
            <h3 className="text-sm font-medium">{t("campaigns.countsTitle")}</h3>
            <StatusCounts counts={c.counts} />
          </div>
          {c.invalid_rows > 0 && (base === "/sms" || base === "/mail" || base === "/rcs") ? (
            <p className="text-sm" data-testid="invalid-rows">
              {t(base === "/mail" ? "sms:invalidRows.campaignHintEmail" : "sms:invalidRows.campaignHint", { count: c.invalid_rows })}{" "}
              <a className="font-medium text-primary underline-offset-4 hover:underline" href={`${base}/campaigns/${c.id}/invalid-rows`} download data-testid="invalid-rows-link">
                {t("sms:invalidRows.download")}
              </a>
            </p>
          ) : null}
        </CardContent>
      </Card>
      {canControl ? (
        <Card>
          <CardHeader>
            <h2 className="leading-none font-semibold">{t("campaigns.actions.title")}</h2>
            {canCancel ? <CardDescription>{t("campaigns.actions.cancelHint")}</CardDescription> : null}
          </CardHeader>
          <CardContent className="flex flex-wrap items-start gap-2">
            {canPause ? <ControlButton status="paused" label={t("campaigns.actions.pause")} busy={busy} /> : null}
            {canResume ? <ControlButton status="running" label={t("campaigns.actions.resume")} variant="default" busy={busy} /> : null}
            {canCancel ? <ControlButton status="canceled" label={t("campaigns.actions.cancel")} variant="destructive" busy={busy} /> : null}
            {FINISHED.includes(c.status) ? (
              <ConfirmDelete
                id={c.id}
                summary={t("campaigns.actions.delete")}
                label={t("campaigns.actions.deleteLabel", { name: c.name || t("campaigns.unnamed") })}
                body={t("campaigns.actions.deleteBody")}
                confirm={t("campaigns.actions.deleteConfirm")}
              />
            ) : null}
            {!canPause && !canResume && !canCancel && !FINISHED.includes(c.status) ? <p className="text-sm text-muted-foreground">{t("campaigns.actions.none")}</p> : null}
          </CardContent>
        </Card>
      ) : null}
      {clicks ? <WhoClicked clicks={clicks} /> : null}
      <Card>
        <CardHeader>
          <h2 className="leading-none font-semibold">{t("campaigns.info.title")}</h2>
        </CardHeader>
        <CardContent>
          <dl className="grid gap-3 sm:grid-cols-2">
            {info
              .filter(([, v]) => v)
              .map(([k, v]) => (
                <div key={k}>
                  <dt className="text-xs text-muted-foreground">{t(`campaigns.info.${k}`)}</dt>
                  <dd className="text-sm" data-info={k}>
                    {v}
                  </dd>
                </div>
              ))}
            {c.body ? (
              <div className="sm:col-span-2">
                <dt className="text-xs text-muted-foreground">{t("campaigns.info.body")}</dt>
                <dd className="text-sm whitespace-pre-wrap">{c.body}</dd>
              </div>
            ) : null}
          </dl>
        </CardContent>
      </Card>
    </div>
  );
}

type Clicks = NonNullable<ReturnType<typeof useLoaderData<typeof campaignLoader>>["clicks"]>;

/** Who clicked the campaign's shortened links: totals, per link, and the last 100 who clicked. */
function WhoClicked({ clicks }: { clicks: Clicks }) {
  const lng = useRouteLoaderData<RootData>("root")?.lng ?? "pt-BR";
  const { t } = useTranslation(["smsOps"]);
  const fmt = (v: number) => new Intl.NumberFormat(intlLocale[lng]).format(v);
  const rate = clicks.recipients ? Math.round((clicks.clicked / clicks.recipients) * 1000) / 10 : 0;
  return (
    <Card data-testid="who-clicked">
      <CardHeader>
        <h2 className="leading-none font-semibold">{t("campaigns.clicks.title")}</h2>
        <CardDescription data-testid="clicks-summary">
          {t("campaigns.clicks.summary", {
            clicked: fmt(clicks.clicked),
            recipients: fmt(clicks.recipients),
            rate: new Intl.NumberFormat(intlLocale[lng]).format(rate),
            clicks: fmt(clicks.clicks),
          })}
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-6">
        <div className="overflow-x-auto">
          <table className="w-full text-sm">
            <caption className="sr-only">{t("campaigns.clicks.linksCaption")}</caption>
            <thead>
              <tr className="border-b text-left text-muted-foreground">
                <th scope="col" className="py-2 pr-4 font-medium">
                  {t("campaigns.clicks.link")}
                </th>
                <th scope="col" className="py-2 pr-4 text-right font-medium">
                  {t("campaigns.clicks.clicked")}
                </th>
                <th scope="col" className="py-2 text-right font-medium">
                  {t("campaigns.clicks.clicks")}
                </th>
              </tr>
            </thead>
            <tbody>
              {clicks.links.map((l) => (
                <tr key={l.url} className="border-b last:border-0">
                  <td className="py-2 pr-4 break-all">{l.url}</td>
                  <td className="py-2 pr-4 text-right tabular-nums">{fmt(l.clicked)}</td>
                  <td className="py-2 text-right tabular-nums">{fmt(l.clicks)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        {clicks.people.length === 0 ? (
          <p className="text-sm text-muted-foreground">{t("campaigns.clicks.none")}</p>
        ) : (
          <div className="overflow-x-auto">
            <table className="w-full text-sm" data-testid="clickers">
              <caption className="sr-only">{t("campaigns.clicks.peopleCaption")}</caption>
              <thead>
                <tr className="border-b text-left text-muted-foreground">
                  <th scope="col" className="py-2 pr-4 font-medium">
                    {t("campaigns.clicks.recipient")}
                  </th>
                  <th scope="col" className="py-2 pr-4 font-medium">
                    {t("campaigns.clicks.name")}
                  </th>
                  <th scope="col" className="py-2 pr-4 text-right font-medium">
                    {t("campaigns.clicks.clicks")}
                  </th>
                  <th scope="col" className="py-2 font-medium">
                    {t("campaigns.clicks.last")}
                  </th>
                </tr>
              </thead>
              <tbody>
                {clicks.people.map((p) => (
                  <tr key={p.recipient} className="border-b last:border-0" data-recipient={p.recipient}>
                    <td className="py-2 pr-4 tabular-nums">{p.recipient}</td>
                    <td className="py-2 pr-4">{p.name ?? "—"}</td>
                    <td className="py-2 pr-4 text-right tabular-nums">{fmt(p.clicks)}</td>
                    <td className="py-2">{formatDate(p.last_at, lng, true)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </CardContent>
    </Card>
  );
}
