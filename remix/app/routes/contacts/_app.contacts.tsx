/** /contacts/*: the account's contacts, groups, custom fields and imports (the policy guards each path). */
import { Outlet } from "@remix-run/react";

export const handle = { crumb: "contacts:title" };

export default function ContactsLayout() {
  return <Outlet />;
}
