/**
 * The double-entry ledger (issue 18, ADR 042, migration 0060): every balance change is a posting of
 * two legs summing to zero, written by the balance's own statement; the balance is the sum of the
 * `customer` legs at any time.
 * - 10,000 one-at-a-time sends accepted side by side with scheduled campaigns being accepted and
 *   canceled (refunded): the account's balance equals its customer legs exactly, each posting has
 *   two legs summing to zero, the debits are exactly what the sends cost and the refunds what the
 *   cancels returned.
 * - A change of the balance without a posting context still posts (an `adjustment` saying so).
 * - Entries cannot be written directly, changed or deleted; they go with their account.
 */
import { randomInt } from "node:crypto";
import { describe, expect, inject, it } from "vitest";
import { login, registerPerson } from "../support/api";
import { query } from "../support/db";
import { balanceOf, setAccount } from "../support/factories";

const SENDS = 10_000;
const CAMPAIGNS = 40;
const AT_ONCE = 48;

async function post(token: string, path: string, body: unknown, method = "POST") {
  const res = await fetch(new URL(path, inject("apiUrl")), {
    method,
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any };
}

const phone = () => `+55119${randomInt(10_000_000, 99_999_999)}`;
const tomorrow = () => new Date(Date.now() + 86_400_000).toISOString();

/** Runs `jobs` AT_ONCE at a time; answers their results in order. */
async function pool<T>(jobs: Array<() => Promise<T>>): Promise<T[]> {
  const out: T[] = new Array(jobs.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: AT_ONCE }, async () => {
      while (next < jobs.length) {
        const i = next++;
        out[i] = await jobs[i]();
      }
    }),
  );
  return out;
}

const mismatches = (accountId: string) => query("SELECT * FROM ledger_mismatches() WHERE account_id = $1", [accountId]);

