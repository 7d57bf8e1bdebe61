/**
 * Plans and their change (issue 18, ADR 045): the catalogue with the account's current plan;
 * choosing a plan that renews pays its first period whole (a `plan_fee` posting of the ledger);
 * changing inside a period pays or returns the price difference for the part left (half a period
 * left: half the difference, to the centavo); the same plan again, a change the balance does not
 * cover and a trial are refused with the ledger unchanged; the plan's features open with it (the
 * plan gates); renewals at a period's end, with a controlled clock, pay the next period once, and a
 * plan whose renewal the balance cannot pay ends at its period's end.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { api, login, registerPerson, type Person } from "../support/api";
import { query } from "../support/db";
import { balanceOf, setAccount } from "../support/factories";

process.env.DATABASE_URL = inject("databaseUrl");
const { renewPlans } = await import("../../api/plans/change");
const { closeDb } = await import("../../models/db");

type PlanView = { id: string; name: string; service: string; price: number; current: boolean; is_trial: boolean };

let person: Person;
let token: string;
let plans: PlanView[];
const byName = (name: string) => plans.find((p) => p.name === name)!;

const fees = (accountId: string) =>
  query<{ amount: number; reference: string; reason: string }>(
    `SELECT amount::int AS amount, reference, reason FROM ledger_entries WHERE account_id = $1 AND kind = 'plan_fee' AND book = 'customer' ORDER BY id`,
    [accountId],
  );
const held = async (accountId: string, service = "omni") =>
  (
    await query<{ plan_id: string; period_start: Date | null; period_end: Date | null; ends_at: Date | null }>(
      `SELECT plan_id, period_start, period_end, ends_at FROM account_plans WHERE account_id = $1 AND service = $2`,
      [accountId, service],
    )
  )[0];

beforeAll(async () => {
  person = await registerPerson("plans");
  token = (await login(person.email, person.password)).token;
  await setAccount(person.accountId, { balance: 100_000 });
  const res = await api("/api/plans", { token });
  expect(res.status).toBe(200);
  plans = res.body.data;
});

afterAll(async () => {
  await closeDb();
});

describe("plans", () => {
  it("the catalogue lists every active plan with the account's current one marked (none yet)", async () => {
    expect(plans.map((p) => p.name)).toEqual(expect.arrayContaining(["Omni", "Omni Essencial", "SMS", "WhatsApp Business"]));
    expect(plans.filter((p) => p.current)).toEqual([]);
    const one = await api(`/api/plans/${byName("Omni").id}`, { token });
    expect(one.body).toMatchObject({ name: "Omni", price: 29900, billing_cycle: "monthly", current: false });
  });

  it("choosing a plan that renews pays its first period whole, from today's São Paulo midnight, and opens its features", async () => {
    const essencial = byName("Omni Essencial");
    // Outside the plan: live chat departments answer 403 (the plan gate).
    expect((await api("/api/departments", { token })).status).toBe(403);
    const quote = await api(`/api/plans/${essencial.id}/quote`, { token });
    expect(quote.body).toMatchObject({ amount: 14900, prorated: false, current: false });
    const before = await balanceOf(person.accountId);
    const res = await api(`/api/plans/${essencial.id}/change`, { token, method: "POST" });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ plan_id: essencial.id, service: "omni", charged: 14900, currency: "BRL" });
    expect(await balanceOf(person.accountId)).toBe(before - 14900);
    expect(await fees(person.accountId)).toEqual([{ amount: -14900, reference: `plan:${essencial.id}`, reason: "plan" }]);
    const h = await held(person.accountId);
    expect(h.plan_id).toBe(essencial.id);
    // A São Paulo midnight is 03:00 UTC; a monthly period ends a calendar month later.
    expect(new Date(h.period_start!).toISOString()).toMatch(/T03:00:00\.000Z$/);
    const [{ ok }] = await query<{ ok: boolean }>(
      `SELECT $2::timestamptz = (($1::timestamptz AT TIME ZONE 'America/Sao_Paulo' + interval '1 month') AT TIME ZONE 'America/Sao_Paulo') AS ok`,
      [h.period_start, h.period_end],
    );
    expect(ok).toBe(true);
    expect((await api("/api/departments", { token })).status).toBe(200);
    const list = await api("/api/plans", { token });
    expect(list.body.data.filter((p: PlanView) => p.current).map((p: PlanView) => p.name)).toEqual(["Omni Essencial"]);
  });

  it("the same plan again is PLAN_UNCHANGED and moves no money", async () => {
    const before = await balanceOf(person.accountId);
    const res = await api(`/api/plans/${byName("Omni Essencial").id}/change`, { token, method: "POST" });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe("PLAN_UNCHANGED");
    expect(await balanceOf(person.accountId)).toBe(before);
    expect(await fees(person.accountId)).toHaveLength(1);
  });

  it("an upgrade with half the period left pays half the difference; the downgrade back returns it; the period stays", async () => {
    // Half of a 30-day period left.
    await query(`UPDATE account_plans SET period_start = now() - interval '15 days', period_end = now() + interval '15 days' WHERE account_id = $1 AND service = 'omni'`, [
      person.accountId,
    ]);
    const period = await held(person.accountId);
    const omni = byName("Omni");
    // round(29900 / 2) - round(14900 / 2) = 14950 - 7450.
    expect((await api(`/api/plans/${omni.id}/quote`, { token })).body).toMatchObject({ amount: 7500, prorated: true });
    const before = await balanceOf(person.accountId);
    const up = await api(`/api/plans/${omni.id}/change`, { token, method: "POST" });
    expect(up.status, JSON.stringify(up.body)).toBe(200);
    expect(up.body.charged).toBe(7500);
    expect(await balanceOf(person.accountId)).toBe(before - 7500);
    const after = await held(person.accountId);
    expect(after.plan_id).toBe(omni.id);
    expect([after.period_start, after.period_end]).toEqual([period.period_start, period.period_end]);

    const down = await api(`/api/plans/${byName("Omni Essencial").id}/change`, { token, method: "POST" });
    expect(down.status).toBe(200);
    expect(down.body.charged).toBe(-7500);
    expect(await balanceOf(person.accountId)).toBe(before);
    expect((await fees(person.accountId)).map((f) => f.amount)).toEqual([-14900, -7500, 7500]);
  });

  it("a change the balance and credit limit do not cover is 402 and changes nothing; a trial cannot be chosen", async () => {
    const keep = await balanceOf(person.accountId);
    await setAccount(person.accountId, { balance: 100, creditLimit: 0 });
    const res = await api(`/api/plans/${byName("Omni").id}/change`, { token, method: "POST" });
    expect(res.status).toBe(402);
    expect(res.body.error.code).toBe("INSUFFICIENT_BALANCE");
    expect((await held(person.accountId)).plan_id).toBe(byName("Omni Essencial").id);
    expect(await fees(person.accountId)).toHaveLength(3);
    const trial = (await query<{ id: string }>(`SELECT id FROM plans WHERE is_trial AND active LIMIT 1`))[0];
    const t = await api(`/api/plans/${trial.id}/change`, { token, method: "POST" });
    expect(t.status).toBe(422);
    expect(t.body.error.fields.plan).toBeDefined();
    await setAccount(person.accountId, { balance: keep });
  });

  it("renewal at the period's end (controlled clock) pays the next period once; one the balance cannot pay ends at its period's end", async () => {
    const periodEnd = new Date(Date.UTC(2031, 0, 1, 3)); // 2031-01-01 00:00 in São Paulo
    await query(`UPDATE account_plans SET period_start = '2030-12-01T03:00:00Z', period_end = $2 WHERE account_id = $1 AND service = 'omni'`, [person.accountId, periodEnd]);
    const before = await balanceOf(person.accountId);
    // A millisecond before the end: nothing due.
    await renewPlans(new Date(periodEnd.getTime() - 1));
    expect(await balanceOf(person.accountId)).toBe(before);
    // At the end, twice at once: paid once, the period moves a month (January has 31 days).
    await Promise.all([renewPlans(periodEnd), renewPlans(periodEnd)]);
    expect(await balanceOf(person.accountId)).toBe(before - 14900);
    const h = await held(person.accountId);
    expect([new Date(h.period_start!).toISOString(), new Date(h.period_end!).toISOString()]).toEqual(["2031-01-01T03:00:00.000Z", "2031-02-01T03:00:00.000Z"]);
    expect((await fees(person.accountId)).at(-1)).toMatchObject({ amount: -14900, reason: "plan renewal" });

    // February's renewal without the money: the plan ends at its period's end, nothing is debited or deleted.
    await setAccount(person.accountId, { balance: 0, creditLimit: 0 });
    await renewPlans(new Date("2031-02-01T03:00:00Z"));
    const lapsed = await held(person.accountId);
    expect(new Date(lapsed.ends_at!).toISOString()).toBe("2031-02-01T03:00:00.000Z");
    expect(lapsed.period_end).toBeNull();
    expect(await balanceOf(person.accountId)).toBe(0);
  });
});
