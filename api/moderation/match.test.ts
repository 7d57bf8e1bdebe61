import { describe, expect, it } from "vitest";
import { domainsIn, matchingTerms, normalizeDomain, normalizeWord } from "./match";

describe("moderation term matching", () => {
  it("normalizes words and domains as stored", () => {
    expect(normalizeWord("  Grátis!! ")).toBe("gratis");
    expect(normalizeWord("Ganhe  JÁ")).toBe("ganhe ja");
    expect(normalizeDomain("https://www.Bit.ly/abc?x=1")).toBe("bit.ly");
    expect(normalizeDomain("not a domain")).toBe("");
    expect(domainsIn("Acesse https://promo.exemplo.com.br/x ou bit.ly/abc. Fim.")).toEqual(["promo.exemplo.com.br", "bit.ly"]);
  });

  it("matches whole words ignoring case and accents, and phrases", () => {
    const terms = [
      { kind: "word" as const, value: "gratis" },
      { kind: "word" as const, value: "ganhe ja" },
    ];
    expect(matchingTerms("PIX GRÁTIS hoje", terms)).toEqual([terms[0]]);
    expect(matchingTerms("Sua gratisfação", terms)).toEqual([]);
    expect(matchingTerms("Ganhe já, grátis!", terms)).toEqual(terms);
    expect(matchingTerms("ganhe jantar", terms)).toEqual([]);
  });

  it("matches a domain and its subdomains, not look-alikes", () => {
    const terms = [{ kind: "url" as const, value: "bit.ly" }];
    expect(matchingTerms("veja https://bit.ly/3x", terms)).toEqual(terms);
    expect(matchingTerms("veja Go.Bit.ly/3x", terms)).toEqual(terms);
    expect(matchingTerms("veja notbit.ly/3x", terms)).toEqual([]);
    expect(matchingTerms("bit ly", terms)).toEqual([]);
  });
});
