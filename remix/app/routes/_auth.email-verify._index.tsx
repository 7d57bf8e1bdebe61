/** Resend the verification e-mail (neutral answer). */
import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, useActionData, useSearchParams } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { emailOnlySchema } from "../../../api/auth/schemas";
import { resendVerification } from "../../../api/auth/user-tokens";
import { CsrfInput, FormErrors, TextField } from "~/components/forms/fields";
import { Alert, AlertDescription } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { requestCtx } from "~/lib/auth.server";
import { handleForm, type FormReply } from "~/lib/forms.server";

export const handle = { crumb: "auth:verify.resendTitle" };

export async function action({ request }: ActionFunctionArgs) {
  return handleForm(request, emailOnlySchema, async (value) => {
    await resendVerification(requestCtx(request), value);
    return redirect("/email-verify?sent=1");
  });
}

export default function ResendVerification() {
  const { t } = useTranslation("auth");
  const last = useActionData<FormReply>();
  const [params] = useSearchParams();
  const [form, fields] = useForm({ lastResult: last?.result, onValidate: ({ formData }) => parseWithZod(formData, { schema: emailOnlySchema }), shouldValidate: "onBlur" });
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-semibold">{t("verify.resendTitle")}</h1>
      <p className="text-sm text-muted-foreground">{t("verify.resendBody")}</p>
      {params.get("sent") ? <Alert variant="success"><AlertDescription>{t("verify.sent")}</AlertDescription></Alert> : null}
      <Form method="post" {...getFormProps(form)} className="space-y-4">
        <CsrfInput />
        <FormErrors errors={form.errors} />
        <TextField field={fields.email} label={t("login.email")} type="email" autoComplete="email" />
        <Button type="submit" className="w-full">{t("verify.resend")}</Button>
      </Form>
    </div>
  );
}
