/**
 * Redis Streams job consumer: a consumer group per stream, blocking reads on a dedicated
 * connection, entries of crashed consumers reclaimed with XAUTOCLAIM, poison entries moved to
 * `<stream>:dead` with the reason after `maxAttempts` deliveries. Handlers must be idempotent.
 * A batch's entries run concurrently (up to `concurrency`); the next read or reclaim waits for the
 * whole batch, so a process never reclaims an entry it is still handling. After a Redis restart
 * (streams and groups gone) the group is created again on the first NOGROUP answer, and `onLost`
 * republishes at once what the lost stream held (no waiting for the periodic sweep).
 *
 * A logical stream ("messages:sms") is STREAM_SHARDS physical streams (ADR 028); a consumer reads
 * each shard with its own loop and connection, so on a cluster the work spreads over the masters.
 * `concurrency`, `batch` and the rest apply per shard.
 */
import { hostname } from "node:os";
import type Redis from "ioredis";
import { connect, redis } from "../lib/redis";
import { keys, streamShards } from "../lib/redis-keys";

/** `touch` resets the entry's idle time: a long job calls it now and then so no other consumer reclaims it while it runs. */
export type JobHandler = (fields: Record<string, string>, meta: { id: string; deliveries: number; touch: () => Promise<void> }) => Promise<void>;

/** One delivered entry, for batch handlers. */
export type Entry = { id: string; fields: Record<string, string>; deliveries: number; touch: () => Promise<void> };
/** Handles a whole batch; answers the entries that failed (by entry id, with the error). Throwing fails them all. */
export type BatchHandler = (entries: Entry[]) => Promise<Map<string, unknown>>;

export type ConsumerOptions = {
  stream: string;
  group: string;
  /** One entry at a time (or `concurrency` at once). Give this or batchHandler. */
  handler?: JobHandler;
  /** The whole batch in one call (e.g. one claim statement for all its messages). */
  batchHandler?: BatchHandler;
  maxAttempts?: number;
  /** Entries pending longer than this are reclaimed from dead consumers. */
  reclaimIdleMs?: number;
  blockMs?: number;
  batch?: number;
  /** Entries of a batch handled at once (default 1: one after another). */
  concurrency?: number;
  /** Read the next batch while earlier ones still run, up to `concurrency` entries in flight (batch handlers). */
  pipelined?: boolean;
  /** Delete an entry once acknowledged (XACK + XDEL): the stream then holds only unfinished work. */
  deleteAcked?: boolean;
  /**
   * Called once an entry has failed `maxAttempts` times, before it moves to the dead-letter
   * stream (e.g. to mark the job's record failed with the reason). If it throws, the entry stays
   * pending and is retried on the next reclaim.
   */
  onDead?: (fields: Record<string, string>, reason: string, id: string) => Promise<void>;
  /**
   * Called when Redis lost the stream and its group (NOGROUP: a restart without persistence, a
   * flush), right after the group was created again: republishes from the database what the
   * lost entries announced (the same work the periodic lost-entry sweep does, without its delay).
   */
  onLost?: () => Promise<unknown>;
};

function toFields(list: string[]): Record<string, string> {
  const o: Record<string, string> = {};
  for (let i = 0; i < list.length; i += 2) o[list[i]] = list[i + 1];
  return o;
}

/** Creates the group (and the stream) on a physical stream unless it exists; answers whether it was created. */
async function ensureGroup(stream: string, group: string): Promise<boolean> {
  try {
    await redis().xgroup("CREATE", stream, group, "0", "MKSTREAM");
    return true;
  } catch (e) {
    if (!String(e).includes("BUSYGROUP")) throw e;
    return false;
  }
}

/** Consumes every shard of `opts.stream`. */
export function startConsumer(opts: ConsumerOptions) {
  const shards = Array.from({ length: streamShards() }, (_, n) => startShard(opts, n));
  return {
    async stop() {
      await Promise.all(shards.map((s) => s.stop()));
    },
  };
}

