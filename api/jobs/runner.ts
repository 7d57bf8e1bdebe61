/**
 * Redis Streams job consumer: a consumer group per stream, blocking reads on a dedicated
 * connection, entries of crashed consumers reclaimed with XAUTOCLAIM, poison entries moved to
 * `<stream>:dead` with the reason after `maxAttempts` deliveries. Handlers must be idempotent.
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

  async function handle(id: string, fields: Record<string, string>) {
    const [[, , , deliveries] = []] = ((await redis().xpending(stream, opts.group, id, id, 1)) as Array<[string, string, number, number]>) ?? [];
    const count = Number(deliveries ?? 1);
    try {
      const touch = () => redis().xclaim(stream, opts.group, consumer, 0, id, "JUSTID").then(() => undefined);
      await opts.handler(fields, { id, deliveries: count, touch });
      await redis().xack(stream, opts.group, id);
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
        await redis().multi().xadd(`${stream}:dead`, "*", ...Object.entries(fields).flat(), "reason", reason.slice(0, 500), "source_id", id).xack(stream, opts.group, id).exec();
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
      for (const e of entries) if (e) await handle(e[0], toFields(e[1]));
    } while (cursor !== "0-0" && running);
  }

  const loop = (async () => {
    await ensureGroup(opts.stream, opts.group);
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
        for (const [, entries] of res ?? []) for (const [id, list] of entries) await handle(id, toFields(list));
      } catch (e) {
        if (!running) break;
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
