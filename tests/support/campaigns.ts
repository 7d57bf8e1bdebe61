/**
 * Test fixtures for dispatch and campaign tests on the run's shared processes. `enqueueSms` writes
 * what acceptSms writes — the debit, the queued messages, their outbox rows and `queued` events —
 * in ONE statement (one transaction), optionally into a campaign; used where a test needs a number
 * the API refuses (the simulator's magic numbers) or messages held before the worker can see them.
 */
import { query } from "./db";
import { type CampaignFields, given, makeCampaign, sql } from "./factories";

export type Enqueue = { count?: number; recipients?: string[]; price?: number; route?: string; campaignId?: string | null; first?: number };

/** A running SMS campaign from LOJA on route T1, started now, as acceptSms would file messages under. */
export async function createCampaign(accountId: string, opts: { total: number; status?: CampaignFields["status"]; name?: string }, q: Query = query) {
  return makeCampaign(accountId, { status: "running", sender: "LOJA", body: "Promoção de teste", route: "T1", startedAt: sql("now()"), ...given(opts) }, q);
}

let seq = Math.floor(Math.random() * 5_000_000);
/** Distinct Brazilian mobile numbers. */
export const numbers = (n: number) => Array.from({ length: n }, () => `+55119${String(10000000 + (seq++ % 89999999)).padStart(8, "0")}`);

type Query = <T = Record<string, unknown>>(text: string, params?: unknown[]) => Promise<T[]>;

/** `q`: the database to write to (default the run's; a private stack passes its own). */
export async function enqueueSms(accountId: string, opts: Enqueue = {}, q: Query = query): Promise<string[]> {
  const recipients = opts.recipients ?? numbers(opts.count ?? 1);
  const price = opts.price ?? 8;
  const rows = await q<{ id: string }>(
    `WITH d AS (
       UPDATE account_balances SET balance = balance - $3::bigint * cardinality($2::text[]) WHERE account_id = $1 RETURNING account_id
     ), m AS (
       INSERT INTO messages (account_id, channel, direction, sender, recipient, body, segments, coding, status, route, price, currency, queued_at, campaign_id)
       SELECT $1, 'sms', 'outbound', 'LOJA', r.recipient, 'Oferta ' || r.n, 1, 'GSM7', 'queued', $4, $3, 'BRL', now(), $5::uuid
       FROM d, unnest($2::text[]) WITH ORDINALITY AS r(recipient, n) ORDER BY r.n
       RETURNING id, created_at
     ), o AS (
       INSERT INTO outbox (topic, payload) SELECT 'messages:sms', jsonb_build_object('message_id', m.id::text) FROM m
     ), e AS (
       INSERT INTO message_events (message_id, message_created_at, account_id, status, source, payload)
       SELECT m.id, m.created_at, $1, 'queued', 'system', jsonb_build_object('segments', 1, 'price', $3::bigint, 'currency', 'BRL') FROM m
     )
     SELECT id FROM m`,
    [accountId, recipients, price, opts.route ?? "T1", opts.campaignId ?? null],
  );
  return rows.map((r) => r.id);
}

export async function balanceOf(accountId: string, q: Query = query) {
  const [row] = await q<{ balance: string }>("SELECT balance FROM account_balances WHERE account_id = $1", [accountId]);
  return Number(row.balance);
}

export async function waitUntil<T>(what: string, read: () => Promise<T>, done: (v: T) => boolean, ms = 30_000, every = 200): Promise<T> {
  const until = Date.now() + ms;
  let value = await read();
  while (!done(value)) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value).slice(0, 500)}`);
    await new Promise((r) => setTimeout(r, every));
    value = await read();
  }
  return value;
}

export function tally(list: string[]) {
  const out: Record<string, number> = {};
  for (const s of list) out[s] = (out[s] ?? 0) + 1;
  return out;
}
