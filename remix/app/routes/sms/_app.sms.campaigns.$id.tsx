/**
 * /sms/campaigns/{id}: one campaign's progress bar, per-status counts and details, with pause /
 * resume / cancel (plain POST forms with CSRF) and delete once finished. While it runs the page
 * refetches itself every 5 s; without JavaScript a <noscript> meta refresh reloads it (a meta refresh
 * with scripts on could reload the page in the middle of a pause or cancel and lose its notice).
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation, useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { controlCampaign, deleteCampaign, getCampaign } from "~api/campaigns/control";
import { CONTROL_STATUSES } from "~api/campaigns/schemas";
import { z } from "~api/lib/zod";
import { can } from "~api/policy/policy";
import { CampaignStatusBadge, ProgressBar, StatusCounts } from "~/components/campaigns/campaign-parts";
import { ConfirmDelete } from "~/components/forms/confirm-delete";
import { useRefresh } from "~/components/live/use-refresh";
import { CsrfInput, FormErrors } from "~/components/forms/fields";
import { PageHeader } from "~/components/shell/page-header";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader } from "~/components/ui/card";
import { orHttpError, requireRoute } from "~/lib/auth.server";
import { formatDate, formatMoney } from "~/lib/format";
import { handleForm, type FormReply } from "~/lib/forms.server";
import { intlLocale, type Lng } from "~/lib/i18n";
import { i18next } from "~/lib/i18n.server";
import { redirectWithToast } from "~/lib/toast.server";
import type { RootData } from "~/root";

const REFRESH_SECONDS = 5;
const LIVE = ["scheduled", "preparing", "running"];
const FINISHED = ["completed", "canceled", "failed"];

export const handle = {
  crumb: (data: unknown) => {
    const c = (data as { campaign?: { name: string } } | undefined)?.campaign;
    return c?.name ? { key: "smsOps:campaigns.detailTitle", params: { name: c.name } } : "smsOps:campaigns.detailFallback";
  },
};

const formSchema = z.object({
  intent: z.enum(["control", "delete"], { message: "validation.option" }),
  status: z.enum(CONTROL_STATUSES, { message: "validation.option" }).optional(),
});

export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  const { data } = await orHttpError(getCampaign(ctx, params.id ?? ""));
  return json({ campaign: data, canControl: can(ctx.actor, "/sms/send") });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const ctx = await requireRoute(request);
  const id = params.id ?? "";
  const { data: campaign } = await orHttpError(getCampaign(ctx, id));
  const lng = (await i18next.getLocale(request)) as Lng;
  return handleForm(request, formSchema, async (value) => {
    if (value.intent === "delete") {
      await deleteCampaign(ctx, id);
      return redirectWithToast(request, "/sms/campaigns", { type: "success", title: "smsOps:campaigns.toast.deleted" });
    }
    const out = await controlCampaign(ctx, id, { status: value.status });
    const refunded = formatMoney(out.meta.refunded, campaign.currency, lng);
    return redirectWithToast(request, `/sms/campaigns/${id}`, {
      type: "success",
      title: out.meta.changed ? `smsOps:campaigns.toast.${value.status}` : "smsOps:campaigns.toast.unchanged",
      params: { count: out.meta.canceled, refunded },
    });
  });
}

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

export default function Campaign() {
  const { campaign: c, canControl } = useLoaderData<typeof loader>();
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
            <Link to="/sms/campaigns">{t("campaigns.actions.back")}</Link>
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
          {c.invalid_rows > 0 ? (
            <p className="text-sm" data-testid="invalid-rows">
              {t("sms:invalidRows.campaignHint", { count: c.invalid_rows })}{" "}
              <a className="font-medium text-primary underline-offset-4 hover:underline" href={`/sms/campaigns/${c.id}/invalid-rows`} download data-testid="invalid-rows-link">
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
