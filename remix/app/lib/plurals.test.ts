/**
 * Issue 19, "1 campanhas": a count shown in a sentence is an i18next plural family (JSON v4:
 * `key_one`, `key_many`, `key_other`…) with every category the language has in this runtime's
 * CLDR data (Intl.PluralRules: pt-BR and es have one/many/other, en one/other, zh only other),
 * no plain key interpolates {{count}}, and the four locales have the same families. CLDR puts 0
 * in Portuguese's "one" ("0 campanha"): there a family also has i18next's `_zero` (used for a
 * count of 0), in the plural's words.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import i18next from "i18next";
import { describe, expect, it } from "vitest";
import { supportedLngs } from "./i18n";

const LOCALES = join(__dirname, "..", "..", "..", "public", "locales");
const CATEGORIES = ["zero", "one", "two", "few", "many", "other"] as const;
const COUNT = /\{\{\s*count\s*(,[^}]*)?\}\}/;
const PLURAL = new RegExp(`^(.+)_(${CATEGORIES.join("|")})$`);

function flatten(o: Record<string, unknown>, prefix = "", out: Record<string, string> = {}) {
  for (const [k, v] of Object.entries(o)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (v && typeof v === "object") flatten(v as Record<string, unknown>, key, out);
    else out[key] = String(v);
  }
  return out;
}

function resources(lng: string) {
  return Object.fromEntries(
    readdirSync(join(LOCALES, lng))
      .filter((f) => f.endsWith(".json"))
      .map((f) => [f.slice(0, -5), JSON.parse(readFileSync(join(LOCALES, lng, f), "utf8")) as Record<string, unknown>]),
  );
}

/** Every "ns:key" of a language, and its plural families: "ns:base" -> the categories it has. */
function survey(lng: string) {
  const keys: Record<string, string> = {};
  for (const [ns, tree] of Object.entries(resources(lng))) for (const [k, v] of Object.entries(flatten(tree))) keys[`${ns}:${k}`] = v;
  const families = new Map<string, string[]>();
  for (const key of Object.keys(keys)) {
    const m = PLURAL.exec(key);
    if (m) families.set(m[1], [...(families.get(m[1]) ?? []), m[2]]);
  }
  return { keys, families };
}

describe("plural keys in the four locales", () => {
  for (const lng of supportedLngs) {
    it(`${lng}: every family has exactly the language's categories, and {{count}} appears only in families`, () => {
      const rules = new Intl.PluralRules(lng);
      // 0 read as "one" by CLDR (pt-BR): the family needs its `_zero` too.
      const categories = [...rules.resolvedOptions().pluralCategories, ...(rules.select(0) === "one" ? ["zero"] : [])];
      const { keys, families } = survey(lng);
      const wrong: string[] = [];
      for (const [base, has] of families) {
        if ([...has].sort().join() !== [...categories].sort().join()) wrong.push(`${base}: has ${has.sort().join("/")}, ${lng} needs ${[...categories].sort().join("/")}`);
        if (keys[base] !== undefined) wrong.push(`${base}: a plain key beside its plural family`);
      }
      for (const [key, value] of Object.entries(keys)) if (COUNT.test(value) && !PLURAL.test(key)) wrong.push(`${key}: "${value}" shows {{count}} without plural forms`);
      expect(wrong).toEqual([]);
    });
  }

  it("the four locales have the same plural families", () => {
    const of = (lng: string) => [...survey(lng).families.keys()].sort();
    for (const lng of supportedLngs) expect(of(lng), lng).toEqual(of("pt-BR"));
    expect(of("pt-BR")).toContain("smsOps:campaigns.total");
  });

  it("renders 1 campanha and 2 campanhas (pt-BR), 1 campaign and 2 campaigns (en)", async () => {
    const i18n = i18next.createInstance();
    await i18n.init({
      lng: "pt-BR",
      fallbackLng: "pt-BR",
      ns: ["smsOps", "contacts", "sms"],
      resources: { "pt-BR": resources("pt-BR"), en: resources("en"), zh: resources("zh") },
      interpolation: { escapeValue: false },
    });
    expect(i18n.t("smsOps:campaigns.total", { count: 1 })).toBe("1 campanha");
    expect(i18n.t("smsOps:campaigns.total", { count: 2 })).toBe("2 campanhas");
    expect(i18n.t("smsOps:campaigns.total", { count: 0 })).toBe("0 campanhas");
    // CLDR's "many" of Portuguese (a million and up, exact): the same words as "other".
    expect(i18n.t("smsOps:campaigns.total", { count: 1_000_000 })).toBe("1000000 campanhas");
    // A count shown with the language's digit grouping.
    expect(i18n.t("contacts:list.total", { count: 1 })).toBe("1 contato");
    expect(i18n.t("contacts:list.total", { count: 12345 })).toBe("12.345 contatos");
    expect(i18n.t("sms:send.segments", { count: 1 })).toBe("1 segmento");
    expect(i18n.t("sms:send.segments", { count: 2 })).toBe("2 segmentos");
    const en = i18n.getFixedT("en");
    expect(en("smsOps:campaigns.total", { count: 1 })).toBe("1 campaign");
    expect(en("smsOps:campaigns.total", { count: 2 })).toBe("2 campaigns");
    expect(en("smsOps:campaigns.total", { count: 0 })).toBe("0 campaigns");
    expect(en("contacts:list.total", { count: 12345 })).toBe("12,345 contacts");
    expect(i18n.getFixedT("zh")("smsOps:campaigns.total", { count: 1 })).toBe("1 个活动");
  });
});
