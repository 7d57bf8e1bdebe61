/**
 * One event's rule on /integrations/{id} (ADR 066, 072): on/off, the channel, and what it sends —
 * the text (SMS, e-mail) or an approved WhatsApp template with a value per variable and the number
 * it goes from. Without JavaScript both parts are shown and the template's variable fields are
 * those of the template chosen when the page was drawn: choose the template, save, and the save's
 * answer shows its fields (the save is refused until each has a value). With JavaScript only the
 * channel's part shows and the fields follow the template chosen at once.
 */
import { Link } from "@remix-run/react";
import { useState } from "react";
import { type OrderEvent, RULE_CHANNEL_NAMES, RULE_CONTENT, RULE_PARAM_MAX, RULE_SUBJECT_MAX, RULE_TEXT_MAX, type RuleChannelName } from "~api/integrations/constants";
import type { WhatsappRuleChoices } from "~api/integrations/whatsapp-rule";
import { ErrorText } from "~/components/forms/fields";
import { useHydrated } from "~/components/flows/use-hydrated";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { NativeSelect, NativeSelectOption } from "~/components/ui/native-select";
import { Textarea } from "~/components/ui/textarea";
import { useTranslation } from "~/lib/react-i18n";

/** A rule as the form shows it: what was typed (a refused save) or what is stored. */
export type RuleFormValue = {
  event: OrderEvent;
  channel: string;
  enabled: boolean;
  subject: string;
  text: string;
  number_id: string;
  /** "name|language", or blank. */
  template_key: string;
  variables: string[];
  header_variable: string;
  button_variable: string;
};

type Errors = Record<string, string[] | null | undefined> | undefined;

