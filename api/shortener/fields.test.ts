/**
 * The shortener's pure rules (./fields.ts): generated slugs are base62 of 7 and differ; which
 * original URLs a link may lead to (http(s) of a public host only: no javascript:, data:,
 * credentials, loopback or private addresses in any notation, intranet names, or another short
 * link); the short URL of a domain; what a click records of a request.
 */
import { describe, expect, it } from "vitest";
import { SECRET_NAMES } from "../lib/env";
import { countryOf, CUSTOM_SLUG, generateSlug, originalUrlProblem, referrerHost, shortUrl, SLUG_PATH, uaClass } from "./fields";

for (const name of SECRET_NAMES) process.env[name] = `shortener-test-${name}`.padEnd(48, "x");
process.env.SHORTENER_HOST = "sho.rt";
process.env.SHORTENER_DOMAINS = "links.example.com";
process.env.APP_URL = "https://app.example.com";

describe("slugs", () => {
  it("generated: 7 base62 characters, a custom slug's shape, not repeated over 10,000 draws", () => {
    const seen = new Set<string>();
    for (let i = 0; i < 10_000; i++) {
      const s = generateSlug();
      expect(s).toMatch(/^[0-9A-Za-z]{7}$/);
      seen.add(s);
    }
    expect(seen.size).toBe(10_000);
    expect(CUSTOM_SLUG.test(generateSlug())).toBe(true);
  });

  it("custom: 3 to 50 of letters, digits, _ and -", () => {
    for (const ok of ["abc", "Black-Friday_2026", "a".repeat(50)]) expect(CUSTOM_SLUG.test(ok)).toBe(true);
    for (const bad of ["ab", "a".repeat(51), "com espaço", "ação", "a/b", "a.b", ""]) expect(CUSTOM_SLUG.test(bad)).toBe(false);
    expect(SLUG_PATH.exec("/Black-Friday")?.[1]).toBe("Black-Friday");
    expect(SLUG_PATH.exec("/a/b")).toBeNull();
    expect(SLUG_PATH.exec("/")).toBeNull();
  });
});

describe("original URLs", () => {
  it("accepts http and https URLs of public hosts", () => {
    for (const ok of ["https://loja.example.com.br/ofertas?utm=sms#topo", "http://example.org", "https://8.8.8.8/x", "https://[2001:4860:4860::8888]/"]) {
      expect(originalUrlProblem(ok), ok).toBeNull();
    }
  });

  it("refuses other schemes, credentials, private and loopback addresses in any notation, intranet names, our own short hosts", () => {
    const cases: Array<[string, string]> = [
      ["javascript:alert(1)", "shortener.errors.urlScheme"],
      ["data:text/html,<script>alert(1)</script>", "shortener.errors.urlScheme"],
      ["ftp://example.com/file", "shortener.errors.urlScheme"],
      ["file:///etc/passwd", "shortener.errors.urlScheme"],
      ["example.com", "shortener.errors.urlInvalid"],
      ["https://user:pw@example.com/", "shortener.errors.urlCredentials"],
      ["http://127.0.0.1/admin", "shortener.errors.urlPrivate"],
      ["http://2130706433/", "shortener.errors.urlPrivate"],
      ["http://0x7f000001/", "shortener.errors.urlPrivate"],
      ["http://10.0.0.5/", "shortener.errors.urlPrivate"],
      ["http://192.168.1.1/", "shortener.errors.urlPrivate"],
      ["http://169.254.169.254/latest/meta-data", "shortener.errors.urlPrivate"],
      ["http://[::1]/", "shortener.errors.urlPrivate"],
      ["http://[::ffff:10.0.0.1]/", "shortener.errors.urlPrivate"],
      ["http://localhost:3000/", "shortener.errors.urlPrivate"],
      ["http://intranet/", "shortener.errors.urlPrivate"],
      ["http://printer.local/", "shortener.errors.urlPrivate"],
      ["https://sho.rt/abc1234", "shortener.errors.urlLoop"],
      ["https://links.example.com/abc", "shortener.errors.urlLoop"],
      [`https://example.com/${"a".repeat(2048)}`, "shortener.errors.urlTooLong"],
    ];
    for (const [url, problem] of cases) expect(originalUrlProblem(url), url).toBe(problem);
  });
});

describe("short URLs and clicks", () => {
  it("a short URL takes APP_URL's scheme and port on its domain", () => {
    expect(shortUrl("sho.rt", "abc1234")).toBe("https://sho.rt/abc1234");
    expect(shortUrl("links.example.com", "promo")).toBe("https://links.example.com/promo");
  });

  it("user agent classes", () => {
    expect(uaClass("Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148")).toBe("mobile");
    expect(uaClass("Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 Chrome/120 Mobile Safari/537.36")).toBe("mobile");
    expect(uaClass("Mozilla/5.0 (Linux; Android 13; SM-X200) AppleWebKit/537.36 Chrome/120 Safari/537.36")).toBe("tablet");
    expect(uaClass("Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X)")).toBe("tablet");
    expect(uaClass("Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/120 Safari/537.36")).toBe("desktop");
    expect(uaClass("WhatsApp/2.23.20.0 A")).toBe("bot");
    expect(uaClass("facebookexternalhit/1.1")).toBe("bot");
    expect(uaClass("Googlebot/2.1")).toBe("bot");
    expect(uaClass(null)).toBe("other");
    expect(uaClass("SomethingElse/1.0")).toBe("other");
  });

  it("country from the edge's header, else Accept-Language's region; referrer host only", () => {
    expect(countryOf("br", "en-US")).toBe("BR");
    expect(countryOf("XX", "pt-BR,pt;q=0.9")).toBe("BR");
    expect(countryOf(null, "pt,en-GB;q=0.8")).toBe("GB");
    expect(countryOf(null, "pt")).toBeNull();
    expect(countryOf(null, null)).toBeNull();
    expect(referrerHost("https://L.Instagram.com/path?u=secret")).toBe("l.instagram.com");
    expect(referrerHost("not a url")).toBeNull();
    expect(referrerHost(null)).toBeNull();
  });
});
