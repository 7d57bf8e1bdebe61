/**
 * /widget: the webchat widget's home (api/live/widget-overview.ts) — the install snippet (a
 * read-only field, with a copy button once JavaScript runs), the key, the hosted chat page, the
 * directives a strict Content-Security-Policy needs, whether a visitor is attended right now
 * (widget on, opening hours and holidays, agents connected, departments), the last conversations
 * through it, a summary of its settings with the way to /widget/config, and the simulator to try it.
 */
import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData, useRouteLoaderData } from "@remix-run/react";
import type { ReactNode } from "react";
import { useTranslation } from "~/lib/react-i18n";
import { env } from "~api/lib/env";
import { widgetOverview } from "~api/live/widget-overview";
import { can } from "~api/policy/policy";
import { CopyButton } from "~/components/forms/copy-button";
import { PageHeader } from "~/components/shell/page-header";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Textarea } from "~/components/ui/textarea";
import { orHttpError, requireRoute } from "~/lib/auth.server";
import { formatDate } from "~/lib/format";
import type { RootData } from "~/root";

export const handle = { crumb: "live:widgetHome.title" };

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  const overview = await orHttpError(widgetOverview(ctx));
  const links = {
    config: can(ctx.actor, "/widget/config"),
    hours: can(ctx.actor, "/opening-hours"),
    holidays: can(ctx.actor, "/holidays"),
  };
  return json({ ...overview, links, origin: new URL(env().APP_URL).origin }, { headers: { "Cache-Control": "private, no-store" } });
}

type State = "off" | "closed" | "noAgents" | "attending";

function Row({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <div className="grid min-w-0 grid-cols-1 gap-1 border-b py-3 last:border-b-0 sm:grid-cols-[12rem_minmax(0,1fr)]" data-testid={testId}>
      <dt className="text-sm font-medium">{label}</dt>
      <dd className="min-w-0 text-sm">{children}</dd>
    </div>
  );
}

