/**
 * Every language has the same keys and the same placeholders as pt-BR, in every namespace. A plural
 * family (`key_one`, `key_other`…) counts as one key: each language has its own CLDR categories
 * (remix/app/lib/plurals.test.ts checks those), and its `_other` form carries the placeholders.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const dir = resolve(__dirname, "..", "..", "public", "locales");
const LANGS = ["pt-BR", "en", "es", "zh"];

function flatten(o: Record<string, unknown>, prefix = ""): Record<string, string> {
  return Object.entries(o).reduce<Record<string, string>>((acc, [k, v]) => {
    if (v && typeof v === "object") Object.assign(acc, flatten(v as Record<string, unknown>, `${prefix}${k}.`));
    else acc[`${prefix}${k}`] = String(v);
    return acc;
  }, {});
}
const PLURAL = /_(zero|one|two|few|many|other)$/;

/** Plural families folded into one key each (the `_other` text, else the first form met). */
function families(flat: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(flat)) {
    const m = PLURAL.exec(k);
    if (!m) out[k] = v;
    else {
      const family = k.slice(0, m.index);
      out[family] = m[1] === "other" ? v : (out[family] ?? v);
    }
  }
  return out;
}
const load = (lng: string, ns: string) => families(flatten(JSON.parse(readFileSync(join(dir, lng, `${ns}.json`), "utf8"))));
const placeholders = (s: string) => (s.match(/\{\{\s*[\w.]+\s*\}\}/g) ?? []).map((p) => p.replace(/\s/g, "")).sort();

describe("translations", () => {
  it("the four languages have the same namespaces", () => {
    const sets = LANGS.map((l) => readdirSync(join(dir, l)).sort().join(","));
    expect(new Set(sets).size).toBe(1);
  });

  for (const ns of readdirSync(join(dir, "pt-BR")).map((f) => f.replace(/\.json$/, ""))) {
    it(`${ns}: identical key sets and placeholders in pt-BR, en, es, zh`, () => {
      const base = load("pt-BR", ns);
      for (const lng of LANGS.slice(1)) {
        const other = load(lng, ns);
        expect(Object.keys(other).sort(), `${lng}/${ns}`).toEqual(Object.keys(base).sort());
        for (const k of Object.keys(base)) expect(placeholders(other[k] ?? ""), `${lng}/${ns}:${k}`).toEqual(placeholders(base[k]));
        for (const [k, v] of Object.entries(other)) expect(v.trim(), `${lng}/${ns}:${k} is empty`).not.toBe("");
      }
    });
  }
});