function startShard(opts: ConsumerOptions, shard: number) {
  const stream = keys.jobStream(opts.stream, shard);
  const dead = keys.deadStream(opts.stream, shard);
  const consumer = `${hostname()}-${process.pid}`;
  const maxAttempts = opts.maxAttempts ?? 5;
  const reader: Redis = connect();
  let running = true;

  const touchOf = (id: string) => () =>
    redis()
      .xclaim(stream, opts.group, consumer, 0, id, "JUSTID")
      .then(() => undefined);

  /** Acknowledges handled entries in one round trip (and deletes them with deleteAcked). */
  async function ackAll(ids: string[]) {
    if (ids.length === 0) return;
    const m = redis()
      .multi()
      .xack(stream, opts.group, ...ids);
    if (opts.deleteAcked) m.xdel(stream, ...ids);
    await m.exec();
  }

  /** A failed delivery: retried later by reclaim, or dead-lettered after maxAttempts. */
  async function failed(e: Entry, err: unknown) {
    const reason = err instanceof Error ? err.message : String(err);
    if (e.deliveries >= maxAttempts) {
      if (opts.onDead) {
        try {
          await opts.onDead(e.fields, reason, e.id);
        } catch (hookErr) {
          console.error(`job ${opts.stream} ${e.id} dead-letter hook failed, will retry`, hookErr);
          return;
        }
      }
      const m = redis()
        .multi()
        .xadd(dead, "*", ...Object.entries(e.fields).flat(), "reason", reason.slice(0, 500), "source_id", e.id)
        .xack(stream, opts.group, e.id);
      if (opts.deleteAcked) m.xdel(stream, e.id);
      await m.exec();
      console.error(`job ${opts.stream} ${e.id} dead after ${e.deliveries} attempts: ${reason}`);
    } else {
      console.warn(`job ${opts.stream} ${e.id} failed (attempt ${e.deliveries}/${maxAttempts}): ${reason}`);
    }
  }

  /** `fresh`: read with ">" (first deliveries), so no XPENDING round trip is needed for their counts. */
  async function toEntries(list: Array<[string, string[]]>, fresh: boolean): Promise<Entry[]> {
    return Promise.all(
      list.map(async ([id, raw]) => {
        let deliveries = 1;
        if (!fresh) {
          const [[, , , d] = []] = ((await redis().xpending(stream, opts.group, id, id, 1)) as Array<[string, string, number, number]>) ?? [];
          deliveries = Number(d ?? 1);
        }
        return { id, fields: toFields(raw), deliveries, touch: touchOf(id) };
      }),
    );
  }

  async function reclaim() {
    let cursor = "0-0";
    do {
      const [next, entries] = (await redis().xautoclaim(stream, opts.group, consumer, opts.reclaimIdleMs ?? 30_000, cursor, "COUNT", 50)) as [
        string,
        Array<[string, string[]] | null>,
      ];
      cursor = next;
      // Entries this process is handling right now stay with their handler.
      await handleAll(
        entries.filter((e): e is [string, string[]] => Boolean(e) && !inflight.has(e![0])),
        false,
      );
    } while (cursor !== "0-0" && running);
  }

  /**
   * Handles a batch: with `batchHandler`, in one call (it answers the entries that failed);
   * otherwise one handler per entry, at most `concurrency` at once. Successes are acked together.
   */
  async function handleAll(list: Array<[string, string[]]>, fresh: boolean) {
    if (list.length === 0) return;
    const entries = await toEntries(list, fresh);
    let failures = new Map<string, unknown>();
    if (opts.batchHandler) {
      try {
        failures = await opts.batchHandler(entries);
      } catch (err) {
        failures = new Map(entries.map((e) => [e.id, err]));
      }
    } else {
      const limit = Math.max(1, opts.concurrency ?? 1);
      let next = 0;
      const lane = async () => {
        while (next < entries.length) {
          const e = entries[next++];
          try {
            await opts.handler!(e.fields, { id: e.id, deliveries: e.deliveries, touch: e.touch });
          } catch (err) {
            failures.set(e.id, err);
          }
        }
      };
      await Promise.all(Array.from({ length: Math.min(limit, entries.length) }, lane));
    }
    await ackAll(entries.filter((e) => !failures.has(e.id)).map((e) => e.id)).catch((err) => console.error(`job ${opts.stream}: ack failed`, err));
    for (const e of entries) {
      if (failures.has(e.id)) await failed(e, failures.get(e.id)).catch((err) => console.error(`job ${opts.stream} ${e.id} not handled`, err));
    }
  }

  // Pipelined mode: batches overlap (the next is read while earlier ones run) up to `concurrency`
  // entries in flight; entries in flight here are never reclaimed by this process itself.
  const inflight = new Set<string>();
  const batches = new Set<Promise<void>>();
  let wake: (() => void) | undefined;
  function launch(list: Array<[string, string[]]>, fresh: boolean) {
    for (const [id] of list) inflight.add(id);
    const p: Promise<void> = handleAll(list, fresh)
      .catch((e) => console.error(`consumer ${opts.stream} batch failed`, e))
      .finally(() => {
        for (const [id] of list) inflight.delete(id);
        batches.delete(p);
        wake?.();
      });
    batches.add(p);
  }

  const loop = (async () => {
    await ensureGroup(stream, opts.group).catch((e) => console.error(`consumer ${opts.stream} cannot create its group yet`, e));
    let lastReclaim = 0;
    // While Redis is down every pass fails: one line when that starts and one when it ends, not one a second.
    let failing = false;
    const limit = Math.max(1, opts.concurrency ?? 1);
    while (running) {
      try {
        if (Date.now() - lastReclaim > 5_000) {
          lastReclaim = Date.now();
          await reclaim();
        }
        let count = opts.batch ?? 10;
        if (opts.pipelined) {
          const capacity = limit - inflight.size;
          if (capacity <= 0) {
            await new Promise<void>((r) => {
              wake = r;
              setTimeout(r, 1000);
            });
            continue;
          }
          count = Math.min(count, capacity);
        }
        const res = (await reader.xreadgroup("GROUP", opts.group, consumer, "COUNT", count, "BLOCK", opts.blockMs ?? 2000, "STREAMS", stream, ">")) as Array<
          [string, Array<[string, string[]]>]
        > | null;
        if (failing) console.warn(`consumer ${opts.stream}: reading again`);
        failing = false;
        for (const [, entries] of res ?? []) {
          if (opts.pipelined) launch(entries, true);
          else await handleAll(entries, true);
        }
      } catch (e) {
        if (!running) break;
        if (String(e).includes("NOGROUP")) {
          // Redis lost the stream and its group (a restart without persistence): create them again.
          // Entries added since (the lost-entry sweep republishes) are read from the start ("0").
          console.warn(`consumer ${opts.stream}: group ${opts.group} missing, creating it again`);
          const created = await ensureGroup(stream, opts.group).catch((err) => void console.error(`consumer ${opts.stream} cannot create its group`, err));
          // Only the consumer that recreated the group recovers (several workers see NOGROUP at once).
          if (created && opts.onLost)
            await opts.onLost().catch((err) => console.error(`consumer ${opts.stream}: recovery after lost stream failed (the periodic sweep will retry)`, err));
          lastReclaim = 0;
          continue;
        }
        if (!failing) console.error(`consumer ${opts.stream} cannot read (quiet until it can again): ${e instanceof Error ? e.message : String(e)}`);
        failing = true;
        await new Promise((r) => setTimeout(r, 1000));
      }
    }
    await Promise.all([...batches]);
  })();

  return {
    async stop() {
      running = false;
      reader.disconnect();
      await loop.catch(() => undefined);
    },
  };
}
