/** Frame of the public (guest) pages: the brand (whitelabel per host) and a centred card. */
import { Outlet } from "@remix-run/react";
import { GuestFrame } from "~/components/auth/guest-frame";

export default function AuthLayout() {
  return (
    <GuestFrame>
      <Outlet />
    </GuestFrame>
  );
}
