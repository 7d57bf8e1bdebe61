/**
 * The home page (spec section 2, issue 19): for a new account, the onboarding checklist (each step
 * computed from the account's data, linking to the screen that does it; "start the trial" and
 * "hide" are plain forms, working without JavaScript); the account's figures — balance, messages
 * by channel and status today or over 7/30 days (a GET form), open live rooms — and the recent
 * activity as translated sentences.
 */
import { getFormProps, useForm } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation, useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { HOME_PERIODS, HOME_STATUS_GROUPS, type HomePeriod } from "~api/accounts/home-constants";
import { homeSummary } from "~api/accounts/home-summary";
import { z } from "~api/lib/zod";
import { dismissOnboarding, onboarding, startTrial } from "~api/onboarding/services";
import { canWrite } from "~api/policy/policy";
import { CsrfInput, FormErrors } from "~/components/forms/fields";
import { PageHeader } from "~/components/shell/page-header";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardAction, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { NativeSelect, NativeSelectOption } from "~/components/ui/native-select";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { requireRoute } from "~/lib/auth.server";
import { formatDate, formatMoney } from "~/lib/format";
import { handleForm, type FormReply } from "~/lib/forms.server";
import type { RootData } from "~/root";

export const handle = { crumb: "home.title" };

const intentSchema = z.object({ intent: z.enum(["trial", "dismiss"]) });

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  const asked = new URL(request.url).searchParams.get("period");
  const period = (HOME_PERIODS as readonly string[]).includes(asked ?? "") ? (asked as HomePeriod) : "today";
  const [summary, checklist] = await Promise.all([homeSummary(ctx, period), onboarding(ctx)]);
  return json({ ...summary, checklist, canTrial: canWrite(ctx.actor, "plans"), canDismiss: canWrite(ctx.actor, "account") }, { headers: { "Cache-Control": "private, no-store" } });
}

export async function action({ request }: ActionFunctionArgs) {
  const ctx = await requireRoute(request);
  return handleForm(request, intentSchema, async (value) => {
    if (value.intent === "trial") await startTrial(ctx);
    else await dismissOnboarding(ctx);
    return redirect("/");
  });
}

function Checklist() {
  const { checklist, canTrial, canDismiss } = useLoaderData<typeof loader>();
  const last = useActionData<FormReply>();
  const busy = useNavigation().state === "submitting";
  const { t } = useTranslation();
  const [form, fields] = useForm({ id: "onboarding", lastResult: last?.result });
  // A refused start (a plan already had: plans.errors.trialUsed) is an error on `plan`.
  const errors = [...(form.errors ?? []), ...((fields as Record<string, { errors?: string[] }>).plan?.errors ?? [])];
  if (!checklist.visible) return null;
  const planDone = checklist.steps.find((s) => s.key === "plan")?.done;
  return (
    <Card data-testid="onboarding">
      <CardHeader>
        <CardTitle>{t("home.onboarding.title")}</CardTitle>
        <CardDescription>{t("home.onboarding.progress", { done: checklist.done, total: checklist.total })}</CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        <FormErrors errors={errors} />
        <ol className="space-y-2">
          {checklist.steps.map((s) => (
            <li key={s.key} data-step={s.key} data-done={s.done ? "true" : "false"} className="flex flex-wrap items-center justify-between gap-2 text-sm">
              <span className="flex items-center gap-2">
                <span aria-hidden="true" className={s.done ? "text-success" : "text-muted-foreground"}>
                  {s.done ? "✓" : "○"}
                </span>
                <span className={s.done ? "line-through text-muted-foreground" : "font-medium"}>{t(`home.onboarding.steps.${s.key}`)}</span>
                <span className="sr-only">{s.done ? t("home.onboarding.done") : t("home.onboarding.pending")}</span>
              </span>
              {s.done ? (
                <Badge variant="secondary">{t("home.onboarding.done")}</Badge>
              ) : (
                <span className="flex items-center gap-2">
                  {s.key === "plan" && !planDone && canTrial ? (
                    <Form method="post" {...getFormProps(form)}>
                      <CsrfInput />
                      <input type="hidden" name="intent" value="trial" />
                      <Button type="submit" size="sm" disabled={busy}>
                        {t("home.onboarding.startTrial")}
                      </Button>
                    </Form>
                  ) : null}
                  <Link to={s.href} className="underline">
                    {t(`home.onboarding.go.${s.key}`)}
                  </Link>
                </span>
              )}
            </li>
          ))}
        </ol>
        {checklist.mobile ? null : <p className="text-xs text-muted-foreground">{t("home.onboarding.noMobile")}</p>}
        {canDismiss ? (
          <Form method="post">
            <CsrfInput />
            <input type="hidden" name="intent" value="dismiss" />
            <Button type="submit" variant="outline" size="sm" disabled={busy}>
              {t("home.onboarding.dismiss")}
            </Button>
          </Form>
        ) : null}
      </CardContent>
    </Card>
  );
}

