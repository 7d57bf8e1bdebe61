/** /webhooks/*: the account's webhook endpoints. */
import { Outlet } from "@remix-run/react";

export const handle = { crumb: "webhooks:title" };

export default function WebhooksLayout() {
  return <Outlet />;
}
