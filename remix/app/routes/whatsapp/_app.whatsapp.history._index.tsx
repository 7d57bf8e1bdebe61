/**
 * /whatsapp/history: the WhatsApp messages of a range of São Paulo days (components/whatsapp/history-screen.tsx);
 * the Export button posts the filters shown (CSRF, no JavaScript needed) and goes to /whatsapp/exports.
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { WhatsappHistoryScreen } from "~/components/whatsapp/history-screen";
import { historyExportAction } from "~/lib/sms-reports.server";
import { WHATSAPP, whatsappHistoryLoader } from "~/lib/whatsapp.server";

export const loader = ({ request }: LoaderFunctionArgs) => whatsappHistoryLoader(request, WHATSAPP);
/** The Export button: an export of the WhatsApp history with the filters shown (the SMS history's export job), then /whatsapp/exports. */
export const action = ({ request }: ActionFunctionArgs) => historyExportAction(request, "/whatsapp/exports", "whatsapp");

export default WhatsappHistoryScreen;
