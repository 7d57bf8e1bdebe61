import { describe, expect, it } from "vitest";
import { contentSecurityPolicy, htmlSecurityHeaders, newNonce, transportSecurityHeaders } from "./security-headers.server";

const directives = (csp: string) => Object.fromEntries(csp.split("; ").map((d) => [d.split(" ")[0], d.split(" ").slice(1)]));

describe("security headers", () => {
  it("HSTS only in production", () => {
    expect(transportSecurityHeaders("production")).toEqual({ "Strict-Transport-Security": "max-age=31536000; includeSubDomains" });
    expect(transportSecurityHeaders("test")).toEqual({});
    expect(transportSecurityHeaders("development")).toEqual({});
    expect(transportSecurityHeaders()).toEqual({}); // this run's NODE_ENV
  });

  it("a page's policy: scripts from us or with the nonce, no plugins, framed by us only, forms to us and the OAuth providers", () => {
    const nonce = newNonce();
    expect(newNonce()).not.toBe(nonce);
    const d = directives(contentSecurityPolicy({ nonce, origin: "http://app.example:8080", embeddable: false, formTargets: ["https://accounts.google.com"] }));
    expect(d["script-src"]).toEqual(["'self'", `'nonce-${nonce}'`]);
    expect(d["default-src"]).toEqual(["'self'"]);
    expect(d["object-src"]).toEqual(["'none'"]);
    expect(d["base-uri"]).toEqual(["'self'"]);
    expect(d["frame-ancestors"]).toEqual(["'self'"]);
    expect(d["form-action"]).toEqual(["'self'", "https://accounts.google.com"]);
    expect(d["connect-src"]).toEqual(["'self'", "ws://app.example:8080", "wss://app.example:8080"]);
  });

  it("an embeddable page may be framed anywhere and sends no X-Frame-Options", () => {
    const request = new Request("http://app.example/webchat?key=k");
    const embeddable = htmlSecurityHeaders(request, { nonce: "n", embeddable: true, formTargets: [] });
    expect(directives(embeddable["Content-Security-Policy"])["frame-ancestors"]).toEqual(["*"]);
    expect(embeddable["X-Frame-Options"]).toBeUndefined();
    const page = htmlSecurityHeaders(request, { nonce: "n", embeddable: false, formTargets: [] });
    expect(page["X-Frame-Options"]).toBe("SAMEORIGIN");
    expect(page["X-Content-Type-Options"]).toBe("nosniff");
    expect(page["Referrer-Policy"]).toBe("strict-origin-when-cross-origin");
  });
});
