/** /rcs/history/*: the list and one message. */
import { Outlet } from "@remix-run/react";

export const handle = { crumb: "rcs:history.crumb" };

export default function RcsHistoryLayout() {
  return <Outlet />;
}
