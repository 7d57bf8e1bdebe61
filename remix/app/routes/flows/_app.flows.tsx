/** /flows/*: the chatbot flows of the omni service (issue 20, ADR 053); the policy guards each path. */
import { Outlet } from "@remix-run/react";

export const handle = { crumb: "flows:crumbs.flows" };

export default function FlowsLayout() {
  return <Outlet />;
}
