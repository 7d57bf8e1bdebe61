/** /mail/history/*: the list and one message. */
import { Outlet } from "@remix-run/react";

export const handle = { crumb: "emailReports:crumbs.history" };

export default function MailHistoryLayout() {
  return <Outlet />;
}
