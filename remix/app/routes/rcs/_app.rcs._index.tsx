/**
 * /rcs: the account's RCS at a glance (spec section 2 "RCS root") — its agents with their status
 * and launch per carrier, this month's RCS messages by status with their cost (São Paulo's
 * calendar month, messages where channel = 'rcs'), the SMS fallback setting (owner, admin) and the
 * ways on: send, templates, history, a new agent. Empty states when there is nothing yet. Plain
 * forms: works without JavaScript.
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation, useRouteLoaderData } from "@remix-run/react";
import { can } from "~api/policy/policy";
import { settingsSchema } from "~api/rcs/agent-schema";
import { getRcsSettings, putRcsSettings } from "~api/rcs/agents";
import { rcsOverview } from "~api/rcs/overview";
import { CsrfInput, FormErrors } from "~/components/forms/fields";
import { AgentStatusBadge, LaunchBadges } from "~/components/rcs-agents/badges";
import { PageHeader } from "~/components/shell/page-header";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { orHttpError, requireRoute } from "~/lib/auth.server";
import { handleForm, type FormReply } from "~/lib/forms.server";
import { formatMoney } from "~/lib/format";
import type { Lng } from "~/lib/i18n";
import { useTranslation } from "~/lib/react-i18n";
import { redirectWithToast } from "~/lib/toast.server";
import type { RootData } from "~/root";

export const handle = { crumb: "rcs:overview.title" };

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  const [overview, settings] = await Promise.all([orHttpError(rcsOverview(ctx)), orHttpError(getRcsSettings(ctx))]);
  const links = (["send", "templates", "history", "request", "agents", "denylist", "optouts"] as const).filter((k) => can(ctx.actor, `/rcs/${k}`));
  return json({ ...overview, settings: settings.data, links }, { headers: { "Cache-Control": "private, no-store" } });
}

export async function action({ request }: ActionFunctionArgs) {
  const ctx = await requireRoute(request);
  return handleForm(request, settingsSchema, async (value) => {
    const { data } = await putRcsSettings(ctx, value);
    return redirectWithToast(request, "/rcs", { type: "success", title: data.rcs_fallback_sms ? "rcs:settings.on" : "rcs:settings.off" });
  });
}

export default function RcsOverview() {
  const { figures, agents, settings, links } = useLoaderData<typeof loader>();
  const last = useActionData<FormReply>();
  const busy = useNavigation().state === "submitting";
  const lng = (useRouteLoaderData<RootData>("root")?.lng ?? "pt-BR") as Lng;
  const { t } = useTranslation("rcs");
  return (
    <div className="space-y-6">
      <PageHeader description={t("overview.description")} />
      {links.length ? (
        <nav aria-label={t("overview.linksLabel")} className="flex flex-wrap gap-2">
          {links.map((k) => (
            <Button key={k} asChild variant="outline" size="sm">
              <Link to={`/rcs/${k}`}>{t(`overview.links.${k}`)}</Link>
            </Button>
          ))}
        </nav>
      ) : null}
      <div className="grid grid-cols-1 items-start gap-6 lg:grid-cols-2">
        <Card>
          <CardHeader>
            <CardTitle>
              <h2>{t("overview.month.title")}</h2>
            </CardTitle>
            <CardDescription>{t("overview.month.description", { month: figures.month })}</CardDescription>
          </CardHeader>
          <CardContent>
            {figures.statuses.length === 0 ? (
              <p className="py-4 text-center text-sm text-muted-foreground" data-empty="messages">
                {t("overview.month.empty")}
              </p>
            ) : (
              <Table>
                <TableHeader>
                  <TableRow>
                    <TableHead>{t("overview.month.status")}</TableHead>
                    <TableHead className="text-right">{t("overview.month.messages")}</TableHead>
                    <TableHead className="text-right">{t("overview.month.cost")}</TableHead>
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {figures.statuses.map((s) => (
                    <TableRow key={s.status} data-status={s.status}>
                      <TableCell>{t(`overview.statuses.${s.status}`, { defaultValue: s.status })}</TableCell>
                      <TableCell className="text-right tabular-nums" data-count>
                        {s.count.toLocaleString(lng)}
                      </TableCell>
                      <TableCell className="text-right tabular-nums">{formatMoney(s.cost, figures.currency, lng)}</TableCell>
                    </TableRow>
                  ))}
                  <TableRow data-status="total" className="font-semibold">
                    <TableCell>{t("overview.month.total")}</TableCell>
                    <TableCell className="text-right tabular-nums" data-count>
                      {figures.total.count.toLocaleString(lng)}
                    </TableCell>
                    <TableCell className="text-right tabular-nums" data-cost>
                      {formatMoney(figures.total.cost, figures.currency, lng)}
                    </TableCell>
                  </TableRow>
                </TableBody>
              </Table>
            )}
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>
              <h2>{t("overview.agents.title")}</h2>
            </CardTitle>
            <CardDescription>{t("overview.agents.description")}</CardDescription>
          </CardHeader>
          <CardContent>
            {!agents || agents.length === 0 ? (
              <p className="py-4 text-center text-sm text-muted-foreground" data-empty="agents">
                {t("overview.agents.empty")}
              </p>
            ) : (
              <ul className="space-y-3">
                {agents.map((a) => (
                  <li key={a.id} data-agent-id={a.id} className="space-y-1">
                    <div className="flex flex-wrap items-center gap-2">
                      <Link to={`/rcs/agents/${a.id}`} className="font-medium underline-offset-2 hover:underline">
                        {a.name}
                      </Link>
                      <AgentStatusBadge status={a.status} />
                    </div>
                    <LaunchBadges launches={a.launches} />
                  </li>
                ))}
              </ul>
            )}
          </CardContent>
        </Card>
      </div>
      <Card>
        <CardHeader>
          <CardTitle>
            <h2>{t("settings.title")}</h2>
          </CardTitle>
          <CardDescription>{t("settings.description")}</CardDescription>
        </CardHeader>
        <CardContent>
          {settings.can_edit ? (
            <Form method="post" className="space-y-3">
              <CsrfInput />
              <FormErrors errors={last?.result.error?.[""]} />
              <label className="flex items-start gap-2 text-sm font-medium">
                <input
                  type="checkbox"
                  name="rcs_fallback_sms"
                  defaultChecked={settings.rcs_fallback_sms}
                  className="mt-0.5 size-4 shrink-0 accent-primary"
                  key={String(settings.rcs_fallback_sms)}
                />
                <span>{t("settings.fallback")}</span>
              </label>
              <Button type="submit" size="sm" disabled={busy}>
                {t("settings.save")}
              </Button>
            </Form>
          ) : (
            <p className="text-sm" data-fallback={String(settings.rcs_fallback_sms)}>
              {settings.rcs_fallback_sms ? t("settings.isOn") : t("settings.isOff")}
            </p>
          )}
        </CardContent>
      </Card>
    </div>
  );
}
