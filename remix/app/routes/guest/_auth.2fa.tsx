/** Second step of sign-in: the TOTP code. Reachable with a session whose second factor is pending. */
import { getFormProps, useForm } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { Form, useActionData } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { totpCodeSchema } from "~api/auth/schemas";
import { verifyTotp } from "~api/auth/totp";
import { CsrfInput, FormErrors, TextField } from "~/components/forms/fields";
import { Button } from "~/components/ui/button";
import { requestCtx } from "~/lib/auth.server";
import { handleForm, type FormReply } from "~/lib/forms.server";
import { afterSignInPath } from "~/lib/login.server";
import { commitSession, getSession, rotateSession } from "~/lib/session.server";
import { useLazyValidate } from "~/lib/lazy-validate";

export const handle = { crumb: "auth:twoFactor.title" };

export async function loader({ request }: LoaderFunctionArgs) {
  const session = await getSession(request);
  if (!session.get("userId")) return redirect("/login");
  if (session.get("tfa") !== "pending") return redirect("/");
  return json({});
}

export async function action({ request }: ActionFunctionArgs) {
  const session = await getSession(request);
  const userId = session.get("userId");
  if (!userId || session.get("tfa") !== "pending") return redirect("/login");
  return handleForm(request, totpCodeSchema, async (value) => {
    const user = await verifyTotp(requestCtx(request), userId, value);
    // A fresh session id once the second factor is done.
    const fresh = await rotateSession(session, { userId: user.id, accountId: session.get("accountId"), tfa: "ok" });
    return redirect(afterSignInPath(request, session.get("redirectTo")), { headers: { "Set-Cookie": await commitSession(fresh) } });
  });
}

export default function TwoFactor() {
  const { t } = useTranslation("auth");
  const last = useActionData<FormReply & { params?: Record<string, unknown> }>();
  const [form, fields] = useForm({
    lastResult: last?.result,
    onValidate: useLazyValidate(() => import("~api/auth/schemas").then((m) => m.totpCodeSchema)),
    shouldValidate: "onBlur",
  });
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-semibold">{t("twoFactor.title")}</h1>
      <p className="text-sm text-muted-foreground">{t("twoFactor.body")}</p>
      <Form method="post" {...getFormProps(form)} className="space-y-4">
        <CsrfInput />
        <FormErrors errors={form.errors} params={last?.params} />
        <TextField field={fields.code} label={t("twoFactor.code")} autoComplete="one-time-code" />
        <Button type="submit" className="w-full">
          {t("twoFactor.submit")}
        </Button>
      </Form>
      <Form method="post" action="/logout" className="text-center">
        <CsrfInput />
        <button type="submit" className="text-sm text-primary hover:underline">
          {t("twoFactor.other")}
        </button>
      </Form>
    </div>
  );
}
