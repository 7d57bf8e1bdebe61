/**
 * The staff's customers and manual adjustments (issue 18, ADR 046): the platform's staff finds a
 * customer by name, reads its figures, and credits or debits its balance with a reason — one
 * `adjustment` posting of the ledger (two legs: the customer's book and the adjustments book) with
 * the reason and the staff person, an audit entry, the balance moved exactly and the ledger still
 * the balance (ledger_mismatches() empty). A debit applies even below zero. Bad input (zero, too
 * big, a reason missing or too short) is 422 naming the field, translated, and changes nothing; an
 * unknown customer is 404; a retry with the same Idempotency-Key applies once. A reseller sees only
 * its own customers, read-only; a customer's owner gets 403 everywhere. The same through the web
 * screens: the form's per-page key makes a resubmission adjust once; the reseller sees no form; a
 * customer's owner is sent to /403.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { api, login, registerPerson, type Person } from "../support/api";
import { query } from "../support/db";
import { balanceOf, setAccount } from "../support/factories";
import { DEMO_PASSWORD, signIn } from "../support/web";

let staff: string;
let staffId: string;
let customer: Person;

const adjustments = (accountId: string) =>
  query<{ posting: string; book: string; amount: number; kind: string; reason: string; created_by: string; reference: string | null }>(
    `SELECT posting::text, book, amount::int AS amount, kind, reason, created_by::text, reference FROM ledger_entries WHERE account_id = $1 AND kind = 'adjustment' AND created_by IS NOT NULL ORDER BY id`,
    [accountId],
  );
const mismatches = () => query(`SELECT * FROM ledger_mismatches()`);
const adjust = (id: string, body: unknown, token = staff, headers: Record<string, string> = {}) =>
  api(`/api/customers/${id}/adjustments`, { token, method: "POST", body, headers });

beforeAll(async () => {
  staff = (await login("staff@demo.example", DEMO_PASSWORD)).token;
  [{ id: staffId }] = await query<{ id: string }>(`SELECT id::text FROM users WHERE email = 'staff@demo.example'`);
  customer = await registerPerson("adjust");
  await setAccount(customer.accountId, { balance: 1_000, creditLimit: 500 });
});

describe("the staff's customers", () => {
  it("lists customers by name with balance, credit limit, status and plans; the search finds a part of the name, % and _ literally", async () => {
    const res = await api(`/api/customers?q=${encodeURIComponent("demo comércio")}`, { token: staff });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const demo = res.body.data.find((c: { name: string }) => c.name === "Demo Comércio Ltda");
    expect(demo).toMatchObject({ type: "customer", status: "active", currency: "BRL" });
    expect(typeof demo.balance).toBe("number");
    expect(Array.isArray(demo.plans)).toBe(true);
    expect((await api(`/api/customers?q=${encodeURIComponent("%")}`, { token: staff })).body.data.every((c: { name: string }) => c.name.includes("%"))).toBe(true);
    // The platform account itself is nobody's customer.
    const all = await api(`/api/customers?limit=200`, { token: staff });
    expect(all.body.data.every((c: { type: string }) => c.type !== ("platform" as string))).toBe(true);
  });

  it("pages by keyset: the pages follow each other by name with nothing repeated", async () => {
    const first = await api(`/api/customers?limit=2`, { token: staff });
    expect(first.body.data).toHaveLength(2);
    expect(first.body.next_cursor).toEqual(expect.any(String));
    const second = await api(`/api/customers?limit=2&cursor=${encodeURIComponent(first.body.next_cursor)}`, { token: staff });
    expect(second.status).toBe(200);
    const ids = [...first.body.data, ...second.body.data].map((c: { id: string }) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(second.body.data[0].name.localeCompare(first.body.data[1].name, "en", { sensitivity: "base" })).toBeGreaterThanOrEqual(0);
  });

  it("a credit with a reason moves the balance exactly: one posting, two legs, the reason and the staff person; the customer screen shows it", async () => {
    const before = await balanceOf(customer.accountId);
    const res = await adjust(customer.accountId, { amount: 2_500, reason: "  Cortesia pelo atraso de entrega  " });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.headers.get("location")).toBe(`/api/customers/${customer.accountId}`);
    expect(res.body).toMatchObject({
      replayed: false,
      data: { kind: "adjustment", amount: 2_500, reason: "Cortesia pelo atraso de entrega", created_by: staffId, balance_after: before + 2_500 },
    });
    expect(await balanceOf(customer.accountId)).toBe(before + 2_500);
    const legs = await adjustments(customer.accountId);
    expect(legs).toHaveLength(2);
    expect(legs.map((l) => [l.book, l.amount]).sort()).toEqual([
      ["adjustments", -2_500],
      ["customer", 2_500],
    ]);
    expect(new Set(legs.map((l) => l.posting))).toEqual(new Set([res.body.data.posting]));
    expect(legs.every((l) => l.reason === "Cortesia pelo atraso de entrega" && l.created_by === staffId)).toBe(true);
    expect(await mismatches()).toEqual([]);
    const [audit] = await query<{ meta: { customer_id: string; amount: number } }>(
      `SELECT meta FROM audit_logs WHERE action = 'billing.adjustment' AND user_id = $1 AND meta->>'customer_id' = $2`,
      [staffId, customer.accountId],
    );
    expect(audit.meta).toMatchObject({ customer_id: customer.accountId, amount: 2_500 });
    const one = await api(`/api/customers/${customer.accountId}`, { token: staff });
    expect(one.status).toBe(200);
    expect(one.body.data).toMatchObject({ id: customer.accountId, balance: before + 2_500, credit_limit: 500, can_adjust: true });
    expect(one.body.data.entries[0]).toMatchObject({ kind: "adjustment", amount: 2_500, reason: "Cortesia pelo atraso de entrega", created_by_email: "staff@demo.example" });
  });

  it("a debit applies even below zero and past the credit limit (correcting is the staff's job)", async () => {
    const before = await balanceOf(customer.accountId);
    const amount = -(before + 500 + 1_234);
    const res = await adjust(customer.accountId, { amount, reason: "Estorno de crédito concedido por engano" });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data).toMatchObject({ amount, balance_after: -1_734 });
    expect(await balanceOf(customer.accountId)).toBe(-1_734);
    expect((await adjustments(customer.accountId)).filter((l) => l.book === "customer").map((l) => l.amount)).toEqual([2_500, amount]);
    expect(await mismatches()).toEqual([]);
  });

  it("bad input is 422 naming the field, translated, and changes nothing", async () => {
    const before = await balanceOf(customer.accountId);
    const legs = (await adjustments(customer.accountId)).length;
    const cases: Array<[unknown, string, RegExp]> = [
      [{ amount: 0, reason: "Motivo qualquer" }, "amount", /zero/i],
      [{ amount: 10_000_001, reason: "Motivo qualquer" }, "amount", /100\.000,00/],
      [{ amount: -10_000_001, reason: "Motivo qualquer" }, "amount", /100\.000,00/],
      [{ amount: 12.5, reason: "Motivo qualquer" }, "amount", /inteiro/i],
      [{ amount: 100 }, "reason", /obrigat/i],
      [{ amount: 100, reason: "  ok  " }, "reason", /3/],
      [{ amount: 100, reason: "x".repeat(501) }, "reason", /500/],
    ];
    for (const [body, field, message] of cases) {
      const res = await api(`/api/customers/${customer.accountId}/adjustments`, { token: staff, method: "POST", body, lang: "pt-BR" });
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.error.fields[field]?.join(" "), JSON.stringify(res.body)).toMatch(message);
    }
    expect(await balanceOf(customer.accountId)).toBe(before);
    expect(await adjustments(customer.accountId)).toHaveLength(legs);
    // A 10,000,000 adjustment (R$ 100.000,00) is the most either way.
    expect((await adjust(customer.accountId, { amount: 10_000_000, reason: "Limite máximo" })).status).toBe(201);
    expect((await adjust(customer.accountId, { amount: -10_000_000, reason: "Limite máximo desfeito" })).status).toBe(201);
    expect(await balanceOf(customer.accountId)).toBe(before);
  });

  it("an unknown customer is 404; the platform account is no customer", async () => {
    expect((await adjust("00000000-0000-4000-8000-000000000000", { amount: 100, reason: "Ninguém" })).status).toBe(404);
    expect((await adjust("not-a-uuid", { amount: 100, reason: "Ninguém" })).status).toBe(404);
    expect((await api(`/api/customers/00000000-0000-4000-8000-000000000000`, { token: staff })).status).toBe(404);
    const [{ id: platform }] = await query<{ id: string }>(`SELECT id::text FROM accounts WHERE type = 'platform' LIMIT 1`);
    expect((await adjust(platform, { amount: 100, reason: "Plataforma" })).status).toBe(404);
  });

  it("a retry with the same Idempotency-Key applies once; the key with another amount is 409", async () => {
    const before = await balanceOf(customer.accountId);
    const key = `retry-${Date.now()}`;
    const first = await adjust(customer.accountId, { amount: 700, reason: "Bônus de campanha" }, staff, { "Idempotency-Key": key });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    const again = await adjust(customer.accountId, { amount: 700, reason: "Bônus de campanha" }, staff, { "Idempotency-Key": key });
    expect(again.status).toBe(201);
    expect(again.body).toMatchObject({ replayed: true, data: { posting: first.body.data.posting, balance_after: before + 700 } });
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect((await adjust(customer.accountId, { amount: 800, reason: "Bônus de campanha" }, staff, { "Idempotency-Key": key })).status).toBe(409);
    expect(await balanceOf(customer.accountId)).toBe(before + 700);
    expect((await adjustments(customer.accountId)).filter((l) => l.reference === `idempotency:${key}`)).toHaveLength(2);
    expect(await mismatches()).toEqual([]);
  });

  it("a reseller sees only its own customers, read-only: never others, never adjusts", async () => {
    const reseller = (await login("reseller@demo.example", DEMO_PASSWORD)).token;
    const [{ id: resellerId }] = await query<{ id: string }>(`SELECT id::text FROM accounts WHERE name = 'Revenda Azul' AND type = 'reseller'`);
    const [{ id: childId }] = await query<{ id: string }>(`SELECT id::text FROM accounts WHERE parent_account_id = $1 AND name = 'Cliente da Revenda'`, [resellerId]);
    const list = await api(`/api/customers?limit=200`, { token: reseller });
    expect(list.status, JSON.stringify(list.body)).toBe(200);
    expect(list.body.data.map((c: { name: string }) => c.name)).toContain("Cliente da Revenda");
    expect(list.body.data.every((c: { parent_account_id: string }) => c.parent_account_id === resellerId)).toBe(true);
    const one = await api(`/api/customers/${childId}`, { token: reseller });
    expect(one.status).toBe(200);
    expect(one.body.data.can_adjust).toBe(false);
    expect((await api(`/api/customers/${customer.accountId}`, { token: reseller })).status).toBe(404);
    const before = await balanceOf(childId);
    expect((await adjust(childId, { amount: 100, reason: "Revenda tentando" }, reseller)).status).toBe(403);
    expect(await balanceOf(childId)).toBe(before);
  });

  it("a customer's owner gets 403 on all three", async () => {
    const owner = (await login("owner@demo.example", DEMO_PASSWORD)).token;
    const [{ id: demoId }] = await query<{ id: string }>(`SELECT id::text FROM accounts WHERE name = 'Demo Comércio Ltda'`);
    const before = await balanceOf(demoId);
    expect((await api(`/api/customers`, { token: owner })).status).toBe(403);
    expect((await api(`/api/customers/${demoId}`, { token: owner })).status).toBe(403);
    expect((await adjust(demoId, { amount: 100_000, reason: "Eu mesmo" }, owner)).status).toBe(403);
    expect(await balanceOf(demoId)).toBe(before);
  });
  it("on the web: the staff's form adjusts once per page (a resubmission replays); a reseller reads its own customers without the form; a customer's owner is sent to /403", async () => {
    const web = await signIn("staff@demo.example");
    const before = await balanceOf(customer.accountId);
    const path = `/admin/customers/${customer.accountId}`;
    const { html } = await web.page(path);
    const key = /name="key" value="([^"]+)"/.exec(html)?.[1];
    expect(key).toMatch(/^[0-9a-f-]{36}$/);
    const fields = { amount: "-12,34", reason: "Débito de teste pela web", key: key! };
    const first = await web.post(path, fields);
    expect(first.status).toBe(302);
    expect(first.headers.get("location")).toBe(`${path}?adjusted=-1234&balance=${before - 1_234}`);
    expect((await web.post(path, fields)).status).toBe(302);
    expect(await balanceOf(customer.accountId)).toBe(before - 1_234);
    const bad = await web.post(path, { amount: "doze", reason: "Motivo", key: "k" });
    expect(bad.status).toBe(422);
    expect(await balanceOf(customer.accountId)).toBe(before - 1_234);

    const reseller = await signIn("reseller@demo.example");
    const list = await reseller.page("/admin/customers");
    expect(list.res.status).toBe(200);
    expect(list.html).toContain("Cliente da Revenda");
    expect(list.html).not.toContain("Demo Comércio Ltda");
    const [{ id: childId }] = await query<{ id: string }>(`SELECT id::text FROM accounts WHERE name = 'Cliente da Revenda'`);
    const child = await reseller.page(`/admin/customers/${childId}`);
    expect(child.res.status).toBe(200);
    expect(child.html).not.toContain('name="reason"');
    const childBefore = await balanceOf(childId);
    expect((await reseller.post(`/admin/customers/${childId}`, { amount: "10,00", reason: "Revenda pela web" })).status).toBe(403);
    expect(await balanceOf(childId)).toBe(childBefore);
    expect((await reseller.get(path)).status).toBe(404);

    const owner = await signIn("owner@demo.example");
    for (const p of ["/admin/customers", path]) {
      const res = await owner.get(p);
      expect(res.status).toBe(302);
      expect(res.headers.get("location")).toBe("/403");
    }
  });
});
