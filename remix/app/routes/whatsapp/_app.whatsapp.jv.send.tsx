/** /whatsapp/jv/send: one WhatsApp message (the older integration's On-Premises numbers only, ADR 035) — the form, its "check" and its send (components/whatsapp/send-screen.tsx, lib/whatsapp.server.ts). */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { WhatsappSendScreen } from "~/components/whatsapp/send-screen";
import { WHATSAPP_JV, whatsappSendAction, whatsappSendLoader } from "~/lib/whatsapp.server";

export const handle = { crumb: "whatsapp:crumbs.send" };
export const loader = ({ request }: LoaderFunctionArgs) => whatsappSendLoader(request, WHATSAPP_JV);
export const action = ({ request }: ActionFunctionArgs) => whatsappSendAction(request, WHATSAPP_JV);

export default WhatsappSendScreen;
