/** /mail/*: the e-mail channel (issue 17): sending domains so far (the policy guards each path). */
import { Outlet } from "@remix-run/react";

export const handle = { crumb: "email:crumbs.mail" };

export default function MailLayout() {
  return <Outlet />;
}
