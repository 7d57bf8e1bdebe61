/** /campaigns: every campaign of every channel the person may read, in one list (components/campaigns/campaigns-screen.tsx). */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { CampaignsScreen } from "~/components/campaigns/campaigns-screen";
import { campaignsLoader } from "~/lib/campaigns.server";

export const handle = { crumb: "smsOps:campaigns.allTitle" };
export const loader = ({ request }: LoaderFunctionArgs) => campaignsLoader(request, "all");
export default function AllCampaigns() {
  return <CampaignsScreen />;
}
