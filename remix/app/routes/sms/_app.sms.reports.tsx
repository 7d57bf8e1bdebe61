import { Outlet } from "@remix-run/react";

export const handle = { crumb: "smsReports:crumbs.reports" };

export default function SmsReportsLayout() {
  return <Outlet />;
}
