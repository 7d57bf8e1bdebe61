/**
 * GET /api/usage (issue 18) over the run's real processes:
 * - SMS sent through the API on two routes (one of two segments) and a scheduled list canceled
 *   (its messages refunded): quantities, refunded, segments and amounts per channel/route and per
 *   São Paulo day; the total is what the ledger charged (customer legs of `message` and `refund`);
 * - rows written just before and just after a São Paulo midnight fall on their São Paulo days,
 *   and a row just before the period's first midnight is outside it; refunded and price-0 refusals
 *   count in quantity, not in money; channels without a route;
 * - the query reads only the partitions of the period (EXPLAIN of the very SQL);
 * - validation (bad date, from after to, more than 31 days, the future, an unknown period) names
 *   the field, translated; the account's own figures only; who may read it.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { USAGE_SQL, saoPauloDay, saoPauloMidnight } from "../../api/usage/usage";
import { api, login, registerPerson, type Person } from "../support/api";
import { query } from "../support/db";
import { makeMessageEvents, makeMessages, makeSmsPrice, setAccount, setMember } from "../support/factories";

type Who = Person & { token: string };
async function person(tag: string, balance: number): Promise<Who> {
  const p = await registerPerson(tag);
  await setAccount(p.accountId, { balance });
  return { ...p, token: (await login(p.email, p.password)).token };
}

const addDays = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
const usage = (who: Who, qs: string, lang?: string) => api(`/api/usage${qs}`, { token: who.token, lang });

let seq = 10_000_000 + Math.floor(Math.random() * 50_000_000);
const nextNumber = () => `+55119${String(seq++).padStart(8, "0")}`;

/** The customer legs of the account's message and refund postings in [from's São Paulo midnight, the midnight after to). */
async function ledgerCharged(accountId: string, from: string, to: string): Promise<number> {
  const [r] = await query<{ total: string | null }>(
    `SELECT sum(amount) AS total FROM ledger_entries WHERE account_id = $1 AND book = 'customer' AND kind IN ('message', 'refund') AND created_at >= $2 AND created_at < $3`,
    [accountId, saoPauloMidnight(from), saoPauloMidnight(addDays(to, 1))],
  );
  return -Number(r.total ?? 0);
}

describe("usage of SMS sent through the API", () => {
  let p: Who;
  const today = saoPauloDay();

  beforeAll(async () => {
    p = await person("usage", 100_000);
    await makeSmsPrice(p.accountId, { route: "T2", pricePerSegment: 5 });
  });

  it("counts each channel/route and day in quantity and money, a canceled list as refunded, and the total equals the ledger", async () => {
    for (const body of ["Uso um", "Uso dois"]) {
      const res = await api("/api/sms/messages", { token: p.token, body: { to: nextNumber(), body } });
      expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
      expect(res.body.data[0]).toMatchObject({ segments: 1, price: 8 });
    }
    const long = await api("/api/sms/messages", { token: p.token, body: { to: nextNumber(), body: "Texto longo ".repeat(15).trim(), route: "T2" } });
    expect(long.status, JSON.stringify(long.body)).toBeLessThan(300);
    expect(long.body.data[0]).toMatchObject({ segments: 2, price: 10 });

    // A list scheduled an hour ahead (debited now), then canceled: its three messages are refunded.
    const at = new Date(Date.now() + 3_600_000).toISOString();
    const list = await api("/api/sms/messages", {
      token: p.token,
      body: { to: [nextNumber(), nextNumber(), nextNumber()], body: "Lista cancelada", scheduled_at: at, campaign_name: "Cancelada" },
    });
    expect(list.status, JSON.stringify(list.body)).toBeLessThan(300);
    const canceled = await api(`/api/sms/campaigns/${list.body.campaign_id}`, { method: "PUT", token: p.token, body: { status: "canceled" } });
    expect(canceled.status, JSON.stringify(canceled.body)).toBe(200);
    expect(canceled.body.meta).toMatchObject({ canceled: 3, refunded: 24 });

    const res = await usage(p, "?period=7d");
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ period: "7d", from: addDays(today, -6), to: today, time_zone: "America/Sao_Paulo", currency: "BRL" });
    expect(res.body.channels).toEqual([
      { channel: "sms", route: "T1", quantity: 5, refunded: 3, segments: 5, amount: 16 },
      { channel: "sms", route: "T2", quantity: 1, refunded: 0, segments: 2, amount: 10 },
    ]);
    expect(res.body.days).toEqual([
      { date: today, channel: "sms", route: "T1", quantity: 5, refunded: 3, segments: 5, amount: 16 },
      { date: today, channel: "sms", route: "T2", quantity: 1, refunded: 0, segments: 2, amount: 10 },
    ]);
    expect(res.body.totals).toEqual({ quantity: 6, refunded: 3, segments: 7, amount: 26 });
    // Money is what the ledger charged: the debits of the sends less the refund of the canceled list.
    expect(await ledgerCharged(p.accountId, res.body.from, res.body.to)).toBe(res.body.totals.amount);

    // The same figures for 30 days and for today alone as a custom range.
    const month = await usage(p, "?period=30d");
    expect(month.body).toMatchObject({ period: "30d", from: addDays(today, -29), to: today, totals: res.body.totals });
    const custom = await usage(p, `?from=${today}&to=${today}`);
    expect(custom.body).toMatchObject({ period: "custom", from: today, to: today, totals: res.body.totals, channels: res.body.channels });
    expect(await ledgerCharged(p.accountId, today, today)).toBe(custom.body.totals.amount);
  }, 60_000);

  it("answers only the account's own figures", async () => {
    const other = await person("usageother", 1_000);
    const res = await usage(other, "?period=30d");
    expect(res.status).toBe(200);
    expect(res.body.totals).toEqual({ quantity: 0, refunded: 0, segments: 0, amount: 0 });
    expect(res.body.channels).toEqual([]);
    expect(res.body.days).toEqual([]);
  });
});

