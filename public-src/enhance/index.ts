/**
 * The enhancement script of the pages served without React (ADR 051; remix/app/lib/hydration.ts),
 * built to public/enhance.js by api/cli/widget-build.mjs. Those pages work as plain HTML; this adds
 * what JavaScript improves, each part found by a data attribute the server renders:
 *
 * - `select[data-autosubmit]`: submits its form on change (the account switcher; its submit
 *   button is only in <noscript>).
 * - `[data-slot="toast"] button[data-toast-close]`: closes the toast; a toast without
 *   `data-persistent` closes by itself after `data-hide-after` ms.
 * - `form[data-enhance="sms-send"]`: the SMS composer — only the chosen recipient mode's field
 *   shown, a template's text filling the message, the live character/segment counter and cost,
 *   and the submit button disabled while the post is on its way.
 *
 * Plain DOM, no framework; the texts come translated in the server's markup (`data-tpl-*`,
 * `data-plural-*`: a plural key's templates by category).
 */
import { smsSegments } from "../../api/sms/segments";

/** i18next's interpolation as our locales use it: {{name}}, and {{count, number}} with the language's digit grouping. */
const fill = (template: string, values: Record<string, string | number>, locale?: string) =>
  template.replace(/\{\{\s*(\w+)\s*(,\s*number\s*)?\}\}/g, (all, k: string, number?: string) =>
    k in values ? (number ? new Intl.NumberFormat(locale).format(Number(values[k])) : String(values[k])) : all,
  );

/** A plural family's text for `count` (templates by category; `zero` for 0 as i18next does). */
function plural(json: string | undefined, count: number, locale?: string) {
  const templates = JSON.parse(json ?? "{}") as Record<string, string>;
  const category = count === 0 && templates.zero ? "zero" : new Intl.PluralRules(locale).select(count);
  return fill(templates[category] ?? templates.other ?? "", { count }, locale);
}

function autosubmit(root: ParentNode) {
  for (const select of root.querySelectorAll<HTMLSelectElement>("select[data-autosubmit]")) {
    select.addEventListener("change", () => select.form?.requestSubmit());
  }
}

function toasts(root: ParentNode) {
  for (const toast of root.querySelectorAll<HTMLElement>('[data-slot="toast"]')) {
    const close = () => toast.remove();
    toast.querySelector("button[data-toast-close]")?.addEventListener("click", close);
    const after = Number(toast.dataset.hideAfter);
    if (!("persistent" in toast.dataset) && after > 0) setTimeout(close, after);
  }
}

function smsSend(form: HTMLFormElement) {
  const radios = [...form.querySelectorAll<HTMLInputElement>('input[type="radio"][name="mode"]')];
  const panels = [...form.querySelectorAll<HTMLElement>("[data-mode-panel]")];
  const showMode = () => {
    const mode = radios.find((r) => r.checked)?.value ?? "single";
    for (const p of panels) p.hidden = p.dataset.modePanel !== mode;
  };
  for (const r of radios) r.addEventListener("change", showMode);
  for (const hint of form.querySelectorAll<HTMLElement>("[data-without-js]")) hint.hidden = true;
  showMode();

  const body = form.querySelector<HTMLTextAreaElement>("textarea[data-sms-body]");
  const counter = form.querySelector<HTMLElement>("[data-sms-counter]");
  const route = form.querySelector<HTMLSelectElement>("select[data-sms-route]");
  const template = form.querySelector<HTMLSelectElement>("select[data-sms-template]");
  if (!body || !counter) return;
  const text = counter.querySelector<HTMLElement>("[data-counter-text]");
  const cost = counter.querySelector<HTMLElement>("[data-counter-cost]");
  const d = counter.dataset;
  const money = (minor: number, currency: string) => {
    const format = new Intl.NumberFormat(d.locale, { style: "currency", currency });
    return format.format(minor / 10 ** (format.resolvedOptions().maximumFractionDigits ?? 2));
  };
  const update = () => {
    const info = smsSegments(body.value);
    if (text) {
      const coding = (info.coding === "GSM7" ? d.codingGsm7 : d.codingUcs2) ?? info.coding;
      text.textContent = [plural(d.pluralCharacters, info.characters, d.locale), plural(d.pluralSegments, info.segments, d.locale), coding].join(" · ");
    }
    if (!cost) return;
    const option = route?.selectedOptions[0];
    const price = option?.dataset.price;
    if (/\{\{\s*[A-Za-z0-9_]{1,40}\s*\}\}/.test(body.value)) cost.textContent = d.tplCostUnknown ?? "";
    else cost.textContent = price ? fill(d.tplCost ?? "", { price: money(info.segments * Number(price), option?.dataset.currency ?? "BRL") }) : "";
  };
  body.addEventListener("input", update);
  route?.addEventListener("change", update);
  template?.addEventListener("change", () => {
    const chosen = template.selectedOptions[0]?.dataset.body;
    body.readOnly = chosen !== undefined;
    if (chosen !== undefined) body.value = chosen;
    update();
  });
  update();

  const submit = form.querySelector<HTMLButtonElement>('button[type="submit"]');
  let busy = false;
  form.addEventListener("submit", () => {
    if (!submit) return;
    busy = true;
    // After this turn of the event loop, so the button's own name/value still go with the post.
    setTimeout(() => {
      submit.disabled = true;
      if (submit.dataset.busyText) submit.textContent = submit.dataset.busyText;
    });
  });
  // Back from the next page (bfcache): the button is usable again.
  addEventListener("pageshow", () => {
    if (submit && busy) {
      busy = false;
      submit.disabled = false;
      if (submit.dataset.idleText) submit.textContent = submit.dataset.idleText;
    }
  });
}

autosubmit(document);
toasts(document);
for (const form of document.querySelectorAll<HTMLFormElement>('form[data-enhance="sms-send"]')) smsSend(form);
