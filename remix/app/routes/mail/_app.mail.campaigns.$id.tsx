/** /mail/campaigns/{id}: one e-mail campaign — per-status counters refreshed while it runs, pause / resume / cancel as plain forms (components/campaigns/campaign-screen.tsx). */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { CampaignScreen } from "~/components/campaigns/campaign-screen";
import { campaignAction, campaignLoader } from "~/lib/campaigns.server";

export const handle = {
  crumb: (data: unknown) => {
    const c = (data as { campaign?: { name: string } } | undefined)?.campaign;
    return c?.name ? { key: "smsOps:campaigns.detailTitle", params: { name: c.name } } : "smsOps:campaigns.detailFallback";
  },
};

export const loader = ({ request, params }: LoaderFunctionArgs) => campaignLoader(request, params.id ?? "", "email");
export const action = ({ request, params }: ActionFunctionArgs) => campaignAction(request, params.id ?? "", "email");
export default CampaignScreen;
