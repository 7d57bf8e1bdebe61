/** /whatsapp/jv/templates/*: the On-Premises numbers' templates list and the create form. */
import { Outlet } from "@remix-run/react";

export const handle = { crumb: "whatsapp:crumbs.templates" };

export default function WhatsappJvTemplatesLayout() {
  return <Outlet />;
}
