/**
 * The RCS template editor (issue 21): a plain form that works without JavaScript — the name, the
 * content's type, its text (a card's title), description, image and file links, MESSAGE_SLOTS
 * suggestion slots (reply, open a link, call) and CARD_SLOTS carousel card slots of
 * CARD_SUGGESTION_SLOTS suggestions each (only the filled ones count), and, for anything the slots
 * do not offer (location or calendar suggestions, more chips), the content as JSON, which then
 * wins. The server turns the fields into the spec's content (api/rcs/template-form.ts) and checks
 * it; each refusal is shown next to its slot's field.
 */
import type { SubmissionResult } from "@conform-to/react";
import { Form } from "@remix-run/react";
import { CARD_SLOTS, CARD_SUGGESTION_SLOTS, CONTENT_TYPES, MESSAGE_SLOTS, SLOT_SUGGESTION_TYPES } from "~api/rcs/constants";
import { CsrfInput, FormErrors, useErrorText } from "~/components/forms/fields";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { NativeSelect, NativeSelectOption } from "~/components/ui/native-select";
import { Textarea } from "~/components/ui/textarea";
import { useTranslation } from "~/lib/react-i18n";

type Values = Record<string, unknown>;

/** A value of a nested form payload by its field name ("images[1].suggestions[0].text"). */
function at(values: unknown, name: string): string {
  let cur: unknown = values;
  for (const part of name.replace(/\[(\d+)\]/g, ".$1").split(".")) {
    if (cur === null || typeof cur !== "object") return "";
    cur = (cur as Record<string, unknown>)[part];
  }
  return typeof cur === "string" ? cur : "";
}

function Field({
  name,
  label,
  values,
  errors,
  type = "text",
  multiline,
  description,
}: {
  name: string;
  label: string;
  values: Values;
  errors: Record<string, string[] | null | undefined>;
  type?: "text" | "url" | "tel";
  multiline?: boolean;
  description?: string;
}) {
  const text = useErrorText();
  const id = `rcs-t-${name.replace(/[^\w]/g, "-")}`;
  const errs = errors[name];
  const describedBy = [description ? `${id}-d` : null, errs?.length ? `${id}-e` : null].filter(Boolean).join(" ") || undefined;
  return (
    <div className="grid min-w-0 gap-1">
      <Label htmlFor={id}>{label}</Label>
      {multiline ? (
        <Textarea id={id} name={name} defaultValue={at(values, name)} rows={3} aria-invalid={errs?.length ? true : undefined} aria-describedby={describedBy} />
      ) : (
        <Input id={id} name={name} type={type} defaultValue={at(values, name)} aria-invalid={errs?.length ? true : undefined} aria-describedby={describedBy} autoComplete="off" />
      )}
      {description ? (
        <p id={`${id}-d`} className="text-xs text-muted-foreground">
          {description}
        </p>
      ) : null}
      {errs?.length ? (
        <p id={`${id}-e`} role="alert" className="text-sm text-destructive">
          {errs.map((e) => text(e)).join(" ")}
        </p>
      ) : null}
    </div>
  );
}

function SuggestionSlot({ prefix, n, values, errors }: { prefix: string; n: number; values: Values; errors: Record<string, string[] | null | undefined> }) {
  const { t } = useTranslation("rcs");
  const id = `rcs-t-${prefix.replace(/[^\w]/g, "-")}-type`;
  const current = at(values, `${prefix}.type`) || "reply";
  return (
    <fieldset className="grid min-w-0 gap-2 rounded-md border p-3 sm:grid-cols-3" data-slot={prefix}>
      <legend className="px-1 text-xs text-muted-foreground">{t("templates.editor.suggestion", { n })}</legend>
      <div className="grid min-w-0 gap-1">
        <Label htmlFor={id}>{t("templates.editor.suggestionType")}</Label>
        <NativeSelect id={id} name={`${prefix}.type`} defaultValue={current}>
          {SLOT_SUGGESTION_TYPES.map((s) => (
            <NativeSelectOption key={s} value={s}>
              {t(`templates.suggestionTypes.${s}`)}
            </NativeSelectOption>
          ))}
        </NativeSelect>
      </div>
      <Field name={`${prefix}.text`} label={t("templates.editor.suggestionText")} values={values} errors={errors} />
      <Field
        name={`${prefix}.value`}
        label={t("templates.editor.suggestionValue")}
        description={t("templates.editor.suggestionValueHint")}
        values={values}
        errors={{ [`${prefix}.value`]: [...(errors[`${prefix}.url`] ?? []), ...(errors[`${prefix}.phoneNumber`] ?? [])] }}
      />
    </fieldset>
  );
}

