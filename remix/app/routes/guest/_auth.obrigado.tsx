import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { DevMail } from "~/components/auth/dev-mail";
import { AuthMessage } from "~/components/auth/message";
import { registeredMail } from "~/lib/register.server";

export const handle = { crumb: "auth:obrigado.title" };

export async function loader({ request }: LoaderFunctionArgs) {
  return json({ mail: await registeredMail(request) }, { headers: { "Cache-Control": "no-store" } });
}

export default function Obrigado() {
  const { t } = useTranslation("auth");
  const { mail } = useLoaderData<typeof loader>();
  return (
    <>
      <AuthMessage title={t("obrigado.title")} body={t("obrigado.body")} action={{ to: "/login", label: t("obrigado.login") }} />
      <DevMail mail={mail} />
    </>
  );
}
