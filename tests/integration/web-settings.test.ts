/**
 * Web screens: /settings (account + settings hub), /admin/whitelabel, /user/settings (profile,
 * password, language, 2FA, sign-in events) and /dev/mailbox — driven like a browser without
 * JavaScript. Mutations happen on fresh people and accounts, never on the shared demo data.
 */
import * as OTPAuth from "otpauth";
import { describe, expect, it, beforeAll } from "vitest";
import { inject } from "vitest";
import { settingsHub } from "../../api/accounts/settings-hub";
import type { Subject } from "../../api/policy/policy";
import { query, uniqueEmail } from "../support/db";
import { WebClient, location, signIn } from "../support/web";
import { makeOutboundEmail, setAccount, setUserByEmail, sql } from "../support/factories";

const PASSWORD = "Fresh!Pwd#2026x";

/** Register a person and company through the product, mark the e-mail verified, sign in. */
async function freshOwner(tag: string, password = PASSWORD) {
  const email = uniqueEmail(tag);
  const res = await fetch(new URL("/api/auth/register", inject("webUrl")), {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ firstName: "Ana", lastName: "Teste", email, password, confirmPassword: password, companyName: `Empresa ${tag}`, acceptTerms: true, locale: "pt-BR" }),
  });
  expect(res.status, await res.clone().text()).toBe(201);
  const user = await setUserByEmail(email, { verified: true });
  const c = await signIn(email, password);
  return { c, email, userId: user.id, accountId: user.current_account_id };
}

/** The part of a page between a marker and the end of its element's section (good enough for assertions). */
function section(html: string, testId: string) {
  const start = html.indexOf(`data-testid="${testId}"`);
  if (start < 0) return "";
  return html.slice(start, html.indexOf("</section>", start) > 0 ? html.indexOf("</section>", start) : undefined);
}

const webPort = () => new URL(inject("webUrl")).port;

