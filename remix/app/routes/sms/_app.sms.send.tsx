/** /sms/send/*: the send form and its success page. */
import { Outlet } from "@remix-run/react";

export const handle = { crumb: "sms:send.title" };

export default function SmsSendLayout() {
  return <Outlet />;
}
