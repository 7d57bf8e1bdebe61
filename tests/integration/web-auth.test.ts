/** Sign-in and account flows through the web process, posted exactly as a browser without JavaScript. */
import * as OTPAuth from "otpauth";
import { describe, expect, it } from "vitest";
import { seal } from "../../api/lib/crypto";
import { lastMailTo, linkIn, query, uniqueEmail } from "../support/db";
import { DEMO_PASSWORD, WebClient, location, registerOnWeb, signIn, STRONG_PASSWORD } from "../support/web";
import { setUserByEmail } from "../support/factories";

const STRONG = STRONG_PASSWORD;

const registerFresh = (c = new WebClient(), path = "/register") => registerOnWeb(c, { path });

async function verifiedUser() {
  const { email } = await registerFresh();
  const mail = await lastMailTo(email);
  await new WebClient().get(linkIn(mail, "/email-verify/"));
  return email;
}

describe("register and verify e-mail", () => {
  it("refuses weak passwords with translated messages naming the rule, and keeps nothing", async () => {
    const c = new WebClient();
    await c.get("/register");
    const email = uniqueEmail("weak");
    const res = await c.post("/register", { firstName: "A", lastName: "B", companyName: "C", email, password: "abc", confirmPassword: "abd", acceptTerms: "on" });
    expect(res.status).toBe(422);
    const html = await res.text();
    expect(html).toContain("Tamanho mínimo 13");
    expect(html).toContain("As senhas não conferem");
    for (const weak of ["Abcdefgh1234!x", "Senha!Forte#2026", "aaaaB1!xyzwvut", "SemEspecial2026Xy"]) {
      const r = await c.post("/register", { firstName: "A", lastName: "B", companyName: "C", email, password: weak, confirmPassword: weak, acceptTerms: "on" });
      expect(r.status, weak).toBe(422);
    }
    expect(await query("SELECT 1 FROM users WHERE email = $1", [email])).toHaveLength(0);
  });

  it("registers, e-mails a verification link, refuses sign-in until verified, then signs in", async () => {
    const { c, email, res } = await registerFresh();
    expect(location(res)).toBe("/success");
    const [acc] = await query<{ name: string; role: string }>(
      "SELECT a.name, m.role FROM users u JOIN memberships m ON m.user_id = u.id JOIN accounts a ON a.id = m.account_id WHERE u.email = $1",
      [email],
    );
    expect(acc).toEqual({ name: "Padaria Boa", role: "owner" });

    const early = await c.post("/login", { email, password: STRONG });
    expect(await early.text()).toContain("E-mail não verificado");

    const mail = await lastMailTo(email);
    expect(mail.subject).toBe("Confirme seu e-mail");
    const link = linkIn(mail, "/email-verify/");
    const verified = await new WebClient().page(link);
    expect(verified.html).toContain("E-mail verificado");
    expect((await new WebClient().page(link)).html).toContain("Este token expirou ou é inválido");

    const before = c.cookies.get("__session");
    const ok = await c.post("/login", { email, password: STRONG });
    expect(location(ok)).toBe("/");
    expect(c.cookies.get("__session")).toBeTruthy();
    expect(c.cookies.get("__session")).not.toBe(before);
    expect((await c.page("/")).html).toContain("Padaria Boa");
  });

  it("a second sign-up with the same e-mail creates nothing and answers like a new one (the address's owner is e-mailed)", async () => {
    const { email } = await registerFresh();
    const c = new WebClient();
    await c.get("/register");
    const res = await c.post("/register", { firstName: "A", lastName: "B", companyName: "C", email, password: STRONG, confirmPassword: STRONG, acceptTerms: "on" });
    expect(location(res)).toBe("/success");
    expect((await query("SELECT 1 FROM users WHERE email = $1", [email])).length).toBe(1);
    expect((await lastMailTo(email)).subject).toBe("Alguém tentou se cadastrar com o seu e-mail");
  });

  it("trial registration attaches the 30-day experience plan and thanks at /obrigado", async () => {
    const { email, res } = await registerFresh(new WebClient(), "/experience");
    expect(location(res)).toBe("/obrigado");
    const [row] = await query<{ days: number; trial: boolean }>(
      `SELECT round(extract(epoch FROM ap.ends_at - now()) / 86400)::int AS days, p.is_trial AS trial
         FROM users u JOIN memberships m ON m.user_id = u.id JOIN account_plans ap ON ap.account_id = m.account_id JOIN plans p ON p.id = ap.plan_id
        WHERE u.email = $1`,
      [email],
    );
    expect(row).toEqual({ days: 30, trial: true });
  });

  it("resend verification answers the same for unknown addresses", async () => {
    const c = new WebClient();
    await c.get("/email-verify");
    const unknown = await c.post("/email-verify", { email: uniqueEmail("nobody") });
    expect(location(unknown)).toBe("/email-verify?sent=1");
  });
});

describe("password reset", () => {
  it("answers neutrally, and the link sets a new password once", async () => {
    const email = await verifiedUser();
    const c = new WebClient();
    await c.get("/reset-password");
    const unknown = await c.post("/reset-password", { email: uniqueEmail("ghost") });
    const known = await c.post("/reset-password", { email });
    expect(location(unknown)).toBe("/reset-password?sent=1");
    expect(location(known)).toBe("/reset-password?sent=1");

    const link = linkIn(await lastMailTo(email), "/reset-verification/");
    const page = await c.page(link);
    expect(page.res.status).toBe(200);
    const NEW = "Outra!Chave#2027y";
    const done = await c.post(link, { token: link.split("/").pop()!, password: NEW, confirmPassword: NEW });
    expect(location(done)).toBe("/login");
    expect((await c.page("/login")).html).toContain("Senha alterada");
    expect((await c.post("/login", { email, password: STRONG })).status).toBe(401);
    expect(location(await c.post("/login", { email, password: NEW }))).toBe("/");
    const again = await new WebClient().page(link);
    expect(again.res.status).toBe(400);
    expect(again.html).toContain("Token inválido!");
  });
});

