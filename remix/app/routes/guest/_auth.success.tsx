import { useTranslation } from "react-i18next";
import { AuthMessage } from "~/components/auth/message";

export const handle = { crumb: "auth:success.title" };

export default function Success() {
  const { t } = useTranslation("auth");
  return <AuthMessage title={t("success.title")} body={t("success.body")} action={{ to: "/login", label: t("success.login") }} />;
}
