/** Ask for a reset link. The answer is the same whether or not the account exists. */
import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Link } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { emailOnlySchema } from "~api/auth/schemas";
import { requestPasswordReset } from "~api/auth/user-tokens";
import { requestCtx } from "~/lib/auth.server";
import { handleForm } from "~/lib/forms.server";
import { EmailOnlyForm } from "~/components/auth/email-only-form";

export const handle = { crumb: "auth:reset.title" };

export async function action({ request }: ActionFunctionArgs) {
  return handleForm(request, emailOnlySchema, async (value) => {
    await requestPasswordReset(requestCtx(request), value);
    return redirect("/reset-password?sent=1");
  });
}

export default function ResetPassword() {
  const { t } = useTranslation("auth");
  return (
    <EmailOnlyForm title={t("reset.title")} body={t("reset.body")} sent={t("reset.sent")} submit={t("reset.submit")}>
      <p className="text-center text-sm">
        <Link to="/login" className="text-primary hover:underline">
          {t("register.login")}
        </Link>
      </p>
    </EmailOnlyForm>
  );
}