describe("/settings", () => {
  it("lets the owner of a fresh account edit its address (saved in the database)", async () => {
    const { c, accountId } = await freshOwner("settings");
    const { res, html } = await c.page("/settings");
    expect(res.status).toBe(200);
    expect(html).toContain('data-testid="account-form"');
    expect(html).toContain('data-testid="api-token"');
    const res2 = await c.post("/settings?index", {
      name: "Empresa Renomeada",
      currency: "BRL",
      street: "Rua das Flores",
      number: "120",
      complement: "Sala 4",
      district: "Centro",
      city: "Campinas",
      province: "SP",
      postalCode: "13010-000",
    });
    expect(res2.status).toBe(302);
    expect(location(res2)).toBe("/settings");
    const [row] = await query<Record<string, string>>("SELECT name, street, number, complement, district, city, province, postal_code FROM accounts WHERE id = $1", [accountId]);
    expect(row).toEqual({
      name: "Empresa Renomeada",
      street: "Rua das Flores",
      number: "120",
      complement: "Sala 4",
      district: "Centro",
      city: "Campinas",
      province: "SP",
      postal_code: "13010-000",
    });
    const after = await c.page("/settings");
    expect(after.html).toContain("Dados da conta salvos");
    expect(after.html).toContain('value="Rua das Flores"');
  });

  it("shows the translated field error and keeps the data when the input is invalid", async () => {
    const { c, accountId } = await freshOwner("settings-invalid");
    const res = await c.post("/settings?index", { name: "", currency: "BRL", postalCode: "!!" });
    expect(res.status).toBe(422);
    const html = await res.text();
    expect(html).toContain("Campo obrigatório");
    expect(html).toContain("CEP inválido");
    const [row] = await query<{ name: string }>("SELECT name FROM accounts WHERE id = $1", [accountId]);
    expect(row.name).toBe("Empresa settings-invalid");
  });

  it("reveals the API token only inside a disclosure, masked otherwise", async () => {
    const { c, accountId } = await freshOwner("settings-token");
    const [{ auth_token }] = await query<{ auth_token: string }>("SELECT auth_token FROM accounts WHERE id = $1", [accountId]);
    const { html } = await c.page("/settings");
    const card = html.slice(html.indexOf('data-testid="api-token"'));
    expect(card.indexOf(auth_token)).toBeGreaterThan(card.indexOf("<details"));
    expect(card).toContain(auth_token.slice(0, 4) + "•");
  });

  it("sends an agent to /403 and refuses the agent's post, changing nothing", async () => {
    const c = await signIn("agent@demo.example");
    expect(location(await c.get("/settings"))).toBe("/403");
    const [before] = await query<{ street: string | null; updated_at: Date }>(
      "SELECT a.street, a.updated_at FROM accounts a JOIN users u ON u.current_account_id = a.id WHERE u.email = 'agent@demo.example'",
    );
    const res = await c.post("/settings?index", { name: "Hacked", currency: "BRL", street: "Rua Invasora" });
    expect(res.status).toBe(302);
    expect(location(res)).toBe("/403");
    const [after] = await query<{ street: string | null; updated_at: Date }>(
      "SELECT a.street, a.updated_at FROM accounts a JOIN users u ON u.current_account_id = a.id WHERE u.email = 'agent@demo.example'",
    );
    expect(after).toEqual(before);
  });

  it("shows a sales executive the account read-only (no form, no token) and refuses a post with 403", async () => {
    const c = await signIn("sales@demo.example");
    const { res, html } = await c.page("/settings");
    expect(res.status).toBe(200);
    expect(html).toContain('data-testid="account-read-only"');
    expect(html).not.toContain('data-testid="account-form"');
    expect(html).not.toContain('name="street"');
    expect(html).not.toContain('data-testid="api-token"');
    const post = await c.post("/settings?index", { name: "Hacked", currency: "BRL", street: "Rua Invasora" });
    expect(post.status).toBe(403);
    expect(await post.text()).toContain("Você não tem permissão para isso");
    const rows = await query("SELECT 1 FROM accounts WHERE name = 'Hacked' OR street = 'Rua Invasora'");
    expect(rows).toHaveLength(0);
  });

  it("hub: links only the groups the role may open, and only to screens that exist", async () => {
    const owner = await signIn("owner@demo.example");
    const hub = section((await owner.page("/settings")).html, "settings-hub");
    expect(hub).toContain('href="/users"');
    expect(hub).toContain('data-group="account"');
    expect(hub).not.toContain('data-group="whitelabel"'); // a customer account has no branding
    expect(hub).not.toContain('data-group="webhooks"'); // no screen yet: left out

    const fresh = await freshOwner("settings-hub");
    const freshHub = section((await fresh.c.page("/settings")).html, "settings-hub");
    expect(freshHub).toContain('href="/users"');
    expect(freshHub).not.toContain('data-group="departments"'); // no omni plan

    const reseller = await signIn("reseller@demo.example");
    expect(section((await reseller.page("/settings")).html, "settings-hub")).toContain('href="/admin/whitelabel"');
  });

  it("hub: per role, as the policy's settings groups and route rules say", () => {
    const subject = (role: Subject["role"], accountType: Subject["accountType"] = "customer"): Subject => ({
      role,
      accountType,
      services: ["omni", "sms"],
      permissions: { department: true, opening_hour: true, dashboard: true, spie: true, tab: true, whatsapp: true },
    });
    const groups = (s: Subject) => settingsHub(s).map((c) => c.group);
    expect(groups(subject("owner"))).toEqual(["account", "users", "departments", "settings", "resources", "messages"]);
    expect(groups(subject("owner", "reseller"))).toEqual(["account", "users", "departments", "settings", "resources", "messages", "whitelabel"]);
    // agent: lookup, manager, settings groups — but the agent's path allow-list keeps it out of /settings.
    expect(groups(subject("agent"))).toEqual([]);
    expect(groups(subject("agent")).includes("users")).toBe(false);
    // developer: contacts, lookup, manager — none has a screen yet.
    expect(groups(subject("developer"))).toEqual([]);
    // billing: contacts, lookup, manager, live, settings — settings is outside its allow-list.
    expect(groups(subject("billing"))).toEqual([]);
    expect(groups(subject("sales"))).toEqual(["account", "users", "departments", "settings", "resources", "messages"]);
    expect(groups({ ...subject("owner"), services: [], permissions: {} })).toEqual(["account", "users", "settings", "resources", "messages"]);
  });
});

