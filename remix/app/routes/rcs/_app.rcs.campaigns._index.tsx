/**
 * /rcs/campaigns: the account's RCS campaigns, newest first, 20 a page: name, agent, created, status,
 * progress with the live counters by status, and per row the controls its status allows (pause,
 * resume, cancel; delete once finished) as plain POST forms with CSRF, which work without
 * JavaScript. While a campaign runs the page refetches itself every 5 s (a <noscript> meta refresh
 * without JavaScript).
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation, useRouteLoaderData } from "@remix-run/react";
import { controlCampaign, deleteCampaign } from "~api/campaigns/control";
import { CONTROL_STATUSES } from "~api/campaigns/schemas";
import { z } from "~api/lib/zod";
import { can } from "~api/policy/policy";
import { rcsCampaignExtras } from "~api/rcs/campaign-view";
import { CampaignStatusBadge, ProgressBar, StatusCounts } from "~/components/campaigns/campaign-parts";
import { CsrfInput, FormErrors } from "~/components/forms/fields";
import { useRefresh } from "~/components/live/use-refresh";
import { PageHeader } from "~/components/shell/page-header";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader } from "~/components/ui/card";
import { Pager } from "~/components/ui/pager";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { requireRoute } from "~/lib/auth.server";
import { campaignsLoader } from "~/lib/campaigns.server";
import { formatDate } from "~/lib/format";
import { type FormReply, handleForm } from "~/lib/forms.server";
import { intlLocale } from "~/lib/i18n";
import { useTranslation } from "~/lib/react-i18n";
import { redirectWithToast } from "~/lib/toast.server";
import type { RootData } from "~/root";

export const handle = { crumb: "rcs:campaigns.title" };
const REFRESH_SECONDS = 5;
const LIVE = ["scheduled", "preparing", "running"];
const FINISHED = ["completed", "canceled", "failed"];

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  const list = await (await campaignsLoader(request, "rcs")).json();
  const extras = await rcsCampaignExtras(
    ctx,
    list.data.map((c) => c.id),
  );
  return json({ ...list, extras, canControl: can(ctx.actor, "/rcs/send"), canCreate: can(ctx.actor, "/rcs/campaigns/new") });
}

const rowSchema = z.object({
  intent: z.enum(["control", "delete"], { message: "validation.option" }),
  id: z.string().min(1, "validation.required"),
  status: z.enum(CONTROL_STATUSES, { message: "validation.option" }).optional(),
});

export async function action({ request }: ActionFunctionArgs) {
  const ctx = await requireRoute(request);
  return handleForm(request, rowSchema, async (value) => {
    if (value.intent === "delete") {
      await deleteCampaign(ctx, value.id, "rcs");
      return redirectWithToast(request, "/rcs/campaigns", { type: "success", title: "smsOps:campaigns.toast.deleted" });
    }
    const out = await controlCampaign(ctx, value.id, { status: value.status }, "rcs");
    return redirectWithToast(request, "/rcs/campaigns", {
      type: "success",
      title: out.meta.changed ? `smsOps:campaigns.toast.${value.status}` : "smsOps:campaigns.toast.unchanged",
      params: { count: out.meta.canceled, refunded: String(out.meta.refunded) },
    });
  });
}

function RowAction({
  id,
  intent,
  status,
  label,
  variant = "secondary",
  busy,
}: {
  id: string;
  intent: "control" | "delete";
  status?: string;
  label: string;
  variant?: "secondary" | "destructive" | "default";
  busy: boolean;
}) {
  return (
    <Form method="post" className="inline">
      <CsrfInput />
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="id" value={id} />
      {status ? <input type="hidden" name="status" value={status} /> : null}
      <Button type="submit" size="sm" variant={variant} disabled={busy} data-action={status ?? intent}>
        {label}
      </Button>
    </Form>
  );
}

export default function RcsCampaigns() {
  const { data, page, last_page, total, extras, canControl, canCreate } = useLoaderData<typeof loader>();
  const last = useActionData<FormReply>();
  const busy = useNavigation().state === "submitting";
  const lng = useRouteLoaderData<RootData>("root")?.lng ?? "pt-BR";
  const { t } = useTranslation(["rcs", "smsOps", "common"]);
  const fmt = (v: number) => new Intl.NumberFormat(intlLocale[lng]).format(v);
  const live = data.some((c) => LIVE.includes(c.status));
  useRefresh(REFRESH_SECONDS * 1000, live && !busy);
  const errors = last?.result.error
    ? Object.values(last.result.error)
        .flat()
        .filter((e): e is string => typeof e === "string")
    : null;
  return (
    <div className="space-y-6">
      {live ? (
        <noscript>
          <meta httpEquiv="refresh" content={String(REFRESH_SECONDS)} />
        </noscript>
      ) : null}
      <PageHeader
        description={t("campaigns.description")}
        actions={
          canCreate ? (
            <Button asChild>
              <Link to="/rcs/campaigns/new">{t("campaigns.new")}</Link>
            </Button>
          ) : null
        }
      />
      <FormErrors errors={errors} />
      <Card>
        <CardHeader>
          <CardDescription>{t("smsOps:campaigns.total", { count: total })}</CardDescription>
        </CardHeader>
        <CardContent className="space-y-4">
          {data.length === 0 ? (
            <p className="py-8 text-center text-sm text-muted-foreground">{t("campaigns.empty")}</p>
          ) : (
            <Table data-testid="rcs-campaigns">
              <TableHeader>
                <TableRow>
                  <TableHead>{t("smsOps:campaigns.columns.name")}</TableHead>
                  <TableHead>{t("campaigns.agent")}</TableHead>
                  <TableHead>{t("smsOps:campaigns.columns.created")}</TableHead>
                  <TableHead>{t("smsOps:campaigns.columns.status")}</TableHead>
                  <TableHead className="min-w-40">{t("smsOps:campaigns.columns.progress")}</TableHead>
                  <TableHead>{t("smsOps:campaigns.columns.counts")}</TableHead>
                  {canControl ? <TableHead>{t("campaigns.actions")}</TableHead> : null}
                </TableRow>
              </TableHeader>
              <TableBody>
                {data.map((c) => (
                  <TableRow key={c.id} data-campaign={c.id}>
                    <TableCell className="font-medium">
                      <Link to={`/rcs/campaigns/${c.id}`} className="underline-offset-4 hover:underline">
                        {c.name || t("smsOps:campaigns.unnamed")}
                      </Link>
                    </TableCell>
                    <TableCell data-cell="agent">{extras[c.id]?.agent_name ?? c.sender}</TableCell>
                    <TableCell className="whitespace-nowrap">{formatDate(c.created_at, lng, true)}</TableCell>
                    <TableCell>
                      <CampaignStatusBadge status={c.status} />
                    </TableCell>
                    <TableCell>
                      <ProgressBar percent={c.progress} label={t("smsOps:campaigns.progress", { percent: c.progress, done: fmt(c.done), total: fmt(Math.max(c.total, c.done)) })} />
                    </TableCell>
                    <TableCell data-cell="counts">
                      <StatusCounts counts={c.counts} compact />
                    </TableCell>
                    {canControl ? (
                      <TableCell>
                        <div className="flex flex-wrap gap-1">
                          {LIVE.includes(c.status) ? <RowAction id={c.id} intent="control" status="paused" label={t("smsOps:campaigns.actions.pause")} busy={busy} /> : null}
                          {c.status === "paused" ? (
                            <RowAction id={c.id} intent="control" status="running" label={t("smsOps:campaigns.actions.resume")} variant="default" busy={busy} />
                          ) : null}
                          {[...LIVE, "paused"].includes(c.status) ? (
                            <RowAction id={c.id} intent="control" status="canceled" label={t("smsOps:campaigns.actions.cancel")} variant="destructive" busy={busy} />
                          ) : null}
                          {FINISHED.includes(c.status) ? (
                            <RowAction id={c.id} intent="delete" label={t("smsOps:campaigns.actions.delete")} variant="destructive" busy={busy} />
                          ) : null}
                        </div>
                      </TableCell>
                    ) : null}
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
          <Pager
            page={page}
            pageCount={last_page}
            hrefFor={(p) => (p > 1 ? `/rcs/campaigns?page=${p}` : "/rcs/campaigns")}
            aria-label={t("common:pager.label")}
            labels={{ previous: t("common:pager.previous"), next: t("common:pager.next"), page: (n) => t("common:pager.page", { n }), more: t("common:pager.more") }}
          />
        </CardContent>
      </Card>
    </div>
  );
}
