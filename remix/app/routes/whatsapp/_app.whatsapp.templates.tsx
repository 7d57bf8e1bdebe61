/** /whatsapp/templates/*: the templates list and the create form. */
import { Outlet } from "@remix-run/react";

export const handle = { crumb: "whatsapp:crumbs.templates" };

export default function WhatsappTemplatesLayout() {
  return <Outlet />;
}
