/** /whatsapp/templates: the account's WhatsApp templates, filtered, with delete (components/whatsapp/templates-screen.tsx). */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { WhatsappTemplatesScreen } from "~/components/whatsapp/templates-screen";
import { WHATSAPP, whatsappTemplatesAction, whatsappTemplatesLoader } from "~/lib/whatsapp.server";

export const loader = ({ request }: LoaderFunctionArgs) => whatsappTemplatesLoader(request, WHATSAPP);
export const action = ({ request }: ActionFunctionArgs) => whatsappTemplatesAction(request, WHATSAPP);

export default WhatsappTemplatesScreen;
