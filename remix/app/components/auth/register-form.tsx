import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { Form, Link, useActionData, useNavigation } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { CsrfInput, ErrorText, FormErrors, TextField } from "~/components/forms/fields";
import { Button } from "~/components/ui/button";
import type { FormReply } from "~/lib/forms.server";
import { useLazyValidate } from "~/lib/lazy-validate";

/** Registration (plain and 30-day trial): the same fields, rules and messages. */
export function RegisterForm({ trial, lng }: { trial: boolean; lng: string }) {
  const { t } = useTranslation(["auth", "common"]);
  const last = useActionData<FormReply>();
  const busy = useNavigation().state === "submitting";
  const [form, fields] = useForm({
    lastResult: last?.result,
    onValidate: useLazyValidate(() => import("~api/auth/schemas").then((m) => m.registerSchema)),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  return (
    <div className="space-y-6">
      <div className="space-y-1">
        <h1 className="text-2xl font-semibold">{trial ? t("register.trialTitle") : t("register.title")}</h1>
        {trial ? <p className="text-sm text-muted-foreground">{t("register.trialSubtitle")}</p> : null}
      </div>
      <Form method="post" {...getFormProps(form)} className="space-y-4">
        <CsrfInput />
        <input type="hidden" name="locale" value={lng} />
        <FormErrors errors={form.errors} />
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField field={fields.firstName} label={t("register.firstName")} autoComplete="given-name" />
          <TextField field={fields.lastName} label={t("register.lastName")} autoComplete="family-name" />
        </div>
        <TextField field={fields.companyName} label={t("register.companyName")} autoComplete="organization" />
        <TextField field={fields.email} label={t("register.email")} type="email" autoComplete="email" />
        <TextField field={fields.mobile} label={t("register.mobile")} type="tel" autoComplete="tel" />
        <TextField field={fields.password} label={t("register.password")} type="password" autoComplete="new-password" description={t("register.passwordHint")} />
        <TextField field={fields.confirmPassword} label={t("register.confirmPassword")} type="password" autoComplete="new-password" />
        <div className="space-y-1">
          <label className="flex items-start gap-2 text-sm">
            <input {...getInputProps(fields.acceptTerms, { type: "checkbox" })} value="on" className="mt-1" />
            <span>{t("register.acceptTerms")}</span>
          </label>
          <ErrorText errors={fields.acceptTerms.errors} id={`${fields.acceptTerms.id}-error`} />
        </div>
        <Button type="submit" className="w-full" disabled={busy}>
          {trial ? t("register.submitTrial") : t("register.submit")}
        </Button>
      </Form>
      <p className="text-center text-sm">
        {t("register.haveAccount")}{" "}
        <Link to="/login" className="text-primary hover:underline">
          {t("register.login")}
        </Link>
      </p>
    </div>
  );
}
