/**
 * /rcs/campaigns/{id}: one RCS campaign — progress, counters by status, cost, pause / resume /
 * cancel / delete (components/campaigns/campaign-screen.tsx, plain POST forms) — and what it sends:
 * the agent, the content's type, its price class, the SMS fallback and the content as plain text.
 * Integrator: once remix/app/components/rcs/preview.tsx (the RCS preview, another branch) is on
 * main, render it here in place of the plain text.
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { rcsCampaignExtras } from "~api/rcs/campaign-view";
import { CampaignScreen } from "~/components/campaigns/campaign-screen";
import { Card, CardContent, CardHeader } from "~/components/ui/card";
import { requireRoute } from "~/lib/auth.server";
import { campaignAction, campaignLoader } from "~/lib/campaigns.server";
import { useTranslation } from "~/lib/react-i18n";

export const handle = {
  crumb: (data: unknown) => {
    const c = (data as { campaign?: { name: string } } | undefined)?.campaign;
    return c?.name ? { key: "smsOps:campaigns.detailTitle", params: { name: c.name } } : "smsOps:campaigns.detailFallback";
  },
};

export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  const base = await (await campaignLoader(request, params.id ?? "", "rcs")).json();
  const extra = (await rcsCampaignExtras(ctx, [base.campaign.id]))[base.campaign.id] ?? null;
  return json({ ...base, extra });
}
export const action = ({ request, params }: ActionFunctionArgs) => campaignAction(request, params.id ?? "", "rcs");

export default function RcsCampaign() {
  const { campaign: c, extra } = useLoaderData<typeof loader>();
  const { t } = useTranslation(["rcs", "smsOps"]);
  const info: Array<[string, string | null]> = [
    ["agent", extra?.agent_name ?? c.sender],
    ["type", extra?.type ? t(`campaigns.types.${extra.type}`) : null],
    ["priceClass", c.route ? t(`campaigns.classes.${c.route}`) : null],
    ["fallback", t(extra?.fallback_sms ? "campaigns.fallbackOn" : "campaigns.fallbackOff")],
    ["source", extra?.file_name ?? extra?.group_name ?? null],
  ];
  return (
    <div className="space-y-6">
      <CampaignScreen />
      <Card data-testid="rcs-content">
        <CardHeader>
          <h2 className="leading-none font-semibold">{t("campaigns.content")}</h2>
        </CardHeader>
        <CardContent className="space-y-4">
          <dl className="grid gap-3 sm:grid-cols-2">
            {info
              .filter(([, v]) => v)
              .map(([k, v]) => (
                <div key={k}>
                  <dt className="text-xs text-muted-foreground">{t(`campaigns.info.${k}`)}</dt>
                  <dd className="text-sm break-words" data-info={k}>
                    {v}
                  </dd>
                </div>
              ))}
          </dl>
        </CardContent>
      </Card>
    </div>
  );
}
