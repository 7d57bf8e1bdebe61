/**
 * Provider costs and the margin of /admin/sms/sales (issue 23, ADR 070). Platform staff record what
 * a connection charges per segment on a route from a start on (API and the no-JavaScript form of
 * /admin/providers); a cost change is a new cost, so messages sent before it keep the old one. Sales
 * then tells cost = segments × the cost in force when each message was sent, and margin = revenue −
 * cost (and its rate), exactly; a message without a known cost makes its row "cost unknown". A
 * reseller sees its customers' revenue but no cost or margin; a customer's owner is refused.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, login, registerPerson, type Person } from "../support/api";
import { query } from "../support/db";
import { makeMessages, setAccount, type MessageFields } from "../support/factories";
import { DEMO_PASSWORD, location, signIn } from "../support/web";

const spToday = () => new Intl.DateTimeFormat("en-CA", { timeZone: "America/Sao_Paulo", year: "numeric", month: "2-digit", day: "2-digit" }).format(new Date());
const addDays = (day: string, n: number) => new Date(Date.parse(`${day}T12:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

const tag = Date.now().toString(36).slice(-6);
/** A connection only this file's messages name as their provider. */
const PROVIDER = `cost_${tag}`;
let staff: string;
let reseller: string;
let resellerPerson: Person;
let owner: string;
let connectionId: string;
const people: Record<"a" | "b", Person> = {} as never;
/** A São Paulo day of the past, the one the messages were sent on. */
let day: string;
const at = (d: string, hhmm: string) => `${d}T${hhmm}:00-03:00`;

beforeAll(async () => {
  staff = (await login("staff@demo.example", DEMO_PASSWORD)).token;
  // A reseller of its own (the demo reseller's figures belong to other files), with A as its customer.
  resellerPerson = await registerPerson("revendacusto");
  await setAccount(resellerPerson.accountId, { type: "reseller" });
  reseller = (await login(resellerPerson.email, resellerPerson.password)).token;
  people.a = await registerPerson("custoa");
  people.b = await registerPerson("custob");
  owner = (await login(people.a.email, people.a.password)).token;
  await query(`UPDATE accounts SET parent_account_id = $1 WHERE id = $2`, [resellerPerson.accountId, people.a.accountId]);
  const created = await api("/api/admin/providers", { token: staff, body: { name: PROVIDER, kind: "simulator", enabled: false } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  connectionId = created.body.data.id;
  day = addDays(spToday(), -20);
  const sms = (f: MessageFields, hhmm: string): MessageFields => ({
    provider: PROVIDER,
    currency: "BRL",
    createdAt: at(day, hhmm),
    sentAt: at(day, hhmm),
    status: "delivered",
    ...f,
  });
  // A (the reseller's customer): T1 before and after the cost change at 12:00; a failure before sending and an opt-out are not charged.
  await makeMessages(people.a.accountId, [
    sms({ route: "T1", segments: 2, price: 20 }, "10:00"),
    sms({ route: "T1", segments: 1, price: 10 }, "14:00"),
    sms({ route: "T1", segments: 1, price: 10, status: "failed", sentAt: null, errorCode: "dispatch_failed" }, "15:00"),
    sms({ route: "T1", segments: 1, price: 0, status: "optout", provider: null, sentAt: null }, "15:30"),
  ]);
  // B: one T1 after the change, one T2 (no cost recorded for T2).
  await makeMessages(people.b.accountId, [sms({ route: "T1", segments: 3, price: 24 }, "16:00"), sms({ route: "T2", segments: 1, price: 8 }, "16:00")]);
});

afterAll(async () => {
  await query(`DELETE FROM provider_costs WHERE provider = $1`, [PROVIDER]);
});

const costs = (path = "") => `/api/admin/providers/${connectionId}/costs${path}`;
const addCost = (body: Record<string, unknown>, token = staff) => api(costs(), { token, body, lang: "en" });
const sales = (query: string, token = staff) => api(`/api/admin/sms/sales?from=${day}&to=${day}&${query}`, { token, lang: "en" });

describe("provider costs over the API", () => {
  it("staff record costs (the first may start in the past, a change is a new cost after the one in force), with field errors; 201 with Location", async () => {
    const first = await addCost({ route: "T1", cost_per_segment: 3, currency: "BRL", valid_from: at(addDays(day, -5), "00:00") });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(first.headers.get("location")).toBe(costs(`/${first.body.data.id}`));
    expect(first.body.data).toMatchObject({ provider: PROVIDER, route: "T1", currency: "BRL", cost_per_segment: 3, applied: true });
    const change = await addCost({ route: "T1", cost_per_segment: "5", currency: "BRL", valid_from: at(day, "12:00") });
    expect(change.status, JSON.stringify(change.body)).toBe(201);
    expect(new Date(change.body.data.valid_from).toISOString()).toBe(new Date(at(day, "12:00")).toISOString());
    expect((await api(costs(`/${change.body.data.id}`), { token: staff })).body.data).toEqual(change.body.data);

    // Before the cost now in force (12:00 of the day): the history before it does not change.
    const before = await addCost({ route: "T1", cost_per_segment: 4, currency: "BRL", valid_from: at(day, "11:00") });
    expect(before.status).toBe(422);
    expect(before.body.error.fields.valid_from[0]).toMatch(/after the cost in force/);
    const bad = await addCost({ route: "T9", cost_per_segment: -1, currency: "XYZ", valid_from: "amanhã" });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.error.fields).sort()).toEqual(["cost_per_segment", "currency", "route", "valid_from"]);
    const missing = await addCost({ route: "T1", currency: "BRL", valid_from: "" });
    expect(missing.status).toBe(422);
    expect(Object.keys(missing.body.error.fields).sort()).toEqual(["cost_per_segment", "valid_from"]);

    const list = await api(costs(), { token: staff });
    expect(list.status).toBe(200);
    expect(list.body.next_cursor).toBeNull();
    expect(list.body.data.map((c: { cost_per_segment: number }) => c.cost_per_segment)).toEqual([5, 3]);
    expect(await query(`SELECT action FROM audit_logs WHERE action = 'provider_cost.created' AND meta->>'provider' = $1`, [PROVIDER])).toHaveLength(2);
  });

  it("only a cost that has not started yet is deleted; one in force or past is history (409)", async () => {
    const future = await addCost({ route: "T4", cost_per_segment: 9, currency: "BRL", valid_from: new Date(Date.now() + 10 * 86_400_000).toISOString() });
    expect(future.status).toBe(201);
    expect(future.body.data.applied).toBe(false);
    const taken = await addCost({ route: "T4", cost_per_segment: 8, currency: "BRL", valid_from: future.body.data.valid_from });
    expect(taken.status).toBe(422);
    expect(taken.body.error.fields.valid_from).toBeTruthy();
    expect((await api(costs(`/${future.body.data.id}`), { token: staff, method: "DELETE" })).body).toEqual({ ok: true });
    expect(await query(`SELECT 1 FROM provider_costs WHERE id = $1`, [future.body.data.id])).toHaveLength(0);

    const [applied] = (await api(costs(), { token: staff })).body.data;
    const refused = await api(costs(`/${applied.id}`), { token: staff, method: "DELETE", lang: "en" });
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe("PROVIDER_COST_APPLIED");
    expect(await query(`SELECT 1 FROM provider_costs WHERE id = $1`, [applied.id])).toHaveLength(1);
  });

  it("resellers and customers' owners do not reach costs", async () => {
    for (const token of [reseller, owner]) {
      expect((await api(costs(), { token })).status).toBe(403);
      expect((await addCost({ route: "T1", cost_per_segment: 1, currency: "BRL", valid_from: new Date(Date.now() + 86_400_000).toISOString() }, token)).status).toBe(403);
    }
  });
});

