/**
 * Positive signals for "nothing more happens" checks (CONTRIBUTING, "No fixed sleeps"). A sleep
 * before such a check passes on a slow machine without testing anything; instead, wait (with a
 * bound) until the system has visibly processed what it would have acted on, then assert.
 *
 * - `streamHandled`: a consumer group of the worker's job runner (api/jobs/runner.ts) has read
 *   a stream up to an entry and acknowledged all of it (handled, or dead-lettered).
 * - `dispatchSettled`: the dispatcher is done with some messages: their outbox rows are published
 *   and the channel's stream holds no entry for them (it deletes entries once acked or
 *   dead-lettered, api/dispatch/dispatcher.ts), so no redelivery can submit them again.
 * - `webhooksSettled`: every webhook event batch of an account is fanned out (its outbox row's
 *   handled_at is set) and none of its deliveries is still pending.
 */
import type Redis from "ioredis";
import { afterAll, expect, inject } from "vitest";
import { query } from "./db";
import { keysOf, openRedis } from "./redis";

let client: Redis | undefined;
/** One connection per test file (this module is imported while the file is collected, so the hook is the file's). */
function redis() {
  client ??= openRedis(inject("redisUrl"));
  return client;
}
afterAll(async () => {
  await client?.quit();
  client = undefined;
});

/** Stream ids are "<ms>-<seq>"; compares two of them. */
function idAtLeast(a: string, b: string) {
  const [am, as] = a.split("-").map(BigInt);
  const [bm, bs] = b.split("-").map(BigInt);
  return am > bm || (am === bm && as >= bs);
}

/** Whether `group` has read `stream` up to entry `id` (its last-delivered-id reached it) and holds none of those entries as pending. */
export async function handledUpTo(stream: string, group: string, id: string, r: Redis = redis()) {
  const groups = (await r.xinfo("GROUPS", stream).catch(() => [])) as Array<Array<string | number>>;
  const info = groups.map((g) => Object.fromEntries(Array.from({ length: g.length / 2 }, (_, i) => [g[2 * i], g[2 * i + 1]])));
  const mine = info.find((g) => g.name === group);
  if (!mine || !idAtLeast(String(mine["last-delivered-id"]), id)) return false;
  const pending = (await r.xpending(stream, group, "-", id, 1)) as unknown[];
  return pending.length === 0;
}

/**
 * Waits until `group` has handled every entry of `stream` (a physical key, e.g.
 * keysOf(prefix).jobStreamFor("jobs:imports", id)) up to `id`, by default the newest entry now; entries
 * added later (other tests') do not hold it up. `r`: another Redis (a private stack's).
 */
export async function streamHandled(stream: string, group: string, id?: string, timeout = 20_000, r: Redis = redis()) {
  let upTo = id;
  if (!upTo) {
    const info = (await r.xinfo("STREAM", stream)) as Array<string | number>;
    upTo = String(info[info.indexOf("last-generated-id") + 1]);
  }
  await expect.poll(() => handledUpTo(stream, group, upTo as string, r), { timeout, interval: 100, message: `${group} never handled ${stream} up to ${upTo}` }).toBe(true);
}

/**
 * `streamHandled` on every shard of job stream `name` (ADR 028) up to its newest entry now; a shard
 * never written is done. `prefix`/`r`: a private stack's.
 */
export async function jobsHandled(name: string, group: string, opts: { prefix?: string; r?: Redis; timeout?: number } = {}) {
  const r = opts.r ?? redis();
  for (const stream of keysOf(opts.prefix ?? inject("redisPrefix")).allJobStreams(name)) {
    if (!(await r.exists(stream))) continue;
    await streamHandled(stream, group, undefined, opts.timeout ?? 20_000, r);
  }
}

/** The ids among `ids` that still have an entry in the dispatch stream of `channel`. */
export async function inDispatchStream(ids: string[], channel = "sms") {
  const wanted = new Set(ids);
  const found = new Set<string>();
  for (const stream of keysOf(inject("redisPrefix")).allJobStreams(`messages:${channel}`)) {
    let start = "-";
    for (;;) {
      const page = (await redis().xrange(stream, start, "+", "COUNT", 2000)) as Array<[string, string[]]>;
      for (const [, fields] of page) {
        for (let i = 0; i < fields.length; i += 2) if (fields[i] === "message_id" && wanted.has(fields[i + 1])) found.add(fields[i + 1]);
      }
      if (page.length < 2000) break;
      start = `(${page[page.length - 1][0]}`;
    }
  }
  return [...found];
}

/**
 * Waits until the dispatcher is done with `ids`: no unpublished outbox row and no stream entry is
 * left for them (each entry was read, handled — sent, held back, refused — and deleted, or
 * dead-lettered). What is still `queued` afterwards stays so until someone publishes it again.
 */
export async function dispatchSettled(ids: string[], timeout = 30_000, channel = "sms") {
  await expect
    .poll(
      async () => {
        const [{ n }] = await query<{ n: string }>("SELECT count(*) AS n FROM outbox WHERE published_at IS NULL AND payload->>'message_id' = ANY($1::text[])", [ids]);
        return n === "0" && (await inDispatchStream(ids, channel)).length === 0;
      },
      { timeout, interval: 100, message: `dispatch of ${ids.length} message(s) never settled` },
    )
    .toBe(true);
}

/**
 * Waits until an account's webhook events are done: every `webhooks:events` outbox row of the
 * account handled by the fan-out (handled_at set) and no delivery of it still pending. Await the
 * events' causes first (e.g. a message's final status): their outbox rows are written with them.
 */
export async function webhooksSettled(accountId: string, timeout = 20_000) {
  await expect
    .poll(
      async () => {
        const [r] = await query<{ unhandled: string; pending: string }>(
          `SELECT (SELECT count(*) FROM outbox WHERE topic = 'webhooks:events' AND payload->>'account_id' = $1::text AND handled_at IS NULL) AS unhandled,
                  (SELECT count(*) FROM webhook_deliveries WHERE account_id = $1::uuid AND status = 'pending') AS pending`,
          [accountId],
        );
        return r.unhandled === "0" && r.pending === "0";
      },
      { timeout, interval: 100, message: `webhooks of account ${accountId} never settled` },
    )
    .toBe(true);
}