describe("the ledger", () => {
  it(`${SENDS.toLocaleString("en")} concurrent sends and refunded campaigns: the balance is exactly the sum of its customer legs`, { timeout: 300_000 }, async () => {
    const p = await registerPerson("ledger10k");
    const start = 10_000_000;
    await setAccount(p.accountId, { balance: start, creditLimit: 0 });
    const { token } = await login(p.email, p.password);

    // Scheduled sends (debited now, never dispatched) and campaigns canceled as soon as they exist.
    const sends = Array.from({ length: SENDS }, () => () => post(token, "/api/sms/messages", { to: phone(), body: "Pedido confirmado", scheduled_at: tomorrow() }));
    const campaigns = Array.from({ length: CAMPAIGNS }, () => async () => {
      const accepted = await post(token, "/api/sms/messages", { to: Array.from({ length: 25 }, phone), body: "Oferta da semana", scheduled_at: tomorrow() });
      if (accepted.status !== 200) return { accepted, canceled: null };
      const canceled = await post(token, `/api/sms/campaigns/${accepted.body.campaign_id}`, { status: "canceled" }, "PUT");
      return { accepted, canceled };
    });
    const mixed: Array<() => Promise<unknown>> = [...sends];
    for (const [i, c] of campaigns.entries()) mixed.splice(Math.floor(((i + 1) * SENDS) / (CAMPAIGNS + 1)) + i, 0, c);
    const results = await pool(mixed);

    const single = results.filter((r): r is { status: number; body: any } => "status" in (r as object));
    const camp = results.filter((r): r is { accepted: { status: number; body: any }; canceled: { status: number; body: any } | null } => "accepted" in (r as object));
    expect(single.map((r) => r.status).filter((s) => s !== 200)).toEqual([]);
    expect(camp.map((c) => [c.accepted.status, c.canceled?.status])).toEqual(Array(CAMPAIGNS).fill([200, 200]));
    const spent = single.reduce((s, r) => s + r.body.total_price, 0) + camp.reduce((s, c) => s + c.accepted.body.total_price, 0);
    const [{ refunded }] = await query<{ refunded: number }>(`SELECT coalesce(sum(price), 0)::int AS refunded FROM messages WHERE account_id = $1 AND error_code = 'canceled'`, [
      p.accountId,
    ]);
    expect(refunded).toBe(camp.reduce((s, c) => s + c.accepted.body.total_price, 0));

    // The balance moved by exactly what was spent and returned, and the ledger says the same.
    const balance = await balanceOf(p.accountId);
    expect(balance).toBe(start - spent + refunded);
    expect(await mismatches(p.accountId)).toEqual([]);
    const books = await query<{ book: string; kind: string; total: number; postings: number }>(
      `SELECT book, kind, sum(amount)::bigint::int AS total, count(DISTINCT posting)::int AS postings FROM ledger_entries WHERE account_id = $1 GROUP BY book, kind ORDER BY book, kind`,
      [p.accountId],
    );
    const of = (book: string, kind: string) => books.find((b) => b.book === book && b.kind === kind);
    expect(of("customer", "message")?.total).toBe(-spent);
    expect(of("revenue", "message")?.total).toBe(spent);
    expect(of("customer", "refund")).toMatchObject({ total: refunded, postings: CAMPAIGNS });
    expect(of("revenue", "refund")?.total).toBe(-refunded);
    expect(of("customer", "adjustment")).toMatchObject({ total: start, postings: 1 });
    // Every posting: two legs, summing to zero, one of them the customer's.
    expect(
      await query(
        `SELECT posting FROM ledger_entries WHERE account_id = $1 GROUP BY posting
          HAVING count(*) <> 2 OR sum(amount) <> 0 OR count(*) FILTER (WHERE book = 'customer') <> 1`,
        [p.accountId],
      ),
    ).toEqual([]);
    // The refunds name their campaigns.
    const refs = await query<{ reference: string }>(`SELECT reference FROM ledger_entries WHERE account_id = $1 AND kind = 'refund' AND book = 'customer' ORDER BY reference`, [
      p.accountId,
    ]);
    expect(refs.map((r) => r.reference)).toEqual(camp.map((c) => `campaign:${c.accepted.body.campaign_id}`).sort());
  });

  it("a balance changed without a posting context still posts, as an adjustment that says so", async () => {
    const p = await registerPerson("ledgeradjust");
    await setAccount(p.accountId, { balance: 1234 });
    await setAccount(p.accountId, { balance: 1000 });
    const legs = await query<{ book: string; amount: number; kind: string; reason: string }>(
      `SELECT book, amount::int AS amount, kind, reason FROM ledger_entries WHERE account_id = $1 ORDER BY id`,
      [p.accountId],
    );
    expect(legs).toEqual([
      { book: "customer", amount: 1234, kind: "adjustment", reason: "balance changed without a posting context" },
      { book: "adjustments", amount: -1234, kind: "adjustment", reason: "balance changed without a posting context" },
      { book: "customer", amount: -234, kind: "adjustment", reason: "balance changed without a posting context" },
      { book: "adjustments", amount: 234, kind: "adjustment", reason: "balance changed without a posting context" },
    ]);
    expect(await mismatches(p.accountId)).toEqual([]);
  });

  it("entries cannot be written directly, changed or deleted; they go with their account", async () => {
    const p = await registerPerson("ledgerimmutable");
    await setAccount(p.accountId, { balance: 500 });
    const [{ id }] = await query<{ id: string }>(`SELECT id FROM ledger_entries WHERE account_id = $1 LIMIT 1`, [p.accountId]);
    await expect(query(`UPDATE ledger_entries SET amount = 1 WHERE id = $1`, [id])).rejects.toThrow(/never rewritten/);
    await expect(query(`DELETE FROM ledger_entries WHERE id = $1`, [id])).rejects.toThrow(/never rewritten/);
    await expect(
      query(`INSERT INTO ledger_entries (account_id, posting, book, amount, currency, kind) VALUES ($1, gen_random_uuid(), 'customer', 99, 'BRL', 'topup')`, [p.accountId]),
    ).rejects.toThrow(/never rewritten/);
    expect(await balanceOf(p.accountId)).toBe(500);
    expect(await mismatches(p.accountId)).toEqual([]);
    await query(`DELETE FROM accounts WHERE id = $1`, [p.accountId]);
    expect(await query(`SELECT 1 FROM ledger_entries WHERE account_id = $1`, [p.accountId])).toEqual([]);
  });
});
