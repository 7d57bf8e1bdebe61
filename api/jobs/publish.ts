/**
 * Publishing to the job streams (ADR 028): an entry goes to the shard of its logical stream that
 * its id hashes to (`jobStreamFor`); a batch is sent as one pipeline per slot, since a cluster
 * pipeline must not cross slots. Throws when any XADD failed.
 */
import { jobStreamFor } from "../lib/redis-keys";
import { perSlot, redis } from "../lib/redis";

export type JobEntry = { stream: string; id: string; fields: string[] };

/** XADDs each entry to its shard (one round trip per slot touched); answers the entry ids Redis gave, in order. */
export async function publishJobs(entries: readonly JobEntry[]): Promise<string[]> {
  if (entries.length === 0) return [];
  const physical = entries.map((e) => jobStreamFor(e.stream, e.id));
  const byKey = new Map<string, number[]>();
  physical.forEach((k, i) => {
    const list = byKey.get(k);
    if (list) list.push(i);
    else byKey.set(k, [i]);
  });
  const out: string[] = new Array(entries.length);
  await perSlot([...byKey.keys()], async (streams) => {
    const pipeline = redis().pipeline();
    const order: number[] = [];
    for (const s of streams)
      for (const i of byKey.get(s)!) {
        pipeline.xadd(s, "*", ...entries[i].fields);
        order.push(i);
      }
    const results = (await pipeline.exec()) ?? [];
    const failed = results.find(([err]) => err);
    if (failed || results.length !== order.length) throw new Error(`XADD failed: ${failed?.[0]?.message ?? "no answer"}`);
    for (let j = 0; j < results.length; j++) out[order[j]] = String(results[j][1]);
  });
  return out;
}

/** One entry `{field: value…}` about `id` on logical stream `stream`. */
export const publishJob = (stream: string, id: string, fields: Record<string, string>) => publishJobs([{ stream, id, fields: Object.entries(fields).flat() }]);
