import { Outlet } from "@remix-run/react";

export const handle = { crumb: "smsReports:crumbs.history" };

export default function SmsReportsHistoryLayout() {
  return <Outlet />;
}
