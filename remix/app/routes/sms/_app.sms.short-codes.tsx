/** /sms/short-codes/*: the account's short codes. */
import { Outlet } from "@remix-run/react";

export const handle = { crumb: "shortCodes:title" };

export default function ShortCodesLayout() {
  return <Outlet />;
}
