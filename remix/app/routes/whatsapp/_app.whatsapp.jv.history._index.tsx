/** /whatsapp/jv/history: the WhatsApp messages (the older integration's On-Premises numbers only, ADR 035) of a range of São Paulo days (components/whatsapp/history-screen.tsx). */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { WhatsappHistoryScreen } from "~/components/whatsapp/history-screen";
import { WHATSAPP_JV, whatsappHistoryLoader } from "~/lib/whatsapp.server";

export const loader = ({ request }: LoaderFunctionArgs) => whatsappHistoryLoader(request, WHATSAPP_JV);

export default WhatsappHistoryScreen;
