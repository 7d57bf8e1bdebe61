/**
 * A campaign writes its messages in one statement: 100,000 new rows in the month's partition that
 * PostgreSQL's statistics know nothing of until autovacuum's next analyze (a minute or more later).
 * Meanwhile the dispatcher's and the receipts' `id = ANY(…)` statements were planned as if each id
 * matched thousands of rows — a sequential scan of the month per batch, measured in the e-mail
 * bench (ADR 041). So past BULK_ANALYZE_ROWS messages, the month they went into is analyzed at once,
 * after the accept committed and without holding its answer (an ANALYZE samples a bounded number
 * of rows: well under a second). A failure only costs the plans until autovacuum comes.
 */
import { exec, rows } from "../lib/sql";

export const BULK_ANALYZE_ROWS = 10_000;

export function refreshStatisticsAfterBulk(campaignId: string, written: number): void {
  if (written < BULK_ANALYZE_ROWS) return;
  void (async () => {
    const [one] = await rows<{ part: string }>(`SELECT tableoid::regclass::text AS part FROM messages WHERE campaign_id = $1 LIMIT 1`, [campaignId]);
    // regclass text is the partition's name, quoted where it needs to be.
    if (one) await exec(`ANALYZE ${one.part}`);
  })().catch((e) => console.warn(`statistics after a bulk accept: ${(e as Error).message}`));
}
