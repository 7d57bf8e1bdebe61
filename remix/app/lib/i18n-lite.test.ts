/**
 * The React tree's translator (i18n-lite.ts, ADR 052) gives the same text as i18next for every key
 * of every namespace of every language: with no options, with counts (0, 1, 2, 5, 21, 1,000,000),
 * with every placeholder filled and with none, through another namespace (`ns:key`), with a
 * `defaultValue`, and for keys that do not exist.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import i18next from "i18next";
import { describe, expect, it } from "vitest";
import { i18nConfig, supportedLngs } from "./i18n";
import { LiteI18n, type Store } from "./i18n-lite";

const dir = join(import.meta.dirname, "..", "..", "..", "public", "locales");
const store: Store = {};
for (const lng of supportedLngs) {
  store[lng] = {};
  for (const f of readdirSync(join(dir, lng)).filter((f) => f.endsWith(".json"))) store[lng][f.replace(/\.json$/, "")] = JSON.parse(readFileSync(join(dir, lng, f), "utf8"));
}
const namespaces = Object.keys(store["pt-BR"]);

/** Every key as t is called with it: leaves, and plural families by their base. */
function keysOf(tree: object, prefix = ""): string[] {
  const out = new Set<string>();
  for (const [k, v] of Object.entries(tree)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (v && typeof v === "object") for (const sub of keysOf(v, key)) out.add(sub);
    else {
      out.add(key);
      const base = key.replace(/_(zero|one|two|few|many|other)$/, "");
      if (base !== key) out.add(base);
    }
  }
  return [...out];
}

function placeholders(text: unknown): string[] {
  return typeof text === "string" ? [...text.matchAll(/\{\{-?\s*([^,}]+?)\s*(,[^}]*)?\}\}/g)].map((m) => m[1]) : [];
}

const COUNTS = [0, 1, 2, 5, 21, 1_000_000];

describe("i18n-lite gives i18next's text (ADR 052)", async () => {
  const reference = i18next.createInstance();
  await reference.init({ ...i18nConfig, lng: "pt-BR", ns: namespaces, resources: store, initImmediate: false });

  for (const lng of supportedLngs) {
    it(`${lng}: every key of every namespace, with and without counts and values`, async () => {
      await reference.changeLanguage(lng);
      const lite = new LiteI18n(lng, store);
      let compared = 0;
      const mismatches: string[] = [];
      const same = (ns: string, key: string, options?: Record<string, unknown>) => {
        const want = reference.getFixedT(lng, ns)(key, options as never) as unknown as string;
        const got = lite.getFixedT(ns)(key, options);
        compared++;
        if (got !== want && mismatches.length < 20)
          mismatches.push(`${lng} ${ns}:${key} ${JSON.stringify(options)}: lite ${JSON.stringify(got)} vs i18next ${JSON.stringify(want)}`);
      };
      for (const ns of namespaces) {
        for (const key of keysOf(store[lng][ns] ?? {})) {
          const texts = ["", "_zero", "_one", "_two", "_few", "_many", "_other"].map((s) => lite.getResource(lng, ns, key + s));
          if (texts.every((t) => t !== undefined && typeof t !== "string")) continue; // an object (a group of keys), not a text
          const names = [...new Set(texts.flatMap(placeholders))];
          const values = Object.fromEntries(names.map((n, i) => [n, i % 2 ? 1234.5 : `v${i}`]));
          same(ns, key);
          same(ns, key, values);
          for (const count of COUNTS) same(ns, key, { ...values, count });
          same("common", `${ns}:${key}`, { count: 1 });
        }
        same(ns, "no.such.key");
        same(ns, "no.such.key", { defaultValue: "padrão {{x}}", x: 7 });
        same(ns, "no.such.key", { count: 2 });
        same("common", `${ns}:no.such.key`);
      }
      expect(mismatches).toEqual([]);
      expect(compared).toBeGreaterThan(5000);
    });
  }

  it("exists() and getResource() agree with i18next", async () => {
    await reference.changeLanguage("en");
    const lite = new LiteI18n("en", store);
    for (const key of ["audit.login", "audit.nope", "errors:ACCOUNT_INFO_FAILED", "errors:NOPE", "shell.skipToContent"]) {
      expect(lite.exists(key), key).toBe(reference.exists(key));
    }
    expect(lite.getResource("en", "common", "shell.skipToContent")).toBe(reference.getResource("en", "common", "shell.skipToContent"));
  });
});
