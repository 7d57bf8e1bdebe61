/**
 * Idempotency keys are answered for 24 hours, then the worker's sweep (IDEMPOTENCY_SWEEP_SECONDS,
 * 2 s in tests) removes them: the table does not grow forever and the key can be used again.
 */
import { randomInt, randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { inject } from "vitest";
import { login, registerPerson } from "../support/api";
import { query } from "../support/db";
import { ago, setAccount, setIdempotencyKey } from "../support/factories";

async function send(token: string, key: string, body: string) {
  const res = await fetch(new URL("/api/sms/messages", inject("apiUrl")), {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}`, "Idempotency-Key": key },
    body: JSON.stringify({ to: `+55119${randomInt(10_000_000, 99_999_999)}`, body }),
  });
  return { status: res.status, body: await res.json() };
}

async function until(check: () => Promise<boolean>, ms = 10_000) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 200));
  }
  return false;
}

describe("idempotency key sweep", () => {
  it("removes keys older than 24 h, keeps younger ones, and an expired key can be used for a new request", async () => {
    const p = await registerPerson("idemsweep");
    await setAccount(p.accountId, { balance: 1000 });
    const { token } = await login(p.email, p.password);
    const oldKey = `old-${randomUUID()}`;
    const youngKey = `young-${randomUUID()}`;
    expect((await send(token, oldKey, "Primeiro pedido")).status).toBe(200);
    expect((await send(token, youngKey, "Segundo pedido")).status).toBe(200);
    // The first key was used 25 hours ago; the second 23 hours ago.
    await setIdempotencyKey(p.accountId, oldKey, { createdAt: ago("25 hours") });
    await setIdempotencyKey(p.accountId, youngKey, { createdAt: ago("23 hours") });

    const keys = () => query<{ key: string }>("SELECT key FROM idempotency_keys WHERE account_id = $1 ORDER BY key", [p.accountId]);
    expect(await until(async () => (await keys()).length === 1)).toBe(true);
    expect((await keys()).map((k) => k.key)).toEqual([youngKey]);

    // The young key still answers its first response and refuses another request.
    expect((await send(token, youngKey, "Outro texto")).status).toBe(409);
    // The expired key is free again: a different request under it is a new send.
    const reused = await send(token, oldKey, "Pedido novo");
    expect(reused.status).toBe(200);
    const [{ n }] = await query<{ n: number }>("SELECT count(*)::int AS n FROM messages WHERE account_id = $1", [p.accountId]);
    expect(n).toBe(3);
  });
});
