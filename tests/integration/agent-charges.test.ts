/**
 * Agent seats (issue 18, spec section 6: "adding an agent is charged"; ADR 047). Making a person
 * a chat agent (the flag turned on, or an invitation as agent accepted) debits the rest of the São
 * Paulo month, pro rata by the second (an expectation computed here from the clock the use-case
 * was given), as one `agent` posting of two legs; turning it off returns nothing and on again in
 * the same month costs nothing more; a change the balance does not cover is 402 on isAgent with
 * the membership and the ledger unchanged. The monthly renewal, with a controlled clock, pays each
 * seat once at the month's start even when two runs race, and a seat it cannot pay stops being an
 * agent. GET /api/live/billing's figures; /numbers/active for admin only.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { api, login, registerPerson, type Person } from "../support/api";
import { lastMailTo, linkIn, query, uniqueEmail } from "../support/db";
import { addMember, balanceOf, makeUser, setAccount } from "../support/factories";
import { signIn } from "../support/web";

process.env.DATABASE_URL = inject("databaseUrl");
const { updateUser, acceptInvitation } = await import("../../api/users/services");
const { renewAgentSeats, AGENT_MONTHLY_PRICE } = await import("../../api/seats/seats");
const { loadActor } = await import("../../api/auth/actor");
const { closeDb } = await import("../../models/db");
(await import("../../models")).initModels();

const HOUR = 3_600_000;
/** The São Paulo month that holds `at` (UTC−3 all year since 2019): its first and next first instants. */
function spMonth(at: Date) {
  const local = new Date(at.getTime() - 3 * HOUR);
  return { start: Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), 1, 3), end: Date.UTC(local.getUTCFullYear(), local.getUTCMonth() + 1, 1, 3) };
}
/** What the rest of the month of `now` costs at `price`, to the centavo. */
function restOfMonth(price: number, now: Date) {
  const { start, end } = spMonth(now);
  return Math.round((price * (end - now.getTime())) / (end - start));
}

let owner: Person;
let token: string;
const ctx = async () => ({ actor: await loadActor(owner.userId, owner.accountId) });

const agentEntries = (accountId: string) =>
  query<{ posting: string; book: string; amount: number; reference: string; reason: string; created_by: string | null }>(
    `SELECT posting, book, amount::int AS amount, reference, reason, created_by FROM ledger_entries WHERE account_id = $1 AND kind = 'agent' ORDER BY id`,
    [accountId],
  );
const membership = async (userId: string) =>
  (
    await query<{ id: string; is_agent: boolean; charged_until: Date | null; agent_since: Date | null }>(
      `SELECT id, is_agent, charged_until, agent_since FROM memberships WHERE account_id = $1 AND user_id = $2`,
      [owner.accountId, userId],
    )
  )[0];
const mismatches = async () => query(`SELECT * FROM ledger_mismatches()`);

beforeAll(async () => {
  owner = await registerPerson("seats");
  token = (await login(owner.email, owner.password)).token;
  await setAccount(owner.accountId, { balance: 1_000_000 });
  // Live chat needs the omni plan (/live/billing).
  const plans = (await api("/api/plans", { token })).body.data as Array<{ id: string; name: string }>;
  const omni = plans.find((p) => p.name === "Omni")!;
  expect((await api(`/api/plans/${omni.id}/change`, { token, method: "POST" })).status).toBe(200);
});

afterAll(async () => {
  await closeDb();
});

