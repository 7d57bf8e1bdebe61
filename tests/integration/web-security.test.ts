/**
 * The web's browser-facing boundary (issue 11, items 4 and 13): redirect targets stay on our
 * origin, every HTML answer carries its security headers and a per-response script nonce, and a
 * CSRF token is good only for the session it was issued to.
 */
import * as OTPAuth from "otpauth";
import { describe, expect, inject, it } from "vitest";
import { seal } from "../../api/lib/crypto";
import { lastMailTo, linkIn, query, uniqueEmail } from "../support/db";
import { WebClient } from "../support/web";

const PASSWORD = "Forte!Chave#2026x";
const webUrl = inject("webUrl");

/** The values issue 11 lists, as the decoded text of `redirectTo` (the query or form field carries it encoded). */
const EVIL = ["/\\evil.example", "/%09/evil.example", "//evil.example", "/\t/evil.example", "https://evil.example", "/%5Cevil.example", "/\n/evil.example", "/%2F/evil.example"];
const LEGIT = "/ok?x=1#y";

/** The Location a browser would follow, resolved the way a browser resolves it. */
function target(res: Response) {
  const l = res.headers.get("Location");
  expect(l, "a redirect").toBeTruthy();
  return new URL(l!, webUrl);
}

async function verifiedUser(totpSecret?: string) {
  const email = uniqueEmail("redir");
  const c = new WebClient();
  await c.get("/register");
  const reg = await c.post("/register", { firstName: "Ana", lastName: "Souza", companyName: "Padaria", email, mobile: "", password: PASSWORD, confirmPassword: PASSWORD, acceptTerms: "on", locale: "pt-BR" });
  expect(reg.status).toBe(302);
  await new WebClient().get(linkIn(await lastMailTo(email), "/email-verify/"));
  if (totpSecret) await query("UPDATE users SET totp_secret = $2, totp_enabled_at = now() WHERE email = $1", [email, seal(totpSecret)]);
  return email;
}

async function logIn(email: string, redirectTo: string) {
  const c = new WebClient();
  await c.get("/login");
  return { c, res: await c.post(`/login?redirectTo=${encodeURIComponent(redirectTo)}`, { email, password: PASSWORD }) };
}

describe("redirect targets after sign-in, 2FA and a language switch stay on our origin", () => {
  it("login", async () => {
    const email = await verifiedUser();
    for (const evil of EVIL) {
      const { res } = await logIn(email, evil);
      expect(res.status, JSON.stringify(evil)).toBe(302);
      expect(target(res).origin, JSON.stringify(evil)).toBe(new URL(webUrl).origin);
    }
    // The literal text of an attacker's link, not encoded by us: ?redirectTo=/%09/evil.example
    const c = new WebClient();
    await c.get("/login");
    const raw = await c.post("/login?redirectTo=/%09/evil.example", { email, password: PASSWORD });
    expect(target(raw).origin).toBe(new URL(webUrl).origin);
    const ok = (await logIn(email, LEGIT)).res;
    expect(ok.headers.get("Location")).toBe(LEGIT);
  });

  it("2FA", async () => {
    for (const to of [...EVIL, LEGIT]) {
      const secret = new OTPAuth.Secret({ size: 20 }).base32;
      const email = await verifiedUser(secret);
      const { c, res } = await logIn(email, to);
      expect(res.headers.get("Location")).toBe("/2fa");
      const code = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), digits: 6, period: 30 }).generate();
      const done = await c.post("/2fa", { code });
      expect(done.status, JSON.stringify(to)).toBe(302);
      if (to === LEGIT) expect(done.headers.get("Location")).toBe(LEGIT);
      else expect(target(done).origin, JSON.stringify(to)).toBe(new URL(webUrl).origin);
    }
  });

  it("/locale, from redirectTo and from the Referer", async () => {
    const c = new WebClient();
    await c.get("/login");
    for (const evil of EVIL) {
      const res = await c.post("/locale", { locale: "en", redirectTo: evil });
      expect(res.status, JSON.stringify(evil)).toBe(302);
      expect(target(res).origin, JSON.stringify(evil)).toBe(new URL(webUrl).origin);
    }
    const viaReferer = await c.request("/locale", {
      method: "POST",
      body: new URLSearchParams({ locale: "en", csrf: c.csrf }),
      headers: { "Content-Type": "application/x-www-form-urlencoded", Referer: `${webUrl}//evil.example/` },
    });
    expect(target(viaReferer).origin).toBe(new URL(webUrl).origin);
    expect((await c.post("/locale", { locale: "en", redirectTo: LEGIT })).headers.get("Location")).toBe(LEGIT);
  });
});