export default function WidgetHome() {
  const { widget, visitor, online, today, conversations, links, origin } = useLoaderData<typeof loader>();
  const lng = useRouteLoaderData<RootData>("root")?.lng ?? "pt-BR";
  const { t } = useTranslation("live");
  const s = widget.settings;
  const state: State = !visitor.enabled ? "off" : !visitor.open ? "closed" : online.length === 0 ? "noAgents" : "attending";
  const hm = (time: string) => time.slice(0, 5);
  const yes = (v: boolean) => (v ? t("widgetHome.yes") : t("widgetHome.no"));
  const tryHref = `/live/simulator?${new URLSearchParams({ key: widget.widget_key })}`;
  const hostedHref = `/webchat?${new URLSearchParams({ key: widget.widget_key })}`;
  const csp = [
    `script-src  ${origin}`,
    `connect-src ${origin} ${origin.replace(/^http/, "ws")}`,
    `img-src     ${origin} data: blob:`,
    `media-src   ${origin}`,
    `style-src   ${origin}`,
  ].join("\n");
  return (
    <div className="space-y-6">
      <PageHeader
        description={t("widgetHome.description")}
        actions={
          <div className="flex flex-wrap gap-2">
            <Button asChild variant="outline">
              <Link to={tryHref}>{t("widgetHome.try")}</Link>
            </Button>
            {links.config ? (
              <Button asChild>
                <Link to="/widget/config">{t("widgetHome.configure")}</Link>
              </Button>
            ) : null}
          </div>
        }
      />
      <div className="grid grid-cols-1 items-start gap-6 xl:grid-cols-2">
        <Card className="min-w-0">
          <CardHeader>
            <CardTitle>{t("widgetHome.status.title")}</CardTitle>
            <CardDescription data-state={state} data-testid="widget-state">
              <Badge variant={state === "attending" ? "success" : state === "off" ? "destructive" : "warning"} className="mr-2">
                {t(`widgetHome.status.badge.${state}`)}
              </Badge>
              {t(`widgetHome.status.${state}`)}
            </CardDescription>
          </CardHeader>
          <CardContent>
            <dl>
              <Row label={t("widgetHome.today")} testId="widget-today">
                <p>
                  {today.holiday
                    ? t("widgetHome.holiday", { name: today.holiday })
                    : !today.configured
                      ? t("widgetHome.alwaysOpen")
                      : today.hours.length === 0
                        ? t("widgetHome.closedToday")
                        : today.hours.map((h) => t("widgetHome.hours", { opens: hm(h.opens), closes: hm(h.closes) })).join(", ")}
                </p>
                {links.hours || links.holidays ? (
                  <p className="mt-1 flex flex-wrap gap-x-4 gap-y-1">
                    {links.hours ? (
                      <Link className="text-primary underline underline-offset-4" to="/opening-hours">
                        {t("widgetHome.hoursLink")}
                      </Link>
                    ) : null}
                    {links.holidays ? (
                      <Link className="text-primary underline underline-offset-4" to="/holidays">
                        {t("widgetHome.holidaysLink")}
                      </Link>
                    ) : null}
                  </p>
                ) : null}
              </Row>
              <Row label={t("widgetHome.online")} testId="widget-online">
                {online.length === 0 ? (
                  t("widgetHome.onlineNone")
                ) : (
                  <ul className="flex flex-wrap gap-2">
                    {online.map((a) => (
                      <li key={a.id} data-online={a.id}>
                        <Badge variant="outline">{a.name}</Badge>
                      </li>
                    ))}
                  </ul>
                )}
              </Row>
              <Row label={t("widgetHome.departments")}>
                {visitor.departments.length === 0 ? (
                  t("widgetHome.noDepartments")
                ) : (
                  <ul className="space-y-1">
                    {visitor.departments.map((d) => (
                      <li key={d.id} className="flex flex-wrap items-center gap-2" data-department={d.id}>
                        <span className="break-words">{d.name}</span>
                        <Badge variant={d.open ? "success" : "secondary"}>{d.open ? t("widgetHome.departmentOpen") : t("widgetHome.departmentClosed")}</Badge>
                      </li>
                    ))}
                  </ul>
                )}
              </Row>
              <Row label={t("widgetHome.queue")}>{visitor.queue_enabled ? t("widgetHome.queueOn") : t("widgetHome.queueOff")}</Row>
              <Row label={t("widgetHome.conversations")} testId="widget-conversations">
                {conversations.last_at ? (
                  <>
                    <p>{t("widgetHome.lastAt", { when: formatDate(conversations.last_at, lng, true) })}</p>
                    <p className="text-muted-foreground">{t("widgetHome.last7", { count: conversations.last_7_days })}</p>
                  </>
                ) : (
                  <p>
                    {t("widgetHome.noConversations")}{" "}
                    <Link className="text-primary underline underline-offset-4" to={tryHref}>
                      {t("widgetHome.try")}
                    </Link>
                  </p>
                )}
              </Row>
            </dl>
          </CardContent>
        </Card>
        <Card className="min-w-0">
          <CardHeader>
            <CardTitle>{t("widgetHome.install.title")}</CardTitle>
            <CardDescription>{t("widget.embed.description")}</CardDescription>
          </CardHeader>
          <CardContent className="space-y-4">
            <div className="space-y-2">
              <label htmlFor="widget-snippet" className="text-sm font-medium">
                {t("widget.embed.title")}
              </label>
              <Textarea id="widget-snippet" readOnly value={widget.snippet} rows={3} className="font-mono text-xs" data-testid="widget-snippet" />
              <CopyButton text={widget.snippet} label={t("live:widget.embed.copy")} copiedLabel={t("live:widget.embed.copied")} />
            </div>
            <div className="space-y-1">
              <p className="text-sm font-medium">{t("widget.key.title")}</p>
              <code className="block break-all rounded bg-muted px-2 py-1 text-xs" data-testid="widget-key">
                {widget.widget_key}
              </code>
              <p className="text-sm text-muted-foreground">{t("widgetHome.install.keyHelp")}</p>
            </div>
            <div className="space-y-1">
              <p className="text-sm font-medium">{t("widgetHome.install.hosted")}</p>
              <p className="text-sm text-muted-foreground">{t("widgetHome.install.hostedHelp")}</p>
              <Link className="block break-all text-sm text-primary underline underline-offset-4" to={hostedHref}>
                {`${origin}${hostedHref}`}
              </Link>
            </div>
            <div className="space-y-1">
              <p className="text-sm font-medium">{t("widgetHome.install.sites")}</p>
              <p className="text-sm text-muted-foreground">{t("widgetHome.install.anySite")}</p>
            </div>
            <details className="rounded-md border p-3 text-sm">
              <summary className="cursor-pointer font-medium">{t("widgetHome.install.csp")}</summary>
              <p className="mt-2 text-muted-foreground">{t("widgetHome.install.cspHelp")}</p>
              <pre className="mt-2 whitespace-pre-wrap break-all rounded bg-muted p-2 font-mono text-xs">{csp}</pre>
            </details>
          </CardContent>
        </Card>
      </div>
      <Card className="min-w-0">
        <CardHeader>
          <CardTitle>{t("widgetHome.settings.title")}</CardTitle>
          <CardDescription>{t("widgetHome.settings.description")}</CardDescription>
        </CardHeader>
        <CardContent>
          <dl data-testid="widget-settings">
            <Row label={t("widget.enabled")}>{yes(s.enabled)}</Row>
            <Row label={t("widget.title_online")}>
              <span className="break-words">{s.title_online}</span>
            </Row>
            <Row label={t("widget.title_offline")}>
              <span className="break-words">{s.title_offline}</span>
            </Row>
            <Row label={t("widget.position")}>{t(`widget.positions.${s.position}`)}</Row>
            <Row label={t("widget.highlight_color")}>
              <span className="inline-flex items-center gap-2">
                <svg viewBox="0 0 10 10" className="size-4 rounded-sm border" aria-hidden="true">
                  <rect width="10" height="10" fill={s.highlight_color} />
                </svg>
                <code className="text-xs">{s.highlight_color}</code>
              </span>
            </Row>
            <Row label={t("widget.attachments")}>{yes(s.attachments)}</Row>
            <Row label={t("widget.emoji")}>{yes(s.emoji)}</Row>
          </dl>
          {links.config ? (
            <Button asChild variant="outline" className="mt-4">
              <Link to="/widget/config">{t("widgetHome.configure")}</Link>
            </Button>
          ) : null}
        </CardContent>
      </Card>
    </div>
  );
}
