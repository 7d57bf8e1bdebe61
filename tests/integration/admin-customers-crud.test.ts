/**
 * Administration of customers (issue 23, ADR 063), over the API and the web forms without
 * JavaScript. The platform's staff create a customer (idempotent with a key), edit, suspend,
 * activate and delete it, attach people (a login joins at once, anyone else is invited), assign,
 * edit and take back short codes and price WhatsApp numbers. A reseller's owner does the same for
 * its own customers only (another's is 404; it creates no reseller, assigns no short code); a
 * customer's owner is refused (403). A suspended customer's people can use nothing of it; a deleted
 * one is gone from every list, signs in to nothing, and its ledger and short codes are kept right.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { api, login, registerPerson, type Person } from "../support/api";
import { lastMailTo, query, uniqueEmail } from "../support/db";
import { makeShortCode, setAccount } from "../support/factories";
import { DEMO_PASSWORD, location, signIn } from "../support/web";

process.env.DATABASE_URL = inject("databaseUrl");
const { closeDb } = await import("../../models/db");

type Who = Person & { token: string };
let staff: string;
let reseller: Who;
let otherReseller: Who;
let owner: Who;

async function person(tag: string): Promise<Who> {
  const p = await registerPerson(tag);
  return { ...p, token: (await login(p.email, p.password)).token };
}
const create = (body: Record<string, unknown>, token = staff, headers: Record<string, string> = {}) => api("/api/customers", { token, body, lang: "en", headers });
const audits = (action: string, customerId: string) =>
  query<{ user_id: string; meta: Record<string, unknown> }>(`SELECT user_id::text, meta FROM audit_logs WHERE action = $1 AND meta->>'customer_id' = $2`, [action, customerId]);
const randomCode = () => String(10_000_000 + Math.floor(Math.random() * 89_999_999));

beforeAll(async () => {
  staff = (await login("staff@demo.example", DEMO_PASSWORD)).token;
  reseller = await person("revenda-adm");
  otherReseller = await person("revenda-outra");
  await setAccount(reseller.accountId, { type: "reseller" });
  await setAccount(otherReseller.accountId, { type: "reseller" });
  owner = await person("dono-cliente");
});
afterAll(async () => {
  await closeDb();
});

describe("creating a customer", () => {
  it("staff: 201 with Location, the fields kept, no parent, audited; the same key again answers the same customer, another body with it 409", async () => {
    const key = `k-${Date.now()}`;
    const body = { name: "Padaria Central", corporate_name: "Padaria Central Ltda", billing_email: "Financeiro@Padaria.example", currency: "BRL" };
    const res = await create(body, staff, { "Idempotency-Key": key });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const c = res.body.data;
    expect(res.headers.get("location")).toBe(`/api/customers/${c.id}`);
    expect(c).toMatchObject({
      name: "Padaria Central",
      corporate_name: "Padaria Central Ltda",
      billing_email: "financeiro@padaria.example",
      currency: "BRL",
      type: "customer",
      status: "active",
      parent_account_id: null,
      balance: 0,
    });
    expect(res.body.replayed).toBe(false);
    expect(await audits("customers.created", c.id)).toHaveLength(1);

    const again = await create(body, staff, { "Idempotency-Key": key });
    expect(again.status).toBe(201);
    expect(again.body).toMatchObject({ replayed: true, data: { id: c.id } });
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    const [{ n }] = await query<{ n: number }>(`SELECT count(*)::int AS n FROM accounts WHERE name = 'Padaria Central' AND corporate_name = 'Padaria Central Ltda'`);
    expect(n).toBe(1);
    expect((await create({ ...body, name: "Outra" }, staff, { "Idempotency-Key": key })).status).toBe(409);
  });

  it("two concurrent creations with one key make one account", async () => {
    const key = `race-${Date.now()}`;
    const name = `Corrida ${Date.now()}`;
    const [a, b] = await Promise.all([create({ name, currency: "BRL" }, staff, { "Idempotency-Key": key }), create({ name, currency: "BRL" }, staff, { "Idempotency-Key": key })]);
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(a.body.data.id).toBe(b.body.data.id);
    expect(await query(`SELECT id FROM accounts WHERE name = $1`, [name])).toHaveLength(1);
  });

  it("validation: each field named, translated; an unknown currency; a reseller by the staff", async () => {
    const empty = await create({});
    expect(empty.status).toBe(422);
    expect(Object.keys(empty.body.error.fields).sort()).toEqual(["currency", "name"]);
    expect(empty.body.error.fields.name).toEqual(["Required field"]);
    const bad = await create({ name: "x".repeat(121), billing_email: "não-é-email", currency: "BRL", type: "platform" });
    expect(bad.status).toBe(422);
    expect(bad.body.error.fields).toMatchObject({ billing_email: ["Invalid e-mail"], type: ["Choose one of the options"] });
    expect(Object.keys(bad.body.error.fields).sort()).toEqual(["billing_email", "name", "type"]);
    expect((await create({ name: "Moeda", currency: "XYZ" })).body.error.fields).toEqual({ currency: ["Choose one of the options"] });
    const r = await create({ name: "Revenda Nova", currency: "BRL", type: "reseller" });
    expect(r.status).toBe(201);
    expect(r.body.data.type).toBe("reseller");
  });

  it("a reseller's owner: its new customer is its child; it may not create a reseller; a customer's owner is refused", async () => {
    const res = await create({ name: "Cliente da Revenda Adm", currency: "BRL" }, reseller.token);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data).toMatchObject({ type: "customer", parent_account_id: reseller.accountId });
    expect((await create({ name: "Sub-revenda", currency: "BRL", type: "reseller" }, reseller.token)).status).toBe(403);
    expect((await create({ name: "Não", currency: "BRL" }, owner.token)).status).toBe(403);
    expect(await query(`SELECT id FROM accounts WHERE name IN ('Sub-revenda', 'Não')`)).toEqual([]);
  });
});

describe("search, edit, suspend, attach, delete", () => {
  let mine: string;
  let staffs: string;
  beforeAll(async () => {
    mine = (await create({ name: `Loja Revendida ${Date.now()}`, currency: "BRL" }, reseller.token)).body.data.id;
    staffs = (await create({ name: `Loja da Plataforma ${Date.now()}`, currency: "BRL" })).body.data.id;
  });

  it("search: staff finds every customer, a reseller only its own, a customer's owner 403", async () => {
    const all = await api(`/api/customers/search?q=${encodeURIComponent("Loja ")}&limit=100`, { token: staff });
    expect(all.status).toBe(200);
    const ids = all.body.data.map((c: { id: string }) => c.id);
    expect(ids).toEqual(expect.arrayContaining([mine, staffs]));
    const own = await api(`/api/customers/search?q=${encodeURIComponent("Loja ")}&limit=100`, { token: reseller.token });
    expect(own.body.data.map((c: { id: string }) => c.id)).toEqual([mine]);
    expect((await api("/api/customers/search?q=Loja", { token: owner.token })).status).toBe(403);
  });

  it("edit: names and billing e-mail, audited; validation; a reseller edits its own, 404 on another's; a customer's owner 403", async () => {
    const res = await api(`/api/customers/${mine}`, {
      token: reseller.token,
      method: "PUT",
      body: { corporate_name: "Loja Revendida SA", billing_email: "contas@loja.example" },
      lang: "en",
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ corporate_name: "Loja Revendida SA", billing_email: "contas@loja.example" });
    const [a] = await audits("customers.updated", mine);
    expect(a.user_id).toBe(reseller.userId);
    const bad = await api(`/api/customers/${mine}`, { token: staff, method: "PUT", body: { name: "", status: "deleted" }, lang: "en" });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.error.fields).sort()).toEqual(["name", "status"]);
    expect((await api(`/api/customers/${staffs}`, { token: reseller.token, method: "PUT", body: { name: "Minha" } })).status).toBe(404);
    expect((await api(`/api/customers/${mine}`, { token: otherReseller.token, method: "PUT", body: { name: "Minha" } })).status).toBe(404);
    expect((await api(`/api/customers/${mine}`, { token: owner.token, method: "PUT", body: { name: "Minha" } })).status).toBe(403);
    expect((await api(`/api/customers/${staffs}`, { token: staff })).body.data.name).toMatch(/^Loja da Plataforma/);
  });

  it("attach: a person with a login joins at once (and then uses the customer), again 409; a new e-mail is invited by mail; another reseller's 404", async () => {
    const p = await person("anexo");
    const res = await api(`/api/customers/${mine}/attach`, { token: reseller.token, body: { email: p.email.toUpperCase(), role: "owner" } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data).toMatchObject({ outcome: "attached", user_id: p.userId, role: "owner" });
    const [m] = await query<{ role: string }>(`SELECT role FROM memberships WHERE account_id = $1 AND user_id = $2`, [mine, p.userId]);
    expect(m.role).toBe("owner");
    expect(await audits("customers.user_attached", mine)).toHaveLength(1);
    // The attached owner works in the customer (X-Account-Id picks it).
    const info = await api("/api/accounts/info", { token: p.token, account: mine });
    expect(info.status).toBe(200);
    expect(info.body.id ?? info.body.data?.id).toBe(mine);
    const twice = await api(`/api/customers/${mine}/attach`, { token: reseller.token, body: { email: p.email, role: "admin" }, lang: "en" });
    expect(twice.status).toBe(409);

    const email = uniqueEmail("convidado");
    const inv = await api(`/api/customers/${mine}/attach`, { token: staff, body: { email, role: "billing" } });
    expect(inv.status).toBe(201);
    expect(inv.body.data).toMatchObject({ outcome: "invited", user_id: null });
    const mail = await lastMailTo(email);
    expect(mail.text_body).toContain("/invitation/");
    const [i] = await query<{ account_id: string; role: string }>(`SELECT account_id::text, role FROM invitations WHERE email = $1`, [email]);
    expect(i).toEqual({ account_id: mine, role: "billing" });
    const web = await signIn(reseller.email, reseller.password);
    const page = await web.page(`/admin/customers/${mine}`);
    expect(page.html).toContain(`data-invited="${email}"`);
    expect(page.html).toContain(`data-person="${p.email}"`);

    const bad = await api(`/api/customers/${mine}/attach`, { token: staff, body: { email: "x", role: "king" }, lang: "en" });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.error.fields).sort()).toEqual(["email", "role"]);
    expect((await api(`/api/customers/${mine}/attach`, { token: otherReseller.token, body: { email, role: "admin" } })).status).toBe(404);
    expect((await api(`/api/customers/${mine}/attach`, { token: owner.token, body: { email, role: "admin" } })).status).toBe(403);
  });

  it("suspend: its people are refused everything of it (sending included) until activated; audited both ways", async () => {
    const p = await person("suspenso");
    await api(`/api/customers/${staffs}/attach`, { token: staff, body: { email: p.email, role: "owner" } });
    const code = (await makeShortCode(staffs, { deliverability: ["Vivo"], status: "active" })).number;
    await setAccount(staffs, { balance: 10_000 });
    expect((await api("/api/accounts/info", { token: p.token, account: staffs })).status).toBe(200);

    const res = await api(`/api/customers/${staffs}`, { token: staff, method: "PUT", body: { status: "suspended" } });
    expect(res.status).toBe(200);
    expect(res.body.data.status).toBe("suspended");
    expect(await audits("customers.suspended", staffs)).toHaveLength(1);
    const refused = await api("/api/accounts/info", { token: p.token, account: staffs });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe("CLIENT_INACTIVE");
    const send = await api("/api/sms/messages", { token: p.token, account: staffs, body: { to: "+5511987650001", body: "Oi", from: code } });
    expect(send.status).toBe(403);
    expect(await query(`SELECT id FROM messages WHERE account_id = $1`, [staffs])).toEqual([]);
    // A fresh sign-in reaches its own account, never the suspended one.
    const fresh = await login(p.email, p.password);
    const me = await api("/api/accounts/info", { token: fresh.token });
    expect(me.body.id ?? me.body.data?.id).not.toBe(staffs);

    expect((await api(`/api/customers/${staffs}`, { token: staff, method: "PUT", body: { status: "active" } })).body.data.status).toBe("active");
    expect(await audits("customers.activated", staffs)).toHaveLength(1);
    expect((await api("/api/accounts/info", { token: p.token, account: staffs })).status).toBe(200);
    const sent = await api("/api/sms/messages", { token: p.token, account: staffs, body: { to: "+5511987650001", body: "Oi", from: code } });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
  });

  it("delete: soft — gone from lists and lookups (404), nobody signs in to it, short codes back to the inventory, products cancelled, ledger and messages kept", async () => {
    const victim = (await create({ name: `Para Excluir ${Date.now()}`, currency: "BRL" })).body.data.id;
    const p = await person("excluido");
    await api(`/api/customers/${victim}/attach`, { token: staff, body: { email: p.email, role: "owner" } });
    await setAccount(victim, { balance: 5_000 });
    const sc = await makeShortCode(victim, { deliverability: ["Vivo"] });
    const hired = await api(`/api/customers/${victim}/products`, {
      token: staff,
      body: { channel: "sms", name: "Pacote", billing_cycle: "monthly", currency: "BRL", kind: "credits", credits: 10, price: 100 },
    });
    expect(hired.status).toBe(201);
    const entriesBefore = await query(`SELECT id FROM ledger_entries WHERE account_id = $1`, [victim]);
    expect(entriesBefore.length).toBeGreaterThan(0);

    expect((await api(`/api/customers/${victim}`, { token: reseller.token, method: "DELETE" })).status).toBe(404);
    expect((await api(`/api/customers/${victim}`, { token: owner.token, method: "DELETE" })).status).toBe(403);
    const res = await api(`/api/customers/${victim}`, { token: staff, method: "DELETE" });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toEqual({ id: victim, deleted: true });
    expect((await api(`/api/customers/${victim}`, { token: staff })).status).toBe(404);
    expect((await api(`/api/customers/${victim}`, { token: staff, method: "DELETE" })).status).toBe(404);
    const listed = await api(`/api/customers/search?q=${encodeURIComponent("Para Excluir")}`, { token: staff });
    expect(listed.body.data.map((c: { id: string }) => c.id)).not.toContain(victim);
    const [row] = await query<{ status: string; deleted: boolean }>(`SELECT status, deleted_at IS NOT NULL AS deleted FROM accounts WHERE id = $1`, [victim]);
    expect(row).toEqual({ status: "inactive", deleted: true });
    expect(await query(`SELECT id FROM ledger_entries WHERE account_id = $1`, [victim])).toHaveLength(entriesBefore.length);
    expect(await query("SELECT * FROM ledger_mismatches()")).toEqual([]);
    const [code] = await query<{ account_id: string | null }>(`SELECT account_id FROM short_codes WHERE id = $1`, [sc.id]);
    expect(code.account_id).toBeNull();
    const [prod] = await query<{ status: string }>(`SELECT status FROM customer_products WHERE id = $1`, [hired.body.data.id]);
    expect(prod.status).toBe("cancelled");
    expect((await api("/api/accounts/info", { token: p.token, account: victim })).status).toBe(403);
    expect(await audits("customers.deleted", victim)).toHaveLength(1);
  });

  it("a reseller with customers of its own is not deleted", async () => {
    const r = (await create({ name: `Revenda com filhos ${Date.now()}`, currency: "BRL", type: "reseller" })).body.data.id;
    await query(`UPDATE accounts SET parent_account_id = $1 WHERE id = $2`, [r, (await create({ name: `Filho ${Date.now()}`, currency: "BRL" })).body.data.id]);
    const res = await api(`/api/customers/${r}`, { token: staff, method: "DELETE", lang: "en" });
    expect(res.status).toBe(422);
    expect(res.body.error.fields.form).toHaveLength(1);
  });
});

describe("short codes and numbers of a customer", () => {
  let c: Who;
  beforeAll(async () => {
    c = await person("sc-cliente");
  });
  const body = (number: string) => ({ number, nickname: "Promoções", deliverability: ["Vivo", "Claro", "Vivo"], status: "active", monthly_price: 49_900 });

  it("staff assign one (the customer then lists it), edit it and take it back to the inventory; each audited", async () => {
    const number = randomCode();
    const res = await api(`/api/customers/${c.accountId}/short-codes`, { token: staff, body: body(number) });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const sc = res.body.data;
    expect(res.headers.get("location")).toBe(`/api/customers/${c.accountId}/short-codes/${sc.id}`);
    expect(sc).toMatchObject({ number, nickname: "Promoções", deliverability: ["Vivo", "Claro"], status: "active", monthly_price: 49_900, account_id: c.accountId });
    const mine = await api("/api/sms/short_codes", { token: c.token });
    expect(mine.body.data.map((s: { number: string }) => s.number)).toContain(number);
    expect((await api(`/api/customers/${c.accountId}/short-codes/${sc.id}`, { token: staff })).body.data.number).toBe(number);
    expect((await api(`/api/customers/${c.accountId}/short-codes`, { token: staff })).body.data.map((s: { id: string }) => s.id)).toContain(sc.id);

    const edited = await api(`/api/customers/${c.accountId}/short-codes/${sc.id}`, {
      token: staff,
      method: "PUT",
      body: { status: "inactive", deliverability: ["TIM"], monthly_price: 0 },
    });
    expect(edited.status).toBe(200);
    expect(edited.body.data).toMatchObject({ status: "inactive", deliverability: ["TIM"], monthly_price: 0, nickname: "Promoções" });
    expect(await audits("customers.short_code_assigned", c.accountId)).toHaveLength(1);
    expect(await audits("customers.short_code_updated", c.accountId)).toHaveLength(1);

    const gone = await api(`/api/customers/${c.accountId}/short-codes/${sc.id}`, { token: staff, method: "DELETE" });
    expect(gone.status).toBe(200);
    expect((await api("/api/sms/short_codes", { token: c.token })).body.data.map((s: { number: string }) => s.number)).not.toContain(number);
    expect((await api(`/api/customers/${c.accountId}/short-codes/${sc.id}`, { token: staff })).status).toBe(404);
    const [row] = await query<{ account_id: string | null }>(`SELECT account_id FROM short_codes WHERE number = $1`, [number]);
    expect(row.account_id).toBeNull();
    // Back in the inventory: assignable again, to anyone.
    const other = await person("sc-outro");
    expect((await api(`/api/customers/${other.accountId}/short-codes`, { token: staff, body: body(number) })).status).toBe(201);
    // Now held: another customer cannot have it.
    const taken = await api(`/api/customers/${c.accountId}/short-codes`, { token: staff, body: body(number), lang: "en" });
    expect(taken.status).toBe(422);
    expect(taken.body.error.fields).toEqual({ number: ["Another account holds this short code"] });
  });

  it("validation; a reseller reads its customer's short codes but assigns none; another's 404; a customer's owner 403", async () => {
    const bad = await api(`/api/customers/${c.accountId}/short-codes`, {
      token: staff,
      body: { number: "12", deliverability: ["Nextel"], status: "x", monthly_price: -1 },
      lang: "en",
    });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.error.fields).sort()).toEqual(["deliverability", "monthly_price", "number", "status"]);
    expect(bad.body.error.fields.number).toEqual(["A short code has 4 to 8 digits"]);
    const child = (await create({ name: `Filho SC ${Date.now()}`, currency: "BRL" }, reseller.token)).body.data.id;
    const sc = await makeShortCode(child, { deliverability: ["Vivo"] });
    expect((await api(`/api/customers/${child}/short-codes/${sc.id}`, { token: reseller.token })).status).toBe(200);
    expect((await api(`/api/customers/${child}/short-codes`, { token: reseller.token, body: body(randomCode()) })).status).toBe(403);
    expect((await api(`/api/customers/${child}/short-codes/${sc.id}`, { token: reseller.token, method: "PUT", body: { nickname: "x" } })).status).toBe(403);
    expect((await api(`/api/customers/${child}/short-codes/${sc.id}`, { token: reseller.token, method: "DELETE" })).status).toBe(403);
    expect((await api(`/api/customers/${child}/short-codes/${sc.id}`, { token: otherReseller.token })).status).toBe(404);
    expect((await api(`/api/customers/${c.accountId}/short-codes`, { token: owner.token, body: body(randomCode()) })).status).toBe(403);
    // A short code of another customer, asked under this one: 404.
    expect((await api(`/api/customers/${c.accountId}/short-codes/${sc.id}`, { token: staff })).status).toBe(404);
  });

  it("a WhatsApp number of the customer: read, its monthly price set by the staff (the customer's /numbers/active total follows); a reseller 403 on the price", async () => {
    const [n] = await query<{ id: string }>(
      `INSERT INTO whatsapp_numbers (account_id, integration, phone_number_id, waba_id, display_phone_number, verified_name, secrets_sealed)
       VALUES ($1, 'cloud', $2, '123456', '+55 11 4000-1234', 'Loja Verificada', 'x') RETURNING id::text`,
      [c.accountId, randomCode()],
    );
    const one = await api(`/api/customers/${c.accountId}/numbers/${n.id}`, { token: staff });
    expect(one.status).toBe(200);
    expect(one.body.data).toMatchObject({ id: n.id, display_phone_number: "+55 11 4000-1234", verified_name: "Loja Verificada", integration: "cloud", templates: 0 });
    const res = await api(`/api/customers/${c.accountId}/numbers/${n.id}`, { token: staff, method: "PUT", body: { monthly_price: 12_345 } });
    expect(res.status).toBe(200);
    expect(res.body.data.monthly_price).toBe(12_345);
    expect(await audits("customers.number_updated", c.accountId)).toHaveLength(1);
    expect((await api(`/api/customers/${c.accountId}/numbers`, { token: staff })).body.data.map((x: { id: string }) => x.id)).toEqual([n.id]);
    expect((await api(`/api/customers/${c.accountId}/numbers/${n.id}`, { token: staff, method: "PUT", body: { monthly_price: "caro" }, lang: "en" })).status).toBe(422);
    expect((await api(`/api/customers/${c.accountId}/numbers/${n.id}`, { token: owner.token })).status).toBe(403);
    expect((await api(`/api/customers/${c.accountId}/numbers/${n.id}`, { token: reseller.token })).status).toBe(404);
  });
});

describe("the web forms without JavaScript", () => {
  it("staff: create (errors next to the fields, translated), attach an owner, assign a short code, edit, suspend, activate, delete", async () => {
    const web = await signIn("staff@demo.example");
    const form = await web.page("/admin/customers/create");
    expect(form.res.status).toBe(200);
    const key = /name="key" value="([^"]+)"/.exec(form.html)?.[1];
    expect(key).toMatch(/^[0-9a-f-]{36}$/);
    const bad = await web.post("/admin/customers/create", { name: "", billing_email: "nada", currency: "BRL", type: "customer", key: key! });
    expect(bad.status).toBe(422);
    const html = await bad.text();
    expect(html).toContain("Campo obrigatório");
    expect(html).toContain("E-mail inválido");

    const name = `Empresa Web ${Date.now()}`;
    const ok = await web.post("/admin/customers/create", { name, corporate_name: "Empresa Web Ltda", billing_email: "", currency: "BRL", type: "customer", key: key! });
    expect(ok.status, ok.status === 302 ? "" : (await ok.text()).slice(0, 3000)).toBe(302);
    const [{ id }] = await query<{ id: string }>(`SELECT id::text FROM accounts WHERE name = $1`, [name]);
    expect(location(ok)).toBe(`/admin/customers/${id}`);
    // The same page's key again: no second account.
    expect((await web.post("/admin/customers/create", { name, corporate_name: "Empresa Web Ltda", currency: "BRL", type: "customer", key: key! })).status).toBe(302);
    expect(await query(`SELECT id FROM accounts WHERE name = $1`, [name])).toHaveLength(1);

    const page = `/admin/customers/${id}`;
    const detail = await web.page(page);
    expect(detail.html).toContain("Empresa Web Ltda");
    for (const tab of ["shortcodes", "plans", "products", "invoices"]) expect(detail.html).toContain(`?tab=${tab}`);

    const p = await person("web-dono");
    const attachBad = await web.post(page, { intent: "attach", email: "x", role: "owner" });
    expect(attachBad.status).toBe(422);
    expect(await attachBad.text()).toContain("E-mail inválido");
    expect((await web.post(page, { intent: "attach", email: p.email, role: "owner" })).status).toBe(302);
    expect((await web.page(page)).html).toContain(p.email);

    const number = randomCode();
    const scBad = await web.post(`${page}/short-codes/create`, { number: "1", status: "active", monthly_price: "abc" });
    expect(scBad.status).toBe(422);
    const scHtml = await scBad.text();
    expect(scHtml).toContain("Um short code tem de 4 a 8 dígitos");
    const body = new URLSearchParams({ number, nickname: "Web", status: "active", monthly_price: "990,00" });
    body.append("deliverability", "Vivo");
    body.append("deliverability", "TIM");
    body.set("csrf", web.csrf);
    const sc = await web.request(`${page}/short-codes/create`, { method: "POST", body, headers: { "Content-Type": "application/x-www-form-urlencoded" } });
    expect(sc.status).toBe(302);
    expect(location(sc)).toBe(`${page}?tab=shortcodes`);
    const [code] = await query<{ id: string; deliverability: string[]; monthly_price: number }>(
      `SELECT id::text, deliverability, monthly_price FROM short_codes WHERE number = $1`,
      [number],
    );
    expect(code).toMatchObject({ deliverability: ["Vivo", "TIM"], monthly_price: 99_000 });
    expect((await web.page(`${page}?tab=shortcodes`)).html).toContain(number);
    const scPage = `${page}/short-codes/${code.id}`;
    expect((await web.page(scPage)).res.status).toBe(200);
    expect((await web.post(scPage, { intent: "save", nickname: "Renomeado", deliverability: "Claro", status: "inactive", monthly_price: "10,00" })).status).toBe(302);
    const [edited] = await query<{ nickname: string; status: string; deliverability: string[] }>(`SELECT nickname, status, deliverability FROM short_codes WHERE id = $1`, [
      code.id,
    ]);
    expect(edited).toEqual({ nickname: "Renomeado", status: "inactive", deliverability: ["Claro"] });
    expect((await web.post(scPage, { intent: "delete", id: code.id })).status).toBe(302);
    expect((await query<{ account_id: string | null }>(`SELECT account_id FROM short_codes WHERE id = $1`, [code.id]))[0].account_id).toBeNull();

    expect((await web.post(page, { intent: "save", name: "", corporate_name: "", billing_email: "" })).status).toBe(422);
    expect((await web.post(page, { intent: "save", name, corporate_name: "Nova Razão", billing_email: "cobranca@web.example" })).status).toBe(302);
    expect((await query<{ corporate_name: string; billing_email: string }>(`SELECT corporate_name, billing_email FROM accounts WHERE id = $1`, [id]))[0]).toEqual({
      corporate_name: "Nova Razão",
      billing_email: "cobranca@web.example",
    });
    expect((await web.post(page, { intent: "suspend" })).status).toBe(302);
    expect((await query<{ status: string }>(`SELECT status FROM accounts WHERE id = $1`, [id]))[0].status).toBe("suspended");
    expect((await web.post(page, { intent: "activate" })).status).toBe(302);
    expect((await query<{ status: string }>(`SELECT status FROM accounts WHERE id = $1`, [id]))[0].status).toBe("active");
    const del = await web.post(page, { intent: "delete", id });
    expect(del.status).toBe(302);
    expect(location(del)).toBe("/admin/customers");
    expect((await web.get(page)).status).toBe(404);
  });

  it("a WhatsApp number's page: the staff set its price; a reseller's own customer is open to it, another's 404; a customer's owner /403", async () => {
    const c = await person("web-numero");
    const [n] = await query<{ id: string }>(
      `INSERT INTO whatsapp_numbers (account_id, integration, phone_number_id, waba_id, display_phone_number, verified_name, secrets_sealed)
       VALUES ($1, 'cloud', $2, '654321', '+55 21 3000-0000', 'Numero Web', 'x') RETURNING id::text`,
      [c.accountId, randomCode()],
    );
    const web = await signIn("staff@demo.example");
    const path = `/admin/customers/${c.accountId}/numbers/${n.id}`;
    const page = await web.page(path);
    expect(page.res.status).toBe(200);
    expect(page.html).toContain("Numero Web");
    expect((await web.post(path, { monthly_price: "dez" })).status).toBe(422);
    expect((await web.post(path, { monthly_price: "150,00" })).status).toBe(302);
    expect((await query<{ monthly_price: number }>(`SELECT monthly_price FROM whatsapp_numbers WHERE id = $1`, [n.id]))[0].monthly_price).toBe(15_000);

    const res = await signIn(reseller.email, reseller.password);
    expect((await res.get(path)).status).toBe(404);
    expect((await res.get("/admin/customers/create")).status).toBe(200);
    const demoOwner = await signIn("owner@demo.example");
    for (const p of ["/admin/customers/create", path]) {
      const r = await demoOwner.get(p);
      expect(r.status).toBe(302);
      expect(r.headers.get("location")).toBe("/403");
    }
  });
});
