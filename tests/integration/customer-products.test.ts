/**
 * Products per customer (issue 18, ADR 048). The platform's staff hire, read, edit and cancel a
 * customer's products over the API (validation errors named and translated, 403 for anyone else,
 * 404 for another customer's product); hiring debits the price as one `product` posting (402 and
 * nothing written when balance + credit limit do not cover it) and the ledger stays the balance.
 * Sends consume credits before the balance — one SMS, a list crossing the credit boundary,
 * concurrent one-number sends that never take credits below 0, e-mail — and an unlimited product
 * makes them free. A covered message that fails before the provider takes it gives its credit
 * back (the dispatcher's failure), as a cancelled campaign's do. The renewal, with a controlled
 * clock, charges once per period even when two runs race, resets the credits, and suspends a
 * product whose renewal the balance cannot pay. The customer reads its products
 * (GET /api/customer/products; owner, admin and finance only).
 */
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { api, giveShortCode, login, registerPerson, type Person } from "../support/api";
import { query } from "../support/db";
import { validatedDomain } from "../support/email";
import { balanceOf, giveOmni, makeGroupWithContacts, setAccount, setMember, setMessages } from "../support/factories";
import { DEMO_PASSWORD } from "../support/web";

process.env.DATABASE_URL = inject("databaseUrl");
const { renewProducts } = await import("../../api/products/products");
// After DATABASE_URL: the WhatsApp helpers load api modules that read the environment once.
const { approvedTemplate, connectCloudNumber, digits, handset } = await import("../support/whatsapp");
const { closeDb } = await import("../../models/db");

const T1 = 8;
type Who = Person & { token: string; from: string };

let staff: string;
let staffId: string;
let seq = 20_000_000 + Math.floor(Math.random() * 40_000_000);
const nextNumber = () => `+55119${String(seq++).padStart(8, "0")}`;

async function customer(tag: string, balance: number, creditLimit = 0): Promise<Who> {
  const p = await registerPerson(tag);
  await setAccount(p.accountId, { balance, creditLimit });
  return { ...p, token: (await login(p.email, p.password)).token, from: await giveShortCode(p.accountId) };
}
const hire = (accountId: string, body: Record<string, unknown>, token = staff, lang = "en") => api(`/api/customers/${accountId}/products`, { token, method: "POST", body, lang });
const sms = { channel: "sms", name: "Pacote SMS", billing_cycle: "monthly", currency: "BRL", kind: "credits" };
const product = async (id: string) =>
  (
    await query<{ credits_left: number | null; status: string; period_start: Date; period_end: Date | null }>(
      "SELECT credits_left, status, period_start, period_end FROM customer_products WHERE id = $1",
      [id],
    )
  )[0];
const productEntries = (accountId: string) =>
  query<{ posting: string; book: string; amount: number; reference: string; created_by: string | null }>(
    "SELECT posting::text, book, amount::int AS amount, reference, created_by::text FROM ledger_entries WHERE account_id = $1 AND kind = 'product' ORDER BY id",
    [accountId],
  );
const mismatches = () => query("SELECT * FROM ledger_mismatches()");
const messagesOf = (ids: string[]) =>
  query<{ id: string; price: number; product_id: string | null; status: string }>(
    "SELECT id, price::int AS price, product_id::text, status FROM messages WHERE id = ANY($1::uuid[])",
    [ids],
  );

beforeAll(async () => {
  staff = (await login("staff@demo.example", DEMO_PASSWORD)).token;
  [{ id: staffId }] = await query<{ id: string }>(`SELECT id::text FROM users WHERE email = 'staff@demo.example'`);
});
afterAll(async () => {
  await closeDb();
});

