/**
 * Every field of a contact (spec section 3): names, birth date, numbers, e-mail, gender, company,
 * website, address, description, tags, groups (checkboxes) and the account's custom fields by type.
 * A plain POST form: it works without JavaScript; with it, conform validates as you type.
 */
import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { Form, Link } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import type { z } from "zod";
import { contactSchema } from "~api/contacts/schemas";
import { GENDERS } from "../../../../models/constants";
import { SelectField, TextareaField } from "~/components/forms/controls";
import { CsrfInput, FormErrors, TextField, useErrorText } from "~/components/forms/fields";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { FormField, fieldDescriptionId, fieldErrorId } from "~/components/ui/form-field";
import { Input } from "~/components/ui/input";
import { NativeSelect, NativeSelectOption } from "~/components/ui/native-select";
import { useLazyValidate } from "~/lib/lazy-validate";

export type ContactFormValues = z.input<typeof contactSchema>;

export type CustomFieldInput = {
  key: string;
  label: string;
  type: "text" | "number" | "date" | "list";
  options: string[];
  required: boolean;
  sensitive: boolean;
  value?: string | number | null;
  masked?: boolean;
};

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <fieldset className="space-y-4">
      <legend className="mb-2 text-sm font-semibold text-muted-foreground">{title}</legend>
      {children}
    </fieldset>
  );
}

function CustomInput({ field, errors, canSeeSensitive }: { field: CustomFieldInput; errors?: string[]; canSeeSensitive: boolean }) {
  const { t } = useTranslation("contacts");
  const text = useErrorText();
  const id = `custom-${field.key}`;
  const name = `custom.${field.key}`;
  const messages = errors?.map((e) => text(e));
  const hidden = field.sensitive && !canSeeSensitive;
  const description = hidden ? t("form.maskedHint") : undefined;
  const describedBy = [description ? fieldDescriptionId(id) : null, messages?.length ? fieldErrorId(id) : null].filter(Boolean).join(" ") || undefined;
  const value = hidden || field.value === null || field.value === undefined ? "" : String(field.value);
  const label = (
    <span className="inline-flex flex-wrap items-center gap-2">
      {field.label}
      {field.required ? (
        <span className="text-destructive">
          <span aria-hidden="true">*</span>
          <span className="sr-only">{t("form.required")}</span>
        </span>
      ) : null}
      {field.sensitive ? <Badge variant="warning">{t("form.sensitive")}</Badge> : null}
    </span>
  );
  const common = { id, name, "aria-invalid": messages?.length ? true : undefined, "aria-describedby": describedBy, required: field.required && !hidden && !field.masked };
  return (
    <FormField label={label} htmlFor={id} error={messages} description={description}>
      {field.type === "list" ? (
        <NativeSelect {...common} defaultValue={value}>
          <NativeSelectOption value="">{t("form.choose")}</NativeSelectOption>
          {field.options.map((o) => (
            <NativeSelectOption key={o} value={o}>
              {o}
            </NativeSelectOption>
          ))}
          {value && !field.options.includes(value) ? <NativeSelectOption value={value}>{t("form.outdatedOption", { value })}</NativeSelectOption> : null}
        </NativeSelect>
      ) : (
        <Input
          {...common}
          type={field.type === "number" ? "number" : field.type === "date" ? "date" : "text"}
          step={field.type === "number" ? "any" : undefined}
          defaultValue={value}
          placeholder={hidden && field.masked ? t("form.maskedPlaceholder") : undefined}
          autoComplete="off"
        />
      )}
    </FormField>
  );
}

