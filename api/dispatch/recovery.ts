/**
 * The worker's dispatch sweep (every DISPATCH_SWEEP_SECONDS):
 *
 * 1. Lost entries. Redis here keeps nothing on disk: a restart loses the streams, their groups
 *    and every entry not yet handled, while the messages stay `queued` (or `sending`, for a
 *    worker that died mid-submit) in PostgreSQL. The dispatcher deletes entries once acked, so a
 *    channel's stream holds exactly its unfinished work. A message still queued/sending after
 *    DISPATCH_RECOVER_SECONDS whose id is in no entry of the stream is published again with
 *    `recovered=1` (held campaigns excepted: resuming republishes them). A duplicate is harmless —
 *    the dispatcher's conditional claim lets one entry submit, and for a `sending` message it asks
 *    the provider (adapter.lookup) before submitting again.
 * 2. Finished campaigns. A running campaign whose messages all exist (count >= total) and none is
 *    scheduled/pending/queued/sending becomes `completed`.
 */
import { everyOnce } from "../jobs/lease";
import { channels, dispatchStream } from "../channels/registry";
import { env } from "../lib/env";
import { publishJobs } from "../jobs/publish";
import { redis } from "../lib/redis";
import { allJobStreams } from "../lib/redis-keys";
import { rows } from "../lib/sql";

const CANDIDATES = 5_000;

/** The values of `field` over the entries of every shard of logical stream `name` (read in pages; such a stream holds only unfinished work). */
export async function idsInStream(name: string, field = "message_id"): Promise<Set<string>> {
  const ids = new Set<string>();
  for (const stream of allJobStreams(name)) await collect(stream, field, ids);
  return ids;
}

async function collect(stream: string, field: string, ids: Set<string>): Promise<void> {
  let start = "-";
  for (;;) {
    const page = (await redis().xrange(stream, start, "+", "COUNT", 2000)) as Array<[string, string[]]>;
    for (const [, fields] of page) {
      for (let i = 0; i < fields.length; i += 2) if (fields[i] === field) ids.add(fields[i + 1]);
    }
    if (page.length < 2000) return;
    start = `(${page[page.length - 1][0]}`;
  }
}

/** Entries in every shard of a logical stream. */
async function entriesIn(name: string): Promise<number> {
  let n = 0;
  for (const stream of allJobStreams(name)) n += Number(await redis().xlen(stream));
  return n;
}

const NOT_HELD = `NOT (m.campaign_id IS NOT NULL AND EXISTS (SELECT 1 FROM campaigns c WHERE c.id = m.campaign_id AND c.status IN ('paused','canceled')))`;

/** Messages of `channel` waiting to go (queued or sending), held campaigns' excepted (they have no entries by design). */
async function waiting(channel: string): Promise<number> {
  const [r] = await rows<{ n: number }>(
    `SELECT count(*)::int AS n FROM messages m WHERE m.channel = $1 AND m.direction = 'outbound' AND m.status IN ('queued','sending') AND ${NOT_HELD}`,
    [channel],
  );
  return r.n;
}

/** Publishes again the messages of `channel` whose entries were lost; returns how many. */
export async function recoverLostEntries(channel: string, olderThanSeconds = env().DISPATCH_RECOVER_SECONDS): Promise<number> {
  // The stream first, then the candidates: an entry handled (acked and deleted) between the two
  // reads belongs to a message that is no longer queued, so it is no candidate. The other order
  // took every message dispatched meanwhile for lost (a long backlog's oldest messages are both
  // the first candidates and the ones being sent), and published it again.
  const stream = dispatchStream(channel);
  // Cheap first: while the stream holds at least as many entries as the channel has messages
  // waiting to go, nothing can be missing, and its entries are not read (a 100,000-message campaign
  // read them all every sweep). Entries of messages being finished can hide a loss for a sweep at
  // most: a message without an entry stays waiting, so the next sweeps find fewer entries than messages.
  if ((await entriesIn(stream)) >= (await waiting(channel))) return 0;
  const present = await idsInStream(stream);
  const candidates = await rows<{ id: string }>(
    `SELECT m.id FROM messages m
     WHERE m.channel = $1 AND m.direction = 'outbound' AND m.status IN ('queued','sending')
       AND m.updated_at < now() - make_interval(secs => $2)
       AND ${NOT_HELD}
     ORDER BY m.updated_at LIMIT ${CANDIDATES}`,
    [channel, olderThanSeconds],
  );
  if (candidates.length === 0) return 0;
  const lost = candidates.filter((c) => !present.has(c.id));
  if (lost.length === 0) return 0;
  await publishJobs(lost.map(({ id }) => ({ stream, id, fields: ["message_id", id, "recovered", "1"] }))).catch((e) => {
    throw new Error(`recovery XADD failed: ${e instanceof Error ? e.message : String(e)}`);
  });
  console.warn(`dispatch sweep: ${lost.length} ${channel} message(s) had no stream entry, published again`);
  return lost.length;
}

/** Running campaigns with every message written and none left to send become `completed`. */
export async function completeCampaigns(): Promise<number> {
  const done = await rows<{ id: string }>(`UPDATE campaigns c SET status = 'completed', completed_at = now(), updated_at = now()
     WHERE c.status = 'running'
       -- The cheap test first: a campaign with a message still to go stops here (the count reads every message).
       AND NOT EXISTS (SELECT 1 FROM messages m WHERE m.campaign_id = c.id AND m.status IN ('scheduled','pending','queued','sending'))
       AND (SELECT count(*) FROM messages m WHERE m.campaign_id = c.id) >= c.total
     RETURNING c.id`);
  return done.length;
}

/** Runs both sweeps every DISPATCH_SWEEP_SECONDS until stopped. */
export function startDispatchSweep() {
  return everyOnce("dispatch sweep", env().DISPATCH_SWEEP_SECONDS * 1000, async () => {
    for (const channel of channels()) await recoverLostEntries(channel);
    await completeCampaigns();
  });
}
