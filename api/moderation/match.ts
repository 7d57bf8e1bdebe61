/**
 * Matching a message body against the words and URL domains under review (pure, no imports, so
 * the screens and tests can use it too).
 *  - A word term matches whole words, ignoring case and accents ("Pix grátis" holds on "gratis";
 *    "gratisfação" does not). A term of several words matches that sequence.
 *  - A URL term is a domain: it matches a link to that domain or any subdomain, with or without
 *    scheme or "www." ("https://bit.ly/x" and "Bit.ly/x" hold on "bit.ly"; "notbit.ly" does not).
 */

export type TermKind = "word" | "url";
export type Term = { kind: TermKind; value: string };

/** Lowercase without diacritics, whitespace collapsed. */
export function foldText(text: string): string {
  return text.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase().replace(/\s+/g, " ").trim();
}

/** A word term as stored: folded; "" when it has no letter or digit. */
export function normalizeWord(value: string): string {
  const folded = foldText(value)
    .replace(/[^\p{L}\p{N} ]/gu, " ")
    .replace(/\s+/g, " ")
    .trim();
  return folded;
}

/** A URL term as stored: the bare domain ("https://www.Bit.ly/abc" → "bit.ly"); "" when it is not one. */
export function normalizeDomain(value: string): string {
  let v = value.trim().toLowerCase();
  v = v
    .replace(/^[a-z][a-z0-9+.-]*:\/\//, "")
    .replace(/[/?#].*$/, "")
    .replace(/:\d+$/, "")
    .replace(/^www\./, "")
    .replace(/\.$/, "");
  return /^(?=.{3,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/.test(v) ? v : "";
}

/** The domains a text links to (anything that looks like host.tld, with or without a scheme). */
export function domainsIn(text: string): string[] {
  const found = new Set<string>();
  const re = /(?:[a-z][a-z0-9+.-]*:\/\/)?((?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63})(?![a-z0-9-])/gi;
  for (const m of text.matchAll(re)) {
    const d = normalizeDomain(m[1]);
    if (d) found.add(d);
  }
  return [...found];
}

function escapeRegExp(s: string) {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** The terms (as given) that `body` contains. */
export function matchingTerms(body: string, terms: readonly Term[]): Term[] {
  if (!body || terms.length === 0) return [];
  const folded = ` ${normalizeWord(body)} `;
  const domains = domainsIn(body);
  return terms.filter((t) => {
    if (t.kind === "word") return t.value !== "" && new RegExp(`(?<=[^\\p{L}\\p{N}])${escapeRegExp(t.value)}(?=[^\\p{L}\\p{N}])`, "u").test(folded);
    return domains.some((d) => d === t.value || d.endsWith(`.${t.value}`));
  });
}
