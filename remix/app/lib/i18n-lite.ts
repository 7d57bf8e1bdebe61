/**
 * The translator the React tree uses, on the server render and in the browser alike (ADR 052):
 * i18next's lookup rules for what our screens use — namespaces (`ns:key`, or the hook's list in
 * order), nested keys, plurals by Intl.PluralRules with `_zero` for a count of 0, `defaultValue`,
 * `{{name}}` and `{{name, number}}` interpolation (a missing plain value keeps its placeholder), a missing
 * key shown as `ns:key` — in 2 KB instead of i18next's 15 KB in every page's JavaScript.
 * i18next itself stays on the server (remix-i18next: the language, loaders' and e-mails' texts);
 * remix/app/lib/i18n-lite.test.ts checks that both give the same text for every key of every
 * namespace of every language.
 */
import { fallbackLng } from "./i18n";

type Tree = { [key: string]: string | Tree };
/** language → namespace → tree. */
export type Store = Record<string, Record<string, Tree>>;
export type TOptions = { count?: number; defaultValue?: string; ns?: string | readonly string[]; [value: string]: unknown };
export type TFunction = (key: string, options?: TOptions) => string;

const rules = new Map<string, Intl.PluralRules>();
const numbers = new Map<string, Intl.NumberFormat>();
function pluralRule(lng: string) {
  let r = rules.get(lng);
  if (!r) rules.set(lng, (r = new Intl.PluralRules(lng)));
  return r;
}
function numberFormat(lng: string) {
  let f = numbers.get(lng);
  if (!f) numbers.set(lng, (f = new Intl.NumberFormat(lng)));
  return f;
}

/** A key in a tree: the nested path, else i18next's deep find (a key may itself hold dots: `audit: { "auth.login": … }`). */
function lookup(tree: Tree | undefined, key: string): unknown {
  if (!tree) return undefined;
  const tokens = key.split(".");
  let node: unknown = tree;
  for (const part of tokens) {
    node = node !== null && typeof node === "object" ? (node as Tree)[part] : undefined;
    if (node === undefined) break;
  }
  if (node !== undefined) return node;
  if (tree[key]) return tree[key];
  let current: unknown = tree;
  for (let i = 0; i < tokens.length; ) {
    if (current === null || typeof current !== "object") return undefined;
    let next: unknown;
    let path = "";
    for (let j = i; j < tokens.length; j++) {
      path = j === i ? tokens[j] : `${path}.${tokens[j]}`;
      next = (current as Tree)[path];
      if (next !== undefined) {
        if (typeof next === "string" && j < tokens.length - 1) continue;
        i = j + 1;
        break;
      }
    }
    if (next === undefined) return undefined;
    current = next;
  }
  return current;
}

const PLACEHOLDER = /\{\{(.+?)\}\}/g;

/** `{{name}}`, `{{a.b}}` and `{{name, number}}`; a value not given keeps its placeholder (i18next's skipOnVariables). */
export function interpolate(text: string, values: Record<string, unknown>, lng: string): string {
  if (!text.includes("{{")) return text;
  return text.replace(PLACEHOLDER, (whole, inner: string) => {
    const [path, format] = inner.split(",").map((s) => s.trim());
    const name = path.startsWith("-") ? path.slice(1).trim() : path;
    let value: unknown = name in values ? values[name] : undefined;
    if (value === undefined && name.includes(".")) value = lookup(values as Tree, name);
    // As i18next: the number format formats whatever it gets (a missing value shows NaN).
    if (format === "number") return numberFormat(lng).format(value as number);
    if (value === undefined) return whole;
    return value === null ? "" : String(value);
  });
}

export class LiteI18n {
  language: string;
  store: Store;
  private listeners = new Set<(lng: string) => void>();

  constructor(language: string, store: Store) {
    this.language = language;
    this.store = store;
  }

  hasResourceBundle(lng: string, ns: string) {
    return Boolean(this.store[lng]?.[ns]);
  }

  addResourceBundle(lng: string, ns: string, bundle: object) {
    this.store[lng] ??= {};
    this.store[lng][ns] = { ...this.store[lng][ns], ...(bundle as Tree) };
  }

  getResource(lng: string, ns: string, key: string): unknown {
    return lookup(this.store[lng]?.[ns], key);
  }

  changeLanguage(lng: string) {
    if (lng === this.language) return;
    this.language = lng;
    for (const l of this.listeners) l(lng);
  }

  onLanguageChanged(listener: (lng: string) => void): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  /** The text found for a key (with its plural forms), or undefined. */
  private resolve(key: string, namespaces: readonly string[], options: TOptions): { value: string | undefined; ns: string; key: string } {
    let nsList = namespaces;
    let bare = key;
    const colon = key.indexOf(":");
    if (colon > -1) {
      nsList = [key.slice(0, colon)];
      bare = key.slice(colon + 1);
    }
    const count = options.count;
    const plural = typeof count === "number";
    const codes = this.language === fallbackLng ? [this.language] : [this.language, fallbackLng];
    for (const ns of nsList) {
      for (const code of codes) {
        const candidates = [bare];
        if (plural) candidates.push(`${bare}_${pluralRule(code).select(count)}`);
        if (plural && count === 0) candidates.push(`${bare}_zero`);
        for (let i = candidates.length - 1; i >= 0; i--) {
          const found = this.getResource(code, ns, candidates[i]);
          if (typeof found === "string") return { value: found, ns, key: bare };
        }
      }
    }
    return { value: undefined, ns: nsList[nsList.length - 1], key: bare };
  }

  exists(key: string, options: TOptions = {}) {
    const ns = options.ns === undefined ? ["common"] : typeof options.ns === "string" ? [options.ns] : options.ns;
    return this.resolve(key, ns, options).value !== undefined;
  }

  translate(key: string, namespaces: readonly string[], options: TOptions = {}): string {
    const ns = options.ns === undefined ? namespaces : typeof options.ns === "string" ? [options.ns] : options.ns;
    const found = this.resolve(key, ns, options);
    if (found.value !== undefined) return interpolate(found.value, options, this.language);
    if (typeof options.defaultValue === "string") return interpolate(options.defaultValue, options, this.language);
    // A key the page has not received shows as "ns:key" (ADR 049), as i18next's appendNamespaceToMissingKey.
    const shown = interpolate(found.key, options, this.language);
    return shown === found.key ? `${found.ns}:${found.key}` : shown;
  }

  getFixedT(namespaces: string | readonly string[] = "common"): TFunction {
    const list = typeof namespaces === "string" ? [namespaces] : namespaces.length ? namespaces : ["common"];
    return (key, options) => this.translate(key, list, options);
  }
}
