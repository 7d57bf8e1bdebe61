/**
 * No message stays `sent` for ever (issue 12 item 3), over real processes in private stacks with a
 * compressed clock (scaled schedules via env):
 * - the API is down for hours of the simulator's scaled clock: its receipt keeps being retried
 *   (the provider-like schedule of api/simulator/server.ts) and lands once the API is back;
 * - a receipt lost for good: the reconciliation sweep (api/messages/reconcile.ts) asks the
 *   provider (ChannelAdapter.status -> the simulator's GET /v1/messages/{id}) and applies its
 *   final status exactly as a receipt — same event, same customer webhook;
 * - a provider that never learns a final status: the message ends `unavailable` (EXPIRED) after
 *   its validity period;
 * and at the end no outbound message is in a non-final state.
 * Item 4: nothing writes the account events stream (`account:{id}:events`) any more.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { enqueueSms } from "../support/campaigns";
import { startStack, type Stack } from "../support/stack";
import { setAccount } from "../support/factories";
import { openRedis, scanKeys } from "../support/redis";

/** The simulator's test numbers (api/simulator/server.ts). */
const LOST_RECEIPT_NUMBER = "+15005550404";
const NO_ANSWER_NUMBER = "+15005550408";
const UNFINISHED = "('pending','queued','sending','sent')";

async function ownerAccount(stack: Stack) {
  const [{ accountId }] = await stack.query<{ accountId: string }>(
    `SELECT m.account_id AS "accountId" FROM memberships m JOIN users u ON u.id = m.user_id WHERE u.email = 'owner@demo.example' LIMIT 1`,
  );
  await setAccount(accountId, { balance: 100000000 }, stack.query);
  return accountId;
}

async function statusOf(stack: Stack, id: string) {
  const [row] = await stack.query<{ status: string; error_code: string | null; sent_at: Date | null; failed_at: Date | null; status_checked_at: Date | null }>(
    "SELECT status, error_code, sent_at, failed_at, status_checked_at FROM messages WHERE id = $1",
    [id],
  );
  return row;
}

async function unfinished(stack: Stack) {
  const [{ n }] = await stack.query<{ n: number }>(`SELECT count(*)::int AS n FROM messages WHERE direction = 'outbound' AND status IN ${UNFINISHED}`);
  return n;
}

describe("receipts while the API is down for hours (scaled)", () => {
  let stack: Stack;
  let accountId: string;

  beforeAll(async () => {
    // 0.001: the simulator's 24 h of receipt retries last 86 s; one hour between retries is 3.6 s.
    stack = await startStack({ env: { SIMULATOR_RECEIPT_RETRY_SCALE: "0.001", SIMULATOR_MIX: "delivered:1", SIMULATOR_DELAY_MS: "100" } });
    accountId = await ownerAccount(stack);
  }, 120_000);

  afterAll(async () => {
    await stack?.stop();
  });

  it("the simulator keeps retrying the receipt and it lands once the API is back", async () => {
    await stack.stopApi();
    const [id] = await enqueueSms(accountId, { recipients: ["+5521988770001"] }, stack.query);
    // A bound, not a pause: on the cluster pass with the fault tests beside it, the fresh stack's
    // first dispatch once took longer than 30 s (the test passes alone on the cluster).
    await expect.poll(async () => (await statusOf(stack, id)).status, { timeout: 60_000, interval: 200 }).toBe("sent");
    // Down for hours of the simulator's clock: 18 attempts reach about 5 h of its schedule
    // (18 s here), past the 15.5 s after which the old schedule gave the receipt up.
    await expect
      .poll(async () => (await stack.simulator(`/v1/stats?reference=${id}`)) as { receipt: string; receipt_attempts: number }, { timeout: 90_000, interval: 500 })
      .toSatisfy((s: { receipt: string; receipt_attempts: number }) => s.receipt === "pending" && s.receipt_attempts >= 18);
    expect((await statusOf(stack, id)).status).toBe("sent");

    await stack.startApi();
    await expect.poll(async () => (await statusOf(stack, id)).status, { timeout: 30_000, interval: 200 }).toBe("delivered");
    // The simulator notes "posted" when our answer reaches it, which may be just after the status changed.
    await expect.poll(async () => ((await stack.simulator(`/v1/stats?reference=${id}`)) as { receipt: string }).receipt, { timeout: 30_000, interval: 200 }).toBe("posted");
    // It came by the receipt itself, not by a look-up.
    const [event] = await stack.query<{ payload: Record<string, unknown> }>("SELECT payload FROM message_events WHERE message_id = $1 AND status = 'delivered'", [id]);
    expect(event.payload.via).toBeUndefined();
    expect(await unfinished(stack)).toBe(0);
  }, 240_000);
});

