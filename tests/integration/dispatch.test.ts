/**
 * Step 2 of the message pipeline over the real processes: an outbox row written with its message
 * is relayed to the channel's Redis Stream, the worker's dispatcher submits it to the simulator
 * (its own HTTP process) exactly once, and the simulator's signed receipt moves it to its final
 * status — the one the simulator's mix predicts for that reference.
 */
import type Redis from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inject } from "vitest";
import { simulatedOutcome } from "../../api/simulator/outcome";
import { registerPerson } from "../support/api";
import { query } from "../support/db";
import { openRedis, keysOf } from "../support/redis";

const API_KEY = inject("simulatorApiKey");
const FINAL = ["delivered", "failed", "unavailable", "rejected", "optout", "read"];
let accountId: string;
let redis: Redis;

type MessageRow = {
  id: string;
  status: string;
  provider: string | null;
  provider_message_id: string | null;
  sent_at: Date | null;
  error_code: string | null;
  error_message: string | null;
};

/**
 * Inserts `count` queued SMS and their outbox rows in ONE statement (one transaction); `copies` outbox rows per message.
 * Kept as SQL, not factories: the dispatcher must never see a message without its outbox rows.
 */
async function enqueue(opts: { count?: number; recipient?: string; copies?: number } = {}): Promise<string[]> {
  const rows = await query<{ id: string }>(
    `WITH m AS (
       INSERT INTO messages (account_id, channel, direction, sender, recipient, body, segments, coding, status, route, price, queued_at)
       SELECT $1, 'sms', 'outbound', '29094', COALESCE($3, '+55119' || lpad((80000000 + g)::text, 8, '0')), 'Seu código é ' || g, 1, 'GSM7', 'queued', 'T1', 5, now()
       FROM generate_series(1, $2::int) g
       RETURNING id
     ), o AS (
       INSERT INTO outbox (topic, payload)
       SELECT 'messages:sms', jsonb_build_object('message_id', m.id::text) FROM m, generate_series(1, $4::int)
     )
     SELECT id FROM m`,
    [accountId, opts.count ?? 1, opts.recipient ?? null, opts.copies ?? 1],
  );
  return rows.map((r) => r.id);
}

async function messages(ids: string[]) {
  return query<MessageRow>("SELECT id, status, provider, provider_message_id, sent_at, error_code, error_message FROM messages WHERE id = ANY($1::uuid[])", [ids]);
}

