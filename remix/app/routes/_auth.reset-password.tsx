/** Ask for a reset link. The answer is the same whether or not the account exists. */
import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, Link, useActionData, useSearchParams } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { emailOnlySchema } from "../../../api/auth/schemas";
import { requestPasswordReset } from "../../../api/auth/user-tokens";
import { CsrfInput, FormErrors, TextField } from "~/components/forms/fields";
import { Alert, AlertDescription } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { requestCtx } from "~/lib/auth.server";
import { handleForm, type FormReply } from "~/lib/forms.server";

export const handle = { crumb: "auth:reset.title" };

export async function action({ request }: ActionFunctionArgs) {
  return handleForm(request, emailOnlySchema, async (value) => {
    await requestPasswordReset(requestCtx(request), value);
    return redirect("/reset-password?sent=1");
  });
}

export default function ResetPassword() {
  const { t } = useTranslation("auth");
  const last = useActionData<FormReply>();
  const [params] = useSearchParams();
  const [form, fields] = useForm({ lastResult: last?.result, onValidate: ({ formData }) => parseWithZod(formData, { schema: emailOnlySchema }), shouldValidate: "onBlur" });
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-semibold">{t("reset.title")}</h1>
      <p className="text-sm text-muted-foreground">{t("reset.body")}</p>
      {params.get("sent") ? <Alert variant="success" data-testid="reset-sent"><AlertDescription>{t("reset.sent")}</AlertDescription></Alert> : null}
      <Form method="post" {...getFormProps(form)} className="space-y-4">
        <CsrfInput />
        <FormErrors errors={form.errors} />
        <TextField field={fields.email} label={t("login.email")} type="email" autoComplete="email" />
        <Button type="submit" className="w-full">{t("reset.submit")}</Button>
      </Form>
      <p className="text-center text-sm"><Link to="/login" className="text-primary hover:underline">{t("register.login")}</Link></p>
    </div>
  );
}
