import { useTranslation } from "react-i18next";
import { AuthMessage } from "~/components/auth/message";

export const handle = { crumb: "auth:obrigado.title" };

export default function Obrigado() {
  const { t } = useTranslation("auth");
  return <AuthMessage title={t("obrigado.title")} body={t("obrigado.body")} action={{ to: "/login", label: t("obrigado.login") }} />;
}
