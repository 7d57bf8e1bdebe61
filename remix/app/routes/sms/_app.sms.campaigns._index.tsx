/** /sms/campaigns: the account's SMS campaigns (components/campaigns/campaigns-screen.tsx). */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { CampaignsScreen } from "~/components/campaigns/campaigns-screen";
import { campaignsLoader } from "~/lib/campaigns.server";

export const handle = { crumb: "smsOps:campaigns.title" };
export const loader = ({ request }: LoaderFunctionArgs) => campaignsLoader(request, "sms");
export default function Campaigns() {
  return <CampaignsScreen />;
}
