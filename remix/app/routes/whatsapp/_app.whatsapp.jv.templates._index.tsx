/** /whatsapp/jv/templates: the account's WhatsApp templates of its On-Premises numbers, filtered, with delete (components/whatsapp/templates-screen.tsx). */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { WhatsappTemplatesScreen } from "~/components/whatsapp/templates-screen";
import { WHATSAPP_JV, whatsappTemplatesAction, whatsappTemplatesLoader } from "~/lib/whatsapp.server";

export const loader = ({ request }: LoaderFunctionArgs) => whatsappTemplatesLoader(request, WHATSAPP_JV);
export const action = ({ request }: ActionFunctionArgs) => whatsappTemplatesAction(request, WHATSAPP_JV);

export default WhatsappTemplatesScreen;