export function RuleFields({ n, rule, errors, choices, vars }: { n: number; rule: RuleFormValue; errors: Errors; choices: WhatsappRuleChoices; vars: string }) {
  const { t } = useTranslation("integrations");
  const hydrated = useHydrated();
  const [channel, setChannel] = useState(rule.channel);
  const [key, setKey] = useState(rule.template_key);
  const name = (field: string) => `rules[${n}].${field}`;
  const err = (field: string) => errors?.[name(field)] ?? undefined;
  const invalid = (field: string) => Boolean(err(field)?.length) || undefined;
  const content = Object.hasOwn(RULE_CONTENT, channel) ? RULE_CONTENT[channel as RuleChannelName] : "text";
  const chosen = choices.templates.find((x) => x.key === key);
  // The values typed or stored belong to the template they were given for; another template's start blank.
  const value = (v: string | undefined) => (key === rule.template_key ? (v ?? "") : "");
  const defaultNumber = choices.numbers.find((x) => x.id === choices.default_number_id);
  const unavailable = rule.template_key && !choices.templates.some((x) => x.key === rule.template_key) ? rule.template_key.split("|") : null;
  return (
    <div className="grid min-w-0 grid-cols-1 gap-3 rounded-md border p-4" data-rule={rule.event}>
      <input type="hidden" name={name("event")} value={rule.event} />
      <div className="flex flex-wrap items-center gap-4">
        <strong>{t(`events.${rule.event}`)}</strong>
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" name={name("enabled")} defaultChecked={rule.enabled} />
          {t("detail.enabled")}
        </label>
        <div className="flex items-center gap-2">
          <Label htmlFor={`rule-${n}-channel`}>{t("detail.channel")}</Label>
          <NativeSelect id={`rule-${n}-channel`} name={name("channel")} defaultValue={rule.channel} aria-invalid={invalid("channel")} onChange={(e) => setChannel(e.target.value)}>
            {RULE_CHANNEL_NAMES.map((c) => (
              <NativeSelectOption key={c} value={c}>
                {t(`channels.${c}`)}
              </NativeSelectOption>
            ))}
          </NativeSelect>
        </div>
      </div>
      <ErrorText errors={err("channel")} />
      <section hidden={hydrated && content !== "text"} className="grid min-w-0 grid-cols-1 gap-3" aria-label={t("detail.textSection")}>
        {hydrated ? null : <h3 className="text-sm font-medium">{t("detail.textSection")}</h3>}
        <div className="grid gap-1.5">
          <Label htmlFor={`rule-${n}-subject`}>{t("detail.subject")}</Label>
          <Input id={`rule-${n}-subject`} name={name("subject")} defaultValue={rule.subject} maxLength={RULE_SUBJECT_MAX} aria-invalid={invalid("subject")} />
          <ErrorText errors={err("subject")} />
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor={`rule-${n}-text`}>{t("detail.text")}</Label>
          <Textarea id={`rule-${n}-text`} name={name("text")} rows={3} defaultValue={rule.text} maxLength={RULE_TEXT_MAX} aria-invalid={invalid("text")} />
          <ErrorText errors={err("text")} />
        </div>
      </section>
      <section hidden={hydrated && content !== "template"} className="grid min-w-0 grid-cols-1 gap-3" aria-label={t("detail.whatsappSection")} data-whatsapp-rule={rule.event}>
        {hydrated ? null : <h3 className="text-sm font-medium">{t("detail.whatsappSection")}</h3>}
        <p className="text-sm text-muted-foreground">{t("detail.whatsappHint", { vars })}</p>
        {hydrated ? null : <p className="text-sm text-muted-foreground">{t("detail.whatsappNoJs")}</p>}
        <div className="grid min-w-0 grid-cols-1 gap-3 md:grid-cols-2">
          <div className="grid min-w-0 gap-1.5">
            <Label htmlFor={`rule-${n}-number`}>{t("detail.number")}</Label>
            <NativeSelect id={`rule-${n}-number`} name={name("number_id")} defaultValue={rule.number_id} aria-invalid={invalid("number_id")}>
              <NativeSelectOption value="">{defaultNumber ? t("detail.defaultNumber", { label: defaultNumber.label }) : t("detail.noDefaultNumber")}</NativeSelectOption>
              {choices.numbers.map((x) => (
                <NativeSelectOption key={x.id} value={x.id}>
                  {x.label}
                </NativeSelectOption>
              ))}
            </NativeSelect>
            <ErrorText errors={err("number_id")} />
          </div>
          <div className="grid min-w-0 gap-1.5">
            <Label htmlFor={`rule-${n}-template`}>{t("detail.template")}</Label>
            <NativeSelect
              id={`rule-${n}-template`}
              name={name("template.key")}
              defaultValue={rule.template_key}
              aria-invalid={invalid("template.name")}
              onChange={(e) => setKey(e.target.value)}
            >
              <NativeSelectOption value="">{t("detail.chooseTemplate")}</NativeSelectOption>
              {unavailable ? (
                <NativeSelectOption value={rule.template_key}>{t("detail.templateUnavailable", { name: unavailable[0], language: unavailable[1] })}</NativeSelectOption>
              ) : null}
              {choices.templates.map((x) => (
                <NativeSelectOption key={x.key} value={x.key}>
                  {t("detail.templateOption", { name: x.name, language: x.language })}
                </NativeSelectOption>
              ))}
            </NativeSelect>
            <ErrorText errors={err("template.name")} />
            {choices.templates.length === 0 ? (
              <p className="text-sm text-muted-foreground">
                {t("detail.noTemplates")}{" "}
                <Link to="/whatsapp/templates/new" className="font-medium text-primary hover:underline">
                  {t("detail.newTemplate")}
                </Link>
              </p>
            ) : null}
          </div>
        </div>
        {chosen ? (
          <div className="grid min-w-0 grid-cols-1 gap-3" key={chosen.key} data-template={chosen.key}>
            <div className="rounded-md border bg-muted/40 p-3 text-sm">
              <p className="text-xs text-muted-foreground">{t("detail.templateText")}</p>
              <p className="whitespace-pre-wrap break-words">{chosen.body}</p>
            </div>
            {chosen.header_variable ? (
              <VariableInput
                id={`rule-${n}-header`}
                label={t("detail.headerVariable")}
                name={name("template.header_variable")}
                value={value(rule.header_variable)}
                errors={err("template.header_variable")}
              />
            ) : null}
            {Array.from({ length: chosen.variables }, (_, i) => (
              <VariableInput
                key={i}
                id={`rule-${n}-var-${i}`}
                label={t("detail.variable", { name: `{{${i + 1}}}` })}
                name={name(`template.variables[${i}]`)}
                value={value(rule.variables[i])}
                errors={err(`template.variables[${i}]`)}
              />
            ))}
            {chosen.button_variable ? (
              <VariableInput
                id={`rule-${n}-button`}
                label={t("detail.buttonVariable")}
                name={name("template.button_variable")}
                value={value(rule.button_variable)}
                errors={err("template.button_variable")}
              />
            ) : null}
          </div>
        ) : null}
        <ErrorText errors={err("template.variables")} />
      </section>
    </div>
  );
}

function VariableInput({ id, label, name, value, errors }: { id: string; label: string; name: string; value: string; errors: string[] | undefined }) {
  return (
    <div className="grid min-w-0 gap-1.5">
      <Label htmlFor={id}>{label}</Label>
      <Input id={id} name={name} defaultValue={value} maxLength={RULE_PARAM_MAX} autoComplete="off" aria-invalid={Boolean(errors?.length) || undefined} />
      <ErrorText errors={errors} />
    </div>
  );
}
