/**
 * E-mail templates (issue 17, ADR 037): CRUD of the account's templates with MJML compiled to
 * HTML at save (a compile error and HTML past 512 KB refused on `mjml`, translated), bulk delete,
 * the library (the platform's seeded entries and the account's own), preview per contact, and a
 * send with template_id + variables: an inactive template is refused with 'This template is not
 * active' and nothing charged; a delivered one reaches the simulator's SMTP peer with the
 * variables filled from the request and the recipient's contact, HTML-escaped, and a subject no
 * variable can break into two headers.
 */
import { simpleParser } from "mailparser";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { api, login, registerPerson } from "../support/api";
import { query } from "../support/db";
import { rand, validatedDomain } from "../support/email";
import { balanceOf, makeContacts, setAccount } from "../support/factories";

let token: string;
let accountId: string;
let domain: string;

const MJML = (body: string) => `<mjml><mj-body><mj-section><mj-column>${body}</mj-column></mj-section></mj-body></mjml>`;
const create = (body: Record<string, unknown>, lang = "en") => api("/api/email/templates", { token, body, lang });
const settle = { timeout: 20_000, interval: 200 };
const sim = (path: string) => fetch(new URL(path, inject("simulatorUrl")), { headers: { Authorization: `Bearer ${inject("simulatorApiKey")}` } }).then((r) => r.json());
const written = async () => (await query<{ n: number }>("SELECT count(*)::int AS n FROM messages WHERE account_id = $1 AND channel = 'email'", [accountId]))[0].n;

beforeAll(async () => {
  const p = await registerPerson("emailtpl");
  accountId = p.accountId;
  token = (await login(p.email, p.password)).token;
  await setAccount(accountId, { balance: 1_000 });
  domain = (await validatedDomain(token)).domain;
});

