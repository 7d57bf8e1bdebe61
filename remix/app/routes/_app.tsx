import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Outlet, useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { AppShell } from "~/components/shell/app-shell";
import { shellData } from "~/lib/shell.server";
import type { RootData } from "~/root";

export async function loader({ request }: LoaderFunctionArgs) {
  return json(await shellData(request));
}

export function useShellData() {
  return useRouteLoaderData<typeof loader>("routes/_app");
}

export default function AppLayout() {
  const data = useLoaderData<typeof loader>();
  const root = useRouteLoaderData<RootData>("root");
  return (
    <AppShell {...data} lng={root?.lng ?? "pt-BR"} brandName={root?.brand?.name}>
      <Outlet />
    </AppShell>
  );
}
