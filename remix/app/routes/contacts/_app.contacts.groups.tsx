/** /contacts/groups/*: contact groups. */
import { Outlet } from "@remix-run/react";

export const handle = { crumb: "contacts:groups.title" };

export default function ContactGroupsLayout() {
  return <Outlet />;
}