export default function Home() {
  const { account, members, unread, recent, period, messages, openRooms } = useLoaderData<typeof loader>();
  const root = useRouteLoaderData<RootData>("root");
  const lng = root?.lng ?? "pt-BR";
  const { t, i18n } = useTranslation();
  const plans = Object.entries(account.plans) as Array<[string, { name?: string; ends_at: string | null; trial: boolean }]>;
  const sentence = (r: { action: string; by: string | null }) => {
    const what = i18n.exists(`audit.${r.action}`) ? t(`audit.${r.action}`) : t("home.activity.other");
    return r.by ? t("home.activity.byPerson", { who: r.by, what }) : t("home.activity.bySystem", { what });
  };
  return (
    <div className="space-y-6">
      <PageHeader description={t("home.summary", { account: account.name })} />
      <Checklist />
      <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
        <Card>
          <CardHeader>
            <CardDescription>{t("home.balance")}</CardDescription>
            <CardTitle className="text-2xl" data-testid="home-balance">
              {formatMoney(account.balance, account.currency, lng)}
            </CardTitle>
          </CardHeader>
          <CardContent className="text-sm text-muted-foreground">
            {t("home.limit")}: {formatMoney(account.limit, account.currency, lng)}
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardDescription>{t("home.openRooms")}</CardDescription>
            <CardTitle className="text-2xl" data-testid="home-open-rooms">
              {openRooms}
            </CardTitle>
          </CardHeader>
          <CardContent className="text-sm text-muted-foreground">
            {t("home.role")}: {t(`roles.${account.role}`)}
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardDescription>{t("home.team")}</CardDescription>
            <CardTitle className="text-2xl">{t("home.members", { count: members })}</CardTitle>
          </CardHeader>
        </Card>
        <Card>
          <CardHeader>
            <CardDescription>{t("home.unreadNotifications")}</CardDescription>
            <CardTitle className="text-2xl">
              <Link to="/notifications" className="hover:underline">
                {unread}
              </Link>
            </CardTitle>
          </CardHeader>
        </Card>
      </div>
      <Card>
        <CardHeader>
          <CardTitle>{t("home.messages.title")}</CardTitle>
          <CardDescription>{t(`home.messages.periods.${period}`)}</CardDescription>
          <CardAction>
            <Form method="get" className="flex items-end gap-2">
              <label className="grid gap-1 text-sm">
                {t("home.messages.period")}
                <NativeSelect name="period" defaultValue={period}>
                  {HOME_PERIODS.map((p) => (
                    <NativeSelectOption key={p} value={p}>
                      {t(`home.messages.periods.${p}`)}
                    </NativeSelectOption>
                  ))}
                </NativeSelect>
              </label>
              <Button type="submit" variant="outline" size="sm">
                {t("home.messages.show")}
              </Button>
            </Form>
          </CardAction>
        </CardHeader>
        <CardContent className="overflow-x-auto">
          {messages.length === 0 ? (
            <p className="text-sm text-muted-foreground">{t("home.messages.none")}</p>
          ) : (
            <Table data-testid="home-messages">
              <TableHeader>
                <TableRow>
                  <TableHead>{t("home.messages.channel")}</TableHead>
                  {HOME_STATUS_GROUPS.map((g) => (
                    <TableHead key={g} className="text-right">
                      {t(`home.messages.status.${g}`)}
                    </TableHead>
                  ))}
                  <TableHead className="text-right">{t("home.messages.total")}</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {messages.map((m) => (
                  <TableRow key={m.channel} data-channel={m.channel}>
                    <TableCell>{t(`home.messages.channels.${m.channel}`, { defaultValue: m.channel })}</TableCell>
                    {HOME_STATUS_GROUPS.map((g) => (
                      <TableCell key={g} className="text-right tabular-nums" data-status={g}>
                        {m[g]}
                      </TableCell>
                    ))}
                    <TableCell className="text-right tabular-nums">{m.total}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
        </CardContent>
      </Card>
      <div className="grid gap-4 lg:grid-cols-2">
        <Card>
          <CardHeader>
            <CardTitle>{t("home.plans")}</CardTitle>
          </CardHeader>
          <CardContent className="space-y-2">
            {plans.length === 0 ? <p className="text-sm text-muted-foreground">{t("home.noPlans")}</p> : null}
            {plans.map(([service, p]) => (
              <div key={service} className="flex items-center justify-between gap-2 text-sm">
                <span className="font-medium">{p.name}</span>
                <span className="flex items-center gap-2">
                  <Badge variant="secondary">{service}</Badge>
                  {p.trial && p.ends_at ? <Badge variant="warning">{t("shell.trialEnds", { date: formatDate(p.ends_at, lng) })}</Badge> : null}
                </span>
              </div>
            ))}
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>{t("home.recent")}</CardTitle>
          </CardHeader>
          <CardContent>
            {recent.length === 0 ? <p className="text-sm text-muted-foreground">{t("home.noActivity")}</p> : null}
            <ul className="space-y-2 text-sm" data-testid="home-activity">
              {recent.map((r) => (
                <li key={r.id} className="flex justify-between gap-2">
                  <span>{sentence(r)}</span>
                  <time className="text-muted-foreground" dateTime={r.at}>
                    {formatDate(r.at, lng, true)}
                  </time>
                </li>
              ))}
            </ul>
          </CardContent>
        </Card>
      </div>
    </div>
  );
}
