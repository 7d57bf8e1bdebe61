import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Outlet, useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { GuestFrame } from "~/components/auth/guest-frame";
import { AppShell } from "~/components/shell/app-shell";
import { mailboxRegistrant } from "~/lib/registrant.server";
import { shellData } from "~/lib/shell.server";
import type { RootData } from "~/root";

export async function loader({ request }: LoaderFunctionArgs) {
  // Outside production, a registrant not signed in opens its own mailbox (/dev/mailbox) in the guest frame, without the shell.
  if (await mailboxRegistrant(request)) return json({ registrant: true as const });
  return json({ registrant: false as const, ...(await shellData(request)) });
}

export function useShellData() {
  return useRouteLoaderData<typeof loader>("routes/_app");
}

export default function AppLayout() {
  const data = useLoaderData<typeof loader>();
  const root = useRouteLoaderData<RootData>("root");
  if (data.registrant)
    return (
      <GuestFrame wide>
        <Outlet />
      </GuestFrame>
    );
  return (
    <AppShell {...data} lng={root?.lng ?? "pt-BR"} brandName={root?.brand?.name}>
      <Outlet />
    </AppShell>
  );
}
