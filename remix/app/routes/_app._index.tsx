import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { homeSummary } from "~api/accounts/home-summary";
import { PageHeader } from "~/components/shell/page-header";
import { Badge } from "~/components/ui/badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { requireRoute } from "~/lib/auth.server";
import { formatDate, formatMoney } from "~/lib/format";
import type { RootData } from "~/root";

export const handle = { crumb: "home.title" };

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  return json(await homeSummary(ctx));
}

export default function Home() {
  const { account, members, unread, recent } = useLoaderData<typeof loader>();
  const root = useRouteLoaderData<RootData>("root");
  const lng = root?.lng ?? "pt-BR";
  const { t } = useTranslation();
  const plans = Object.entries(account.plans) as Array<[string, { name?: string; ends_at: string | null; trial: boolean }]>;
  return (
    <div className="space-y-6">
      <PageHeader description={t("home.summary", { account: account.name })} />
      <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
        <Card>
          <CardHeader>
            <CardDescription>{t("home.balance")}</CardDescription>
            <CardTitle className="text-2xl">{formatMoney(account.balance, account.currency, lng)}</CardTitle>
          </CardHeader>
          <CardContent className="text-sm text-muted-foreground">
            {t("home.limit")}: {formatMoney(account.limit, account.currency, lng)}
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardDescription>{t("home.role")}</CardDescription>
            <CardTitle className="text-2xl">{t(`roles.${account.role}`)}</CardTitle>
          </CardHeader>
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
            <ul className="space-y-2 text-sm">
              {recent.map((r) => (
                <li key={r.id} className="flex justify-between gap-2">
                  <span>{t(`audit.${r.action}`, { defaultValue: r.action })}</span>
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
