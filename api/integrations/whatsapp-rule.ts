/**
 * WhatsApp as a rule channel (issue 23, ADR 072). A buyer who has not written to the number has no
 * open conversation window, so a rule sends one of the account's APPROVED templates: the rule names
 * it (name + language) and fills each of its parameters — the body's {{1}}, {{2}}…, and the text
 * header's or the URL button's variable where the template has one — with a short text of the
 * order's {{variables}} (the same ones SMS and e-mail rules use).
 *
 * The number is the rule's own or, when it names none, the account's default WhatsApp number
 * (/settings/resources, ADR 071). When the rule is saved the template must exist and be approved on
 * that number, with one value per variable (`templateRuleErrors`); when an order arrives the
 * values are filled (`fillTemplate`) and sent through acceptWhatsapp like any API send, which
 * checks the template again (it may have been paused since).
 */
import type { Transaction } from "sequelize";
import type { FieldErrors } from "../lib/errors";
import { row, rows } from "../lib/sql";
import { variablesOf } from "../whatsapp/constants";
import { templateKey } from "./constants";
import { renderRule } from "./render";

export type RuleTemplate = { name: string; language: string; variables: string[]; header_variable?: string; button_variable?: string };

type Component = { type?: string; format?: string; text?: string; buttons?: Array<{ type?: string; url?: string }> };

/** What a template's parameters are: the body's variables, and whether its text header or a URL button has one (as acceptWhatsapp reads them). */
export function templateShape(components: unknown): { body: string; variables: number; header_variable: boolean; button_variable: boolean } {
  const parts = (Array.isArray(components) ? components : []) as Component[];
  const part = (type: string) => parts.find((c) => c.type === type);
  const body = part("BODY")?.text ?? "";
  const header = part("HEADER");
  return {
    body,
    variables: variablesOf(body).length,
    header_variable: header?.format === "TEXT" && variablesOf(header.text ?? "").length > 0,
    button_variable: (part("BUTTONS")?.buttons ?? []).some((b) => b.type === "URL" && variablesOf(b.url ?? "").length > 0),
  };
}

/**
 * The rule's template checked on the number it will send from (the rule's, else the account's
 * default): its errors keyed by the rule's fields, or the template as it is stored (a header or
 * button value the template does not take is dropped).
 */
export async function checkTemplateRule(
  accountId: string,
  rule: { number_id: string | null; template: RuleTemplate },
  transaction?: Transaction,
): Promise<{ errors: FieldErrors } | { template: RuleTemplate }> {
  const facts = await row<{ number_id: string | null; status: string | null; components: unknown }>(
    `SELECT n.id AS number_id, t.status, t.components
       FROM (SELECT $2::uuid AS wanted) w
       LEFT JOIN account_message_settings s ON s.account_id = $1
       LEFT JOIN whatsapp_numbers n ON n.account_id = $1 AND n.id = coalesce(w.wanted, s.whatsapp_number_id)
       LEFT JOIN whatsapp_templates t ON t.account_id = $1 AND t.number_id = n.id AND t.name = $3 AND t.language = $4`,
    [accountId, rule.number_id, rule.template.name, rule.template.language],
    { transaction },
  );
  if (!facts?.number_id) return { errors: { number_id: [rule.number_id ? "validation.option" : "integrations.errors.whatsappNumberMissing"] } };
  if (!facts.status) return { errors: { "template.name": ["integrations.errors.templateMissing"] } };
  if (facts.status !== "approved") return { errors: { "template.name": ["integrations.errors.templateNotApproved"] } };
  const shape = templateShape(facts.components);
  const t = rule.template;
  const errors: FieldErrors = {};
  if (t.variables.length !== shape.variables) errors["template.variables"] = [`integrations.errors.templateVariables::${shape.variables}`];
  if (shape.header_variable && !t.header_variable) errors["template.header_variable"] = ["validation.required"];
  if (shape.button_variable && !t.button_variable) errors["template.button_variable"] = ["validation.required"];
  if (Object.keys(errors).length) return { errors };
  return {
    template: {
      name: t.name,
      language: t.language,
      variables: t.variables,
      ...(shape.header_variable ? { header_variable: t.header_variable } : {}),
      ...(shape.button_variable ? { button_variable: t.button_variable } : {}),
    },
  };
}

/**
 * One value as Graph takes a template parameter: filled, on one line with single spaces (Meta
 * refuses line breaks, tabs and runs of spaces; the no-break space of "R$ 10,00" stays), never
 * empty ("-": an order without, say, a tracking code yet).
 */
const oneLine = (v: string) =>
  v
    .replace(/[\t\r\n\u2028\u2029]+/g, " ")
    .replace(/ {2,}/g, " ")
    .trim();
const param = (mapping: string, vars: Record<string, string>) =>
  Array.from(oneLine(renderRule(mapping, vars)))
    .slice(0, 1000)
    .join("") || "-";

/** The template's parameters filled with the order: what acceptWhatsapp's `template` takes. */
export function fillTemplate(t: RuleTemplate, vars: Record<string, string>) {
  return {
    name: t.name,
    language: t.language,
    variables: t.variables.map((v) => param(v, vars)),
    ...(t.header_variable ? { header_variable: param(t.header_variable, vars) } : {}),
    ...(t.button_variable ? { button_variable: param(t.button_variable, vars) } : {}),
  };
}

/** What an event records before anything is sent (the buyer had no phone…): the template and its filled values. */
export function templateSummary(t: RuleTemplate, vars: Record<string, string>): string {
  const filled = fillTemplate(t, vars);
  return `${t.name} (${t.language}): ${[filled.header_variable, ...filled.variables, filled.button_variable].filter((v) => v !== undefined).join(" · ")}`;
}

export type RuleNumberChoice = { id: string; label: string };
export type RuleTemplateChoice = {
  key: string;
  name: string;
  language: string;
  category: string;
  /** The numbers it is approved on. */
  number_ids: string[];
  body: string;
  variables: number;
  header_variable: boolean;
  button_variable: boolean;
};
export type WhatsappRuleChoices = { numbers: RuleNumberChoice[]; default_number_id: string | null; templates: RuleTemplateChoice[] };

/** The rule form's WhatsApp choices: the account's numbers, its default, and its approved templates (one entry per name and language). */
export async function whatsappRuleChoices(accountId: string): Promise<WhatsappRuleChoices> {
  const [numbers, templates, settings] = await Promise.all([
    rows<RuleNumberChoice>(
      `SELECT id, concat_ws(' · ', NULLIF(display_phone_number, ''), NULLIF(verified_name, ''), phone_number_id) AS label
         FROM whatsapp_numbers WHERE account_id = $1 ORDER BY created_at, id`,
      [accountId],
    ),
    rows<{ number_id: string; name: string; language: string; category: string; components: unknown }>(
      `SELECT number_id, name, language, category, components FROM whatsapp_templates
        WHERE account_id = $1 AND status = 'approved' ORDER BY name, language, created_at`,
      [accountId],
    ),
    row<{ whatsapp_number_id: string | null }>(`SELECT whatsapp_number_id FROM account_message_settings WHERE account_id = $1`, [accountId]),
  ]);
  const byKey = new Map<string, RuleTemplateChoice>();
  for (const t of templates) {
    const key = templateKey(t);
    const found = byKey.get(key);
    if (found) found.number_ids.push(t.number_id);
    else byKey.set(key, { key, name: t.name, language: t.language, category: t.category, number_ids: [t.number_id], ...templateShape(t.components) });
  }
  return { numbers, default_number_id: settings?.whatsapp_number_id ?? null, templates: [...byKey.values()] };
}
