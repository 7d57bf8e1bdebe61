/** /departments/*: the account's departments (omni plan with the department permission; the policy guards it). */
import { Outlet } from "@remix-run/react";

export const handle = { crumb: "users:departments.title" };

export default function DepartmentsLayout() {
  return <Outlet />;
}