describe("e-mail templates", () => {
  it("creates (MJML compiled to responsive HTML at save, 201 + Location), lists, reads, changes and deletes one", async () => {
    const name = `Boas-vindas ${rand()}`;
    const res = await create({ name, subject: "Olá {{first_name}}", mjml: MJML("<mj-text>Oi {{first_name}}</mj-text>"), text: "Oi {{first_name}}" });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const t = res.body.data;
    expect(res.headers.get("Location")).toBe(`/api/email/templates/${t.id}`);
    expect(t).toMatchObject({ name, subject: "Olá {{first_name}}", active: true, variables: ["first_name"], text: "Oi {{first_name}}" });
    expect(t.html).toMatch(/^<!doctype html>/i);
    expect(t.html).toContain("Oi {{first_name}}");
    expect(t.html).toContain("@media only screen"); // responsive columns

    const dup = await create({ name: name.toUpperCase(), subject: "x", mjml: MJML("<mj-text>x</mj-text>") });
    expect(dup.status).toBe(422);
    expect(dup.body.error.fields).toEqual({ name: ["A template with this name already exists"] });

    const list = await api("/api/email/templates", { token });
    expect(list.body.data.map((x: { id: string }) => x.id)).toContain(t.id);
    expect(list.body).toHaveProperty("next_cursor");
    expect((await api(`/api/email/templates/${t.id}`, { token })).body.data.name).toBe(name);

    const changed = await api(`/api/email/templates/${t.id}`, { token, method: "PUT", body: { mjml: MJML("<mj-text>Novo {{city}}</mj-text>") } });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body.data.html).toContain("Novo {{city}}");
    expect(changed.body.data.variables).toEqual(["first_name", "city"]);
    const off = await api(`/api/email/templates/${t.id}`, { token, method: "PUT", body: { active: false } });
    expect(off.body.data).toMatchObject({ active: false, name });
    expect((await api("/api/email/templates?active=false", { token })).body.data.map((x: { id: string }) => x.id)).toEqual([t.id]);

    const other = await registerPerson("emailtplother");
    const otherToken = (await login(other.email, other.password)).token;
    expect((await api(`/api/email/templates/${t.id}`, { token: otherToken })).status).toBe(404);

    expect((await api(`/api/email/templates/${t.id}`, { token, method: "DELETE" })).body).toEqual({ deleted: 1 });
    expect((await api(`/api/email/templates/${t.id}`, { token })).status).toBe(404);
  });

  it("refuses an MJML error on the field mjml with the compiler's message (translated frame), and an HTML past 512 KB; nothing written", async () => {
    const before = (await query<{ n: number }>("SELECT count(*)::int AS n FROM email_templates WHERE account_id = $1", [accountId]))[0].n;
    const bad = await create({ name: `Ruim ${rand()}`, subject: "x", mjml: MJML("<mj-foo>x</mj-foo>") }, "pt-BR");
    expect(bad.status).toBe(422);
    expect(bad.body.error.fields.mjml[0]).toMatch(/^Erro no MJML: .*mj-foo/);
    const notMjml = await create({ name: `Ruim ${rand()}`, subject: "x", mjml: "<p>html</p>" });
    expect(notMjml.body.error.fields.mjml[0]).toMatch(/^MJML error: /);
    // ~120 KB of source that compiles to more than 512 KB of HTML (each section is a table of its own).
    const big = await create({
      name: `Grande ${rand()}`,
      subject: "x",
      mjml: `<mjml><mj-body>${"<mj-section><mj-column><mj-text>x</mj-text></mj-column></mj-section>".repeat(1600)}</mj-body></mjml>`,
    });
    expect(big.status).toBe(422);
    expect(big.body.error.fields).toEqual({ mjml: ["The HTML can be at most 512 KB"] });
    const header = await create({ name: `Cabeçalho ${rand()}`, subject: "a\r\nBcc: x@example.com", mjml: MJML("<mj-text>x</mj-text>") });
    expect(header.body.error.fields).toEqual({ subject: ["No line breaks or control characters"] });
    expect((await query<{ n: number }>("SELECT count(*)::int AS n FROM email_templates WHERE account_id = $1", [accountId]))[0].n).toBe(before);
  });

  it("deletes the checked templates at once; other accounts' and unknown ids are ignored", async () => {
    const ids: string[] = [];
    for (const n of [1, 2, 3]) ids.push((await create({ name: `Lote ${n} ${rand()}`, subject: "x", mjml: MJML("<mj-text>x</mj-text>") })).body.data.id);
    const other = await registerPerson("emailtplbulk");
    const otherToken = (await login(other.email, other.password)).token;
    const theirs = (await api("/api/email/templates", { token: otherToken, body: { name: "Deles", subject: "x", mjml: MJML("<mj-text>x</mj-text>") } })).body.data.id;
    const res = await api("/api/email/templates", { token, method: "DELETE", body: { ids: [ids[0], ids[1], theirs, "nope", crypto.randomUUID()] } });
    expect(res.status).toBe(200);
    expect(res.body.deleted).toBe(2);
    expect([...res.body.ids].sort()).toEqual([ids[0], ids[1]].sort());
    expect((await api(`/api/email/templates/${ids[2]}`, { token })).status).toBe(200);
    expect((await api(`/api/email/templates/${theirs}`, { token: otherToken })).status).toBe(200);
  });

  it("previews a template for a contact of the account (values HTML-escaped) or with sample values", async () => {
    const t = (await create({ name: `Prévia ${rand()}`, subject: "Oi {{first_name}}", mjml: MJML("<mj-text>Oi {{first_name}} de {{plano}}</mj-text>") })).body.data;
    const [contact] = await makeContacts(accountId, [{ firstName: "<b>Zé</b>", email: `ze-${rand()}@example.com`, custom: { plano: "Ouro & Prata" } }]);
    const res = await api(`/api/email/templates/${t.id}/preview?contact_id=${contact}`, { token });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.subject).toBe("Oi <b>Zé</b>");
    expect(res.body.data.html).toContain("Oi &lt;b&gt;Zé&lt;/b&gt; de Ouro &amp; Prata");
    const sample = await api(`/api/email/templates/${t.id}/preview`, { token });
    expect(sample.body.data.html).toContain("Oi Maria de ");
    const missing = await api(`/api/email/templates/${t.id}/preview?contact_id=${crypto.randomUUID()}`, { token });
    expect(missing.status).toBe(422);
  });

  it("the library: the platform's seeded entries for every account, and the account's own (only those change)", async () => {
    const libs = await api("/api/email/libs?limit=200", { token });
    expect(libs.status).toBe(200);
    const platform = libs.body.data.filter((l: { platform: boolean }) => l.platform);
    expect(platform.map((l: { name: string }) => l.name)).toEqual(expect.arrayContaining(["Boas-vindas", "Promoção", "Confirmação de pedido"]));
    expect(platform[0].html).toMatch(/^<!doctype html>/i);
    const mine = await api("/api/email/libs", { token, body: { name: `Minha ${rand()}`, subject: "x", mjml: MJML("<mj-text>minha</mj-text>") } });
    expect(mine.status, JSON.stringify(mine.body)).toBe(201);
    expect(mine.body.data.platform).toBe(false);
    const put = await api(`/api/email/libs/${mine.body.data.id}`, {
      token,
      method: "PUT",
      body: { name: mine.body.data.name, subject: "y", mjml: MJML("<mj-text>mudou</mj-text>") },
    });
    expect(put.body.data.html).toContain("mudou");
    expect((await api(`/api/email/libs/${platform[0].id}`, { token, method: "DELETE" })).status).toBe(404);
    expect((await api(`/api/email/libs/${platform[0].id}`, { token, method: "PUT", body: { name: "x", subject: "x", mjml: MJML("<mj-text>x</mj-text>") } })).status).toBe(404);
    const other = await registerPerson("emailtpllib");
    const otherLibs = await api("/api/email/libs?limit=200", { token: (await login(other.email, other.password)).token });
    expect(otherLibs.body.data.map((l: { id: string }) => l.id)).not.toContain(mine.body.data.id);
    expect((await api(`/api/email/libs/${mine.body.data.id}`, { token, method: "DELETE" })).body).toEqual({ deleted: 1 });
  });
});