describe("sessions", () => {
  it("logout revokes the session on the server (the old cookie no longer works)", async () => {
    const c = await signIn("analyst@demo.example");
    const stolen = new WebClient();
    stolen.cookies.set("__session", c.cookies.get("__session")!);
    expect((await stolen.get("/")).status).toBe(200);
    const out = await c.post("/logout", {});
    expect(location(out)).toBe("/login");
    expect(location(await stolen.get("/"))).toBe("/login");
    expect(location(await stolen.get("/notifications"))).toMatch(/^\/login/);
  });

  it("account-info failure signs out with 'Falha ao obter as informações da conta'", async () => {
    const email = await verifiedUser();
    const c = await signIn(email, STRONG);
    await query("DELETE FROM memberships WHERE user_id = (SELECT id FROM users WHERE email = $1)", [email]);
    const res = await c.get("/");
    expect(location(res)).toBe("/login");
    expect((await c.page("/login")).html).toContain("Falha ao obter as informações da conta");
    expect(location(await c.get("/notifications"))).toMatch(/^\/login/);
  });

  it("rate-limits failed sign-ins per e-mail, even for the right password afterwards", async () => {
    const email = await verifiedUser();
    const c = new WebClient();
    await c.get("/login");
    for (let i = 0; i < 5; i++) expect((await c.post("/login", { email, password: "Errada!Senha#1x" })).status).toBe(401);
    const blocked = await c.post("/login", { email, password: STRONG });
    expect(blocked.status).toBe(429);
    expect(await blocked.text()).toContain("Muitas tentativas");
    const [{ n }] = await query<{ n: number }>("SELECT count(*)::int AS n FROM audit_logs WHERE action = 'auth.login_failed' AND meta->>'email' = $1", [email]);
    expect(n).toBe(5);
  });
});

describe("two-factor sign-in", () => {
  it("a password alone reaches only /2fa; the TOTP code completes sign-in with a new session id", async () => {
    const email = await verifiedUser();
    const secret = new OTPAuth.Secret({ size: 20 }).base32;
    await setUserByEmail(email, { totpSecret: seal(secret), totpEnabled: true });
    const c = new WebClient();
    await c.get("/login");
    const step1 = await c.post("/login", { email, password: STRONG });
    expect(location(step1)).toBe("/2fa");
    expect(location(await c.get("/"))).toBe("/2fa");
    expect(location(await c.get("/users"))).toBe("/2fa");
    const wrong = await c.post("/2fa", { code: "000000" });
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).toContain("Código inválido ou já usado");
    const pending = c.cookies.get("__session");
    const code = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), digits: 6, period: 30 }).generate();
    const ok = await c.post("/2fa", { code });
    expect(location(ok)).toBe("/");
    expect(c.cookies.get("__session")).not.toBe(pending);
    expect((await c.get("/")).status).toBe(200);
    // the same code cannot be replayed by another sign-in
    const d = new WebClient();
    await d.get("/login");
    await d.post("/login", { email, password: STRONG });
    expect((await d.post("/2fa", { code })).status).toBe(401);
  });
});

describe("invitations", () => {
  it("an unknown invitation says 'Seu convite não foi encontrado ou é inválido'", async () => {
    const page = await new WebClient().page("/invitation/not-a-real-token");
    expect(page.res.status).toBe(404);
    expect(page.html).toContain("Seu convite não foi encontrado ou é inválido");
  });
});

describe("hosts, languages and brands", () => {
  it("the unsubscribe host serves only its page at /", async () => {
    const c = new WebClient(undefined, { Host: "unsubscribe.localhost" });
    const root = await c.page("/");
    expect(root.res.status).toBe(200);
    expect(root.html).toContain('data-testid="unsubscribe"');
    expect((await c.get("/login")).status).toBe(404);
    expect((await new WebClient().get("/unsubscribe")).status).toBe(404);
  });

  it("a reseller's host shows its name and color on the login page", async () => {
    const port = new URL(new WebClient().base).port;
    const page = await new WebClient(undefined, { Host: `revenda.localhost:${port}` }).page("/login");
    expect(page.html).toContain("Revenda Azul");
    expect(page.html).toMatch(/--primary:\s*#1d4ed8/);
    expect((await new WebClient().page("/login")).html).not.toContain("Revenda Azul");
  });

  it("speaks pt-BR by default, follows Accept-Language, and a chosen language sticks", async () => {
    expect((await new WebClient().page("/login")).html).toContain('lang="pt-BR"');
    const en = await new WebClient(undefined, { "Accept-Language": "en-US,en;q=0.9" }).page("/login");
    expect(en.html).toContain('lang="en"');
    expect(en.html).toContain("Sign in");
    const c = new WebClient();
    await c.get("/login");
    const set = await c.post("/locale", { locale: "zh", redirectTo: "/login" });
    expect(location(set)).toBe("/login");
    expect((await c.page("/login")).html).toContain('lang="zh"');
  });
});

describe("demo logins", () => {
  it("every role of the demo tenant signs in with the demo password", async () => {
    for (const role of ["owner", "admin", "manager", "agent", "analyst", "sales", "security", "developer", "billing", "carrier"]) {
      const c = await signIn(`${role}@demo.example`, DEMO_PASSWORD);
      expect((await c.get("/")).status, role).toBe(200);
    }
  });
});
