/** The link from the reset e-mail: choose a new password. */
import { getFormProps, useForm } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useParams } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { resetPasswordSchema } from "~api/auth/schemas";
import { checkResetToken, resetPassword } from "~api/auth/user-tokens";
import { isAppError } from "~api/lib/errors";
import { AuthMessage } from "~/components/auth/message";
import { CsrfInput, FormErrors, TextField } from "~/components/forms/fields";
import { Button } from "~/components/ui/button";
import { requestCtx } from "~/lib/auth.server";
import { handleForm, type FormReply } from "~/lib/forms.server";
import { redirectWithToast } from "~/lib/toast.server";
import { useLazyValidate } from "~/lib/lazy-validate";

export const handle = { crumb: "auth:reset.newTitle" };

export async function loader({ params }: LoaderFunctionArgs) {
  try {
    await checkResetToken(params.token ?? "");
    return json({ valid: true });
  } catch (e) {
    if (isAppError(e)) return json({ valid: false }, { status: 400 });
    throw e;
  }
}

export async function action({ request }: ActionFunctionArgs) {
  return handleForm(request, resetPasswordSchema, async (value) => {
    await resetPassword(requestCtx(request), value);
    return redirectWithToast(request, "/login", { type: "success", title: "auth:reset.done" });
  });
}

export default function NewPassword() {
  const { valid } = useLoaderData<typeof loader>();
  const { token } = useParams();
  const { t } = useTranslation(["auth", "errors"]);
  const last = useActionData<FormReply>();
  const [form, fields] = useForm({
    lastResult: last?.result,
    onValidate: useLazyValidate(() => import("~api/auth/schemas").then((m) => m.resetPasswordSchema)),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  if (!valid)
    return <AuthMessage tone="error" title={t("errors:INVALID_TOKEN")} body={t("errors:INVALID_TOKEN_DETAIL")} action={{ to: "/reset-password", label: t("reset.title") }} />;
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-semibold">{t("reset.newTitle")}</h1>
      <Form method="post" {...getFormProps(form)} className="space-y-4">
        <CsrfInput />
        <input type="hidden" name="token" value={token} />
        <FormErrors errors={form.errors} />
        <TextField field={fields.password} label={t("register.password")} type="password" autoComplete="new-password" description={t("register.passwordHint")} />
        <TextField field={fields.confirmPassword} label={t("register.confirmPassword")} type="password" autoComplete="new-password" />
        <Button type="submit" className="w-full">
          {t("reset.newSubmit")}
        </Button>
      </Form>
    </div>
  );
}
