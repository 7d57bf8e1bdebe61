/** Profile: name, mobile, gender, birth date. */
import { getFormProps, useForm } from "@conform-to/react";
import { Form, useNavigation } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { GENDERS } from "../../../../models/constants";
import { CsrfInput, FormErrors, TextField } from "~/components/forms/fields";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import type { FormReply } from "~/lib/forms.server";
import { SelectField } from "~/components/forms/controls";
import { useLazyValidate } from "~/lib/lazy-validate";

export type ProfileData = {
  email: string;
  firstName: string;
  lastName: string;
  mobile: string | null;
  gender: string | null;
  birthDate: string | null;
};

export function ProfileForm({ profile, last }: { profile: ProfileData; last?: FormReply & { params?: Record<string, unknown> } }) {
  const { t } = useTranslation(["settings", "common"]);
  const nav = useNavigation();
  const busy = nav.state === "submitting" && nav.formData?.get("intent") === "profile";
  const [form, fields] = useForm({
    id: "profile-form",
    lastResult: last?.result,
    defaultValue: {
      firstName: profile.firstName,
      lastName: profile.lastName,
      mobile: profile.mobile ?? "",
      gender: profile.gender ?? "",
      birthDate: profile.birthDate ?? "",
    },
    onValidate: useLazyValidate(() => import("~api/users/schemas").then((m) => m.profileSchema)),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  return (
    <Card id="profile" className="scroll-mt-6">
      <CardHeader>
        <CardTitle>{t("profile.title")}</CardTitle>
        <CardDescription>{t("profile.description")}</CardDescription>
      </CardHeader>
      <CardContent>
        <Form method="post" {...getFormProps(form)} className="space-y-4">
          <CsrfInput />
          <input type="hidden" name="intent" value="profile" />
          <FormErrors errors={form.errors} params={last?.params} />
          <div className="grid gap-4 sm:grid-cols-2">
            <TextField field={fields.firstName} label={t("profile.firstName")} autoComplete="given-name" />
            <TextField field={fields.lastName} label={t("profile.lastName")} autoComplete="family-name" />
          </div>
          <p className="text-sm">
            <span className="text-muted-foreground">{t("profile.email")}: </span>
            <span className="font-medium">{profile.email}</span>
          </p>
          <div className="grid items-start gap-4 sm:grid-cols-3">
            <TextField field={fields.mobile} label={t("profile.mobile")} type="tel" autoComplete="tel" description={t("profile.mobileHint")} />
            <SelectField
              field={fields.gender}
              label={t("profile.gender")}
              placeholder={t("profile.genderNone")}
              options={GENDERS.map((g) => ({ value: g, label: t(`profile.genders.${g}`) }))}
            />
            <TextField field={fields.birthDate} label={t("profile.birthDate")} type="date" autoComplete="bday" />
          </div>
          <div className="flex justify-end">
            <Button type="submit" disabled={busy}>
              {t("common:actions.save")}
            </Button>
          </div>
        </Form>
      </CardContent>
    </Card>
  );
}
