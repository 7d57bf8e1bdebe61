/**
 * /rcs/optouts: the numbers that asked not to receive RCS messages (the account's opt-outs of
 * channel "rcs") — list with search and pages, add, remove; the same screen as /whatsapp/optouts
 * (components/optouts/channel-optouts-screen.tsx, api/optouts/services.ts). No new storage.
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { channelOptoutsAction, channelOptoutsLoader } from "~/components/optouts/channel-optouts.server";
import { ChannelOptoutsScreen } from "~/components/optouts/channel-optouts-screen";
import { useTranslation } from "~/lib/react-i18n";

export const handle = { crumb: "smpp:optouts.title" };
const PATH = "/rcs/optouts";

export const loader = ({ request }: LoaderFunctionArgs) => channelOptoutsLoader(request, "rcs", PATH);
export const action = ({ request }: ActionFunctionArgs) => channelOptoutsAction(request, "rcs", PATH);

export default function RcsOptouts() {
  const { t } = useTranslation("rcs");
  return <ChannelOptoutsScreen description={t("overview.optoutsDescription")} addDescription={t("overview.optoutsAddDescription")} idPrefix="rcs-optout" />;
}
