/** /dev/mailbox: frame of the local outbox screens (list and one e-mail). Not available in production. */
import { Outlet } from "@remix-run/react";

export const handle = { crumb: "mailbox.title" };

export default function MailboxLayout() {
  return <Outlet />;
}
