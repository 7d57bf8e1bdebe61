import type { ActionFunctionArgs } from "@remix-run/node";
import { useRouteLoaderData } from "@remix-run/react";
import { RegisterForm } from "~/components/auth/register-form";
import { registerAction } from "~/lib/register.server";
import type { RootData } from "~/root";

export const handle = { crumb: "auth:register.title" };

export const action = ({ request }: ActionFunctionArgs) => registerAction(request, false);

export default function Register() {
  const root = useRouteLoaderData<RootData>("root");
  return <RegisterForm trial={false} lng={root?.lng ?? "pt-BR"} />;
}
