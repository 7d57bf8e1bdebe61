/** /whatsapp/templates/new: create a WhatsApp template (submitted to the provider; pending until it decides) — components/whatsapp/template-new-screen.tsx. */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { WhatsappTemplateNewScreen } from "~/components/whatsapp/template-new-screen";
import { WHATSAPP, whatsappTemplateNewAction, whatsappTemplateNewLoader } from "~/lib/whatsapp.server";

export const handle = { crumb: "whatsapp:crumbs.newTemplate" };
export const loader = ({ request }: LoaderFunctionArgs) => whatsappTemplateNewLoader(request, WHATSAPP);
export const action = ({ request }: ActionFunctionArgs) => whatsappTemplateNewAction(request, WHATSAPP);

export default WhatsappTemplateNewScreen;