describe("/admin/whitelabel", () => {
  let reseller: Awaited<ReturnType<typeof freshOwner>>;
  const host = `wl-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}.localhost`;

  beforeAll(async () => {
    reseller = await freshOwner("reseller");
    await setAccount(reseller.accountId, { type: "reseller" });
  });

  it("saves the reseller's brand; the login page on that host wears its name and color", async () => {
    const { res, html } = await reseller.c.page("/admin/whitelabel");
    expect(res.status).toBe(200);
    expect(html).toContain('data-testid="brand-preview"');
    const save = await reseller.c.post("/admin/whitelabel", { name: "Marca Verde Teste", color: "#12AB34", host });
    expect(save.status).toBe(302);
    expect(location(save)).toBe("/admin/whitelabel");
    const [row] = await query<{ name: string; color: string; host: string; wl: string }>(
      "SELECT w.name, w.color, w.host, a.whitelabel_id AS wl FROM whitelabels w JOIN accounts a ON a.id = w.account_id WHERE w.account_id = $1",
      [reseller.accountId],
    );
    expect(row).toMatchObject({ name: "Marca Verde Teste", color: "#12ab34", host });
    expect(row.wl).toBeTruthy();

    const guest = new WebClient(undefined, { Host: `${host}:${webPort()}` });
    const login = await guest.page("/login");
    expect(login.res.status).toBe(200);
    expect(login.html).toContain("Marca Verde Teste");
    expect(login.html).toMatch(/--primary:\s*#12ab34/);

    // Another host keeps the platform's own look.
    const plain = await new WebClient().page("/login");
    expect(plain.html).not.toContain("Marca Verde Teste");
  });

  it("refuses a bad color and a host already in use, with translated messages", async () => {
    const bad = await reseller.c.post("/admin/whitelabel", { name: "Marca", color: "verde", host: `x-${host}` });
    expect(bad.status).toBe(422);
    expect(await bad.text()).toContain("Use uma cor no formato #RRGGBB");
    const taken = await reseller.c.post("/admin/whitelabel", { name: "Marca", color: "#123456", host: "revenda.localhost" });
    expect(taken.status).toBe(422);
    expect(await taken.text()).toContain("Este domínio já está em uso");
    const [row] = await query<{ host: string }>("SELECT host FROM whitelabels WHERE account_id = $1", [reseller.accountId]);
    expect(row.host).not.toBe("revenda.localhost");
  });

  it("sends a customer's owner to /403 (page and post)", async () => {
    const c = await signIn("owner@demo.example");
    expect(location(await c.get("/admin/whitelabel"))).toBe("/403");
    const res = await c.post("/admin/whitelabel", { name: "X", color: "#000000", host: "hijack.localhost" });
    expect(location(res)).toBe("/403");
    expect(await query("SELECT 1 FROM whitelabels WHERE host = 'hijack.localhost'")).toHaveLength(0);
  });

  it("shows the demo reseller its own brand and platform staff every brand", async () => {
    const r = await signIn("reseller@demo.example");
    const mine = await r.page("/admin/whitelabel");
    expect(mine.html).toContain('value="revenda.localhost"');
    expect(mine.html).not.toContain('data-testid="whitelabel-table"');
    const staff = await signIn("staff@demo.example");
    const all = await staff.page("/admin/whitelabel");
    expect(all.res.status).toBe(200);
    const table = all.html.slice(all.html.indexOf('data-testid="whitelabel-table"'));
    expect(table).toContain("revenda.localhost");
    expect(table).toContain("Revenda Azul");
  });

  it("refuses the form without the CSRF token", async () => {
    const res = await reseller.c.post("/admin/whitelabel", { name: "Sem CSRF", color: "#000000", host: `csrf-${host}` }, { csrf: null });
    expect(res.status).toBe(403);
    expect(await query("SELECT 1 FROM whitelabels WHERE name = 'Sem CSRF'")).toHaveLength(0);
  });
});

describe("/user/settings", () => {
  let me: Awaited<ReturnType<typeof freshOwner>>;
  let password = PASSWORD;
  beforeAll(async () => {
    me = await freshOwner("me");
  });

  it("shows every section, stacked (reachable without JavaScript), and the person's sign-in events", async () => {
    const { res, html } = await me.c.page("/user/settings");
    expect(res.status).toBe(200);
    for (const id of ["profile", "password", "language", "two-factor", "sign-ins"]) {
      expect(html).toContain(`id="${id}"`);
      expect(html).toContain(`href="#${id}"`);
    }
    const events = html.slice(html.indexOf('data-testid="sign-in-events"'));
    expect(events).toContain("Entrou"); // auth.login of the sign-in above
    expect(events).toContain("127.0.0.1");
    expect(html).toContain("Prefiro não dizer");
    expect(html).toContain("pelo menos 13 caracteres");
  });

  it("saves the profile", async () => {
    const res = await me.c.post("/user/settings", {
      intent: "profile",
      firstName: "Beatriz",
      lastName: "Lima",
      mobile: "+55 11 91234-5678",
      gender: "undisclosed",
      birthDate: "1990-05-17",
    });
    expect(res.status).toBe(302);
    expect(location(res)).toBe("/user/settings");
    const [u] = await query<{ first_name: string; last_name: string; mobile: string; gender: string; birth: string }>(
      "SELECT first_name, last_name, mobile, gender, birth_date::text AS birth FROM users WHERE id = $1",
      [me.userId],
    );
    expect(u).toEqual({ first_name: "Beatriz", last_name: "Lima", mobile: "+55 11 91234-5678", gender: "undisclosed", birth: "1990-05-17" });
    const page = await me.c.page("/user/settings");
    expect(page.html).toContain("Perfil atualizado");
    expect(page.html).toContain('value="Beatriz"');
  });

  it("refuses a password change with the wrong current password ('Senha inválida'), then changes it", async () => {
    const next = "Outra!Chave#2026x";
    const wrong = await me.c.post("/user/settings", { intent: "password", currentPassword: "Errada!Chave#2026", password: next, confirmPassword: next });
    expect(wrong.status).toBe(401);
    const html = await wrong.text();
    expect(html).toContain("Senha inválida");
    expect(html).not.toContain(next); // passwords never echoed back
    const weak = await me.c.post("/user/settings", { intent: "password", currentPassword: password, password: "curta", confirmPassword: "curta" });
    expect(weak.status).toBe(422);
    expect(await weak.text()).toContain("Tamanho mínimo 13");
    const ok = await me.c.post("/user/settings", { intent: "password", currentPassword: password, password: next, confirmPassword: next });
    expect(ok.status).toBe(302);
    password = next;
    await expect(signIn(me.email, PASSWORD)).rejects.toThrow();
    await signIn(me.email, password);
  });

  it("enrols two-factor sign-in (QR + secret, confirmed with a code), then asks for /2fa at sign-in, then disables it with the password", async () => {
    const begin = await me.c.post("/user/settings", { intent: "totp-begin" });
    expect(begin.status).toBe(302);
    const page = await me.c.page("/user/settings");
    expect(page.html).toContain('src="data:image/png;base64,');
    const secret = page.html.match(/data-secret="([A-Z2-7]+)"/)?.[1];
    expect(secret).toBeTruthy();
    const [pending] = await query<{ totp_enabled_at: Date | null }>("SELECT totp_enabled_at FROM users WHERE id = $1", [me.userId]);
    expect(pending.totp_enabled_at).toBeNull();

    const wrongCode = await me.c.post("/user/settings", { intent: "totp-confirm", code: "000000" });
    expect(wrongCode.status).toBe(401);
    expect(await wrongCode.text()).toContain("Código inválido ou já usado");

    const code = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret!), algorithm: "SHA1", digits: 6, period: 30 }).generate();
    const confirm = await me.c.post("/user/settings", { intent: "totp-confirm", code });
    expect(confirm.status).toBe(302);
    const [on] = await query<{ totp_enabled_at: Date | null; totp_secret: string | null }>("SELECT totp_enabled_at, totp_secret FROM users WHERE id = $1", [me.userId]);
    expect(on.totp_enabled_at).not.toBeNull();
    expect(on.totp_secret).not.toContain(secret!); // sealed at rest
    const after = await me.c.page("/user/settings");
    expect(after.html).toContain("Verificação em duas etapas ativada");
    expect(after.html).not.toContain("data-secret=");

    const again = new WebClient();
    await again.get("/login");
    const login = await again.post("/login", { email: me.email, password });
    expect(login.status).toBe(302);
    expect(location(login)).toBe("/2fa");

    const badDisable = await me.c.post("/user/settings", { intent: "totp-disable", currentPassword: "Errada!Chave#2026" });
    expect(badDisable.status).toBe(401);
    expect(await badDisable.text()).toContain("Senha inválida");
    const disable = await me.c.post("/user/settings", { intent: "totp-disable", currentPassword: password });
    expect(disable.status).toBe(302);
    const [off] = await query<{ totp_enabled_at: Date | null }>("SELECT totp_enabled_at FROM users WHERE id = $1", [me.userId]);
    expect(off.totp_enabled_at).toBeNull();
  });

  it("cancels a pending enrolment", async () => {
    await me.c.post("/user/settings", { intent: "totp-begin" });
    expect((await me.c.page("/user/settings")).html).toContain("data-secret=");
    const cancel = await me.c.post("/user/settings", { intent: "totp-cancel" });
    expect(cancel.status).toBe(302);
    expect((await me.c.page("/user/settings")).html).not.toContain("data-secret=");
  });

  it("switches the language to English for this person, and it persists", async () => {
    const res = await me.c.post("/locale", { locale: "en", redirectTo: "/user/settings" });
    expect(res.status).toBe(302);
    expect(location(res)).toBe("/user/settings");
    const [u] = await query<{ locale: string }>("SELECT locale FROM users WHERE id = $1", [me.userId]);
    expect(u.locale).toBe("en");
    const page = await me.c.page("/user/settings");
    expect(page.html).toContain('lang="en"');
    expect(page.html).toContain("My profile");
    expect(page.html).toContain("Two-step verification");
    // A new session (another browser) also gets English: it is saved on the person.
    const other = await signIn(me.email, password);
    const otherPage = await other.page("/user/settings");
    expect(otherPage.html).toContain('lang="en"');
    expect(otherPage.html).toContain("Recent sign-ins");
  });

  it("refuses every form without the CSRF token", async () => {
    const forms: Array<Record<string, string>> = [
      { intent: "profile", firstName: "Sem", lastName: "Csrf" },
      { intent: "password", currentPassword: password, password: "Outra!Senha#2027x", confirmPassword: "Outra!Senha#2027x" },
      { intent: "totp-begin" },
      { intent: "totp-confirm", code: "123456" },
      { intent: "totp-cancel" },
      { intent: "totp-disable", currentPassword: password },
    ];
    for (const form of forms) {
      const res = await me.c.post("/user/settings", form, { csrf: null });
      expect(res.status, form.intent).toBe(403);
    }
    expect((await me.c.post("/locale", { locale: "zh" }, { csrf: null })).status).toBe(403);
    const [u] = await query<{ first_name: string; locale: string }>("SELECT first_name, locale FROM users WHERE id = $1", [me.userId]);
    expect(u).toEqual({ first_name: "Beatriz", locale: "en" });
  });
});