describe("sales: cost and margin", () => {
  it("staff: cost = segments × the cost in force when each message was sent (split at the change), margin and its rate, exactly", async () => {
    const a = await sales(`account_id=${people.a.accountId}`);
    expect(a.status).toBe(200);
    // 2 segments at 3 (10:00, before the change) + 1 at 5 (14:00) = 11; revenue 30 (the failure and the opt-out are not charged).
    const expected = { currency: "BRL", revenue: 30, cost: 11, margin: 19, margin_rate: 0.6333, uncosted: 0 };
    expect(a.body.data).toMatchObject({ messages: 2, segments: 3, revenue: [{ currency: "BRL", amount: 30 }], margin: [expected], reach: "platform" });
    expect(a.body.data.customers).toEqual([
      { account: { id: people.a.accountId, name: people.a.company }, currency: "BRL", messages: 2, segments: 3, revenue: 30, margin: expected },
    ]);
    expect(a.body.data.routes).toEqual([{ route: "T1", messages: 2, segments: 3, revenue: [{ currency: "BRL", amount: 30 }], margin: [expected] }]);
  });

  it("a message without a cost makes its rows 'cost unknown' (no number), the rest stays exact", async () => {
    const b = await sales(`account_id=${people.b.accountId}`);
    expect(b.status).toBe(200);
    const unknown = { currency: "BRL", revenue: 32, cost: null, margin: null, margin_rate: null, uncosted: 1 };
    expect(b.body.data.margin).toEqual([unknown]);
    expect(b.body.data.customers[0].margin).toEqual(unknown);
    const t1 = b.body.data.routes.find((r: { route: string }) => r.route === "T1");
    const t2 = b.body.data.routes.find((r: { route: string }) => r.route === "T2");
    // 3 segments at 5 (16:00, after the change).
    expect(t1.margin).toEqual([{ currency: "BRL", revenue: 24, cost: 15, margin: 9, margin_rate: 0.375, uncosted: 0 }]);
    expect(t2.margin).toEqual([{ currency: "BRL", revenue: 8, cost: null, margin: null, margin_rate: null, uncosted: 1 }]);
  });

  it("the reseller sees its customer's revenue but no cost or margin; a customer's owner is refused", async () => {
    const mine = await sales("", reseller);
    expect(mine.status).toBe(200);
    expect(mine.body.data.reach).toBe("reseller");
    expect(mine.body.data.margin).toBeNull();
    expect(mine.body.data.customers).toEqual([
      { account: { id: people.a.accountId, name: people.a.company }, currency: "BRL", messages: 2, segments: 3, revenue: 30, margin: null },
    ]);
    expect(mine.body.data.routes.every((r: { margin: unknown }) => r.margin === null)).toBe(true);
    expect(JSON.stringify(mine.body)).not.toMatch(/"cost"|uncosted/);
    expect((await sales("", owner)).status).toBe(403);
  });
});

