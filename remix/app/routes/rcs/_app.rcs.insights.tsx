/**
 * /rcs/insights: the account's RCS messages of the last 7 or 30 São Paulo days (links that work
 * without JavaScript), narrowed by agent and type (a GET form): figures by status with the delivery
 * and read rates, cost, basic and rich, received, SMS sent instead; per day (the SMS reports'
 * server-drawn chart and its table); by status, price class, type and agent (api/rcs/reports.ts).
 */
import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { rcsAgentOptions, rcsInsights } from "~api/rcs/reports";
import { RcsFilterFields, RcsInsightsBody, RcsInsightsFilters } from "~/components/rcs-reports/figures";
import { hrefOf } from "~/components/whatsapp/admin-reports";
import { PageHeader } from "~/components/shell/page-header";
import { requireRoute } from "~/lib/auth.server";
import { formatMoney } from "~/lib/format";
import type { Lng } from "~/lib/i18n";
import { filterErrors } from "~/lib/sms-reports.server";
import type { RootData } from "~/root";

export const handle = { crumb: "rcs:insights.title" };

const PATH = "/rcs/insights";

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  const params = new URL(request.url).searchParams;
  const days = params.get("days") === "30" ? "30" : "7";
  const values = { agent: params.get("agent")?.trim() ?? "", type: params.get("type")?.trim() ?? "" };
  const agents = await rcsAgentOptions(ctx);
  let insights: Awaited<ReturnType<typeof rcsInsights>> | null = null;
  let errors: Record<string, string[] | undefined> = {};
  try {
    insights = await rcsInsights(ctx, { days, ...values });
  } catch (e) {
    errors = filterErrors(e, { agent: "agent", type: "type" }).errors;
  }
  return json({ days: Number(days), insights, agents, values, errors }, { headers: { "Cache-Control": "private, no-store" } });
}

export default function RcsInsightsScreen() {
  const { days, insights: i, agents, values, errors } = useLoaderData<typeof loader>();
  const lng = (useRouteLoaderData<RootData>("root")?.lng ?? "pt-BR") as Lng;
  const { t } = useTranslation("rcs");
  const money = (v: number) => (i ? formatMoney(v, i.currency, lng) : "");
  return (
    <div className="space-y-6">
      <PageHeader description={t("insights.description")} />
      <RcsInsightsFilters days={days} href={(d) => hrefOf(PATH, { days: String(d), ...values })} action={PATH}>
        <RcsFilterFields agents={agents} values={values} errors={errors} />
      </RcsInsightsFilters>
      {i ? <RcsInsightsBody i={i} lng={lng} money={money} /> : null}
    </div>
  );
}
