/** /whatsapp/history: the WhatsApp messages of a range of São Paulo days (components/whatsapp/history-screen.tsx). */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { WhatsappHistoryScreen } from "~/components/whatsapp/history-screen";
import { WHATSAPP, whatsappHistoryLoader } from "~/lib/whatsapp.server";

export const loader = ({ request }: LoaderFunctionArgs) => whatsappHistoryLoader(request, WHATSAPP);

export default WhatsappHistoryScreen;