async function waitUntil<T>(what: string, read: () => Promise<T>, done: (v: T) => boolean, ms = 15_000): Promise<T> {
  const until = Date.now() + ms;
  let value = await read();
  while (!done(value)) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value).slice(0, 500)}`);
    await new Promise((r) => setTimeout(r, 150));
    value = await read();
  }
  return value;
}

const allFinal = (ids: string[]) =>
  waitUntil(
    `${ids.length} final statuses`,
    () => messages(ids),
    (rows) => rows.length === ids.length && rows.every((r) => FINAL.includes(r.status)),
    30_000,
  );

async function simulator(path: string, key: string | null = API_KEY) {
  const res = await fetch(new URL(path, inject("simulatorUrl")), { headers: key ? { Authorization: `Bearer ${key}` } : {} });
  return { status: res.status, body: (await res.json()) as any };
}
const acceptedFor = async (reference: string) => (await simulator(`/v1/stats?reference=${reference}`)).body.accepted as number;

beforeAll(async () => {
  accountId = (await registerPerson("dispatch", { verify: false })).accountId;
  redis = openRedis(inject("redisUrl"));
});

afterAll(async () => {
  await redis?.quit();
});

describe("dispatch: outbox -> stream -> dispatcher -> simulator -> signed receipt", () => {
  it("a queued SMS is submitted once and reaches the final status the simulator's mix predicts", async () => {
    const [id] = await enqueue();
    const expected = simulatedOutcome(id);
    const [row] = await waitUntil(
      "final status",
      () => messages([id]),
      (r) => FINAL.includes(r[0]?.status),
    );
    expect(row.status).toBe(expected);
    expect(row.provider).toBe("simulator");
    expect(row.provider_message_id).toMatch(/^sim_/);
    expect(row.sent_at).toBeInstanceOf(Date);
    if (expected !== "delivered") expect(row.error_message).toMatch(/simulated/);

    const events = await query<{ status: string; source: string; provider_event_id: string | null }>(
      "SELECT status, source, provider_event_id FROM message_events WHERE message_id = $1 ORDER BY id",
      [id],
    );
    expect(events.map((e) => [e.source, e.status])).toEqual([
      ["system", "sent"],
      ["provider", expected],
    ]);
    expect(events[1].provider_event_id).toMatch(/^simev_/);

    const outbox = await query<{ published_at: Date | null }>("SELECT published_at FROM outbox WHERE payload->>'message_id' = $1", [id]);
    expect(outbox).toHaveLength(1);
    expect(outbox[0].published_at).toBeInstanceOf(Date);

    expect(await simulator(`/v1/stats?reference=${id}`)).toMatchObject({ status: 200, body: { accepted: 1, id: row.provider_message_id, outcome: expected } });

    // The message's history recorded sending -> sent and the receipt's status (the events the customer webhooks announce).
    const history = await query<{ status: string }>("SELECT status FROM message_events WHERE message_id = $1 AND status IN ('sent', $2) ORDER BY id", [id, expected]);
    expect(history.map((e) => e.status)).toEqual(["sent", expected]);
  });

  it("a duplicate publish (the same entry XADDed again, or two outbox rows) never submits again", async () => {
    // Two outbox rows for one message: both are relayed; only one consumer claim wins.
    const [twice] = await enqueue({ copies: 2 });
    const [first] = await allFinal([twice]);
    expect(await acceptedFor(twice)).toBe(1);

    // The same entry again after it was sent and its receipt applied.
    await redis.xadd(keysOf(inject("redisPrefix")).jobStreamFor("messages:sms", twice), "*", "message_id", twice, "outbox_id", "0");
    // A second message published after the duplicate shows the dispatcher has read past it.
    const [marker] = await enqueue();
    await allFinal([marker]);
    expect(await acceptedFor(twice)).toBe(1);
    const [after] = await messages([twice]);
    expect(after).toEqual(first);
    const sent = await query("SELECT 1 FROM message_events WHERE message_id = $1 AND status = 'sent'", [twice]);
    expect(sent).toHaveLength(1);
  });

  it("200 messages inserted at once all reach a final status, each submitted exactly once, with the predicted mix", async () => {
    const ids = await enqueue({ count: 200 });
    expect(ids).toHaveLength(200);
    const rows = await allFinal(ids);
    const counts = (list: string[]) => list.reduce<Record<string, number>>((acc, s) => ({ ...acc, [s]: (acc[s] ?? 0) + 1 }), {});
    expect(counts(rows.map((r) => r.status))).toEqual(counts(ids.map((id) => simulatedOutcome(id))));
    for (const r of rows) expect(r.status, r.id).toBe(simulatedOutcome(r.id));

    const stats = await simulator("/v1/stats");
    const perReference = stats.body.references as Record<string, number>;
    expect(ids.map((id) => perReference[id])).toEqual(ids.map(() => 1));
    expect(new Set(rows.map((r) => r.provider_message_id)).size).toBe(200);
    const [{ n }] = await query<{ n: string }>("SELECT count(*) AS n FROM outbox WHERE published_at IS NULL AND payload->>'message_id' = ANY($1::text[])", [ids]);
    expect(Number(n)).toBe(0);
  });

  it("a provider refusal that no retry can fix fails the message at once, with the reason", async () => {
    const [id] = await enqueue({ recipient: "+15005550001" });
    const [row] = await allFinal([id]);
    expect(row).toMatchObject({ status: "failed", error_code: "invalid_number", provider_message_id: null });
    expect(row.error_message).toContain("+15005550001");
    expect(await acceptedFor(id)).toBe(0);
  });

  it("a provider that stays down: retried, then dead-lettered and the message fails saying why", async () => {
    const [id] = await enqueue({ recipient: "+15005550503" });
    // 3 deliveries (DISPATCH_MAX_ATTEMPTS in tests), redelivered by the runner's reclaim.
    const [row] = await waitUntil(
      "dead letter",
      () => messages([id]),
      (r) => r[0]?.status === "failed",
      40_000,
    );
    expect(row.error_code).toBe("dispatch_failed");
    expect(row.error_message).toMatch(/simulator answered 503/);
    // The runner's hook fails the message first, then moves the entry to the dead-letter stream.
    const deadEntry = async () =>
      (
        await Promise.all(
          keysOf(inject("redisPrefix"))
            .allDeadStreams("messages:sms")
            .map((s) => redis.xrange(s, "-", "+")),
        )
      )
        .flat()
        .map(([, f]) => Object.fromEntries(Array.from({ length: f.length / 2 }, (_, i) => [f[2 * i], f[2 * i + 1]])))
        .filter((f) => f.message_id === id);
    const [entry] = await waitUntil("dead-letter entry", deadEntry, (e) => e.length > 0, 10_000);
    expect(entry.reason).toMatch(/503/);
    const [event] = await query<{ status: string; source: string; payload: { error_message: string } }>(
      // Its refund is an event of its own now: read the failure's (rows have no order without ORDER BY).
      "SELECT status, source, payload FROM message_events WHERE message_id = $1 AND status = 'failed'",
      [id],
    );
    expect(event).toMatchObject({ status: "failed", source: "system" });
  }, 60_000);

  it("the simulator's API refuses requests without its key", async () => {
    expect((await simulator("/v1/stats", null)).status).toBe(401);
    expect((await simulator("/v1/stats", "wrong-key-wrong-key")).status).toBe(401);
    const res = await fetch(new URL("/v1/messages", inject("simulatorUrl")), {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ to: "+5511987654321", from: "1", body: "x", reference: "no-key" }),
    });
    expect(res.status).toBe(401);
    expect(await acceptedFor("no-key")).toBe(0);
  });
});
