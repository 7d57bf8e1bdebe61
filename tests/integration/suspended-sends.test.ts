/**
 * A suspended customer sends nothing more (issue 23, ADR 069), over a private stack (its own
 * database, api, worker and simulator) whose worker the test stops and starts:
 * - messages accepted while the account was active and still waiting (queued SMS, a scheduled SMS
 *   that comes due during the suspension, a queued e-mail: every channel goes through the same
 *   dispatcher) are never handed to the provider once staff suspended the account: they fail
 *   `account_suspended` and their price comes back through the ledger, once — a redelivered
 *   stream entry refunds nothing more;
 * - a message a dead worker left `sending` is failed on its redelivery when the provider never got it;
 * - a new send of the suspended account is refused with a translated reason;
 * - activated again, the account sends.
 */
import type Redis from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setAccount } from "../support/factories";
import { keysOf, openRedis } from "../support/redis";
import { startStack, type Stack } from "../support/stack";
import { streamHandled } from "../support/wait";
import { DEMO_PASSWORD } from "../support/web";
import { numbers, waitUntil } from "../support/campaigns";

let stack: Stack;
let redis: Redis;
let owner: string;
let staff: string;
let accountId: string;

beforeAll(async () => {
  stack = await startStack({ env: { SCHEDULE_SWEEP_MS: "200" } });
  redis = openRedis(stack.redisUrl);
  const o = await stack.signInDemoOwner();
  owner = o.token;
  accountId = o.accountId;
  staff = (await stack.api("/api/auth/login", { body: { email: "staff@demo.example", password: DEMO_PASSWORD } })).body.token;
  await setAccount(accountId, { balance: 100_000 }, stack.query);
}, 120_000);

afterAll(async () => {
  await redis?.quit();
  await stack?.stop();
});

const balance = async () => Number((await stack.query<{ balance: string }>(`SELECT balance FROM account_balances WHERE account_id = $1`, [accountId]))[0].balance);
const statusOf = (ids: string[]) =>
  stack.query<{ id: string; status: string; error_code: string | null; error_message: string | null; sent_at: Date | null }>(
    `SELECT id, status, error_code, error_message, sent_at FROM messages WHERE id = ANY($1::uuid[]) ORDER BY id`,
    [ids],
  );
const setStatus = (status: "suspended" | "active") => stack.api(`/api/customers/${accountId}`, { token: staff, method: "PUT", body: { status } });
/** What the simulator (the SMS provider) received for each id: its per-reference submit counts. */
const submitted = async (ids: string[]) => {
  const { references } = await stack.simulator<{ references: Record<string, number> }>();
  return ids.filter((id) => (references[id] ?? 0) > 0);
};
/** The refund postings (customer leg) of the account's suspension. */
const suspensionRefunds = () =>
  stack.query<{ amount: string; reason: string }>(
    `SELECT amount::text, reason FROM ledger_entries WHERE account_id = $1 AND book = 'customer' AND kind = 'refund' AND reference = $2 ORDER BY id`,
    [accountId, `suspension:${accountId}`],
  );
const events = (ids: string[], status: string) =>
  stack.query<{ message_id: string }>(`SELECT message_id::text FROM message_events WHERE message_id = ANY($1::uuid[]) AND status = $2`, [ids, status]);

/** A queued e-mail of the account, debited like an accept (a `message` posting) with its outbox row, in one statement. */
async function queuedEmail(price: number): Promise<string> {
  const [m] = await stack.query<{ id: string }>(
    `WITH d AS (
       UPDATE account_balances b SET balance = b.balance - $2::bigint FROM (SELECT set_config('mensageria.ledger', '{"kind":"message","reference":"test-email"}', true)) AS posting
        WHERE b.account_id = $1 RETURNING b.account_id
     ), m AS (
       INSERT INTO messages (account_id, channel, direction, sender, recipient, body, segments, status, route, price, currency, queued_at, content)
       SELECT $1, 'email', 'outbound', 'loja@demo.example', 'cliente@example.com', 'Olá', 1, 'queued', 'T1', $2, 'BRL', now(), '{"subject":"Oi"}'::jsonb FROM d
       RETURNING id, created_at
     ), o AS (
       INSERT INTO outbox (topic, payload) SELECT 'messages:email', jsonb_build_object('message_id', m.id::text) FROM m
     )
     SELECT id FROM m`,
    [accountId, price],
  );
  return m.id;
}

async function stopWorkers() {
  for (const w of stack.workers) await stack.kill(w, "SIGTERM");
}

