/** /whatsapp/jv/reports: the WhatsApp statistics of a period, the older integration's On-Premises numbers' messages only (ADR 035; components/whatsapp/reports-screen.tsx). */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { WhatsappReportsScreen } from "~/components/whatsapp/reports-screen";
import { WHATSAPP_JV, whatsappReportsLoader } from "~/lib/whatsapp.server";

export const handle = { crumb: "whatsapp:crumbs.reports" };
export const loader = ({ request }: LoaderFunctionArgs) => whatsappReportsLoader(request, WHATSAPP_JV);

export default WhatsappReportsScreen;