export function ContactForm({
  formId,
  defaultValue,
  groups,
  selectedGroups,
  customFields,
  canSeeSensitive,
  lastResult,
  busy,
  submitLabel,
  cancelHref,
}: {
  formId: string;
  defaultValue: ContactFormValues;
  groups: Array<{ id: string; name: string }>;
  selectedGroups: string[];
  customFields: CustomFieldInput[];
  canSeeSensitive: boolean;
  lastResult?: SubmissionResult<string[]>;
  busy: boolean;
  submitLabel: string;
  cancelHref: string;
}) {
  const { t } = useTranslation(["contacts", "common"]);
  const text = useErrorText();
  const [form, fields] = useForm<ContactFormValues>({
    id: formId,
    lastResult,
    defaultValue,
    onValidate: useLazyValidate(() => import("~api/contacts/schemas").then((m) => m.contactSchema)),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  const errorsOf = (name: string) => form.allErrors[name];
  // After a refused post (no JavaScript: a fresh page), the hand-made inputs show what was sent.
  const sent = lastResult?.initialValue as { custom?: Record<string, unknown>; group_ids?: string | string[] } | undefined;
  const sentGroups = sent ? ([] as string[]).concat(sent.group_ids ?? []) : null;
  const withValue = (f: CustomFieldInput): CustomFieldInput => {
    const v = sent?.custom?.[f.key];
    return typeof v === "string" ? { ...f, value: v } : f;
  };
  const groupErrors = errorsOf("group_ids")?.map((e) => text(e));
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-8">
      <CsrfInput />
      <input type="hidden" name="intent" value="save" />
      <FormErrors errors={form.errors} />
      <Section title={t("form.sections.person")}>
        <div className="grid items-start gap-4 sm:grid-cols-2">
          <TextField field={fields.first_name} label={t("fields.first_name")} autoComplete="off" />
          <TextField field={fields.last_name} label={t("fields.last_name")} autoComplete="off" />
          <TextField field={fields.birth_date} label={t("fields.birth_date")} type="date" />
          <SelectField
            field={fields.gender as never}
            label={t("fields.gender")}
            placeholder={t("form.genderNone")}
            options={GENDERS.map((g) => ({ value: g, label: t(`genders.${g}`) }))}
          />
        </div>
      </Section>
      <Section title={t("form.sections.reach")}>
        <div className="grid items-start gap-4 sm:grid-cols-2">
          <TextField field={fields.mobile_number} label={t("fields.mobile_number")} type="tel" description={t("form.mobileHint")} autoComplete="off" />
          <TextField field={fields.phone} label={t("fields.phone")} type="tel" autoComplete="off" />
          <TextField field={fields.email} label={t("fields.email")} type="email" autoComplete="off" />
          <TextField field={fields.website} label={t("fields.website")} autoComplete="off" />
          <TextField field={fields.company} label={t("fields.company")} autoComplete="off" />
        </div>
      </Section>
      <Section title={t("form.sections.address")}>
        <div className="grid items-start gap-4 sm:grid-cols-6">
          <TextField field={fields.zip} label={t("fields.zip")} className="sm:col-span-2" autoComplete="off" />
          <TextField field={fields.address} label={t("fields.address")} className="sm:col-span-4" autoComplete="off" />
          <TextField field={fields.number} label={t("fields.number")} className="sm:col-span-2" autoComplete="off" />
          <TextField field={fields.complement} label={t("fields.complement")} className="sm:col-span-2" autoComplete="off" />
          <TextField field={fields.district} label={t("fields.district")} className="sm:col-span-2" autoComplete="off" />
          <TextField field={fields.city} label={t("fields.city")} className="sm:col-span-3" autoComplete="off" />
          <TextField field={fields.state} label={t("fields.state")} className="sm:col-span-1" autoComplete="off" />
          <TextField field={fields.country} label={t("fields.country")} className="sm:col-span-2" autoComplete="off" />
        </div>
      </Section>
      <Section title={t("form.sections.more")}>
        <TextField field={fields.tags as never} label={t("fields.tags")} description={t("form.tagsHint")} autoComplete="off" />
        <TextareaField field={fields.description} label={t("fields.description")} />
      </Section>
      <Section title={t("fields.groups")}>
        {groups.length === 0 ? (
          <p className="text-sm text-muted-foreground">
            {t("form.noGroups")}{" "}
            <Link to="/contacts/groups" className="text-primary underline-offset-4 hover:underline">
              {t("form.manageGroups")}
            </Link>
          </p>
        ) : (
          <fieldset className="grid min-w-0 gap-2 sm:grid-cols-2" aria-describedby={groupErrors?.length ? "group_ids-error" : undefined}>
            {groups.map((g) => (
              <label key={g.id} className="flex items-center gap-2 text-sm">
                <input
                  type="checkbox"
                  name="group_ids"
                  value={g.id}
                  defaultChecked={(sentGroups ?? selectedGroups).includes(g.id)}
                  className="size-4 rounded border border-input accent-primary"
                />
                {g.name}
              </label>
            ))}
          </fieldset>
        )}
        {groupErrors?.length ? (
          <p id="group_ids-error" role="alert" className="text-sm text-destructive">
            {groupErrors.join(" ")}
          </p>
        ) : null}
      </Section>
      {customFields.length ? (
        <Section title={t("form.sections.custom")}>
          <div className="grid items-start gap-4 sm:grid-cols-2">
            {customFields.map((f) => (
              <CustomInput key={f.key} field={withValue(f)} errors={errorsOf(`custom.${f.key}`)} canSeeSensitive={canSeeSensitive} />
            ))}
          </div>
        </Section>
      ) : null}
      <div className="flex flex-wrap gap-2">
        <Button type="submit" disabled={busy}>
          {submitLabel}
        </Button>
        <Button asChild variant="ghost">
          <Link to={cancelHref}>{t("common:actions.cancel")}</Link>
        </Button>
      </div>
    </Form>
  );
}
