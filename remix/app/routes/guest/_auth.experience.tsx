import type { ActionFunctionArgs } from "@remix-run/node";
import { useRouteLoaderData } from "@remix-run/react";
import { RegisterForm } from "~/components/auth/register-form";
import { registerAction } from "~/lib/register.server";
import type { RootData } from "~/root";

export const handle = { crumb: "auth:register.trialTitle" };

export const action = ({ request }: ActionFunctionArgs) => registerAction(request, true);

export default function Experience() {
  const root = useRouteLoaderData<RootData>("root");
  return <RegisterForm trial lng={root?.lng ?? "pt-BR"} />;
}
