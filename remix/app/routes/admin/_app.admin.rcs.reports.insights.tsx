/**
 * /admin/rcs/reports/insights (platform staff): /rcs/insights for every account, or one (the
 * account field of a GET form), of the last 7 or 30 São Paulo days (links that work without
 * JavaScript), narrowed by type: figures, per day, by status, price class, type and agent (with
 * its account); costs per currency (api/rcs/admin-reports.ts adminRcsInsights).
 */
import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { adminRcsInsights, assertRcsStaff } from "~api/rcs/admin-reports";
import { RcsFilterFields, RcsInsightsBody, RcsInsightsFilters } from "~/components/rcs-reports/figures";
import { PageHeader } from "~/components/shell/page-header";
import { AccountField, AccountMatches, formatAmounts, hrefOf } from "~/components/whatsapp/admin-reports";
import { requireRoute } from "~/lib/auth.server";
import type { Lng } from "~/lib/i18n";
import { filterErrors } from "~/lib/sms-reports.server";
import { accountFilter, accountParams, accountReady } from "~/lib/whatsapp-admin.server";
import type { RootData } from "~/root";

export const handle = { crumb: "rcs:adminReports.insightsTitle" };

const PATH = "/admin/rcs/reports/insights";

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  const params = new URL(request.url).searchParams;
  const days = params.get("days") === "30" ? "30" : "7";
  const type = params.get("type")?.trim() ?? "";
  const filter = await accountFilter(ctx, params, (c) => assertRcsStaff(c, "insights"));
  let insights: Awaited<ReturnType<typeof adminRcsInsights>> | null = null;
  let errors: Record<string, string[] | undefined> = {};
  if (accountReady(filter)) {
    try {
      insights = await adminRcsInsights(ctx, { days, type, account_id: filter.account?.id });
    } catch (e) {
      errors = filterErrors(e, { type: "type" }).errors;
    }
  }
  return json({ days: Number(days), type, insights, filter, accountParams: accountParams(filter), errors }, { headers: { "Cache-Control": "private, no-store" } });
}

export default function AdminRcsInsightsScreen() {
  const { days, type, insights: i, filter, accountParams, errors } = useLoaderData<typeof loader>();
  const lng = (useRouteLoaderData<RootData>("root")?.lng ?? "pt-BR") as Lng;
  const { t } = useTranslation("rcs");
  const money = (list: Array<{ currency: string; amount: number }>) => formatAmounts(list, lng);
  return (
    <div className="space-y-6">
      <PageHeader description={t("adminReports.insightsDescription")} />
      <RcsInsightsFilters days={days} href={(d) => hrefOf(PATH, { days: String(d), type, ...accountParams })} action={PATH}>
        <AccountField filter={filter} />
        <RcsFilterFields agents={null} values={{ agent: "", type }} errors={errors} />
      </RcsInsightsFilters>
      <AccountMatches matches={filter.matches} href={(a) => hrefOf(PATH, { days: String(days), type, account: a.name, account_id: a.id })} />
      {i ? (
        <>
          {i.account ? <p className="text-sm text-muted-foreground">{t("adminReports.ofAccount", { name: i.account.name })}</p> : null}
          <RcsInsightsBody i={i} lng={lng} money={money} />
        </>
      ) : null}
    </div>
  );
}
