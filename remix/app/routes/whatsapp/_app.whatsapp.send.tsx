/** /whatsapp/send: one WhatsApp message — the form, its "check" and its send (components/whatsapp/send-screen.tsx, lib/whatsapp.server.ts). */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { WhatsappSendScreen } from "~/components/whatsapp/send-screen";
import { WHATSAPP, whatsappSendAction, whatsappSendLoader } from "~/lib/whatsapp.server";

export const handle = { crumb: "whatsapp:crumbs.send" };
export const loader = ({ request }: LoaderFunctionArgs) => whatsappSendLoader(request, WHATSAPP);
export const action = ({ request }: ActionFunctionArgs) => whatsappSendAction(request, WHATSAPP);

export default WhatsappSendScreen;