describe("sending with a template", () => {
  it("refuses an inactive template ('This template is not active') and a missing one on template_id; nothing written or charged", async () => {
    const t = (await create({ name: `Inativo ${rand()}`, subject: "x", mjml: MJML("<mj-text>x</mj-text>"), active: false })).body.data;
    const before = await balanceOf(accountId);
    const count = await written();
    const res = await api("/api/email/messages", { token, lang: "en", body: { from: `loja@${domain}`, to: "ana@example.com", template_id: t.id } });
    expect(res.status).toBe(422);
    expect(res.body.error.fields).toEqual({ template_id: ["This template is not active"] });
    const pt = await api("/api/email/messages", { token, lang: "pt-BR", body: { from: `loja@${domain}`, to: "ana@example.com", template_id: t.id } });
    expect(pt.body.error.fields).toEqual({ template_id: ["Este modelo não está ativo"] });
    const missing = await api("/api/email/messages", { token, lang: "en", body: { from: `loja@${domain}`, to: "ana@example.com", template_id: crypto.randomUUID() } });
    expect(Object.keys(missing.body.error.fields)).toEqual(["template_id"]);
    const both = await api("/api/email/messages", { token, lang: "en", body: { from: `loja@${domain}`, to: "ana@example.com", template_id: t.id, subject: "Oi" } });
    expect(Object.keys(both.body.error.fields)).toEqual(["subject"]);
    expect(await balanceOf(accountId)).toBe(before);
    expect(await written()).toBe(count);
  });

  it("delivers through the SMTP peer with the variables filled: the request's values, then the recipient's contact; HTML-escaped; no header injection", async () => {
    const t = (
      await create({
        name: `Pedido ${rand()}`,
        subject: "Pedido {{order_id}} de {{first_name}}",
        mjml: MJML('<mj-text>Olá {{first_name}} de {{city}}, pedido {{order_id}}</mj-text><mj-button href="https://loja.example/p?c={{order_id}}">Ver</mj-button>'),
        text: "Olá {{first_name}}, pedido {{order_id}}",
      })
    ).body.data;
    const known = `cliente-${rand()}@destino.test`;
    const unknown = `outro-${rand()}@destino.test`;
    await makeContacts(accountId, [{ firstName: "Ana <script>", city: "Recife", email: known }]);
    const before = await balanceOf(accountId);
    const res = await api("/api/email/messages", {
      token,
      body: { from: `loja@${domain}`, to: [known, unknown], template_id: t.id, variables: { order_id: "A-1\r\nBcc: victim@example.com" } },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    expect(await balanceOf(accountId)).toBe(before - res.body.data.total_price);
    const [m1, m2] = res.body.data.messages as Array<{ id: string; to: string }>;
    for (const m of [m1, m2])
      await expect.poll(async () => (await query<{ status: string }>("SELECT status FROM messages WHERE id = $1", [m.id]))[0].status, settle).toBe("delivered");

    const received = async (to: string) => {
      const [entry] = (await sim(`/email/_sim/messages?to=${encodeURIComponent(to)}`)).data as Array<{ id: string; rcpt_to: string[]; headers: { subject: string } }>;
      const { data } = await sim(`/email/_sim/messages/${entry.id}`);
      return { entry, raw: data.raw as string, mail: await simpleParser(data.raw) };
    };
    const a = await received(known);
    expect(a.entry.rcpt_to).toEqual([known]);
    expect(a.mail.subject).toBe("Pedido A-1 Bcc: victim@example.com de Ana <script>");
    const headers = a.raw.slice(0, a.raw.search(/\r?\n\r?\n/));
    expect(headers).toMatch(/^Subject: /im);
    expect(headers).not.toMatch(/^Bcc:/im);
    expect(a.mail.bcc).toBeUndefined();
    expect(a.mail.html).toContain("Olá Ana &lt;script&gt; de Recife, pedido A-1");
    expect(a.mail.html).not.toContain("{{");
    expect(a.mail.text).toContain("Olá Ana <script>, pedido A-1");
    const b = await received(unknown);
    expect(b.mail.subject).toBe("Pedido A-1 Bcc: victim@example.com de");
    expect(b.mail.html).toContain("Olá  de , pedido A-1");

    const stored = await query<{ content: { template_id: string; subject: string } }>("SELECT content FROM messages WHERE id = $1", [m1.id]);
    expect(stored[0].content).toMatchObject({ template_id: t.id, subject: "Pedido A-1 Bcc: victim@example.com de Ana <script>" });
  });
});
