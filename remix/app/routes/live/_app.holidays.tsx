/** /holidays/*: the list and its create screen (the policy guards the path). */
import { Outlet } from "@remix-run/react";

export const handle = { crumb: "live:holidays.title" };

export default function Layout() {
  return <Outlet />;
}
