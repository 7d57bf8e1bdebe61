/**
 * The platform's catalogue in /admin (issue 23, ADR 064). Platform plans: the staff create, list
 * (service filter), read, replace and delete them — validation errors named and translated, a held
 * plan's service/currency/cycle fixed, delete refused while held (PLAN_IN_USE, translated),
 * deactivated when only ended plans name it, deleted otherwise; a reseller and a customer's owner
 * get 403. A customer's plans: the staff assign one (the plan change of ADR 045 for the customer:
 * a `plan_fee` posting of its ledger by the staff person, 402 and nothing changed when the balance
 * does not cover it), read it and end it; a reseller reads its own customers' (403 to change them,
 * 404 for another's customer). Products, invoices and short codes across customers: the staff see
 * all, a reseller only its own customers' (another's is 404), a customer's owner 403; filters and
 * keyset pages. Every change audited. The same through the web forms without JavaScript.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { api, giveShortCode, login, registerPerson, type Person } from "../support/api";
import { query } from "../support/db";
import { balanceOf, setAccount } from "../support/factories";
import { DEMO_PASSWORD, location, signIn, type WebClient } from "../support/web";

type Who = Person & { token: string };

let staff: string;
let staffId: string;
let reseller: string;
let resellerId: string;
let customer: Who;
let poor: Who;
let child: Who;

const tag = Math.random().toString(36).slice(2, 8);
const planBody = (over: Record<string, unknown> = {}) => ({
  name: `Plano ${tag} ${Math.random().toString(36).slice(2, 6)}`,
  service: "sms",
  price: 2_000,
  currency: "BRL",
  billing_cycle: "monthly",
  is_trial: false,
  permissions: { dashboard: true, tab: true },
  active: true,
  ...over,
});
const createPlan = async (over: Record<string, unknown> = {}) => {
  const res = await api("/api/admin/plans", { token: staff, body: planBody(over) });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data as { id: string; name: string; service: string; price: number };
};
const audits = (action: string, key: string, value: string) =>
  query<{ meta: Record<string, unknown> }>(`SELECT meta FROM audit_logs WHERE action = $1 AND meta->>$2 = $3`, [action, key, value]);
const mismatches = () => query("SELECT * FROM ledger_mismatches()");

async function person(name: string, balance: number): Promise<Who> {
  const p = await registerPerson(name);
  await setAccount(p.accountId, { balance });
  return { ...p, token: (await login(p.email, p.password)).token };
}

async function invoice(accountId: string, status: "pending" | "paid" | "fail", dueAt: string, amount = 1_500) {
  const txid = `T${Math.random().toString(36).slice(2, 12)}${Date.now().toString(36)}`.replace(/[^A-Za-z0-9]/g, "").slice(0, 25);
  const [r] = await query<{ id: string }>(
    `INSERT INTO invoices (account_id, kind, status, amount, currency, due_at, paid_at, provider, provider_charge_id, txid)
     VALUES ($1, 'topup', $2, $3, 'BRL', $4, CASE WHEN $2 = 'paid' THEN now() END, 'test', $5, $5) RETURNING id::text`,
    [accountId, status, amount, dueAt, txid],
  );
  return r.id;
}

beforeAll(async () => {
  staff = (await login("staff@demo.example", DEMO_PASSWORD)).token;
  reseller = (await login("reseller@demo.example", DEMO_PASSWORD)).token;
  [{ id: staffId }] = await query<{ id: string }>(`SELECT id::text FROM users WHERE email = 'staff@demo.example'`);
  [{ id: resellerId }] = await query<{ id: string }>(`SELECT id::text FROM accounts WHERE name = 'Revenda Azul' AND type = 'reseller'`);
  [customer, poor, child] = await Promise.all([person("catcust", 10_000), person("catpoor", 0), person("catchild", 5_000)]);
  await query(`UPDATE accounts SET parent_account_id = $1 WHERE id = $2`, [resellerId, child.accountId]);
});

describe("platform plans (API)", () => {
  it("the staff create a plan (201, Location, audited), list it by service, read and replace it", async () => {
    const res = await api("/api/admin/plans", { token: staff, body: planBody({ service: "rcs", price: 4_990 }) });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const p = res.body.data;
    expect(res.headers.get("location")).toBe(`/api/admin/plans/${p.id}`);
    expect(p).toMatchObject({ service: "rcs", price: 4_990, active: true, holders: 0, permissions: { dashboard: true, tab: true, spie: false, whatsapp: false } });
    expect((await audits("plans.created", "plan_id", p.id)).length).toBe(1);
    const rcs = await api("/api/admin/plans?service=rcs", { token: staff });
    expect(rcs.status).toBe(200);
    expect(rcs.body.data.map((x: { id: string }) => x.id)).toContain(p.id);
    expect(rcs.body.data.every((x: { service: string }) => x.service === "rcs")).toBe(true);
    expect((await api("/api/admin/plans?service=sms", { token: staff })).body.data.map((x: { id: string }) => x.id)).not.toContain(p.id);
    expect((await api(`/api/admin/plans/${p.id}`, { token: staff })).body.data.name).toBe(p.name);
    const put = await api(`/api/admin/plans/${p.id}`, {
      token: staff,
      method: "PUT",
      body: planBody({ name: "Renomeado", service: "rcs", price: 5_990, permissions: { whatsapp: true } }),
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(put.body.data).toMatchObject({ name: "Renomeado", price: 5_990, permissions: { whatsapp: true, dashboard: false } });
    expect((await audits("plans.updated", "plan_id", p.id)).length).toBe(1);
    expect((await api(`/api/admin/plans/00000000-0000-4000-8000-000000000000`, { token: staff })).status).toBe(404);
  });

  it("refuses bad input naming each field, translated; nothing written", async () => {
    const before = await query(`SELECT count(*)::int AS n FROM plans`);
    const res = await api("/api/admin/plans", { token: staff, lang: "en", body: { name: "", service: "fax", price: -1, currency: "XYZ", billing_cycle: "daily", is_trial: true } });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.error.fields).sort()).toEqual(["billing_cycle", "currency", "name", "price", "service"]);
    expect(res.body.error.fields.name).toEqual(["Required field"]);
    const trial = await api("/api/admin/plans", { token: staff, lang: "en", body: planBody({ is_trial: true }) });
    expect(trial.status).toBe(422);
    expect(trial.body.error.fields).toEqual({ duration_days: ["A trial needs its number of days"] });
    expect(await query(`SELECT count(*)::int AS n FROM plans`)).toEqual(before);
  });

  it("a reseller and a customer's owner may not read or manage platform plans (403)", async () => {
    const p = await createPlan();
    for (const token of [reseller, customer.token]) {
      expect((await api("/api/admin/plans", { token })).status).toBe(403);
      expect((await api(`/api/admin/plans/${p.id}`, { token })).status).toBe(403);
      expect((await api("/api/admin/plans", { token, body: planBody() })).status).toBe(403);
      expect((await api(`/api/admin/plans/${p.id}`, { token, method: "PUT", body: planBody() })).status).toBe(403);
      expect((await api(`/api/admin/plans/${p.id}`, { token, method: "DELETE" })).status).toBe(403);
    }
    expect((await api(`/api/admin/plans/${p.id}`, { token: staff })).body.data.name).toBe(p.name);
  });

  it("delete: refused while held (409 PLAN_IN_USE, translated), service/currency/cycle fixed while held; deactivated once only ended plans name it; deleted when never held", async () => {
    const held = await createPlan({ price: 0 });
    expect((await api(`/api/customers/${customer.accountId}/plans`, { token: staff, body: { plan_id: held.id } })).status).toBe(201);
    const refused = await api(`/api/admin/plans/${held.id}`, { token: staff, method: "DELETE", lang: "en" });
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe("PLAN_IN_USE");
    expect(refused.body.error.message).toContain("Uncheck “Active”");
    const fixed = await api(`/api/admin/plans/${held.id}`, {
      token: staff,
      method: "PUT",
      lang: "en",
      body: planBody({ price: 0, service: "email", currency: "USD", billing_cycle: "weekly" }),
    });
    expect(fixed.status).toBe(422);
    expect(Object.keys(fixed.body.error.fields).sort()).toEqual(["billing_cycle", "currency", "service"]);
    expect((await api(`/api/admin/plans/${held.id}`, { token: staff })).body.data).toMatchObject({ service: "sms", holders: 1 });
    expect((await api(`/api/customers/${customer.accountId}/plans/${held.id}`, { token: staff, method: "DELETE" })).status).toBe(200);
    const kept = await api(`/api/admin/plans/${held.id}`, { token: staff, method: "DELETE" });
    expect(kept.status, JSON.stringify(kept.body)).toBe(200);
    expect(kept.body).toMatchObject({ outcome: "deactivated", data: { active: false } });
    expect((await audits("plans.deactivated", "plan_id", held.id)).length).toBe(1);
    const fresh = await createPlan();
    const gone = await api(`/api/admin/plans/${fresh.id}`, { token: staff, method: "DELETE" });
    expect(gone.body).toEqual({ data: null, outcome: "deleted" });
    expect((await api(`/api/admin/plans/${fresh.id}`, { token: staff })).status).toBe(404);
    expect((await audits("plans.deleted", "plan_id", fresh.id)).length).toBe(1);
  });
});

describe("a customer's plans (API)", () => {
  it("the staff assign a plan: its fee one plan_fee posting of the customer's ledger by the staff person, audited; read; end (no refund, audited)", async () => {
    const p = await createPlan({ service: "email", price: 2_000 });
    const before = await balanceOf(customer.accountId);
    const res = await api(`/api/customers/${customer.accountId}/plans`, { token: staff, body: { plan_id: p.id } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.headers.get("location")).toBe(`/api/customers/${customer.accountId}/plans/${p.id}`);
    expect(res.body.data).toMatchObject({ plan_id: p.id, service: "email", charged: 2_000, customer_id: customer.accountId });
    expect(await balanceOf(customer.accountId)).toBe(before - 2_000);
    const legs = await query<{ book: string; amount: number; created_by: string }>(
      `SELECT book, amount::int AS amount, created_by::text FROM ledger_entries WHERE account_id = $1 AND kind = 'plan_fee' AND reference = $2`,
      [customer.accountId, `plan:${p.id}`],
    );
    expect(legs.map((l) => [l.book, l.amount]).sort()).toEqual([
      ["customer", -2_000],
      ["revenue", 2_000],
    ]);
    expect(legs.every((l) => l.created_by === staffId)).toBe(true);
    expect(await mismatches()).toEqual([]);
    expect((await audits("billing.plan_assigned", "to", p.id))[0].meta).toMatchObject({ customer_id: customer.accountId, amount: 2_000 });
    expect((await api(`/api/customers/${customer.accountId}/plans`, { token: staff, body: { plan_id: p.id } })).status).toBe(409);
    const one = await api(`/api/customers/${customer.accountId}/plans/${p.id}`, { token: staff });
    expect(one.status).toBe(200);
    expect(one.body.data).toMatchObject({ plan_id: p.id, current: true, ends_at: null, customer: { id: customer.accountId } });
    expect(one.body.data.period_end).not.toBeNull();
    const list = await api(`/api/customers/${customer.accountId}/plans`, { token: staff });
    expect(list.body.data.map((x: { plan_id: string }) => x.plan_id)).toContain(p.id);
    const ended = await api(`/api/customers/${customer.accountId}/plans/${p.id}`, { token: staff, method: "DELETE" });
    expect(ended.status).toBe(200);
    expect(ended.body.data.current).toBe(false);
    expect(ended.body.data.ends_at).not.toBeNull();
    expect(await balanceOf(customer.accountId)).toBe(before - 2_000);
    expect((await audits("billing.plan_ended", "plan_id", p.id)).length).toBe(1);
  });

  it("402 on plan and nothing changed when the balance does not cover it; 422 for no plan or an unknown one", async () => {
    const p = await createPlan({ service: "whatsapp", price: 9_000 });
    const res = await api(`/api/customers/${poor.accountId}/plans`, { token: staff, body: { plan_id: p.id }, lang: "en" });
    expect(res.status).toBe(402);
    expect(res.body.error.fields.plan).toBeDefined();
    expect((await query(`SELECT 1 FROM account_plans WHERE account_id = $1 AND plan_id = $2`, [poor.accountId, p.id])).length).toBe(0);
    expect(await balanceOf(poor.accountId)).toBe(0);
    expect((await api(`/api/customers/${poor.accountId}/plans`, { token: staff, body: {} })).body.error.fields.plan_id).toBeDefined();
    const unknown = await api(`/api/customers/${poor.accountId}/plans`, { token: staff, body: { plan_id: "00000000-0000-4000-8000-000000000000" } });
    expect(unknown.status).toBe(422);
  });

  it("a reseller reads its own customer's plans but may not change them (403); another's customer is 404; a customer's owner 403", async () => {
    const p = await createPlan({ service: "omni", price: 0 });
    expect((await api(`/api/customers/${child.accountId}/plans`, { token: staff, body: { plan_id: p.id } })).status).toBe(201);
    expect((await api(`/api/customers/${child.accountId}/plans/${p.id}`, { token: reseller })).status).toBe(200);
    expect((await api(`/api/customers/${child.accountId}/plans`, { token: reseller })).status).toBe(200);
    expect((await api(`/api/customers/${child.accountId}/plans`, { token: reseller, body: { plan_id: p.id } })).status).toBe(403);
    expect((await api(`/api/customers/${child.accountId}/plans/${p.id}`, { token: reseller, method: "DELETE" })).status).toBe(403);
    expect((await api(`/api/customers/${customer.accountId}/plans`, { token: reseller })).status).toBe(404);
    expect((await api(`/api/customers/${customer.accountId}/plans`, { token: reseller, body: { plan_id: p.id } })).status).toBe(404);
    expect((await api(`/api/customers/${child.accountId}/plans`, { token: customer.token })).status).toBe(403);
    expect((await api(`/api/customers/${child.accountId}/plans`, { token: customer.token, body: { plan_id: p.id } })).status).toBe(403);
  });
});

describe("products and invoices across customers (API)", () => {
  let productId: string;
  let childProduct: string;
  beforeAll(async () => {
    const hire = (id: string, name: string) =>
      api(`/api/customers/${id}/products`, { token: staff, body: { channel: "sms", name, billing_cycle: "monthly", currency: "BRL", kind: "credits", credits: 10, price: 0 } });
    productId = (await hire(customer.accountId, "Pacote A")).body.data.id;
    await hire(customer.accountId, "Pacote B");
    childProduct = (await hire(child.accountId, "Pacote Revenda")).body.data.id;
  });

  it("GET /api/admin/products: the staff see every customer's, filtered by customer and status, in keyset pages", async () => {
    const mine = await api(`/api/admin/products?customer_id=${customer.accountId}`, { token: staff });
    expect(mine.status, JSON.stringify(mine.body)).toBe(200);
    expect(mine.body.data.map((p: { name: string }) => p.name)).toEqual(["Pacote B", "Pacote A"]);
    expect(mine.body.data[0].customer_name).toBe(customer.company);
    const first = await api(`/api/admin/products?customer_id=${customer.accountId}&limit=1`, { token: staff });
    expect(first.body.data).toHaveLength(1);
    const second = await api(`/api/admin/products?customer_id=${customer.accountId}&limit=1&cursor=${encodeURIComponent(first.body.next_cursor)}`, { token: staff });
    expect(second.body.data.map((p: { id: string }) => p.id)).toEqual([productId]);
    expect(second.body.next_cursor).toBeNull();
    expect((await api(`/api/admin/products?customer_id=${customer.accountId}&status=cancelled`, { token: staff })).body.data).toEqual([]);
    expect((await api(`/api/admin/products?status=lost`, { token: staff })).status).toBe(422);
  });

  it("a reseller sees only its own customers' products; a customer's owner 403", async () => {
    const all = await api(`/api/admin/products?limit=200`, { token: reseller });
    expect(all.status).toBe(200);
    const ids = all.body.data.map((p: { id: string }) => p.id);
    expect(ids).toContain(childProduct);
    expect(ids).not.toContain(productId);
    const parents = await query<{ parent: string | null }>(`SELECT DISTINCT parent_account_id::text AS parent FROM accounts WHERE id = ANY($1::uuid[])`, [
      all.body.data.map((p: { account_id: string }) => p.account_id),
    ]);
    expect(parents.map((p) => p.parent)).toEqual([resellerId]);
    expect((await api(`/api/admin/products`, { token: customer.token })).status).toBe(403);
  });

  it("GET /api/admin/invoices and /api/customers/{id}/invoices: status, customer and due date range filters, keyset pages; a reseller only its own customers'; a customer's owner 403", async () => {
    const paid = await invoice(customer.accountId, "paid", "2026-03-10T15:00:00Z");
    const pending = await invoice(customer.accountId, "pending", "2026-03-20T15:00:00Z");
    const failed = await invoice(customer.accountId, "fail", "2026-04-02T02:30:00Z"); // 1 April in São Paulo
    const childInvoice = await invoice(child.accountId, "pending", "2026-03-15T15:00:00Z");
    const list = (q: string, token = staff) => api(`/api/admin/invoices?${q}`, { token });
    const ids = (r: { body: { data: Array<{ id: string }> } }) => r.body.data.map((i) => i.id);
    const all = await list(`customer_id=${customer.accountId}`);
    expect(all.status, JSON.stringify(all.body)).toBe(200);
    expect(ids(all)).toEqual([failed, pending, paid]);
    expect(all.body.data[0]).toMatchObject({ account_id: customer.accountId, customer_name: customer.company, status: "fail" });
    expect(ids(await list(`customer_id=${customer.accountId}&status=paid`))).toEqual([paid]);
    // Due days are São Paulo days, both ends included: 02:30Z on 2 April is 1 April there.
    expect(ids(await list(`customer_id=${customer.accountId}&due_from=2026-03-11&due_to=2026-04-01`))).toEqual([failed, pending]);
    expect(ids(await list(`customer_id=${customer.accountId}&due_to=2026-03-31`))).toEqual([pending, paid]);
    const backwards = await api(`/api/admin/invoices?due_from=2026-04-01&due_to=2026-03-01`, { token: staff, lang: "en" });
    expect(backwards.status).toBe(422);
    expect(backwards.body.error.fields.due_to).toEqual(["The end must not come before the start"]);
    const page1 = await list(`customer_id=${customer.accountId}&limit=2`);
    const page2 = await list(`customer_id=${customer.accountId}&limit=2&cursor=${encodeURIComponent(page1.body.next_cursor)}`);
    expect([...ids(page1), ...ids(page2)]).toEqual([failed, pending, paid]);
    const one = await api(`/api/customers/${customer.accountId}/invoices?status=pending`, { token: staff });
    expect(ids(one)).toEqual([pending]);
    // The reseller: its child's invoices, never another's.
    const theirs = await list(`limit=200`, reseller);
    expect(ids(theirs)).toContain(childInvoice);
    expect(ids(theirs)).not.toContain(paid);
    expect(ids(await api(`/api/customers/${child.accountId}/invoices`, { token: reseller }))).toEqual([childInvoice]);
    expect((await api(`/api/customers/${customer.accountId}/invoices`, { token: reseller })).status).toBe(404);
    expect((await list(``, customer.token)).status).toBe(403);
    expect((await api(`/api/customers/${customer.accountId}/invoices`, { token: customer.token })).status).toBe(403);
  });
});

describe("the web screens, without JavaScript", () => {
  let web: WebClient;
  beforeAll(async () => {
    web = await signIn("staff@demo.example");
  });

  it("/admin/plans/create: translated field errors next to the fields; a valid post creates the plan with its permission checkboxes and redirects to the list", async () => {
    const bad = await web.post("/admin/plans/create", { intent: "save", name: "", service: "sms", price: "abc", currency: "BRL", billing_cycle: "monthly", is_trial: "on" });
    expect(bad.status).toBe(422);
    const html = await bad.text();
    expect(html).toContain("Campo obrigatório");
    expect(html).toContain("Uma avaliação precisa do número de dias");
    const name = `Web ${tag}`;
    const ok = await web.post("/admin/plans/create", {
      intent: "save",
      name,
      service: "email",
      price: "39,90",
      currency: "BRL",
      billing_cycle: "weekly",
      spie: "on",
      department: "on",
      active: "on",
    });
    expect(ok.status).toBe(302);
    expect(location(ok)).toBe("/admin/plans");
    const [p] = await query<{ id: string; price: number; permissions: Record<string, boolean>; active: boolean }>(
      `SELECT id::text, price::int AS price, permissions, active FROM plans WHERE name = $1`,
      [name],
    );
    expect(p).toMatchObject({ price: 3_990, active: true, permissions: { spie: true, department: true, dashboard: false, whatsapp: false } });
    const list = await web.page("/admin/plans?service=email");
    expect(list.res.status).toBe(200);
    expect(list.html).toContain(name);
    expect((await web.page("/admin/plans?service=rcs")).html).not.toContain(name);
    // Edit: unchecking "active" takes it out of the catalogue.
    const edit = await web.page(`/admin/plans/${p.id}/edit`);
    expect(edit.res.status).toBe(200);
    const saved = await web.post(`/admin/plans/${p.id}/edit`, { intent: "save", name, service: "email", price: "39,90", currency: "BRL", billing_cycle: "weekly" });
    expect(saved.status).toBe(302);
    expect((await query<{ active: boolean; permissions: Record<string, boolean> }>(`SELECT active, permissions FROM plans WHERE id = $1`, [p.id]))[0]).toMatchObject({
      active: false,
      permissions: { spie: false },
    });
  });

  it("/admin/plans/{id}/edit delete: the held plan's refusal is translated on the page; a never-held plan is deleted", async () => {
    const held = await createPlan({ service: "rcs", price: 0 });
    expect((await api(`/api/customers/${customer.accountId}/plans`, { token: staff, body: { plan_id: held.id } })).status).toBe(201);
    const refused = await web.post(`/admin/plans/${held.id}/edit`, { intent: "delete" });
    expect(refused.status).toBe(409);
    expect(await refused.text()).toContain("Contas ainda têm este plano");
    const fresh = await createPlan();
    const deleted = await web.post(`/admin/plans/${fresh.id}/edit`, { intent: "delete" });
    expect(deleted.status).toBe(302);
    expect(location(deleted)).toBe("/admin/plans");
    expect((await query(`SELECT 1 FROM plans WHERE id = $1`, [fresh.id])).length).toBe(0);
  });

  it("/admin/customers/{id}/plans/create assigns (errors on the field), the plan's page shows it and ends it", async () => {
    const p = await createPlan({ service: "whatsapp", price: 1_000 });
    const form = await web.page(`/admin/customers/${customer.accountId}/plans/create`);
    expect(form.res.status).toBe(200);
    expect(form.html).toContain(p.name);
    const empty = await web.post(`/admin/customers/${customer.accountId}/plans/create`, { plan_id: "" });
    expect(empty.status).toBe(422);
    expect(await empty.text()).toContain("Campo obrigatório");
    const poorTry = await web.post(`/admin/customers/${poor.accountId}/plans/create`, { plan_id: p.id });
    expect(poorTry.status).toBe(402);
    const ok = await web.post(`/admin/customers/${customer.accountId}/plans/create`, { plan_id: p.id });
    expect(ok.status).toBe(302);
    expect(location(ok)).toBe(`/admin/customers/${customer.accountId}/plans/${p.id}`);
    const page = await web.page(`/admin/customers/${customer.accountId}/plans/${p.id}`);
    expect(page.res.status).toBe(200);
    expect(page.html).toContain('data-plan-status="current"');
    const end = await web.post(`/admin/customers/${customer.accountId}/plans/${p.id}`, { intent: "end" });
    expect(end.status).toBe(302);
    expect((await web.page(`/admin/customers/${customer.accountId}/plans/${p.id}`)).html).toContain('data-plan-status="ended"');
  });

  it("/admin/products lists, filters and opens products; /admin/products/create picks a customer then hires with the product rules", async () => {
    const list = await web.page(`/admin/products?customer_id=${customer.accountId}`);
    expect(list.res.status).toBe(200);
    expect(list.html).toContain("Pacote A");
    const pick = await web.page(`/admin/products/create?q=${encodeURIComponent(customer.company)}`);
    expect(pick.html).toContain(`data-pick="${customer.accountId}"`);
    const path = `/admin/products/create?customer=${customer.accountId}`;
    expect((await web.page(path)).res.status).toBe(200);
    const bad = await web.post(path, { channel: "sms", name: "Pacote Web", billing_cycle: "monthly", currency: "BRL", kind: "credits", credits: "", price: "10,00" });
    expect(bad.status).toBe(422);
    const ok = await web.post(path, { channel: "sms", name: "Pacote Web", billing_cycle: "monthly", currency: "BRL", kind: "credits", credits: "100", price: "10,00" });
    expect(ok.status).toBe(302);
    const to = location(ok)!;
    expect(to).toMatch(/^\/admin\/products\/[0-9a-f-]{36}$/);
    const one = await web.page(to);
    expect(one.res.status).toBe(200);
    expect(one.html).toContain("Pacote Web");
  });

  it("/admin/short-codes and /admin/invoices: the staff see every customer's rows with filters; a range backwards is said next to the field", async () => {
    const number = await giveShortCode(customer.accountId, { nickname: "catalogo" });
    const codes = await web.page(`/admin/short-codes?q=${number}`);
    expect(codes.res.status).toBe(200);
    expect(codes.html).toContain(`/admin/customers/${customer.accountId}/short-codes/`);
    const inv = await invoice(customer.accountId, "pending", "2026-05-05T15:00:00Z", 7_777);
    const page = await web.page(`/admin/invoices?customer_id=${customer.accountId}&status=pending`);
    expect(page.res.status).toBe(200);
    expect(page.html).toContain(`data-invoice-id="${inv}"`);
    const opened = await web.page(`/admin/invoices?invoice=${inv}`);
    expect(opened.html).toContain(`data-invoice="${inv}"`);
    const backwards = await web.page(`/admin/invoices?due_from=2026-05-01&due_to=2026-04-01`);
    expect(backwards.res.status).toBe(200);
    expect(backwards.html).toContain("O fim não pode vir antes do início");
  });

  it("a reseller sees its own customers' rows on the lists and is refused the platform's plans; a customer's owner is refused everything here", async () => {
    const r = await signIn("reseller@demo.example");
    const childCode = await giveShortCode(child.accountId);
    const otherCode = await giveShortCode(customer.accountId);
    const codes = await r.page("/admin/short-codes?limit=200");
    expect(codes.res.status).toBe(200);
    expect(codes.html).toContain(childCode);
    expect(codes.html).not.toContain(otherCode);
    expect((await r.page("/admin/products")).html).toContain("Pacote Revenda");
    expect((await r.page("/admin/products")).html).not.toContain("Pacote A");
    expect((await r.page("/admin/invoices")).res.status).toBe(200);
    for (const path of ["/admin/plans", "/admin/plans/create", "/admin/products/create", `/admin/customers/${child.accountId}/plans/create`]) {
      const res = await r.get(path);
      expect([403, 302].includes(res.status) && (res.status === 403 || location(res) === "/403"), `${path}: ${res.status}`).toBe(true);
    }
    expect((await r.get(`/admin/customers/${customer.accountId}/plans/create`)).status).toBe(404);
    const [{ id: otherProduct }] = await query<{ id: string }>(`SELECT id::text FROM customer_products WHERE account_id = $1 LIMIT 1`, [customer.accountId]);
    expect((await r.get(`/admin/products/${otherProduct}`)).status).toBe(404);
    const owner = await signIn(customer.email, customer.password);
    for (const path of ["/admin/plans", "/admin/products", "/admin/short-codes", "/admin/invoices", `/admin/customers/${customer.accountId}/plans/create`]) {
      const res = await owner.get(path);
      expect(res.status === 403 || location(res) === "/403", `${path}: ${res.status} ${location(res)}`).toBe(true);
    }
  });
});
