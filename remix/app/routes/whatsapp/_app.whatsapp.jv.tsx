/** /whatsapp/jv/*: the older WhatsApp integration (a BSP's On-Premises API client, ADR 035): numbers, templates, send, history, deny list. */
import { Outlet } from "@remix-run/react";

export const handle = { crumb: "whatsapp:crumbs.jv" };

export default function WhatsappJvLayout() {
  return <Outlet />;
}
