/** The macro form (create on /chat/macros, edit on /chat/macros/{id}/edit). Plain POST. */
import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { Form, Link } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { CheckboxField, SelectField, TextareaField } from "~/components/forms/controls";
import { CsrfInput, FormErrors, TextField } from "~/components/forms/fields";
import { Button } from "~/components/ui/button";
import { useLazyValidate } from "~/lib/lazy-validate";

export type MacroDefaults = { name: string; message: string | null; tags: string[]; tabulation_id: string | null; close: boolean };

export function MacroForm({
  id,
  lastResult,
  tabulations,
  defaults,
  busy,
  submit,
  cancelTo,
}: {
  id: string;
  lastResult?: SubmissionResult<string[]>;
  tabulations: Array<{ id: string; name: string }>;
  defaults?: MacroDefaults;
  busy: boolean;
  submit: string;
  cancelTo?: string;
}) {
  const { t } = useTranslation(["live", "common"]);
  const [form, fields] = useForm({
    id,
    lastResult,
    defaultValue: defaults
      ? {
          name: defaults.name,
          message: defaults.message ?? "",
          tags: defaults.tags.join(", "),
          tabulation_id: defaults.tabulation_id ?? "",
          close: defaults.close ? "on" : undefined,
        }
      : undefined,
    onValidate: useLazyValidate(() => import("~api/live/schemas").then((m) => m.macroSchema)),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-4">
      <CsrfInput />
      <input type="hidden" name="intent" value="save" />
      <FormErrors errors={form.errors} />
      <TextField field={fields.name} label={t("macros.name")} autoComplete="off" />
      <TextareaField field={fields.message} label={t("macros.message")} />
      <TextField field={fields.tags as never} label={t("macros.tags")} description={t("macros.tagsHint")} autoComplete="off" />
      <SelectField
        field={fields.tabulation_id}
        label={t("macros.tabulation")}
        placeholder={t("macros.noTabulation")}
        options={tabulations.map((x) => ({ value: x.id, label: x.name }))}
      />
      <CheckboxField field={fields.close as never} label={t("macros.close")} />
      <div className="flex gap-2">
        <Button type="submit" className="flex-1" disabled={busy}>
          {submit}
        </Button>
        {cancelTo ? (
          <Button asChild variant="outline">
            <Link to={cancelTo}>{t("macros.edit.cancel")}</Link>
          </Button>
        ) : null}
      </div>
    </Form>
  );
}