describe("staff: hiring, reading, editing, cancelling", () => {
  let c: Who;
  beforeAll(async () => {
    c = await customer("prodcrud", 10_000);
  });

  it("hires a product: 201 with Location, the price debited as one `product` posting of two legs by the staff person, the ledger still the balance", async () => {
    const res = await hire(c.accountId, { ...sms, credits: 1_000, price: 1_990 });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const p = res.body.data;
    expect(res.headers.get("location")).toBe(`/api/customers/${c.accountId}/products/${p.id}`);
    expect(p).toMatchObject({
      account_id: c.accountId,
      channel: "sms",
      kind: "credits",
      credits: 1_000,
      credits_left: 1_000,
      price: 1_990,
      status: "active",
      billing_cycle: "monthly",
    });
    // The first period starts at today's São Paulo midnight (03:00 UTC) and ends a calendar month later.
    expect(new Date(p.period_start).getUTCHours()).toBe(3);
    expect(p.period_end).not.toBeNull();
    expect(await balanceOf(c.accountId)).toBe(10_000 - 1_990);
    const legs = await productEntries(c.accountId);
    expect(legs.map((l) => [l.book, l.amount]).sort()).toEqual([
      ["customer", -1_990],
      ["revenue", 1_990],
    ]);
    expect(new Set(legs.map((l) => l.posting)).size).toBe(1);
    expect(legs[0]).toMatchObject({ reference: `product:${p.id}`, created_by: staffId });
    expect(await mismatches()).toEqual([]);
    const [audit] = await query<{ meta: { product_id: string } }>("SELECT meta FROM audit_logs WHERE action = 'billing.product_hired' AND meta->>'product_id' = $1", [p.id]);
    expect(audit.meta.product_id).toBe(p.id);
  });

  it("lists, reads, edits (credits left move by the difference) and cancels; a cancelled product is not edited and covers nothing", async () => {
    const { body } = await hire(c.accountId, { ...sms, name: "Editável", credits: 100, price: 0 });
    const id = body.data.id;
    const list = await api(`/api/customers/${c.accountId}/products`, { token: staff });
    expect(list.status).toBe(200);
    expect(list.body.data.map((p: { id: string }) => p.id)).toContain(id);
    expect((await api(`/api/customers/${c.accountId}/products/${id}`, { token: staff })).body.data.name).toBe("Editável");
    const edited = await api(`/api/customers/${c.accountId}/products/${id}`, { token: staff, method: "PUT", body: { name: "Editado", credits: 150, price: 500 } });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(edited.body.data).toMatchObject({ name: "Editado", credits: 150, credits_left: 150, price: 500 });
    const before = await balanceOf(c.accountId);
    const cancelled = await api(`/api/customers/${c.accountId}/products/${id}`, { token: staff, method: "DELETE" });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.data).toMatchObject({ status: "cancelled", renews_at: null });
    // Nothing charged or returned by editing or cancelling.
    expect(await balanceOf(c.accountId)).toBe(before);
    const again = await api(`/api/customers/${c.accountId}/products/${id}`, { token: staff, method: "PUT", body: { name: "Outro" }, lang: "en" });
    expect(again.status).toBe(422);
    expect(again.body.error.fields).toEqual({ form: ["This product is cancelled"] });
  });

  it("refuses bad input with 422 naming each field in the person's language; nothing written", async () => {
    const count = async () => (await query<{ n: number }>("SELECT count(*)::int AS n FROM customer_products WHERE account_id = $1", [c.accountId]))[0].n;
    const before = await count();
    const empty = await hire(c.accountId, {});
    expect(empty.status).toBe(422);
    expect(empty.body.error.code).toBe("VALIDATION");
    expect(Object.keys(empty.body.error.fields).sort()).toEqual(["billing_cycle", "channel", "currency", "kind", "name", "price"]);
    const noCredits = await hire(c.accountId, { ...sms, price: 100 });
    expect(noCredits.body.error.fields).toEqual({ credits: ["Credits are required for a credits product"] });
    const currency = await hire(c.accountId, { ...sms, credits: 10, price: 100, currency: "USD" }, staff, "pt-BR");
    expect(currency.body.error.fields).toEqual({ currency: ["A moeda do cliente é BRL"] });
    const bad = await hire(c.accountId, { ...sms, channel: "fax", credits: -1, price: 1.5, name: "x".repeat(101) });
    expect(Object.keys(bad.body.error.fields).sort()).toEqual(["channel", "credits", "name", "price"]);
    expect(await count()).toBe(before);
  });

  it("402 when balance + credit limit do not cover the price: no product, no entry, the balance unchanged", async () => {
    const poor = await customer("prodpoor", 500, 1_000);
    const res = await hire(poor.accountId, { ...sms, credits: 10, price: 1_501 });
    expect(res.status).toBe(402);
    expect(res.body.error.code).toBe("INSUFFICIENT_BALANCE");
    expect(res.body.error.fields).toEqual({ price: ["The customer's balance and credit limit do not cover this price"] });
    expect(await query("SELECT id FROM customer_products WHERE account_id = $1", [poor.accountId])).toEqual([]);
    expect(await productEntries(poor.accountId)).toEqual([]);
    expect(await balanceOf(poor.accountId)).toBe(500);
    // Exactly covered by the credit limit: hired, the balance below zero.
    expect((await hire(poor.accountId, { ...sms, credits: 10, price: 1_500 })).status).toBe(201);
    expect(await balanceOf(poor.accountId)).toBe(-1_000);
    expect(await mismatches()).toEqual([]);
  });

  it("only the platform's staff: a customer's owner gets 403; another customer's product, an unknown or malformed id is 404", async () => {
    const other = await customer("prodother", 0);
    const { body } = await hire(c.accountId, { ...sms, credits: 5, price: 0 });
    expect((await hire(c.accountId, { ...sms, credits: 5, price: 0 }, c.token)).status).toBe(403);
    expect((await api(`/api/customers/${c.accountId}/products`, { token: c.token })).status).toBe(403);
    expect((await api(`/api/customers/${c.accountId}/products/${body.data.id}`, { token: c.token, method: "DELETE" })).status).toBe(403);
    expect((await api(`/api/customers/${other.accountId}/products/${body.data.id}`, { token: staff })).status).toBe(404);
    expect((await api(`/api/customers/${other.accountId}/products/${body.data.id}`, { token: staff, method: "PUT", body: { name: "x" } })).status).toBe(404);
    expect((await api(`/api/customers/${c.accountId}/products/not-a-uuid`, { token: staff })).status).toBe(404);
    expect((await api(`/api/customers/00000000-0000-4000-8000-000000000009/products`, { token: staff })).status).toBe(404);
  });

  it("the customer reads its own products (owner, finance); an agent of the account is refused", async () => {
    const mine = await api("/api/customer/products", { token: c.token });
    expect(mine.status).toBe(200);
    expect(mine.body.data.length).toBeGreaterThan(0);
    expect(mine.body.data.every((p: { account_id: string }) => p.account_id === c.accountId)).toBe(true);
    // /billing lists the ones held now (not cancelled), with their credits left.
    const billing = await api("/api/billing", { token: c.token });
    expect(billing.status).toBe(200);
    const held = mine.body.data.filter((p: { status: string }) => p.status !== "cancelled");
    expect(billing.body.products.map((p: { id: string }) => p.id).sort()).toEqual(held.map((p: { id: string }) => p.id).sort());
    expect(held.length).toBeGreaterThan(0);
    await setMember(c.accountId, c.userId, { role: "agent" });
    const agent = (await login(c.email, c.password)).token;
    expect((await api("/api/customer/products", { token: agent })).status).toBe(403);
    await setMember(c.accountId, c.userId, { role: "billing" });
    const finance = (await login(c.email, c.password)).token;
    expect((await api("/api/customer/products", { token: finance })).status).toBe(200);
    await setMember(c.accountId, c.userId, { role: "owner" });
  });
});

