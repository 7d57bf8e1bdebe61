/**
 * /admin/whatsapp/reports/insights (platform staff): /whatsapp/insights for every account, or one
 * (the account field of a GET form): the last 7 or 30 São Paulo days (links that work without
 * JavaScript) — sent, delivered, read, failed with their rates, cost per currency, messages
 * received — and the messages per day (chart and table).
 */
import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { CHART_DAYS } from "~api/sms/report-constants";
import { adminWhatsappInsights } from "~api/whatsapp/admin-reports";
import { PageHeader } from "~/components/shell/page-header";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader } from "~/components/ui/card";
import { AccountField, AccountMatches, DayFigures, formatAmounts, hrefOf } from "~/components/whatsapp/admin-reports";
import { WhatsappInsightFigures } from "~/components/whatsapp/insight-figures";
import { orHttpError, requireRoute } from "~/lib/auth.server";
import type { Lng } from "~/lib/i18n";
import { accountFilter, accountParams, accountReady } from "~/lib/whatsapp-admin.server";
import type { RootData } from "~/root";

export const handle = { crumb: "admin:whatsappReports.insightsTitle" };

const PATH = "/admin/whatsapp/reports/insights";

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  const params = new URL(request.url).searchParams;
  const days = params.get("days") === "30" ? "30" : "7";
  const filter = await accountFilter(ctx, params);
  const insights = accountReady(filter) ? await orHttpError(adminWhatsappInsights(ctx, { days, account_id: filter.account?.id })) : null;
  return json({ days: Number(days), insights, filter, accountParams: accountParams(filter) }, { headers: { "Cache-Control": "private, no-store" } });
}

export default function AdminWhatsappInsightsScreen() {
  const { days, insights: i, filter, accountParams } = useLoaderData<typeof loader>();
  const lng = (useRouteLoaderData<RootData>("root")?.lng ?? "pt-BR") as Lng;
  const { t } = useTranslation(["admin", "whatsapp"]);
  return (
    <div className="space-y-6">
      <PageHeader description={t("whatsappReports.insightsDescription")} />
      <div className="flex flex-wrap items-end justify-between gap-4">
        <nav aria-label={t("whatsapp:reports.days")} className="flex gap-2">
          {CHART_DAYS.map((d) => (
            <Button key={d} asChild variant={days === d ? "default" : "outline"} size="sm">
              <Link to={hrefOf(PATH, { days: String(d), ...accountParams })} aria-current={days === d ? "page" : undefined}>
                {t(`whatsapp:reports.days${d}`)}
              </Link>
            </Button>
          ))}
        </nav>
        <Form method="get" action={PATH} aria-label={t("whatsappReports.filter")} className="flex flex-wrap items-start gap-3">
          <input type="hidden" name="days" value={days} />
          <AccountField filter={filter} />
          <Button type="submit" variant="secondary" className="mt-6">
            {t("whatsappReports.submit")}
          </Button>
        </Form>
      </div>
      <AccountMatches matches={filter.matches} href={(a) => hrefOf(PATH, { days: String(days), account: a.name, account_id: a.id })} />
      {i ? (
        <>
          {i.account ? <p className="text-sm text-muted-foreground">{t("whatsappReports.ofAccount", { name: i.account.name })}</p> : null}
          <WhatsappInsightFigures i={i} cost={formatAmounts(i.cost, lng)} lng={lng} />
          <Card>
            <CardHeader />
            <CardContent className="space-y-6">
              <DayFigures rows={i.data} lng={lng} />
            </CardContent>
          </Card>
        </>
      ) : null}
    </div>
  );
}
