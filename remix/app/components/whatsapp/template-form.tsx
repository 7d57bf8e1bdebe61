/**
 * The WhatsApp template form (/whatsapp/templates/new): number, name, category, language, header
 * (none, text with its example, or an image/video/document by example URL), body with {{1}}…
 * variables and one example per line, footer, and three button rows (quick reply; website with an
 * optional variable at the end of its URL and its example; phone). Without JavaScript every field
 * is shown and the rows left at "none" are skipped; with it, only the chosen kinds' fields show and
 * Meta's rules are checked as the fields are left. Each error is next to its field, translated.
 */
import { getFormProps, getInputProps, getSelectProps, getTextareaProps, useForm, type FieldMetadata, type SubmissionResult } from "@conform-to/react";
import { Form } from "@remix-run/react";
import { useEffect, useState } from "react";
import { useTranslation } from "~/lib/react-i18n";
import { variablesOf } from "~api/whatsapp/constants";
import { SelectField, TextareaField } from "~/components/forms/controls";
import { CsrfInput, ErrorText, FormErrors, TextField, useErrorText } from "~/components/forms/fields";
import { Button } from "~/components/ui/button";
import { FormField } from "~/components/ui/form-field";
import { Input } from "~/components/ui/input";
import { NativeSelect, NativeSelectOption } from "~/components/ui/native-select";
import { Textarea } from "~/components/ui/textarea";
import { BUTTON_SLOTS, BUTTON_TYPES, CATEGORIES, HEADER_TYPES, LANGUAGES } from "./template-form-options";
import { useLazyValidate } from "~/lib/lazy-validate";

type Field = FieldMetadata<string | undefined | null>;

/** A text input of a conform field with its translated errors (FormField + Input). */
function Text({
  field,
  label,
  description,
  placeholder,
  type = "text",
}: {
  field: Field;
  label: string;
  description?: string;
  placeholder?: string;
  type?: "text" | "url" | "tel";
}) {
  const text = useErrorText();
  // A URL is typed as text: the rules (and their translated messages) are the server's, not the browser's own check.
  const { key, ...props } = getInputProps(field, { type: type === "url" ? "text" : type, ariaDescribedBy: description ? `${field.id}-description` : undefined });
  return (
    <FormField label={label} htmlFor={field.id} error={field.errors?.map((e) => text(e))} description={description}>
      <Input {...props} key={key} placeholder={placeholder} autoComplete="off" inputMode={type === "url" ? "url" : undefined} />
    </FormField>
  );
}

