/**
 * Sends of one account run side by side (the account row is locked only by the final debit), yet
 * never spend the same balance twice: with money for exactly 5 messages, 12 concurrent single
 * sends give 5 accepted and 7 × 402, the balance ends at exactly 0 and only 5 messages exist.
 * One-number sends that arrive together are written together (group commit, ADR 027): fewer
 * transactions than messages, each message still whole (outbox row, event, audit entry) and the
 * balance exact.
 */
import { randomInt } from "node:crypto";
import { describe, expect, it } from "vitest";
import { inject } from "vitest";
import { login, registerPerson } from "../support/api";
import { query } from "../support/db";
import { setAccount } from "../support/factories";

const DEFAULT_T1 = 8;

async function send(token: string, key?: string) {
  const res = await fetch(new URL("/api/sms/messages", inject("apiUrl")), {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}`, ...(key ? { "Idempotency-Key": key } : {}) },
    body: JSON.stringify({ to: `+55119${randomInt(10_000_000, 99_999_999)}`, body: "Seu código chegou" }),
  });
  return { status: res.status, body: await res.json() };
}

describe("concurrent sends of one account", () => {
  it("never overspend: exactly the affordable sends are accepted, the rest are 402 and write nothing", async () => {
    const p = await registerPerson("concurrent");
    await setAccount(p.accountId, { balance: 5 * DEFAULT_T1, creditLimit: 0 });
    const { token } = await login(p.email, p.password);
    const answers = await Promise.all(Array.from({ length: 12 }, () => send(token)));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(5);
    expect(statuses.filter((s) => s === 402)).toHaveLength(7);
    expect(answers.filter((a) => a.status === 402).every((a) => a.body.error.code === "INSUFFICIENT_BALANCE")).toBe(true);
    const [account] = await query<{ balance: string }>("SELECT balance FROM account_balances WHERE account_id = $1", [p.accountId]);
    expect(Number(account.balance)).toBe(0);
    const [{ n, outbox }] = await query<{ n: number; outbox: number }>(
      `SELECT count(*)::int AS n, (SELECT count(*)::int FROM outbox o WHERE o.payload->>'message_id' = ANY(array_agg(m.id::text))) AS outbox
         FROM messages m WHERE m.account_id = $1`,
      [p.accountId],
    );
    expect(n).toBe(5);
    expect(outbox).toBe(5);
  });

  it("writes one-number sends that arrive together in shared transactions, each whole, the balance exact", async () => {
    const p = await registerPerson("grouped");
    await setAccount(p.accountId, { balance: 1_000_000, creditLimit: 0 });
    const { token } = await login(p.email, p.password);
    const answers = await Promise.all(Array.from({ length: 40 }, () => send(token)));
    expect(answers.map((a) => a.status)).toEqual(Array(40).fill(200));
    const spent = answers.reduce((sum, a) => sum + a.body.total_price, 0);
    expect(spent).toBe(40 * DEFAULT_T1);
    const [w] = await query<{ messages: number; transactions: number; outbox: number; events: number; audits: number; balance: string }>(
      `SELECT count(*)::int AS messages, count(DISTINCT m.xmin::text)::int AS transactions,
              (SELECT count(*)::int FROM outbox o WHERE o.payload->>'message_id' = ANY(array_agg(m.id::text))) AS outbox,
              (SELECT count(*)::int FROM message_events e WHERE e.message_id = ANY(array_agg(m.id)) AND e.status = 'queued') AS events,
              (SELECT count(*)::int FROM audit_logs l WHERE l.account_id = $1 AND l.action = 'sms.accepted') AS audits,
              (SELECT balance FROM account_balances WHERE account_id = $1) AS balance
         FROM messages m WHERE m.account_id = $1`,
      [p.accountId],
    );
    expect(w).toMatchObject({ messages: 40, outbox: 40, events: 40, audits: 40 });
    expect(Number(w.balance)).toBe(1_000_000 - spent);
    // The first send of an idle account is written alone; those that arrive meanwhile share the next write.
    expect(w.transactions).toBeLessThan(40);
    expect(answers.map((a) => a.body.data[0].id).sort()).toEqual(
      (await query<{ id: string }>("SELECT id::text FROM messages WHERE account_id = $1 ORDER BY id", [p.accountId])).map((r) => r.id).sort(),
    );
  });

  it("an account that runs out in a shared write loses only its own sends; the others' are written", async () => {
    const poor = await registerPerson("grouped-poor");
    const rich = await registerPerson("grouped-rich");
    await setAccount(poor.accountId, { balance: 3 * DEFAULT_T1, creditLimit: 0 });
    await setAccount(rich.accountId, { balance: 1_000_000, creditLimit: 0 });
    const [p, r] = [(await login(poor.email, poor.password)).token, (await login(rich.email, rich.password)).token];
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => send(i % 2 ? r : p).then((a) => ({ ...a, rich: i % 2 === 1 }))));
    const statuses = (rich: boolean) => answers.filter((a) => a.rich === rich).map((a) => a.status);
    expect(statuses(true)).toEqual(Array(10).fill(200));
    expect(statuses(false).filter((s) => s === 200)).toHaveLength(3);
    expect(statuses(false).filter((s) => s === 402)).toHaveLength(7);
    const balances = await query<{ account_id: string; balance: string; messages: number }>(
      `SELECT b.account_id, b.balance, (SELECT count(*)::int FROM messages m WHERE m.account_id = b.account_id) AS messages
         FROM account_balances b WHERE b.account_id = ANY($1::uuid[])`,
      [[poor.accountId, rich.accountId]],
    );
    const of = (id: string) => balances.find((b) => b.account_id === id)!;
    expect(of(poor.accountId)).toMatchObject({ balance: "0", messages: 3 });
    expect(of(rich.accountId)).toMatchObject({ balance: String(1_000_000 - 10 * DEFAULT_T1), messages: 10 });
  });
});