export function TemplateEditor({
  values,
  lastResult,
  busy,
  submit,
  id,
  groups,
}: {
  values: Values;
  lastResult?: SubmissionResult<string[]>;
  busy: boolean;
  submit: string;
  /** The template's id when editing. */
  id?: string;
  /** Groups to put a new template in. */
  groups?: Array<{ id: string; name: string }>;
}) {
  const { t } = useTranslation("rcs");
  const text = useErrorText();
  const shown = (lastResult?.initialValue as Values | undefined) ?? values;
  const errors = (lastResult?.error ?? {}) as Record<string, string[] | null | undefined>;
  const typeErrors = errors.type;
  const slots = (prefix: string, count: number) =>
    Array.from({ length: count }, (_, i) => <SuggestionSlot key={i} prefix={`${prefix}[${i}]`} n={i + 1} values={shown} errors={errors} />);
  const cardErrors = Object.keys(errors).filter((k) => k.startsWith("images"));
  return (
    <Form method="post" className="space-y-6" id="rcs-template-form" noValidate>
      <CsrfInput />
      <input type="hidden" name="intent" value="save" />
      {id ? <input type="hidden" name="id" value={id} /> : null}
      <FormErrors errors={errors[""] ?? errors.form} />
      <div className="grid items-start gap-4 md:grid-cols-2">
        <Field name="name" label={t("templates.fields.name")} values={shown} errors={errors} />
        <div className="grid min-w-0 gap-1">
          <Label htmlFor="rcs-t-type">{t("templates.fields.type")}</Label>
          <NativeSelect id="rcs-t-type" name="type" defaultValue={at(shown, "type") || "text"} aria-invalid={typeErrors?.length ? true : undefined}>
            {CONTENT_TYPES.map((c) => (
              <NativeSelectOption key={c} value={c}>
                {t(`templates.types.${c}`)}
              </NativeSelectOption>
            ))}
          </NativeSelect>
          {typeErrors?.length ? (
            <p role="alert" className="text-sm text-destructive">
              {typeErrors.map((e) => text(e)).join(" ")}
            </p>
          ) : null}
        </div>
        {groups?.length ? (
          <div className="grid min-w-0 gap-1">
            <Label htmlFor="rcs-t-group">{t("templates.fields.group")}</Label>
            <NativeSelect id="rcs-t-group" name="group_id" defaultValue={at(shown, "group_id")}>
              <NativeSelectOption value="">{t("templates.editor.noGroup")}</NativeSelectOption>
              {groups.map((g) => (
                <NativeSelectOption key={g.id} value={g.id}>
                  {g.name}
                </NativeSelectOption>
              ))}
            </NativeSelect>
          </div>
        ) : null}
      </div>
      <fieldset className="grid items-start gap-4 md:grid-cols-2">
        <legend className="mb-2 text-sm font-semibold">{t("templates.editor.message")}</legend>
        <div className="md:col-span-2">
          <Field name="messageText" label={t("templates.fields.messageText")} description={t("templates.editor.messageTextHint")} values={shown} errors={errors} multiline />
        </div>
        <div className="md:col-span-2">
          <Field
            name="messageDescription"
            label={t("templates.fields.messageDescription")}
            description={t("templates.editor.descriptionHint")}
            values={shown}
            errors={errors}
            multiline
          />
        </div>
        <Field name="imageUrl" type="url" label={t("templates.fields.imageUrl")} description={t("templates.editor.mediaHint")} values={shown} errors={errors} />
        <Field name="fileUrl" type="url" label={t("templates.fields.fileUrl")} description={t("templates.editor.mediaHint")} values={shown} errors={errors} />
      </fieldset>
      <fieldset className="space-y-2">
        <legend className="mb-2 text-sm font-semibold">{t("templates.editor.suggestions")}</legend>
        <p className="text-xs text-muted-foreground">{t("templates.editor.suggestionsHint", { n: MESSAGE_SLOTS })}</p>
        {errors.suggestions?.length ? (
          <p role="alert" className="text-sm text-destructive">
            {errors.suggestions.map((e) => text(e)).join(" ")}
          </p>
        ) : null}
        {slots("suggestions", MESSAGE_SLOTS)}
      </fieldset>
      <details className="space-y-3" open={cardErrors.length > 0 || at(shown, "type") === "card-carousel"}>
        <summary className="cursor-pointer text-sm font-semibold">{t("templates.editor.cards", { n: CARD_SLOTS })}</summary>
        <p className="text-xs text-muted-foreground">{t("templates.editor.cardsHint")}</p>
        {errors.images?.length ? (
          <p role="alert" className="text-sm text-destructive">
            {errors.images.map((e) => text(e)).join(" ")}
          </p>
        ) : null}
        {Array.from({ length: CARD_SLOTS }, (_, i) => (
          <fieldset key={i} className="grid min-w-0 gap-3 rounded-md border p-3 md:grid-cols-2" data-card={i}>
            <legend className="px-1 text-sm">{t("templates.editor.card", { n: i + 1 })}</legend>
            <Field name={`images[${i}].title`} label={t("templates.fields.cardTitle")} values={shown} errors={errors} />
            <Field name={`images[${i}].uri`} type="url" label={t("templates.fields.cardMedia")} values={shown} errors={errors} />
            <div className="md:col-span-2">
              <Field name={`images[${i}].description`} label={t("templates.fields.cardDescription")} values={shown} errors={errors} multiline />
            </div>
            <div className="grid gap-2 md:col-span-2">
              {Array.from({ length: CARD_SUGGESTION_SLOTS }, (_, j) => (
                <SuggestionSlot key={j} prefix={`images[${i}].suggestions[${j}]`} n={j + 1} values={shown} errors={errors} />
              ))}
            </div>
          </fieldset>
        ))}
      </details>
      <details className="space-y-2" open={Boolean(at(shown, "json")) || Boolean(errors.json?.length)}>
        <summary className="cursor-pointer text-sm font-semibold">{t("templates.editor.json")}</summary>
        <Field name="json" label={t("templates.fields.json")} description={t("templates.editor.jsonHint")} values={shown} errors={errors} multiline />
      </details>
      <Button type="submit" disabled={busy}>
        {submit}
      </Button>
    </Form>
  );
}
