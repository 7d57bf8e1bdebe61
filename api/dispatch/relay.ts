/**
 * The outbox relay (pipeline step 2): rows written in the accepting transaction are published
 * to their Redis Stream. Each pass claims up to 500 unpublished rows with
 * `FOR UPDATE SKIP LOCKED` (several workers share the work), XADDs them, and marks them
 * published in the same transaction — only after Redis answered. A crash between XADD and
 * COMMIT publishes a row twice; consumers tolerate duplicates (the dispatcher's conditional
 * claim of a message).
 */
import { sequelize } from "../../models";
import { env } from "../lib/env";
import { publishJobs } from "../jobs/publish";
import { exec, rows } from "../lib/sql";

const BATCH = 500;

/** An outbox row as stream entry fields: its payload (strings as they are, the rest as JSON) and `outbox_id`. */
export function entryFields(payload: Record<string, unknown> | null, outboxId: string): string[] {
  const fields = Object.entries(payload ?? {}).flatMap(([k, v]) => [k, typeof v === "string" ? v : JSON.stringify(v)]);
  return [...fields, "outbox_id", String(outboxId)];
}

/** What picks an outbox row's shard: its message, so every entry about one message lands in one shard. */
export const shardId = (payload: Record<string, unknown> | null, outboxId: string) => (typeof payload?.message_id === "string" ? payload.message_id : String(outboxId));

/** Publishes one batch; returns how many rows were published. */
export async function relayOnce(): Promise<number> {
  return sequelize().transaction(async (transaction) => {
    const found = await rows<{ id: string; topic: string; payload: Record<string, unknown> }>(
      `SELECT id, topic, payload FROM outbox WHERE published_at IS NULL ORDER BY id LIMIT ${BATCH} FOR UPDATE SKIP LOCKED`,
      undefined,
      { transaction },
    );
    if (found.length === 0) return 0;
    // Each entry to the shard of its topic that its message (else its row) hashes to.
    await publishJobs(found.map((row) => ({ stream: row.topic, id: shardId(row.payload, row.id), fields: entryFields(row.payload, row.id) }))).catch((e) => {
      throw new Error(`outbox XADD failed: ${e instanceof Error ? e.message : String(e)}`);
    });
    await exec(`UPDATE outbox SET published_at = now() WHERE id = ANY($1::bigint[])`, [found.map((r) => r.id)], { transaction });
    return found.length;
  });
}

/** Runs the relay until stopped: immediately again after a full batch, else every OUTBOX_POLL_MS. */
export function startRelay() {
  let running = true;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let wake: (() => void) | undefined;
  const loop = (async () => {
    while (running) {
      let published = 0;
      try {
        published = await relayOnce();
      } catch (e) {
        console.error("outbox relay failed", e);
      }
      if (published < BATCH && running) {
        await new Promise<void>((r) => {
          wake = r;
          timer = setTimeout(r, env().OUTBOX_POLL_MS);
        });
      }
    }
  })();
  return {
    async stop() {
      running = false;
      clearTimeout(timer);
      wake?.();
      await loop;
    },
  };
}
