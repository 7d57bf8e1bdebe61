/** /users/*: the people of the account (owner and admin manage them; the policy guards each path). */
import { Outlet } from "@remix-run/react";

export const handle = { crumb: "users:title" };

export default function UsersLayout() {
  return <Outlet />;
}
