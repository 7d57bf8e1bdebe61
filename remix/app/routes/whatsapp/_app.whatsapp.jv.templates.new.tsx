/** /whatsapp/jv/templates/new: create a WhatsApp template for an On-Premises number (submitted to the BSP, its review polled; ADR 035) — components/whatsapp/template-new-screen.tsx. */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { WhatsappTemplateNewScreen } from "~/components/whatsapp/template-new-screen";
import { WHATSAPP_JV, whatsappTemplateNewAction, whatsappTemplateNewLoader } from "~/lib/whatsapp.server";

export const handle = { crumb: "whatsapp:crumbs.newTemplate" };
export const loader = ({ request }: LoaderFunctionArgs) => whatsappTemplateNewLoader(request, WHATSAPP_JV);
export const action = ({ request }: ActionFunctionArgs) => whatsappTemplateNewAction(request, WHATSAPP_JV);

export default WhatsappTemplateNewScreen;
