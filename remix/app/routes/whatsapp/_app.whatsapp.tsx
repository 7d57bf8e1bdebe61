/** /whatsapp/*: WhatsApp (Meta's Cloud API): numbers, templates, send, history (the policy guards each path). */
import { Outlet } from "@remix-run/react";

export const handle = { crumb: "whatsapp:crumbs.whatsapp" };

export default function WhatsappLayout() {
  return <Outlet />;
}
