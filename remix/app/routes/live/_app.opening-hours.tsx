/** /opening-hours/*: the list and its create screen (the policy guards the path). */
import { Outlet } from "@remix-run/react";

export const handle = { crumb: "live:hours.title" };

export default function Layout() {
  return <Outlet />;
}