describe("agent seats", () => {
  it("the founding owner is an agent whose seat is paid until the next São Paulo month start, at no charge", async () => {
    const m = await membership(owner.userId);
    expect(m.is_agent).toBe(true);
    expect(new Date(m.charged_until!).getTime()).toBe(spMonth(new Date()).end);
    expect(await agentEntries(owner.accountId)).toEqual([]);
  });

  it("turning the agent flag on debits the rest of the month pro rata as one agent posting; off returns nothing, on again costs nothing more", async () => {
    const userId = await makeUser({ firstName: "Ana", lastName: "Assento" });
    await addMember(owner.accountId, userId, { role: "analyst", isAgent: false });
    const before = await balanceOf(owner.accountId);
    const now = new Date();
    await updateUser(await ctx(), userId, { firstName: "Ana", lastName: "Assento", role: "analyst", isAgent: true }, now);
    const expected = restOfMonth(AGENT_MONTHLY_PRICE, now);
    expect(expected).toBeGreaterThan(0);
    expect(await balanceOf(owner.accountId)).toBe(before - expected);
    const m = await membership(userId);
    expect(m.is_agent).toBe(true);
    expect(new Date(m.charged_until!).getTime()).toBe(spMonth(now).end);
    expect(new Date(m.agent_since!).getTime()).toBe(now.getTime());
    const entries = await agentEntries(owner.accountId);
    expect(entries).toHaveLength(2);
    expect(entries[0].posting).toBe(entries[1].posting);
    expect(entries.map((e) => [e.book, e.amount])).toEqual([
      ["customer", -expected],
      ["revenue", expected],
    ]);
    expect(entries[0]).toMatchObject({ reference: `agent:${m.id}`, reason: "agent seat, pro rata", created_by: owner.userId });
    expect(await mismatches()).toEqual([]);

    // Off: nothing returned. On again in the same month: the seat is paid already.
    await updateUser(await ctx(), userId, { firstName: "Ana", lastName: "Assento", role: "analyst", isAgent: false });
    expect((await membership(userId)).is_agent).toBe(false);
    expect(await balanceOf(owner.accountId)).toBe(before - expected);
    await updateUser(await ctx(), userId, { firstName: "Ana", lastName: "Assento", role: "analyst", isAgent: true });
    expect(await balanceOf(owner.accountId)).toBe(before - expected);
    expect(await agentEntries(owner.accountId)).toHaveLength(2);
  });

  it("a pro rata at a controlled instant: mid-month costs the exact share of the seconds left", async () => {
    const userId = await makeUser({ firstName: "Bia", lastName: "Relógio" });
    await addMember(owner.accountId, userId, { role: "analyst", isAgent: false });
    // An instant of this month (charged_until then is this month's end): 1 h 23 min 45.678 s after it started.
    const now = new Date(spMonth(new Date()).start + HOUR + 23 * 60_000 + 45_678);
    const before = await balanceOf(owner.accountId);
    await updateUser(await ctx(), userId, { firstName: "Bia", lastName: "Relógio", role: "analyst", isAgent: true }, now);
    expect(await balanceOf(owner.accountId)).toBe(before - restOfMonth(AGENT_MONTHLY_PRICE, now));
    expect(await mismatches()).toEqual([]);
  });

  it("accepting an invitation as agent debits the rest of the month in the acceptance's transaction", async () => {
    const email = uniqueEmail("seatinvite");
    expect((await api("/api/users/invite", { token, body: { email, role: "agent" } })).status).toBe(201);
    const inviteToken = linkIn(await lastMailTo(email), "/invitation/")
      .split("/")
      .pop()!;
    const before = await balanceOf(owner.accountId);
    const count = (await agentEntries(owner.accountId)).length;
    // Someone with a login joins with it (the use-case runs here, with the test's clock).
    const existing = await makeUser({ email, firstName: "Caio", lastName: "Convite", verified: true });
    const now = new Date();
    const user = await acceptInvitation({}, { token: inviteToken }, existing, now);
    const expected = restOfMonth(AGENT_MONTHLY_PRICE, now);
    expect(await balanceOf(owner.accountId)).toBe(before - expected);
    const m = await membership(user.id);
    expect(m.is_agent).toBe(true);
    const entries = (await agentEntries(owner.accountId)).slice(count);
    expect(entries.map((e) => [e.book, e.amount, e.reference, e.created_by])).toEqual([
      ["customer", -expected, `agent:${m.id}`, user.id],
      ["revenue", expected, `agent:${m.id}`, user.id],
    ]);
  });

  it("not covered by balance and credit limit: 402 on isAgent (translated), the membership and the ledger unchanged; an invitation is not accepted", async () => {
    const userId = await makeUser({ firstName: "Davi", lastName: "Semsaldo" });
    await addMember(owner.accountId, userId, { role: "analyst", isAgent: false });
    const count = (await agentEntries(owner.accountId)).length;
    // Nothing at all: R$ 1,00 covers the rest of the month on its last day (a seat costs 49,90 for the whole month), which once failed this test on 30 November.
    await setAccount(owner.accountId, { balance: 0, creditLimit: 0 });
    const res = await api(`/api/users/${userId}`, { token, method: "PUT", lang: "en", body: { firstName: "Davi", lastName: "Semsaldo", role: "analyst", isAgent: true } });
    expect(res.status, JSON.stringify(res.body)).toBe(402);
    expect(res.body.error.code).toBe("INSUFFICIENT_BALANCE");
    expect(res.body.error.fields.isAgent).toEqual(["The balance and credit limit do not cover the agent seat for the rest of the month."]);
    expect(await membership(userId)).toMatchObject({ is_agent: false, charged_until: null, agent_since: null });
    expect(await balanceOf(owner.accountId)).toBe(0);
    expect(await agentEntries(owner.accountId)).toHaveLength(count);

    // The users screen's form (no script): 402, the message under the agent box, in Portuguese.
    const web = await signIn(owner.email, owner.password);
    const form = await web.post(`/users/edit/${userId}`, { intent: "update", firstName: "Davi", lastName: "Semsaldo", mobile: "", role: "analyst", isAgent: "on" });
    expect(form.status).toBe(402);
    expect(await form.text()).toContain("O saldo e o limite de crédito não cobrem o assento de agente do restante do mês.");
    expect(await membership(userId)).toMatchObject({ is_agent: false, charged_until: null });

    const email = uniqueEmail("seatbroke");
    expect((await api("/api/users/invite", { token, body: { email, role: "agent" } })).status).toBe(201);
    const inviteToken = linkIn(await lastMailTo(email), "/invitation/")
      .split("/")
      .pop()!;
    const [{ password_hash }] = await query<{ password_hash: string }>(`SELECT password_hash FROM users WHERE id = $1`, [owner.userId]);
    const existing = await makeUser({ email, firstName: "Eva", lastName: "Semsaldo", verified: true, passwordHash: password_hash });
    // The invitee cannot top the account up: the refusal is the form's, not a field's.
    await expect(acceptInvitation({}, { token: inviteToken }, existing)).rejects.toMatchObject({ code: "INSUFFICIENT_BALANCE", fields: { "": ["seats.errors.invitation"] } });
    // On the invitation's page (no script): 402 with the message for the whole form.
    const invitee = await signIn(email, owner.password);
    const join = await invitee.post(`/invitation/${inviteToken}`, { intent: "join" });
    expect(join.status).toBe(402);
    expect(await join.text()).toContain("Esta conta não pode pagar um novo assento de agente agora.");
    expect(await query(`SELECT 1 FROM memberships WHERE user_id = $1`, [existing])).toEqual([]);
    expect(await query(`SELECT accepted_at FROM invitations WHERE email = $1`, [email])).toEqual([{ accepted_at: null }]);
    await setAccount(owner.accountId, { balance: 1_000_000 });
  });

  it("GET /api/live/billing: the agents, the price, the month's total and what the ledger charged this month", async () => {
    const res = await api("/api/live/billing", { token });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const agents = await query<{ id: string }>(`SELECT id FROM memberships WHERE account_id = $1 AND is_agent`, [owner.accountId]);
    const [{ charged }] = await query<{ charged: number }>(
      `SELECT coalesce(-sum(amount), 0)::int AS charged FROM ledger_entries WHERE account_id = $1 AND kind = 'agent' AND book = 'customer' AND created_at >= $2`,
      [owner.accountId, new Date(spMonth(new Date()).start)],
    );
    expect(charged).toBeGreaterThan(0);
    expect(res.body).toMatchObject({
      currency: "BRL",
      price_per_agent: AGENT_MONTHLY_PRICE,
      own_price: false,
      monthly_total: AGENT_MONTHLY_PRICE * agents.length,
      charged_this_month: charged,
      next_renewal: new Date(spMonth(new Date()).end).toISOString(),
    });
    expect(res.body.agents.map((a: { membership_id: string }) => a.membership_id).sort()).toEqual(agents.map((a) => a.id).sort());
    expect(res.body.agents.find((a: { email: string }) => a.email === owner.email)).toMatchObject({ role: "owner" });

    // The account's own price per seat replaces the default.
    await query(`INSERT INTO omni_prices (account_id, route, price, currency) VALUES ($1, 'agent', 3990, 'BRL')`, [owner.accountId]);
    const own = await api("/api/live/billing", { token });
    expect(own.body).toMatchObject({ price_per_agent: 3990, own_price: true, monthly_total: 3990 * agents.length });
    await query(`DELETE FROM omni_prices WHERE account_id = $1`, [owner.accountId]);
  });

  it("renewal at the São Paulo month start, with a controlled clock: each seat paid once even when two runs race; one the balance cannot pay stops being an agent", async () => {
    const seats = await query<{ id: string; user_id: string; charged_until: Date }>(
      `SELECT id, user_id, charged_until FROM memberships WHERE account_id = $1 AND is_agent ORDER BY id`,
      [owner.accountId],
    );
    expect(seats.length).toBeGreaterThanOrEqual(3);
    const boundary = spMonth(new Date()).end; // every seat is paid until then
    for (const s of seats) expect(new Date(s.charged_until).getTime()).toBe(boundary);
    const renewals = async () =>
      query<{ reference: string; amount: number }>(
        `SELECT reference, amount::int AS amount FROM ledger_entries WHERE account_id = $1 AND kind = 'agent' AND book = 'customer' AND reason = 'agent seat, month' ORDER BY reference`,
        [owner.accountId],
      );

    // A millisecond before the month starts: nothing is due.
    expect(await renewAgentSeats(new Date(boundary - 1), { accountId: owner.accountId })).toEqual({ renewed: 0, lapsed: 0 });
    expect(await renewals()).toEqual([]);

    const before = await balanceOf(owner.accountId);
    const at = new Date(boundary);
    const [a, b] = await Promise.all([renewAgentSeats(at, { accountId: owner.accountId }), renewAgentSeats(at, { accountId: owner.accountId })]);
    expect(a.renewed + b.renewed).toBe(seats.length);
    expect(a.lapsed + b.lapsed).toBe(0);
    expect(await renewals()).toEqual(seats.map((s) => ({ reference: `agent:${s.id}`, amount: -AGENT_MONTHLY_PRICE })).sort((x, y) => x.reference.localeCompare(y.reference)));
    expect(await balanceOf(owner.accountId)).toBe(before - AGENT_MONTHLY_PRICE * seats.length);
    const next = spMonth(at).end;
    for (const s of await query<{ charged_until: Date }>(`SELECT charged_until FROM memberships WHERE account_id = $1 AND is_agent`, [owner.accountId]))
      expect(new Date(s.charged_until).getTime()).toBe(next);
    // Run again in that month: nothing more.
    expect(await renewAgentSeats(new Date(boundary + 5 * HOUR), { accountId: owner.accountId })).toEqual({ renewed: 0, lapsed: 0 });
    expect(await mismatches()).toEqual([]);

    // The month after, the balance covers one seat only: the rest lapse (no longer agents), nothing else changes.
    await setAccount(owner.accountId, { balance: AGENT_MONTHLY_PRICE, creditLimit: 0 });
    const r = await renewAgentSeats(new Date(next), { accountId: owner.accountId });
    expect(r).toEqual({ renewed: 1, lapsed: seats.length - 1 });
    expect(await balanceOf(owner.accountId)).toBe(0);
    const after = await query<{ is_agent: boolean; charged_until: Date }>(`SELECT is_agent, charged_until FROM memberships WHERE id = ANY($1::uuid[])`, [seats.map((s) => s.id)]);
    expect(after.filter((m) => m.is_agent)).toHaveLength(1);
    expect(after.filter((m) => !m.is_agent).every((m) => new Date(m.charged_until).getTime() === next)).toBe(true);
    expect(await mismatches()).toEqual([]);
    await setAccount(owner.accountId, { balance: 1_000_000 });
  });
});

