/** The link from the verification e-mail: verifies on open, then offers sign-in (or says the token is invalid). */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { verifyEmail } from "~api/auth/user-tokens";
import { isAppError } from "~api/lib/errors";
import { AuthMessage } from "~/components/auth/message";
import { requestCtx } from "~/lib/auth.server";

export const handle = { crumb: "auth:verify.title" };

export async function loader({ request, params }: LoaderFunctionArgs) {
  try {
    await verifyEmail(requestCtx(request), params.token ?? "");
    return json({ ok: true });
  } catch (e) {
    if (isAppError(e)) return json({ ok: false }, { status: 400 });
    throw e;
  }
}

export default function VerifyEmail() {
  const { ok } = useLoaderData<typeof loader>();
  const { t } = useTranslation(["auth", "errors"]);
  return ok ? (
    <AuthMessage title={t("verify.title")} body={t("verify.ok")} action={{ to: "/login", label: t("success.login") }} />
  ) : (
    <AuthMessage tone="error" title={t("errors:INVALID_TOKEN")} body={t("errors:INVALID_TOKEN_DETAIL")} action={{ to: "/email-verify", label: t("verify.resendTitle") }} />
  );
}