export function TemplateForm({ numbers, lastResult, busy }: { numbers: Array<{ id: string; label: string }>; lastResult?: SubmissionResult<string[]>; busy: boolean }) {
  const { t } = useTranslation(["whatsapp", "common"]);
  const errorText = useErrorText();
  const [form, fields] = useForm({
    id: "whatsapp-template",
    lastResult,
    defaultValue: {
      number_id: numbers[0]?.id ?? "",
      category: "utility",
      language: "pt_BR",
      header_type: "none",
      buttons: Array.from({ length: BUTTON_SLOTS }, () => ({ type: "none" })),
    },
    onValidate: useLazyValidate(() => import("./template-form-schema").then((m) => m.templateFormSchema)),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const headerType = fields.header_type.value || "none";
  const rows = fields.buttons.getFieldList();
  const variables = variablesOf(fields.body.value ?? "").length;
  const { key: bodyKey, ...bodyProps } = getTextareaProps(fields.body);
  const bodyErrors = fields.body.errors?.map((e) => errorText(e));

  return (
    <Form method="post" {...getFormProps(form)} className="space-y-6">
      <CsrfInput />
      <FormErrors errors={form.errors} />
      <div className="grid gap-4 sm:grid-cols-2">
        <SelectField field={fields.number_id} label={t("templateForm.number")} options={numbers.map((n) => ({ value: n.id, label: n.label }))} />
        <TextField field={fields.name} label={t("templateForm.name")} description={t("templateForm.nameHint")} autoComplete="off" />
        <SelectField field={fields.category} label={t("templateForm.category")} options={CATEGORIES.map((c) => ({ value: c, label: t(`category.${c}`) }))} />
        <SelectField field={fields.language} label={t("templateForm.language")} options={LANGUAGES.map((l) => ({ value: l, label: t(`language.${l}`) }))} />
      </div>

      <fieldset className="space-y-3 rounded-md border p-4">
        <legend className="px-1 text-sm font-medium">{t("templateForm.header")}</legend>
        <SelectField field={fields.header_type} label={t("templateForm.headerType")} options={HEADER_TYPES.map((h) => ({ value: h, label: t(`headerType.${h}`) }))} />
        <div hidden={hydrated && headerType !== "text"} className="grid gap-4 sm:grid-cols-2">
          <Text field={fields.header_text} label={t("templateForm.headerText")} description={t("templateForm.headerTextHint", { variable: "{{1}}" })} />
          <Text field={fields.header_example} label={t("templateForm.headerExample")} description={t("templateForm.headerExampleHint")} />
        </div>
        <div hidden={hydrated && !["image", "video", "document"].includes(headerType)}>
          <Text field={fields.header_url} type="url" label={t("templateForm.headerUrl")} description={t("templateForm.headerUrlHint")} placeholder="https://" />
        </div>
      </fieldset>

      <div className="space-y-3">
        <FormField label={t("templateForm.body")} htmlFor={fields.body.id} error={bodyErrors} description={t("templateForm.bodyHint", { first: "{{1}}", second: "{{2}}" })}>
          <Textarea {...bodyProps} key={bodyKey} rows={5} aria-describedby={`${fields.body.id}-description${bodyErrors?.length ? ` ${fields.body.id}-error` : ""}`} />
        </FormField>
        <TextareaField
          field={fields.body_examples}
          label={t("templateForm.bodyExamples")}
          description={hydrated ? t("templateForm.bodyExamplesCount", { count: variables }) : t("templateForm.bodyExamplesHint")}
        />
        <Text field={fields.footer} label={t("templateForm.footer")} description={t("templateForm.footerHint")} />
      </div>

      <fieldset className="space-y-3 rounded-md border p-4" aria-describedby={fields.buttons.errors?.length ? `${fields.buttons.id}-error` : undefined}>
        <legend className="px-1 text-sm font-medium">{t("templateForm.buttons")}</legend>
        <p className="text-sm text-muted-foreground">{t("templateForm.buttonsHint", { max: BUTTON_SLOTS, variable: "{{1}}" })}</p>
        <ErrorText id={`${fields.buttons.id}-error`} errors={fields.buttons.errors} />
        {rows.slice(0, BUTTON_SLOTS).map((row, i) => {
          const b = row.getFieldset();
          const type = b.type.value || "none";
          const { key: typeKey, ...typeProps } = getSelectProps(b.type);
          return (
            <div key={row.key} className="space-y-3 rounded-md bg-muted/40 p-3" data-button-row={i}>
              <FormField label={t("templateForm.buttonType", { n: i + 1 })} htmlFor={b.type.id} error={b.type.errors?.map((e) => errorText(e))}>
                <NativeSelect {...typeProps} key={typeKey}>
                  {BUTTON_TYPES.map((bt) => (
                    <NativeSelectOption key={bt} value={bt}>
                      {t(`buttonType.${bt}`)}
                    </NativeSelectOption>
                  ))}
                </NativeSelect>
              </FormField>
              <div className="grid gap-3 sm:grid-cols-2">
                <div hidden={hydrated && type === "none"}>
                  <Text field={b.text} label={t("templateForm.buttonText", { n: i + 1 })} />
                </div>
                <div hidden={hydrated && type !== "phone"}>
                  <Text
                    field={b.phone}
                    type="tel"
                    label={t("templateForm.buttonPhone", { n: i + 1 })}
                    description={t("templateForm.buttonPhoneHint")}
                    placeholder="+5511999990000"
                  />
                </div>
                <div hidden={hydrated && type !== "url"}>
                  <Text
                    field={b.url}
                    type="url"
                    label={t("templateForm.buttonUrl", { n: i + 1 })}
                    description={t("templateForm.buttonUrlHint", { variable: "{{1}}" })}
                    placeholder="https://"
                  />
                </div>
                <div hidden={hydrated && type !== "url"}>
                  <Text field={b.example} type="url" label={t("templateForm.buttonExample", { n: i + 1 })} description={t("templateForm.buttonExampleHint")} />
                </div>
              </div>
            </div>
          );
        })}
      </fieldset>

      <Button type="submit" disabled={busy || numbers.length === 0}>
        {busy ? t("templateForm.submitting") : t("templateForm.submit")}
      </Button>
    </Form>
  );
}
