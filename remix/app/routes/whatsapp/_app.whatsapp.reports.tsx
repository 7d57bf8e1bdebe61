/** /whatsapp/reports: the WhatsApp statistics of a period, every number's messages (components/whatsapp/reports-screen.tsx). */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { WhatsappReportsScreen } from "~/components/whatsapp/reports-screen";
import { WHATSAPP, whatsappReportsLoader } from "~/lib/whatsapp.server";

export const handle = { crumb: "whatsapp:crumbs.reports" };
export const loader = ({ request }: LoaderFunctionArgs) => whatsappReportsLoader(request, WHATSAPP);

export default WhatsappReportsScreen;
