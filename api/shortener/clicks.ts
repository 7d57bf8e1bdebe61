/**
 * The click writer (ADR 057): the worker's consumer group on the clicks stream writes each batch
 * of clicks in one INSERT … SELECT FROM unnest(…). Idempotent by stream entry: a click row's
 * `stream_entry` is "<shard>-<entry id>" and unique, so an entry delivered again (a worker died
 * before XACK, the entry was reclaimed) is not counted twice. A click of a link deleted meanwhile
 * is dropped (the join finds no link); a malformed entry is acknowledged and skipped. A click
 * through a campaign's per-recipient code keeps the code (ADR 060).
 */
import { startConsumer, type Entry } from "../jobs/runner";
import { UUID } from "../lib/owned";
import { CODE_SLUG } from "./fields";
import { exec } from "../lib/sql";
import { CLICK_STREAM } from "./redirect";

const UA = new Set(["desktop", "mobile", "tablet", "bot", "other"]);

/** Writes a batch of click entries; answers how many rows were inserted (0 for entries already written). */
export async function writeClicks(entries: Array<Pick<Entry, "id" | "fields">>): Promise<number> {
  const cols: [string[], string[], string[], string[], string[], string[], string[], string[]] = [[], [], [], [], [], [], [], []];
  for (const { id, fields: f } of entries) {
    const ms = Number(f.t);
    if (!UUID.test(f.l ?? "") || !UUID.test(f.a ?? "") || !/^\d+$/.test(f.s ?? "") || !Number.isFinite(ms) || !UA.has(f.u)) continue;
    cols[0].push(`${f.s}-${id}`);
    cols[1].push(f.l);
    cols[2].push(f.a);
    cols[3].push(String(Math.trunc(ms)));
    cols[4].push(f.u);
    cols[5].push(/^[A-Z]{2}$/.test(f.c ?? "") ? f.c : "");
    cols[6].push((f.r ?? "").slice(0, 253));
    cols[7].push(CODE_SLUG.test(f.k ?? "") ? f.k : "");
  }
  if (!cols[0].length) return 0;
  return exec(
    `INSERT INTO shortener_clicks (account_id, link_id, stream_entry, clicked_at, ua_class, country, referrer, code)
     SELECT l.account_id, l.id, i.entry, to_timestamp(i.ms / 1000.0), i.ua, NULLIF(i.country, ''), NULLIF(i.referrer, ''), NULLIF(i.code, '')
       FROM unnest($1::text[], $2::uuid[], $3::uuid[], $4::bigint[], $5::text[], $6::text[], $7::text[], $8::text[]) AS i(entry, link_id, account_id, ms, ua, country, referrer, code)
       JOIN shortener_links l ON l.id = i.link_id AND l.account_id = i.account_id
     ON CONFLICT (stream_entry) DO NOTHING`,
    cols,
  );
}

/** The worker's click writers: up to 500 clicks per statement, entries deleted once written. */
export function startClickWriter() {
  return startConsumer({
    stream: CLICK_STREAM,
    group: "click-writers",
    batch: 500,
    blockMs: 1000,
    deleteAcked: true,
    batchHandler: async (entries) => {
      await writeClicks(entries);
      return new Map();
    },
  });
}
