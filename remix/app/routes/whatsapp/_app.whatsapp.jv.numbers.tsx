/** /whatsapp/jv/numbers/*: the On-Premises numbers and the connect form. */
import { Outlet } from "@remix-run/react";

export const handle = { crumb: "whatsapp:crumbs.jvNumbers" };

export default function WhatsappJvNumbersLayout() {
  return <Outlet />;
}
