/** /contacts/import/*: CSV imports of contacts (upload, column mapping, live progress, summary). */
import { Outlet } from "@remix-run/react";

export const handle = { crumb: "imports:crumb" };

export default function ImportsLayout() {
  return <Outlet />;
}
