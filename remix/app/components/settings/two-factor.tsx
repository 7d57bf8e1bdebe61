/**
 * Two-factor sign-in (TOTP). Off: "enable" starts an enrolment (QR code + secret for manual
 * entry, confirmed with a first 6-digit code). On: "disable" asks for the current password.
 */
import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { Form, useNavigation } from "@remix-run/react";
import { ShieldCheck, ShieldOff } from "lucide-react";
import { useTranslation } from "~/lib/react-i18n";
import { CsrfInput, FormErrors, TextField, useErrorText } from "~/components/forms/fields";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { FormField } from "~/components/ui/form-field";
import { Input } from "~/components/ui/input";
import type { FormReply } from "~/lib/forms.server";
import { useLazyValidate } from "~/lib/lazy-validate";

type Reply = FormReply & { params?: Record<string, unknown> };

/** Groups of 4 characters, easier to type into an authenticator app. */
export function groupSecret(secret: string) {
  return secret.replace(/(.{4})/g, "$1 ").trim();
}

export function TwoFactorSection({
  enabled,
  hasPassword,
  enrolment,
  confirmReply,
  disableReply,
}: {
  enabled: boolean;
  hasPassword: boolean;
  enrolment: { secret: string; uri: string; qr: string } | null;
  confirmReply?: Reply;
  disableReply?: Reply;
}) {
  const { t } = useTranslation("settings");
  return (
    <Card id="two-factor" className="scroll-mt-6" data-testid="two-factor">
      <CardHeader>
        <CardTitle className="flex flex-wrap items-center gap-2">
          {t("twoFactor.title")}
          {enabled ? (
            <Badge variant="success">
              <ShieldCheck aria-hidden /> {t("twoFactor.on")}
            </Badge>
          ) : (
            <Badge variant="secondary">
              <ShieldOff aria-hidden /> {t("twoFactor.off")}
            </Badge>
          )}
        </CardTitle>
        <CardDescription>{t("twoFactor.description")}</CardDescription>
      </CardHeader>
      <CardContent>
        {enabled ? (
          <DisableForm hasPassword={hasPassword} last={disableReply} />
        ) : enrolment ? (
          <Enrolment enrolment={enrolment} last={confirmReply} />
        ) : (
          <Form method="post" className="space-y-3">
            <CsrfInput />
            <input type="hidden" name="intent" value="totp-begin" />
            <p className="text-sm text-muted-foreground">{t("twoFactor.offHint")}</p>
            <Button type="submit">{t("twoFactor.enable")}</Button>
          </Form>
        )}
      </CardContent>
    </Card>
  );
}

function Enrolment({ enrolment, last }: { enrolment: { secret: string; uri: string; qr: string }; last?: Reply }) {
  const { t } = useTranslation(["settings", "common"]);
  const errorText = useErrorText();
  const nav = useNavigation();
  const busy = nav.state === "submitting" && nav.formData?.get("intent") === "totp-confirm";
  const [form, fields] = useForm({
    id: "totp-confirm-form",
    lastResult: last?.result,
    onValidate: useLazyValidate(() => import("~api/auth/schemas").then((m) => m.totpCodeSchema)),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  return (
    <div className="space-y-5">
      <ol className="grid gap-5 md:grid-cols-[auto_1fr]">
        <li className="space-y-2">
          <p className="text-sm font-medium">{t("twoFactor.step1")}</p>
          <img src={enrolment.qr} alt={t("twoFactor.qrAlt")} width={220} height={220} className="rounded-md border bg-white p-1" />
        </li>
        <li className="space-y-2">
          <p className="text-sm font-medium">{t("twoFactor.step2")}</p>
          <code className="block break-all rounded-md bg-muted px-3 py-2 font-mono text-sm tracking-wider" data-testid="totp-secret" data-secret={enrolment.secret}>
            {groupSecret(enrolment.secret)}
          </code>
          <p className="text-xs text-muted-foreground">{t("twoFactor.manualHint")}</p>
          <a href={enrolment.uri} className="text-sm text-primary hover:underline">
            {t("twoFactor.openApp")}
          </a>
        </li>
      </ol>
      <Form method="post" {...getFormProps(form)} className="space-y-3">
        <CsrfInput />
        <input type="hidden" name="intent" value="totp-confirm" />
        <FormErrors errors={form.errors} params={last?.params} />
        <FormField label={t("twoFactor.step3")} htmlFor={fields.code.id} error={fields.code.errors?.map((e) => errorText(e))}>
          <Input
            {...getInputProps(fields.code, { type: "text" })}
            key={fields.code.key}
            inputMode="numeric"
            autoComplete="one-time-code"
            pattern="[0-9]{6}"
            maxLength={6}
            className="max-w-40 font-mono tracking-widest"
          />
        </FormField>
        <Button type="submit" disabled={busy}>
          {t("twoFactor.confirm")}
        </Button>
      </Form>
      <Form method="post">
        <CsrfInput />
        <input type="hidden" name="intent" value="totp-cancel" />
        <Button type="submit" variant="ghost" size="sm">
          {t("common:actions.cancel")}
        </Button>
      </Form>
    </div>
  );
}

function DisableForm({ hasPassword, last }: { hasPassword: boolean; last?: Reply }) {
  const { t } = useTranslation("settings");
  const nav = useNavigation();
  const busy = nav.state === "submitting" && nav.formData?.get("intent") === "totp-disable";
  const [form, fields] = useForm({
    id: "totp-disable-form",
    lastResult: last?.result,
    onValidate: useLazyValidate(() => import("~api/users/schemas").then((m) => m.disableTotpSchema)),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  return (
    <div className="space-y-3">
      <p className="text-sm text-muted-foreground">{t("twoFactor.onHint")}</p>
      {hasPassword ? (
        // A disclosure first: turning protection off is a deliberate, confirmed step.
        <details className="rounded-md border p-3" open={Boolean(last)}>
          <summary className="cursor-pointer text-sm font-medium text-destructive">{t("twoFactor.disable")}</summary>
          <Form method="post" {...getFormProps(form)} className="mt-3 space-y-3">
            <CsrfInput />
            <input type="hidden" name="intent" value="totp-disable" />
            <FormErrors errors={form.errors} params={last?.params} />
            <TextField field={fields.currentPassword} label={t("twoFactor.password")} type="password" autoComplete="current-password" />
            <Button type="submit" variant="destructive" disabled={busy}>
              {t("twoFactor.disableConfirm")}
            </Button>
          </Form>
        </details>
      ) : (
        <p className="text-sm text-muted-foreground">{t("twoFactor.noPassword")}</p>
      )}
    </div>
  );
}
