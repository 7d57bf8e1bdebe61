/** /mail/campaigns: the account's e-mail campaigns (components/campaigns/campaigns-screen.tsx), live counters and controls on each one's page. */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { CampaignsScreen } from "~/components/campaigns/campaigns-screen";
import { campaignsLoader } from "~/lib/campaigns.server";

export const handle = { crumb: "emailCampaigns:crumbs.campaigns" };
export const loader = ({ request }: LoaderFunctionArgs) => campaignsLoader(request, "email");
export default function MailCampaigns() {
  return <CampaignsScreen empty="emailCampaigns:campaigns.empty" />;
}
