/** /accounts/*: the accounts the signed-in person belongs to. */
import { Outlet } from "@remix-run/react";

export const handle = { crumb: "accounts:title" };

export default function AccountsLayout() {
  return <Outlet />;
}
