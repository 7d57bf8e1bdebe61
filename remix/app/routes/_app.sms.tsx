/** /sms/*: the SMS product (the policy guards each path). */
import { Outlet } from "@remix-run/react";

export const handle = { crumb: "common:nav.sms" };

export default function SmsLayout() {
  return <Outlet />;
}
