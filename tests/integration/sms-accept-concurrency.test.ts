/**
 * Sends of one account run side by side (the account row is locked only by the final debit), yet
 * never spend the same balance twice: with money for exactly 5 messages, 12 concurrent single
 * sends give 5 accepted and 7 × 402, the balance ends at exactly 0 and only 5 messages exist.
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
    const [account] = await query<{ balance: string }>("SELECT balance FROM accounts WHERE id = $1", [p.accountId]);
    expect(Number(account.balance)).toBe(0);
    const [{ n, outbox }] = await query<{ n: number; outbox: number }>(
      `SELECT count(*)::int AS n, (SELECT count(*)::int FROM outbox o WHERE o.payload->>'message_id' = ANY(array_agg(m.id::text))) AS outbox
         FROM messages m WHERE m.account_id = $1`,
      [p.accountId],
    );
    expect(n).toBe(5);
    expect(outbox).toBe(5);
  });
});
