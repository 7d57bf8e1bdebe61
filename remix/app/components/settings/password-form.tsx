/** Password change: current, new and confirmation, with the password rules as a hint. */
import { getFormProps, useForm } from "@conform-to/react";
import { Form, Link, useNavigation } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { SPECIALS } from "~api/auth/constants";
import { CsrfInput, FormErrors, TextField } from "~/components/forms/fields";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import type { FormReply } from "~/lib/forms.server";
import { useLazyValidate } from "~/lib/lazy-validate";

/** Minimum length of api/auth/schemas.ts `password` (passwordRule(13)). */
export const PASSWORD_MIN = 13;

export function PasswordRules({ id }: { id?: string }) {
  const { t } = useTranslation("settings");
  const rules = [
    t("password.rules.length", { min: PASSWORD_MIN }),
    t("password.rules.lower"),
    t("password.rules.upper"),
    t("password.rules.digit"),
    t("password.rules.special", { chars: SPECIALS }),
    t("password.rules.pattern"),
  ];
  return (
    <div id={id} className="rounded-md bg-muted/60 px-3 py-2 text-sm text-muted-foreground">
      <p className="mb-1 font-medium text-foreground">{t("password.rules.title")}</p>
      <ul className="list-disc space-y-0.5 pl-5">
        {rules.map((r) => (
          <li key={r}>{r}</li>
        ))}
      </ul>
    </div>
  );
}

export function PasswordForm({ hasPassword, last }: { hasPassword: boolean; last?: FormReply & { params?: Record<string, unknown> } }) {
  const { t } = useTranslation(["settings", "common"]);
  const nav = useNavigation();
  const busy = nav.state === "submitting" && nav.formData?.get("intent") === "password";
  const [form, fields] = useForm({
    id: "password-form",
    lastResult: last?.result,
    onValidate: useLazyValidate(() => import("~api/auth/schemas").then((m) => m.changePasswordSchema)),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  return (
    <Card id="password" className="scroll-mt-6">
      <CardHeader>
        <CardTitle>{t("password.title")}</CardTitle>
        <CardDescription>{t("password.description")}</CardDescription>
      </CardHeader>
      <CardContent>
        {hasPassword ? (
          <Form method="post" {...getFormProps(form)} className="space-y-4">
            <CsrfInput />
            <input type="hidden" name="intent" value="password" />
            <FormErrors errors={form.errors} params={last?.params} />
            <TextField field={fields.currentPassword} label={t("password.current")} type="password" autoComplete="current-password" />
            <div className="grid gap-4 sm:grid-cols-2">
              <TextField field={fields.password} label={t("password.new")} type="password" autoComplete="new-password" />
              <TextField field={fields.confirmPassword} label={t("password.confirm")} type="password" autoComplete="new-password" />
            </div>
            <PasswordRules />
            <div className="flex justify-end">
              <Button type="submit" disabled={busy}>
                {t("password.submit")}
              </Button>
            </div>
          </Form>
        ) : (
          <p className="text-sm text-muted-foreground">
            {t("password.none")}{" "}
            <Link to="/reset-password" className="text-primary hover:underline">
              {t("password.setOne")}
            </Link>
          </p>
        )}
      </CardContent>
    </Card>
  );
}