describe("/settings CSRF", () => {
  it("refuses the account form without the CSRF token", async () => {
    const { c, accountId } = await freshOwner("settings-csrf");
    const res = await c.post("/settings?index", { name: "Sem Token", currency: "BRL" }, { csrf: null });
    expect(res.status).toBe(403);
    const [row] = await query<{ name: string }>("SELECT name FROM accounts WHERE id = $1", [accountId]);
    expect(row.name).toBe("Empresa settings-csrf");
  });
});

describe("/dev/mailbox", () => {
  it("lists the e-mails of the acting account and to the person, and shows one with its links", async () => {
    const a = await freshOwner("mailbox-a");
    const subject = `Convite de teste ${Math.random().toString(36).slice(2, 8)}`;
    const link = `${inject("webUrl")}/invitation/tok${Math.random().toString(36).slice(2, 10)}`;
    const mail = {
      id: await makeOutboundEmail({
        accountId: a.accountId,
        toAddress: uniqueEmail("invitee"),
        subject,
        html: `<!doctype html><html><head></head><body><p>Olá</p><a href="${link}">Aceitar</a></body></html>`,
        textBody: `Olá\n\nAceitar: ${link}\n`,
        status: "local",
      }),
    };
    const list = await a.c.page("/dev/mailbox");
    expect(list.res.status).toBe(200);
    expect(list.html).toContain(subject);
    expect(list.html).toContain(`href="/dev/mailbox/${mail.id}"`);
    // The verification e-mail of the registration (no account, addressed to this person) is listed too.
    const [verify] = await query<{ id: string; subject: string }>("SELECT id, subject FROM outbound_emails WHERE to_address = $1", [a.email]);
    expect(list.html).toContain(`href="/dev/mailbox/${verify.id}"`);

    const detail = await a.c.page(`/dev/mailbox/${mail.id}`);
    expect(detail.res.status).toBe(200);
    expect(detail.html).toContain(subject);
    expect(detail.html).toContain(`href="${link}"`);
    expect(detail.html).toMatch(/<iframe[^>]*sandbox="allow-popups allow-popups-to-escape-sandbox"/);
    // The HTML body travels escaped inside srcdoc (never inlined into the page), links opening outside the frame.
    expect(detail.html).toMatch(/srcdoc="[^"]*&lt;base target=&quot;_blank&quot;&gt;[^"]*Aceitar/i);
    expect(detail.html).toContain('data-testid="mail-text"');

    const verifyDetail = await a.c.page(`/dev/mailbox/${verify.id}`);
    expect(verifyDetail.res.status).toBe(200);
    expect(verifyDetail.html).toMatch(/href="http:\/\/[^"]+\/email-verify\/[^"]+"/);

    // Another account sees neither the list entry nor the e-mail itself.
    const b = await freshOwner("mailbox-b");
    expect((await b.c.page("/dev/mailbox")).html).not.toContain(subject);
    expect((await b.c.get(`/dev/mailbox/${mail.id}`)).status).toBe(404);
    expect((await b.c.get("/dev/mailbox/not-a-uuid")).status).toBe(404);

    // Platform staff see everything.
    const staff = await signIn("staff@demo.example");
    expect((await staff.get(`/dev/mailbox/${mail.id}`)).status).toBe(200);
  });

  it("pages newest first with a keyset 'load more' link, without gaps or repeats", async () => {
    const a = await freshOwner("mailbox-pages");
    const subjects = Array.from({ length: 30 }, (_, i) => `Página ${String(i).padStart(2, "0")} ${a.accountId.slice(0, 8)}`);
    for (const [i, s] of subjects.entries()) {
      await makeOutboundEmail({
        accountId: a.accountId,
        toAddress: "someone@test.example",
        subject: s,
        html: "<p>x</p>",
        textBody: "x",
        status: "local",
        createdAt: sql(`now() + interval '${i + 60} seconds'`),
      });
    }
    const ids = (html: string) => [...html.matchAll(/data-mail-id="([0-9a-f-]{36})"/g)].map((m) => m[1]);
    const first = await a.c.page("/dev/mailbox");
    const page1 = ids(first.html);
    expect(page1).toHaveLength(25);
    expect(first.html.indexOf(subjects[29])).toBeLessThan(first.html.indexOf(subjects[28])); // newest first
    const more = first.html.match(/href="(\/dev\/mailbox\?before=[0-9a-f-]{36})"/)?.[1];
    expect(more).toBeTruthy();
    const second = await a.c.page(more!);
    const page2 = ids(second.html);
    // 5 of the inserted rows + the registration's verification e-mail.
    expect(page2).toHaveLength(6);
    expect(new Set([...page1, ...page2]).size).toBe(31);
    expect(second.html).toContain(subjects[0]);
    expect(second.html).not.toMatch(/href="\/dev\/mailbox\?before=/);
  });
});
