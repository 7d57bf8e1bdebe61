/**
 * /whatsapp/optouts: the numbers that asked not to receive WhatsApp messages (the account's
 * opt-outs of channel "whatsapp": by keyword reply, by hand, API or import) — list with search and
 * pages, the keyword and source of each, add, remove (components/optouts/channel-optouts-screen.tsx,
 * the use-cases of api/optouts/services.ts); a send to an opted-out contact ends `optout`, not
 * charged. Plain forms: no JavaScript needed.
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { channelOptoutsAction, channelOptoutsLoader } from "~/components/optouts/channel-optouts.server";
import { ChannelOptoutsScreen } from "~/components/optouts/channel-optouts-screen";
import { useTranslation } from "~/lib/react-i18n";

export const handle = { crumb: "smpp:optouts.title" };
const PATH = "/whatsapp/optouts";

export const loader = ({ request }: LoaderFunctionArgs) => channelOptoutsLoader(request, "whatsapp", PATH);
export const action = ({ request }: ActionFunctionArgs) => channelOptoutsAction(request, "whatsapp", PATH);

export default function WhatsappOptouts() {
  const { t } = useTranslation("whatsapp");
  return <ChannelOptoutsScreen description={t("optouts.description")} addDescription={t("optouts.addDescription")} idPrefix="wa-optout" />;
}
