/** /contacts/fields/*: custom contact fields. */
import { Outlet } from "@remix-run/react";

export const handle = { crumb: "contacts:customFields.title" };

export default function CustomFieldsLayout() {
  return <Outlet />;
}
