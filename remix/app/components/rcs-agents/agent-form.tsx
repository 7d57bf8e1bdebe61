/**
 * The RCS agent's fields (the request form and the agent's edit): brand name, description,
 * logo and banner image links, color, phone, website, e-mail, privacy and terms pages. A plain
 * form: works without JavaScript; with it, the same schema checks each field as it is left.
 */
import { getFormProps, type SubmissionResult, useForm } from "@conform-to/react";
import { Form } from "@remix-run/react";
import { CsrfInput, FormErrors, TextField } from "~/components/forms/fields";
import { Button } from "~/components/ui/button";
import { useLazyValidate } from "~/lib/lazy-validate";
import { useTranslation } from "~/lib/react-i18n";

export type AgentFormValues = Partial<Record<"name" | "description" | "logo_url" | "banner_url" | "color" | "phone" | "website" | "email" | "privacy_url" | "terms_url", string>>;

export function AgentForm({
  id,
  intent,
  lastResult,
  defaultValue,
  busy,
  submit,
}: {
  id: string;
  intent: string;
  lastResult?: SubmissionResult<string[]>;
  defaultValue?: AgentFormValues;
  busy: boolean;
  submit: string;
}) {
  const { t } = useTranslation("rcs");
  const [form, fields] = useForm({
    id,
    lastResult,
    defaultValue: { color: "#1a73e8", ...defaultValue },
    onValidate: useLazyValidate(() => import("~api/rcs/agent-schema").then((m) => m.agentRequestSchema)),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-6">
      <CsrfInput />
      <input type="hidden" name="intent" value={intent} />
      <FormErrors errors={[...(form.errors ?? []), ...(lastResult?.error?.form ?? [])]} />
      <fieldset className="grid items-start gap-4 md:grid-cols-2">
        <legend className="mb-2 text-sm font-semibold">{t("agents.form.brand")}</legend>
        <TextField field={fields.name} label={t("agents.fields.name")} description={t("agents.form.nameHint")} autoComplete="organization" />
        <TextField field={fields.color} label={t("agents.fields.color")} type="color" description={t("agents.form.colorHint")} />
        <TextField field={fields.description} label={t("agents.fields.description")} description={t("agents.form.descriptionHint")} className="md:col-span-2" />
        <TextField field={fields.logo_url} label={t("agents.fields.logo_url")} type="url" description={t("agents.form.logoHint")} />
        <TextField field={fields.banner_url} label={t("agents.fields.banner_url")} type="url" description={t("agents.form.bannerHint")} />
      </fieldset>
      <fieldset className="grid items-start gap-4 md:grid-cols-2">
        <legend className="mb-2 text-sm font-semibold">{t("agents.form.contact")}</legend>
        <TextField field={fields.phone} label={t("agents.fields.phone")} type="tel" autoComplete="tel" />
        <TextField field={fields.email} label={t("agents.fields.email")} type="email" autoComplete="email" />
        <TextField field={fields.website} label={t("agents.fields.website")} type="url" autoComplete="url" className="md:col-span-2" />
        <TextField field={fields.privacy_url} label={t("agents.fields.privacy_url")} type="url" />
        <TextField field={fields.terms_url} label={t("agents.fields.terms_url")} type="url" />
      </fieldset>
      <Button type="submit" disabled={busy}>
        {submit}
      </Button>
    </Form>
  );
}