describe("São Paulo days", () => {
  let p: Who;
  const today = saoPauloDay();
  // D's São Paulo midnight is 03:00 UTC (no daylight saving time since 2019).
  const d = addDays(today, -2);
  const midnight = saoPauloMidnight(d);
  const firstMidnight = saoPauloMidnight(addDays(today, -6));
  const ms = (base: Date, n: number) => new Date(base.getTime() + n).toISOString();

  beforeAll(async () => {
    p = await person("usagedays", 0);
    const [, refused] = await makeMessages(p.accountId, [
      // The São Paulo day before D, 1 ms before its midnight (D 02:59:59.999 UTC).
      { route: "T1", status: "delivered", price: 8, createdAt: ms(midnight, -1) },
      // Failed before the provider took it and refunded: a refund event.
      { route: "T1", status: "failed", price: 8, errorCode: "invalid_number", createdAt: ms(midnight, -1000) },
      // At D's midnight exactly, and a second later.
      { route: "T1", status: "delivered", price: 8, segments: 2, createdAt: ms(midnight, 0) },
      { channel: "email", route: null, status: "delivered", price: 3, recipient: "ana@example.com", createdAt: ms(midnight, 1000) },
      // Refused in moderation: price 0.
      { route: "T1", status: "rejected", price: 0, createdAt: ms(midnight, 2000) },
      // Inbound: not usage.
      { direction: "inbound", status: "received", price: 0, createdAt: ms(midnight, 3000) },
      // 1 ms before the 7-day period's first midnight: outside it.
      { route: "T1", status: "delivered", price: 8, createdAt: ms(firstMidnight, -1) },
    ]);
    await makeMessageEvents(p.accountId, refused.id, [{ status: "refund", payload: { price: 8, currency: "BRL", reason: "invalid_number" } }]);
  });

  it("groups by São Paulo calendar day, bounds the period at São Paulo midnights, and leaves refunds out of the money", async () => {
    const res = await usage(p, "?period=7d");
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const before = addDays(d, -1);
    expect(res.body.days).toEqual([
      { date: before, channel: "sms", route: "T1", quantity: 2, refunded: 1, segments: 2, amount: 8 },
      { date: d, channel: "email", route: null, quantity: 1, refunded: 0, segments: 1, amount: 3 },
      { date: d, channel: "sms", route: "T1", quantity: 2, refunded: 1, segments: 3, amount: 8 },
    ]);
    expect(res.body.channels).toEqual([
      { channel: "email", route: null, quantity: 1, refunded: 0, segments: 1, amount: 3 },
      { channel: "sms", route: "T1", quantity: 4, refunded: 2, segments: 5, amount: 16 },
    ]);
    expect(res.body.totals).toEqual({ quantity: 5, refunded: 2, segments: 6, amount: 19 });

    // One day more at the start takes in the row 1 ms before the 7-day period's first midnight.
    const wider = await usage(p, `?from=${addDays(today, -7)}&to=${today}`);
    expect(wider.body.days[0]).toEqual({ date: addDays(today, -7), channel: "sms", route: "T1", quantity: 1, refunded: 0, segments: 1, amount: 8 });
    expect(wider.body.totals.amount).toBe(27);
    // D alone.
    const one = await usage(p, `?from=${d}&to=${d}`);
    expect(one.body.totals).toEqual({ quantity: 3, refunded: 1, segments: 4, amount: 11 });
  });

  it("reads only the partitions of the period (the partition key's range)", async () => {
    const from = saoPauloMidnight(addDays(today, -6));
    const to = saoPauloMidnight(addDays(today, 1));
    const [{ "QUERY PLAN": plan }] = await query<{ "QUERY PLAN": unknown }>(`EXPLAIN (FORMAT JSON) ${USAGE_SQL}`, [p.accountId, from, to]);
    const found = new Set<string>();
    const walk = (node: unknown) => {
      if (Array.isArray(node)) node.forEach(walk);
      else if (node && typeof node === "object") {
        const n = node as Record<string, unknown>;
        if (typeof n["Relation Name"] === "string" && n["Relation Name"].startsWith("messages_p")) found.add(n["Relation Name"]);
        Object.values(n).forEach(walk);
      }
    };
    walk(plan);
    const months = new Set([from, new Date(to.getTime() - 1)].map((t) => `messages_p${t.toISOString().slice(0, 7).replace("-", "_")}`));
    expect([...found].sort()).toEqual([...months].sort());
  });
});

