/**
 * /rcs/reports: the account's RCS report of a period (a GET form: default the last 7 São Paulo
 * days, at most 31; agent and type), the export-like summary of api/rcs/reports.ts rcsReport:
 * the period's figures, per day (chart and table with cost), by status, price class, type and agent.
 */
import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { rcsAgentOptions, rcsReport } from "~api/rcs/reports";
import { RcsBreakdown, RcsDays, RcsFigures, RcsFilterFields } from "~/components/rcs-reports/figures";
import { RangeForm } from "~/components/sms-reports/range-form";
import { PageHeader } from "~/components/shell/page-header";
import { Card, CardContent, CardHeader } from "~/components/ui/card";
import { requireRoute } from "~/lib/auth.server";
import { formatMoney } from "~/lib/format";
import type { Lng } from "~/lib/i18n";
import { filterErrors } from "~/lib/sms-reports.server";
import type { RootData } from "~/root";

export const handle = { crumb: "rcs:reports.title" };

const PATH = "/rcs/reports";
const FIELDS = ["from", "to", "agent", "type"] as const;

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  const params = new URL(request.url).searchParams;
  const values = Object.fromEntries(FIELDS.map((k) => [k, params.get(k)?.trim() ?? ""])) as Record<(typeof FIELDS)[number], string>;
  const agents = await rcsAgentOptions(ctx);
  let report: Awaited<ReturnType<typeof rcsReport>> | null = null;
  let errors: Record<string, string[] | undefined> = {};
  try {
    report = await rcsReport(ctx, values);
  } catch (e) {
    errors = filterErrors(e, { from: "from", to: "to", agent: "agent", type: "type" }).errors;
  }
  return json({ report, agents, values, errors }, { headers: { "Cache-Control": "private, no-store" } });
}

export default function RcsReportsScreen() {
  const { report: r, agents, values, errors } = useLoaderData<typeof loader>();
  const lng = (useRouteLoaderData<RootData>("root")?.lng ?? "pt-BR") as Lng;
  const { t } = useTranslation("rcs");
  const money = (v: number) => (r ? formatMoney(v, r.currency, lng) : "");
  return (
    <div className="space-y-6">
      <PageHeader description={t("reports.description")} />
      <Card>
        <CardHeader>
          <RangeForm action={PATH} values={{ from: values.from || r?.from || "", to: values.to || r?.to || "" }} errors={errors as Record<string, string[]>}>
            <RcsFilterFields agents={agents} values={values} errors={errors} />
          </RangeForm>
        </CardHeader>
        {r ? (
          <CardContent className="space-y-6">
            <RcsDays rows={r.data} totals={r} lng={lng} money={(d) => money(d === "total" ? r.cost : d.cost)} />
          </CardContent>
        ) : null}
      </Card>
      {r ? (
        <>
          <RcsFigures i={r} cost={money(r.cost)} lng={lng} />
          <RcsBreakdown b={r} lng={lng} money={money} />
        </>
      ) : null}
    </div>
  );
}
