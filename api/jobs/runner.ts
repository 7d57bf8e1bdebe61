/**
 * Redis Streams job consumer: a consumer group per stream, blocking reads on a dedicated
 * connection, entries of crashed consumers reclaimed with XAUTOCLAIM, poison entries moved to
 * `<stream>:dead` with the reason after `maxAttempts` deliveries. Handlers must be idempotent.
 * A batch's entries run concurrently (up to `concurrency`); the next read or reclaim waits for the
 * whole batch, so a process never reclaims an entry it is still handling. After a Redis restart
 * (streams and groups gone) the group is created again on the first NOGROUP answer.
 */
import { hostname } from "node:os";
import type Redis from "ioredis";
import { connect, key, redis } from "../lib/redis";

/** `touch` resets the entry's idle time: a long job calls it now and then so no other consumer reclaims it while it runs. */
export type JobHandler = (fields: Record<string, string>, meta: { id: string; deliveries: number; touch: () => Promise<void> }) => Promise<void>;

export type ConsumerOptions = {
  stream: string;
  group: string;
  handler: JobHandler;
  maxAttempts?: number;
  /** Entries pending longer than this are reclaimed from dead consumers. */
  reclaimIdleMs?: number;
  blockMs?: number;
  batch?: number;
  /** Entries of a batch handled at once (default 1: one after another). */
  concurrency?: number;
  /** Delete an entry once acknowledged (XACK + XDEL): the stream then holds only unfinished work. */
  deleteAcked?: boolean;
  /**
   * Called once an entry has failed `maxAttempts` times, before it moves to the dead-letter
   * stream (e.g. to mark the job's record failed with the reason). If it throws, the entry stays
   * pending and is retried on the next reclaim.
   */
  onDead?: (fields: Record<string, string>, reason: string, id: string) => Promise<void>;
};

function toFields(list: string[]): Record<string, string> {
  const o: Record<string, string> = {};
  for (let i = 0; i < list.length; i += 2) o[list[i]] = list[i + 1];
  return o;
}

export async function ensureGroup(stream: string, group: string) {
  try {
    await redis().xgroup("CREATE", key(stream), group, "0", "MKSTREAM");
  } catch (e) {
    if (!String(e).includes("BUSYGROUP")) throw e;
  }
}

export function startConsumer(opts: ConsumerOptions) {
  const stream = key(opts.stream);
  const consumer = `${hostname()}-${process.pid}`;
  const maxAttempts = opts.maxAttempts ?? 5;
  const reader: Redis = connect();
  let running = true;

  const ack = async (id: string) => {
    if (opts.deleteAcked) await redis().multi().xack(stream, opts.group, id).xdel(stream, id).exec();
    else await redis().xack(stream, opts.group, id);
  };

  /** `fresh`: read with ">" (a first delivery), so no XPENDING round trip is needed for its count. */
  async function handle(id: string, fields: Record<string, string>, fresh = false) {
    let count = 1;
    if (!fresh) {
      const [[, , , deliveries] = []] = ((await redis().xpending(stream, opts.group, id, id, 1)) as Array<[string, string, number, number]>) ?? [];
      count = Number(deliveries ?? 1);
    }
    try {
      const touch = () => redis().xclaim(stream, opts.group, consumer, 0, id, "JUSTID").then(() => undefined);
      await opts.handler(fields, { id, deliveries: count, touch });
      await ack(id);
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      if (count >= maxAttempts) {
        if (opts.onDead) {
          try {
            await opts.onDead(fields, reason, id);
          } catch (e) {
            console.error(`job ${opts.stream} ${id} dead-letter hook failed, will retry`, e);
            return;
          }
        }
        const m = redis().multi().xadd(`${stream}:dead`, "*", ...Object.entries(fields).flat(), "reason", reason.slice(0, 500), "source_id", id).xack(stream, opts.group, id);
        if (opts.deleteAcked) m.xdel(stream, id);
        await m.exec();
        console.error(`job ${opts.stream} ${id} dead after ${count} attempts: ${reason}`);
      } else {
        console.warn(`job ${opts.stream} ${id} failed (attempt ${count}/${maxAttempts}): ${reason}`);
      }
    }
  }

  async function reclaim() {
    let cursor = "0-0";
    do {
      const [next, entries] = (await redis().xautoclaim(stream, opts.group, consumer, opts.reclaimIdleMs ?? 30_000, cursor, "COUNT", 50)) as [string, Array<[string, string[]] | null>];
      cursor = next;
      await handleAll(entries.filter((e): e is [string, string[]] => Boolean(e)), false);
    } while (cursor !== "0-0" && running);
  }

  /** Runs a batch with at most `concurrency` handlers at once; handle() never throws. */
  async function handleAll(entries: Array<[string, string[]]>, fresh: boolean) {
    const limit = Math.max(1, opts.concurrency ?? 1);
    let next = 0;
    const lane = async () => {
      while (next < entries.length) {
        const [id, list] = entries[next++];
        await handle(id, toFields(list), fresh).catch((e) => console.error(`job ${opts.stream} ${id} not handled`, e));
      }
    };
    await Promise.all(Array.from({ length: Math.min(limit, entries.length) }, lane));
  }

  const loop = (async () => {
    await ensureGroup(opts.stream, opts.group).catch((e) => console.error(`consumer ${opts.stream} cannot create its group yet`, e));
    let lastReclaim = 0;
    while (running) {
      try {
        if (Date.now() - lastReclaim > 5_000) {
          lastReclaim = Date.now();
          await reclaim();
        }
        const res = (await reader.xreadgroup("GROUP", opts.group, consumer, "COUNT", opts.batch ?? 10, "BLOCK", opts.blockMs ?? 2000, "STREAMS", stream, ">")) as
          | Array<[string, Array<[string, string[]]>]>
          | null;
        for (const [, entries] of res ?? []) await handleAll(entries, true);
      } catch (e) {
        if (!running) break;
        if (String(e).includes("NOGROUP")) {
          // Redis lost the stream and its group (a restart without persistence): create them again.
          // Entries added since (the lost-entry sweep republishes) are read from the start ("0").
          console.warn(`consumer ${opts.stream}: group ${opts.group} missing, creating it again`);
          await ensureGroup(opts.stream, opts.group).catch((err) => console.error(`consumer ${opts.stream} cannot create its group`, err));
          lastReclaim = 0;
          continue;
        }
        console.error(`consumer ${opts.stream} error`, e);
        await new Promise((r) => setTimeout(r, 1000));
      }
    }
  })();

  return {
    async stop() {
      running = false;
      reader.disconnect();
      await loop.catch(() => undefined);
    },
  };
}