describe("validation and access", () => {
  let p: Who;
  const today = saoPauloDay();
  beforeAll(async () => {
    p = await person("usageval", 0);
  });

  it("refuses a bad range with 422 VALIDATION naming from or to, translated", async () => {
    const cases: Array<[string, Record<string, string[]>]> = [
      [`?from=2026-02-30&to=${today}`, { from: ["Invalid date"] }],
      [`?from=${today}&to=hoje`, { to: ["Invalid date"] }],
      [`?from=${today}&to=${addDays(today, -1)}`, { from: ["The start date must be on or before the end date"] }],
      [`?from=${addDays(today, -31)}&to=${today}`, { to: ["The period can be at most 31 days"] }],
      [`?from=${today}&to=${addDays(today, 1)}`, { to: ["The end date cannot be after today"] }],
      [`?from=${today}`, { to: ["Required field"] }],
      ["?period=90d", { period: ["Choose one of the options"] }],
    ];
    for (const [qs, fields] of cases) {
      const res = await usage(p, qs, "en");
      expect(res.status, qs).toBe(422);
      expect(res.body.error.code, qs).toBe("VALIDATION");
      expect(res.body.error.fields, qs).toEqual(fields);
    }
    const pt = await usage(p, `?from=${addDays(today, -40)}&to=${today}`, "pt-BR");
    expect(pt.body.error.fields).toEqual({ to: ["O período pode ter no máximo 31 dias"] });
    // Exactly 31 days is allowed.
    const longest = await usage(p, `?from=${addDays(today, -30)}&to=${today}`);
    expect(longest.status).toBe(200);
  });

  it("is for whoever reaches /usage: billing yes, an agent no", async () => {
    const billing = await person("usagebilling", 0);
    await setMember(billing.accountId, billing.userId, { role: "billing" });
    const asBilling = (await login(billing.email, billing.password)).token;
    expect((await api("/api/usage", { token: asBilling })).status).toBe(200);
    const agent = await person("usageagent", 0);
    await setMember(agent.accountId, agent.userId, { role: "agent" });
    const asAgent = (await login(agent.email, agent.password)).token;
    expect((await api("/api/usage", { token: asAgent })).status).toBe(403);
    expect((await api("/api/usage")).status).toBe(401);
  });
});