describe("/numbers/active", () => {
  it("admin gets the account's short codes and WhatsApp numbers with their monthly prices and total; another role 403", async () => {
    const code = String(40000 + Math.floor(Math.random() * 59999));
    await query(`INSERT INTO short_codes (account_id, number, nickname) VALUES ($1, $2, 'Promo')`, [owner.accountId, code]);
    await query(`INSERT INTO short_codes (account_id, number, nickname, status, monthly_price) VALUES ($1, $2, 'Off', 'inactive', 50000)`, [owner.accountId, `${code}1`]);
    const [{ password_hash }] = await query<{ password_hash: string }>(`SELECT password_hash FROM users WHERE id = $1`, [owner.userId]);
    const adminEmail = uniqueEmail("numadmin");
    const adminId = await makeUser({ email: adminEmail, passwordHash: password_hash, verified: true });
    await addMember(owner.accountId, adminId, { role: "admin" });
    const adminToken = (await login(adminEmail, owner.password)).token;
    const res = await api("/api/numbers/active", { token: adminToken });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.short_codes.map((s: { number: string; status: string; monthly_price: number }) => [s.number, s.status, s.monthly_price])).toEqual([
      [code, "active", 99000],
      [`${code}1`, "inactive", 50000],
    ]);
    expect(res.body.whatsapp_numbers).toEqual([]);
    expect(res.body).toMatchObject({ currency: "BRL", monthly_total: 99000 });
    // The owner is not in the route's roles (spec: "/numbers/active admin").
    expect((await api("/api/numbers/active", { token })).status).toBe(403);
  });
});
