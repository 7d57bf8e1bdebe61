/** Resend the verification e-mail (neutral answer). */
import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { useTranslation } from "~/lib/react-i18n";
import { emailOnlySchema } from "~api/auth/schemas";
import { resendVerification } from "~api/auth/user-tokens";
import { requestCtx } from "~/lib/auth.server";
import { handleForm } from "~/lib/forms.server";
import { EmailOnlyForm } from "~/components/auth/email-only-form";

export const handle = { crumb: "auth:verify.resendTitle" };

export async function action({ request }: ActionFunctionArgs) {
  return handleForm(request, emailOnlySchema, async (value) => {
    await resendVerification(requestCtx(request), value);
    return redirect("/email-verify?sent=1");
  });
}

export default function ResendVerification() {
  const { t } = useTranslation("auth");
  return <EmailOnlyForm title={t("verify.resendTitle")} body={t("verify.resendBody")} sent={t("verify.sent")} submit={t("verify.resend")}></EmailOnlyForm>;
}
