/** The create/edit form of a webhook endpoint: URL, description, event checkboxes, enabled. Plain POST, works without JavaScript. */
import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { Form } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { WEBHOOK_EVENT_TYPES } from "~api/webhooks/constants";
import { CsrfInput, ErrorText, FormErrors, TextField } from "~/components/forms/fields";
import { Button } from "~/components/ui/button";
import { useLazyValidate } from "~/lib/lazy-validate";

export function EndpointForm({
  id,
  intent,
  lastResult,
  defaults,
  submit,
  busy,
}: {
  id: string;
  intent: "create" | "update";
  lastResult?: SubmissionResult<string[]>;
  defaults?: { url: string; description: string; events: string[]; enabled: boolean };
  submit: string;
  busy?: boolean;
}) {
  const { t } = useTranslation(["webhooks", "common"]);
  const [form, fields] = useForm({
    id,
    lastResult,
    defaultValue: defaults ? { ...defaults, enabled: defaults.enabled ? "on" : undefined } : { events: ["message.status_changed"], enabled: "on" },
    onValidate: useLazyValidate(() => import("./form-schema").then((m) => m.webhookFormSchema)),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  const chosen = new Set<string>(
    ([] as string[]).concat((fields.events.value as string[] | string | undefined) ?? (fields.events.initialValue as string[] | string | undefined) ?? []),
  );
  const enabledNow = (fields.enabled.value ?? fields.enabled.initialValue) === "on";
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-4">
      <CsrfInput />
      <input type="hidden" name="intent" value={intent} />
      <FormErrors errors={form.errors} />
      <TextField field={fields.url} label={t("form.url")} description={t("form.urlHelp")} autoComplete="off" />
      <TextField field={fields.description} label={t("form.description")} autoComplete="off" />
      <fieldset className="space-y-2" aria-describedby={fields.events.errors?.length ? `${id}-events-error` : undefined}>
        <legend className="text-sm font-medium">{t("form.events")}</legend>
        {(["*", ...WEBHOOK_EVENT_TYPES] as const).map((type) => (
          <label key={type} className="flex items-center gap-2 text-sm">
            <input type="checkbox" name={fields.events.name} value={type} defaultChecked={chosen.has(type)} className="size-4 accent-primary" />
            <span>{t(`events.${type === "*" ? "all" : type.replace(".", "_")}`)}</span>
            <code className="text-xs text-muted-foreground">{type}</code>
          </label>
        ))}
        <ErrorText id={`${id}-events-error`} errors={fields.events.errors} />
      </fieldset>
      <label className="flex items-center gap-2 text-sm font-medium">
        <input type="checkbox" name={fields.enabled.name} defaultChecked={enabledNow} className="size-4 accent-primary" />
        <span>{t("form.enabled")}</span>
      </label>
      <Button type="submit" disabled={busy}>
        {submit}
      </Button>
    </Form>
  );
}