describe("consumption at accept", () => {
  it("a one-number SMS is covered (price 0, the product recorded, no debit); a list crossing the boundary: the first covered, the rest debited", async () => {
    const c = await customer("prodsms", 10_000);
    const p = (await hire(c.accountId, { ...sms, credits: 3, price: 0 })).body.data;
    const one = await api("/api/sms/messages", { token: c.token, body: { to: nextNumber(), body: "Código 1234", from: c.from } });
    expect(one.status, JSON.stringify(one.body)).toBe(200);
    expect(one.body).toMatchObject({ total_price: 0 });
    expect(one.body.data[0].price).toBe(0);
    expect(await messagesOf([one.body.data[0].id])).toEqual([expect.objectContaining({ price: 0, product_id: p.id })]);
    expect((await product(p.id)).credits_left).toBe(2);
    expect(await balanceOf(c.accountId)).toBe(10_000);

    const to = [nextNumber(), nextNumber(), nextNumber(), nextNumber()];
    const list = await api("/api/sms/messages", { token: c.token, body: { to, body: "Promoção", from: c.from } });
    expect(list.status, JSON.stringify(list.body)).toBe(200);
    expect(list.body.data.map((m: { price: number }) => m.price)).toEqual([0, 0, T1, T1]);
    expect(list.body.total_price).toBe(2 * T1);
    const rows = new Map((await messagesOf(list.body.data.map((m: { id: string }) => m.id))).map((m) => [m.id, m]));
    expect(list.body.data.map((m: { id: string }) => rows.get(m.id)!.product_id)).toEqual([p.id, p.id, null, null]);
    expect((await product(p.id)).credits_left).toBe(0);
    expect(await balanceOf(c.accountId)).toBe(10_000 - 2 * T1);
    // Spent: the next one-number send is debited as before.
    const after = await api("/api/sms/messages", { token: c.token, body: { to: nextNumber(), body: "Oi", from: c.from } });
    expect(after.body.total_price).toBe(T1);
    expect(await balanceOf(c.accountId)).toBe(10_000 - 3 * T1);
    expect(await mismatches()).toEqual([]);
  });

  it("a group send is covered set-based in order: the first contacts by the credits left, the rest debited", async () => {
    const c = await customer("prodgroup", 10_000);
    const p = (await hire(c.accountId, { ...sms, credits: 3, price: 0 })).body.data;
    const { groupId } = await makeGroupWithContacts(
      c.accountId,
      "Clientes VIP",
      Array.from({ length: 5 }, () => ({ mobileNumber: nextNumber() })),
    );
    const res = await api("/api/sms/messages", { token: c.token, body: { group_id: groupId, body: "Oferta", from: c.from } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.total_price).toBe(2 * T1);
    const rows = await query<{ price: number; product_id: string | null }>("SELECT price::int AS price, product_id::text FROM messages WHERE campaign_id = $1", [
      res.body.campaign_id,
    ]);
    expect(rows.filter((m) => m.product_id === p.id && m.price === 0)).toHaveLength(3);
    expect(rows.filter((m) => m.product_id === null && m.price === T1)).toHaveLength(2);
    expect((await product(p.id)).credits_left).toBe(0);
    expect(await balanceOf(c.accountId)).toBe(10_000 - 2 * T1);
    expect(await mismatches()).toEqual([]);
  });

  it("concurrent one-number sends never take credits below 0: exactly the credits are covered, the rest debited", async () => {
    const c = await customer("prodrace", 10_000);
    const p = (await hire(c.accountId, { ...sms, credits: 5, price: 0 })).body.data;
    const answers = await Promise.all(Array.from({ length: 16 }, () => api("/api/sms/messages", { token: c.token, body: { to: nextNumber(), body: "Oi", from: c.from } })));
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
    const ids = answers.map((a) => a.body.data[0].id as string);
    const rows = await messagesOf(ids);
    expect(rows.filter((m) => m.product_id === p.id && m.price === 0)).toHaveLength(5);
    expect(rows.filter((m) => m.product_id === null && m.price === T1)).toHaveLength(11);
    expect((await product(p.id)).credits_left).toBe(0);
    expect(await balanceOf(c.accountId)).toBe(10_000 - 11 * T1);
    expect(await mismatches()).toEqual([]);
  });

  it("an e-mail is one credit of an e-mail product; past the credits the balance pays", async () => {
    const c = await customer("prodmail", 10_000);
    const { domain } = await validatedDomain(c.token);
    const p = (await hire(c.accountId, { ...sms, channel: "email", name: "E-mails", credits: 2, price: 0 })).body.data;
    const res = await api("/api/email/messages", {
      token: c.token,
      body: { from: `loja@${domain}`, to: ["ana@example.com", "bia@example.com", "caio@example.com"], subject: "Oi", text: "Olá" },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    const priced = res.body.data.messages.map((m: { price: number }) => m.price);
    expect(priced.slice(0, 2)).toEqual([0, 0]);
    expect(priced[2]).toBeGreaterThan(0);
    expect(res.body.data.total_price).toBe(priced[2]);
    expect((await product(p.id)).credits_left).toBe(0);
    expect(await balanceOf(c.accountId)).toBe(10_000 - priced[2]);
    const rows = await messagesOf(res.body.data.messages.map((m: { id: string }) => m.id));
    expect(rows.filter((m) => m.product_id === p.id)).toHaveLength(2);
  });

  it("a WhatsApp template message is one credit of a WhatsApp product: one-number sends, then a campaign crossing the boundary", async () => {
    const c = await customer("prodwa", 100_000);
    await giveOmni(c.accountId);
    const n = await connectCloudNumber(c.token);
    const name = `pedido_${digits(6)}`;
    await approvedTemplate(n, { name, body: "Olá {{1}}", body_examples: ["Ana"] });
    const tpl = { name, language: "pt_BR", variables: ["Ana"] };
    const p = (await hire(c.accountId, { ...sms, channel: "whatsapp", name: "WhatsApp", credits: 3, price: 0 })).body.data;
    const one = await api("/api/whatsapp/messages", { token: c.token, body: { from: n.phoneNumberId, to: handset(), type: "template", template: tpl } });
    expect(one.status, JSON.stringify(one.body)).toBe(202);
    expect(one.body.data.price).toBe(0);
    const many = await api("/api/whatsapp/campaigns", {
      token: c.token,
      body: { from: n.phoneNumberId, to: [handset(), handset(), handset(), handset()], template: tpl },
    });
    expect(many.status, JSON.stringify(many.body)).toBe(201);
    const priced = await query<{ price: string; product_id: string | null }>(`SELECT price, product_id FROM messages WHERE campaign_id = $1 ORDER BY created_at, id`, [
      many.body.data.campaign_id,
    ]);
    const covered = priced.filter((m) => m.product_id === p.id);
    const paid = priced.filter((m) => m.product_id === null);
    expect([covered.length, paid.length]).toEqual([2, 2]);
    expect(covered.every((m) => Number(m.price) === 0)).toBe(true);
    const unit = Number(paid[0].price);
    expect(unit).toBeGreaterThan(0);
    expect(many.body.data.total_price).toBe(2 * unit);
    expect((await messagesOf([one.body.data.id]))[0].product_id).toBe(p.id);
    expect((await product(p.id)).credits_left).toBe(0);
    expect(await balanceOf(c.accountId)).toBe(100_000 - 2 * unit);
    expect(await mismatches()).toEqual([]);
  });

  it("an unlimited product makes its channel's sends free during its period (one number, a list)", async () => {
    const c = await customer("produnl", 1_000);
    await hire(c.accountId, { ...sms, kind: "unlimited", name: "SMS ilimitado", price: 0 });
    const one = await api("/api/sms/messages", { token: c.token, body: { to: nextNumber(), body: "Oi", from: c.from } });
    const list = await api("/api/sms/messages", { token: c.token, body: { to: [nextNumber(), nextNumber(), nextNumber()], body: "Oi", from: c.from } });
    expect([one.body.total_price, list.body.total_price]).toEqual([0, 0]);
    expect(await balanceOf(c.accountId)).toBe(1_000);
  });
});

describe("credits given back", () => {
  it("a covered message that fails before the provider takes it (the dispatcher) returns its credit; a cancelled campaign's covered messages too", async () => {
    const c = await customer("prodfail", 10_000);
    const p = (await hire(c.accountId, { ...sms, credits: 3, price: 0 })).body.data;
    const later = new Date(Date.now() + 3_600_000).toISOString();
    const one = await api("/api/sms/messages", { token: c.token, body: { to: nextNumber(), body: "Oi", from: c.from, scheduled_at: later } });
    expect(one.status, JSON.stringify(one.body)).toBe(200);
    const id = one.body.data[0].id as string;
    expect((await product(p.id)).credits_left).toBe(2);
    // The provider refuses +15005550001 (invalid number) at submit; the API does not accept that
    // number, so the scheduled message is pointed at it and made due here (a factory).
    await setMessages([id], { recipient: "+15005550001", scheduledAt: new Date() });
    await expect.poll(async () => (await messagesOf([id]))[0].status, { timeout: 30_000, interval: 200 }).toBe("failed");
    await expect.poll(async () => (await product(p.id)).credits_left, { timeout: 5_000, interval: 100 }).toBe(3);
    expect(await balanceOf(c.accountId)).toBe(10_000);

    const campaign = await api("/api/sms/messages", { token: c.token, body: { to: [nextNumber(), nextNumber()], body: "Oi", from: c.from, scheduled_at: later } });
    expect((await product(p.id)).credits_left).toBe(1);
    const cancel = await api(`/api/sms/campaigns/${campaign.body.campaign_id}`, { token: c.token, method: "PUT", body: { status: "canceled" } });
    expect(cancel.status, JSON.stringify(cancel.body)).toBe(200);
    expect((await product(p.id)).credits_left).toBe(3);
    expect(await mismatches()).toEqual([]);
  }, 60_000);
});

describe("renewals (controlled clock)", () => {
  it("charges once per period even when two runs race, resets the credits and moves the period; unpaid, the product is suspended", async () => {
    const c = await customer("prodrenew", 5_000);
    const p = (await hire(c.accountId, { ...sms, billing_cycle: "weekly", credits: 10, price: 1_000 })).body.data;
    await api("/api/sms/messages", { token: c.token, body: { to: nextNumber(), body: "Oi", from: c.from } });
    expect((await product(p.id)).credits_left).toBe(9);
    const end = new Date(p.period_end).getTime();
    // Before the period's end: nothing.
    expect(await renewProducts(new Date(end - 1_000), c.accountId)).toEqual({ renewed: 0, suspended: 0 });
    const at = new Date(end + 60_000);
    const [a, b] = await Promise.all([renewProducts(at, c.accountId), renewProducts(at, c.accountId)]);
    expect(a.renewed + b.renewed).toBe(1);
    expect(await renewProducts(at, c.accountId)).toEqual({ renewed: 0, suspended: 0 });
    const renewed = await product(p.id);
    expect(renewed).toMatchObject({ credits_left: 10, status: "active" });
    expect(renewed.period_start.getTime()).toBe(end);
    expect(renewed.period_end!.getTime()).toBe(end + 7 * 86_400_000);
    const legs = (await productEntries(c.accountId)).filter((l) => l.book === "customer");
    expect(legs.map((l) => l.amount)).toEqual([-1_000, -1_000]);
    // The hire and one renewal; the send was covered.
    expect(await balanceOf(c.accountId)).toBe(5_000 - 2_000);

    // The next period's price is not covered: suspended (no credits, nothing charged), its sends debited from the balance.
    await setAccount(c.accountId, { balance: 999 });
    expect(await renewProducts(new Date(renewed.period_end!.getTime() + 60_000), c.accountId)).toEqual({ renewed: 0, suspended: 1 });
    expect(await product(p.id)).toMatchObject({ status: "suspended", credits_left: 0 });
    expect(await balanceOf(c.accountId)).toBe(999);
    expect(await mismatches()).toEqual([]);
  });
});
