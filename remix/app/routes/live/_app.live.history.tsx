import { Outlet } from "@remix-run/react";

export const handle = { crumb: "liveDesk:history.title" };

export default function LiveHistoryLayout() {
  return <Outlet />;
}