describe("suspension stops what was accepted before it", () => {
  it("queued, scheduled and e-mail messages fail account_suspended, never reach the provider, and are refunded once", async () => {
    await stopWorkers();
    const before = await balance();
    const queued = await stack.api("/api/sms/messages", { token: owner, body: { to: numbers(3), body: "Promoção de hoje" } });
    expect(queued.status, JSON.stringify(queued.body)).toBe(200);
    const smsIds: string[] = queued.body.data.map((m: { id: string }) => m.id);
    // Due a few seconds from now: it comes due while the account is suspended.
    const scheduled = await stack.api("/api/sms/messages", {
      token: owner,
      body: { to: numbers(1)[0], body: "Lembrete", scheduled_at: new Date(Date.now() + 3000).toISOString() },
    });
    expect(scheduled.status, JSON.stringify(scheduled.body)).toBe(200);
    const scheduledId: string = scheduled.body.data[0].id;
    const emailId = await queuedEmail(3);
    const charged = queued.body.total_price + scheduled.body.total_price + 3;
    expect(charged).toBeGreaterThan(3);
    expect(await balance()).toBe(before - charged);
    const ids = [...smsIds, scheduledId, emailId];

    const res = await setStatus("suspended");
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    // A new send is refused, and says why.
    const refused = await stack.api("/api/sms/messages", { token: owner, lang: "en", body: { to: numbers(1)[0], body: "Mais uma" } });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({ code: "CLIENT_INACTIVE", message: expect.stringContaining("suspended by the platform") });
    const refusedPt = await stack.api("/api/sms/messages", { token: owner, lang: "pt-BR", body: { to: numbers(1)[0], body: "Mais uma" } });
    expect(refusedPt.body.error.message).toContain("Conta suspensa pela plataforma");

    stack.startWorker();
    const rows = await waitUntil(
      "every message failed",
      () => statusOf(ids),
      (r) => r.length === ids.length && r.every((m) => m.status === "failed"),
      30_000,
    );
    for (const m of rows) expect(m).toMatchObject({ error_code: "account_suspended", error_message: "errors.ACCOUNT_SUSPENDED", sent_at: null });
    expect(await submitted(ids)).toEqual([]);
    expect(await events(ids, "sent")).toEqual([]);
    // The money came back through the ledger, once per message.
    expect(await balance()).toBe(before);
    const refunds = await suspensionRefunds();
    expect(refunds.reduce((s, r) => s + Number(r.amount), 0)).toBe(charged);
    expect(new Set(refunds.map((r) => r.reason))).toEqual(new Set(["account_suspended"]));
    expect((await events(ids, "refund")).map((e) => e.message_id).sort()).toEqual([...ids].sort());

    // The same entries delivered again (a duplicate publish, a recovery): nothing more is refunded.
    const keys = keysOf(stack.redisPrefix);
    const streams = new Map<string, string>();
    for (const id of smsIds) {
      const stream = keys.jobStreamFor("messages:sms", id);
      streams.set(stream, String(await redis.xadd(stream, "*", "message_id", id)));
    }
    for (const [stream, entry] of streams) await streamHandled(stream, "dispatchers", entry, 20_000, redis);
    expect(await balance()).toBe(before);
    expect((await suspensionRefunds()).reduce((s, r) => s + Number(r.amount), 0)).toBe(charged);
    expect(await events(ids, "refund")).toHaveLength(ids.length);
    expect(await submitted(ids)).toEqual([]);

    // Activated again: a new send goes out.
    expect((await setStatus("active")).status).toBe(200);
    const again = await stack.api("/api/sms/messages", { token: owner, body: { to: numbers(1)[0], body: "De volta" } });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    const againId: string = again.body.data[0].id;
    await waitUntil(
      "sent after activation",
      () => submitted([againId]),
      (s) => s.length === 1,
      20_000,
    );
    // The history tells the failed ones' reason in the reader's language.
    const one = await stack.api(`/api/sms/messages/${smsIds[0]}`, { token: owner, lang: "en" });
    expect(one.status).toBe(200);
    expect(one.body.data).toMatchObject({ status: "failed", error_code: "account_suspended", error_message: expect.stringContaining("the account was suspended") });
  });

  it("a message left `sending` by a dead worker is failed on its redelivery when the provider never got it", async () => {
    await stopWorkers();
    expect((await setStatus("active")).status).toBe(200);
    const before = await balance();
    const res = await stack.api("/api/sms/messages", { token: owner, body: { to: numbers(1)[0], body: "Em voo" } });
    expect(res.status).toBe(200);
    const id: string = res.body.data[0].id;
    // As if a worker had claimed it and died before its submit: `sending`, its entry still pending for the group.
    await stack.query(`UPDATE messages SET status = 'sending' WHERE id = $1`, [id]);
    expect((await setStatus("suspended")).status).toBe(200);
    stack.startWorker();
    const [m] = await waitUntil(
      "failed",
      () => statusOf([id]),
      (r) => r[0]?.status === "failed",
      30_000,
    );
    expect(m.error_code).toBe("account_suspended");
    expect(await submitted([id])).toEqual([]);
    expect(await balance()).toBe(before);
    expect(await events([id], "refund")).toHaveLength(1);
    expect((await setStatus("active")).status).toBe(200);
  });
});