describe("reconciliation of messages left `sent`", () => {
  let stack: Stack;
  let accountId: string;
  let token: string;

  beforeAll(async () => {
    stack = await startStack({
      env: { RECONCILE_AFTER_SECONDS: "2", SMS_VALIDITY_SECONDS: "12", RECONCILE_SWEEP_SECONDS: "1", SIMULATOR_MIX: "delivered:1", SIMULATOR_DELAY_MS: "100" },
    });
    accountId = await ownerAccount(stack);
    const login = await stack.api("/api/auth/login", { body: { email: "owner@demo.example", password: "Demo!Mensa#2026" } });
    expect(login.status, JSON.stringify(login.body)).toBe(200);
    token = login.body.token;
    // A customer webhook endpoint: its deliveries show what the account is told of each change.
    const endpoint = await stack.api("/api/webhooks", { token, body: { url: "http://127.0.0.1:9/hook", events: ["message.status_changed"] } });
    expect(endpoint.status, JSON.stringify(endpoint.body)).toBe(201);
  }, 120_000);

  afterAll(async () => {
    await stack?.stop();
  });

  async function webhookOf(id: string, status: string) {
    const rows = await stack.query<{ event_type: string; payload: { type: string; data: Record<string, unknown> } }>(
      "SELECT event_type, payload FROM webhook_deliveries WHERE account_id = $1 AND payload->'data'->>'message_id' = $2 AND payload->'data'->>'status' = $3",
      [accountId, id, status],
    );
    return rows;
  }

  it("a lost receipt is replaced by the provider's answer to a status look-up, announced like a receipt; no answer ends EXPIRED", async () => {
    const [normal, lost, silent] = await enqueueSms(accountId, { recipients: ["+5521988770002", LOST_RECEIPT_NUMBER, NO_ANSWER_NUMBER] }, stack.query);

    // The receipt's way, for comparison.
    await expect.poll(async () => (await statusOf(stack, normal)).status, { timeout: 30_000, interval: 200 }).toBe("delivered");
    // The lost receipt: the simulator never posts it; the sweep asks and applies `delivered`.
    await expect.poll(async () => (await statusOf(stack, lost)).status, { timeout: 30_000, interval: 200 }).toBe("delivered");
    expect(await stack.simulator(`/v1/stats?reference=${lost}`)).toMatchObject({ receipt: "lost", receipt_attempts: 0 });

    const events = await stack.query<{ message_id: string; source: string; payload: Record<string, unknown> }>(
      "SELECT message_id, source, payload FROM message_events WHERE message_id = ANY($1::uuid[]) AND status = 'delivered'",
      [[normal, lost]],
    );
    const byMessage = new Map(events.map((e) => [e.message_id, e]));
    expect(byMessage.get(lost)).toMatchObject({ source: "provider", payload: { via: "lookup", previous: "sent", applied: true } });
    expect(byMessage.get(normal)).toMatchObject({ source: "provider", payload: { previous: "sent", applied: true } });

    // The customer webhook of the reconciled message is the receipt's, field for field.
    await expect.poll(async () => (await webhookOf(lost, "delivered")).length, { timeout: 15_000, interval: 200 }).toBe(1);
    const [viaReceipt] = await webhookOf(normal, "delivered");
    const [viaLookup] = await webhookOf(lost, "delivered");
    expect(viaLookup.event_type).toBe(viaReceipt.event_type);
    expect(Object.keys(viaLookup.payload.data).sort()).toEqual(Object.keys(viaReceipt.payload.data).sort());
    expect(viaLookup.payload.data).toMatchObject({ status: "delivered", previous_status: "sent", source: "provider", error_code: null });

    // No answer: looked up (and left `sent`) while its validity lasts, then ends EXPIRED.
    await expect.poll(async () => statusOf(stack, silent), { timeout: 15_000, interval: 200 }).toMatchObject({ status: "sent", status_checked_at: expect.any(Date) });
    await expect.poll(async () => (await statusOf(stack, silent)).status, { timeout: 30_000, interval: 200 }).toBe("unavailable");
    const expired = await statusOf(stack, silent);
    expect(expired.error_code).toBe("EXPIRED");
    expect(expired.failed_at!.getTime() - expired.sent_at!.getTime()).toBeGreaterThanOrEqual(12_000);
    await expect.poll(async () => (await webhookOf(silent, "unavailable")).length, { timeout: 15_000, interval: 200 }).toBe(1);
    const [expiredHook] = await webhookOf(silent, "unavailable");
    expect(Object.keys(expiredHook.payload.data).sort()).toEqual(Object.keys(viaReceipt.payload.data).sort());
    expect(expiredHook.payload.data).toMatchObject({ status: "unavailable", previous_status: "sent", error_code: "EXPIRED" });

    expect(await unfinished(stack)).toBe(0);
  }, 120_000);

  it("nothing writes the account events stream (it had no reader; webhooks read message_events)", async () => {
    const [id] = await enqueueSms(accountId, { recipients: ["+5521988770003"] }, stack.query);
    await expect.poll(async () => (await statusOf(stack, id)).status, { timeout: 30_000, interval: 200 }).toBe("delivered");
    const redis = openRedis(stack.redisUrl);
    try {
      const keys = (await scanKeys(redis, `${stack.redisPrefix}*`)).filter((k) => /account.*events|events.*account/.test(k));
      expect(keys).toEqual([]);
    } finally {
      await redis.quit();
    }
  }, 60_000);
});