describe("the screens without JavaScript", () => {
  it("/admin/providers: staff list costs, add one by the form (reais, São Paulo time) and delete one not started yet", async () => {
    const web = await signIn("staff@demo.example");
    const page = await web.page("/admin/providers");
    expect(page.res.status).toBe(200);
    const [inForce] = await query<{ id: string }>(`SELECT id FROM provider_costs WHERE provider = $1 AND route = 'T1' ORDER BY valid_from DESC LIMIT 1`, [PROVIDER]);
    expect(page.html).toContain(`data-cost="${inForce.id}" data-state="inForce"`);

    const next = addDays(spToday(), 3);
    const bad = await web.post("/admin/providers", { intent: "cost", connection_id: connectionId, route: "T6", cost_per_segment: "abc", currency: "BRL", valid_from: "" });
    expect(bad.status).toBe(422);
    const badHtml = await bad.text();
    expect(badHtml).toContain("Informe um número");
    expect(badHtml).toContain("Campo obrigatório");
    const created = await web.post("/admin/providers", {
      intent: "cost",
      connection_id: connectionId,
      route: "T6",
      cost_per_segment: "0,07",
      currency: "BRL",
      valid_from: `${next}T08:30`,
    });
    expect(created.status, await created.clone().text()).toBe(302);
    expect(location(created)).toBe("/admin/providers");
    const [row] = await query<{ id: string; cost_per_segment: number; valid_from: Date }>(
      `SELECT id, cost_per_segment, valid_from FROM provider_costs WHERE provider = $1 AND route = 'T6'`,
      [PROVIDER],
    );
    expect(row.cost_per_segment).toBe(7);
    expect(row.valid_from.toISOString()).toBe(new Date(`${next}T08:30:00-03:00`).toISOString());
    const after = await web.page("/admin/providers");
    expect(after.html).toContain(`data-cost="${row.id}" data-state="scheduled"`);

    const deleted = await web.post("/admin/providers", { intent: "deleteCost", id: row.id });
    expect(deleted.status).toBe(302);
    expect(await query(`SELECT 1 FROM provider_costs WHERE id = $1`, [row.id])).toHaveLength(0);
    const refused = await web.post("/admin/providers", { intent: "deleteCost", id: inForce.id });
    expect(refused.status).toBe(409);
    expect(await refused.text()).toContain("Este custo já começou a valer");
  });

  it("/admin/sms/sales: staff see cost, margin and 'cost unknown'; the reseller sees no cost column", async () => {
    const web = await signIn("staff@demo.example");
    const a = await web.page(`/admin/sms/sales?from=${day}&to=${day}&account_id=${people.a.accountId}`);
    expect(a.res.status).toBe(200);
    expect(a.html).toContain('data-testid="margin-note"');
    expect(a.html).toMatch(/data-col="margin"[^>]*>R\$\s0,19</);
    expect(a.html).toMatch(/data-col="margin_rate"[^>]*>63,3\s?%</);
    const b = await web.page(`/admin/sms/sales?from=${day}&to=${day}&account_id=${people.b.accountId}`);
    expect(b.html).toMatch(/data-col="cost"[^>]*>custo desconhecido</);

    const resold = await signIn(resellerPerson.email, resellerPerson.password);
    const mine = await resold.page(`/admin/sms/sales?from=${day}&to=${day}`);
    expect(mine.res.status).toBe(200);
    expect(mine.html).toContain('data-testid="no-margin"');
    expect(mine.html).not.toContain('data-col="cost"');
    expect(mine.html).not.toContain('data-col="margin"');
  });
});
