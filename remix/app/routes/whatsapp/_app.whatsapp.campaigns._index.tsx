/** /whatsapp/campaigns: the account's WhatsApp campaigns (components/campaigns/campaigns-screen.tsx), live counters and controls on each one's page. */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { CampaignsScreen } from "~/components/campaigns/campaigns-screen";
import { campaignsLoader } from "~/lib/campaigns.server";

export const handle = { crumb: "smsOps:campaigns.title" };
export const loader = ({ request }: LoaderFunctionArgs) => campaignsLoader(request, "whatsapp");
export default function WhatsappCampaigns() {
  return <CampaignsScreen empty="whatsapp:campaigns.empty" />;
}
