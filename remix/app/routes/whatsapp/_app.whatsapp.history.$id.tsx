/** /whatsapp/history/{id}: one WhatsApp message with its events (components/whatsapp/message-screen.tsx). */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { WhatsappMessageScreen } from "~/components/whatsapp/message-screen";
import { WHATSAPP, whatsappMessageLoader } from "~/lib/whatsapp.server";

export const handle = { crumb: "whatsapp:crumbs.message" };
export const loader = ({ request, params }: LoaderFunctionArgs) => whatsappMessageLoader(request, params.id ?? "", WHATSAPP);

export default WhatsappMessageScreen;
