/** /whatsapp/jv/history/*: the list and one message. */
import { Outlet } from "@remix-run/react";

export const handle = { crumb: "whatsapp:crumbs.history" };

export default function WhatsappJvHistoryLayout() {
  return <Outlet />;
}
