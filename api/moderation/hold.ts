/**
 * The hold-for-approval hook of the accept transaction (spec section 7 moderation; ADR 012).
 * Called once, inside the accepting transaction, right after the messages (status `queued`, one
 * outbox row each) are inserted. When the body contains a word or URL domain under review that
 * the account has no approval for, every just-inserted queued message becomes HELD:
 *   - status `pending` (queued_at cleared, error_code `moderation`, error_message `moderation.held`),
 *   - its uncommitted outbox row and `queued` event are removed (they were never visible), and a
 *     system `pending` event says why,
 *   - one pending approval per (account, term) is found or opened, and one hold row per
 *     (approval, message) is written.
 * The charge stays: a held message is paid for; rejection refunds it (./approvals).
 * holdManyForReview does the same for the scheduled release (many bodies, many accounts).
 * Nothing is written when nothing matches (one small query of the platform list).
 */
import { type Transaction } from "sequelize";
import { matchingTerms, type Term } from "./match";
import { exec, rows } from "../lib/sql";

export const HELD_ERROR_CODE = "moderation";
export const HELD_REASON = "moderation.held";

export type HoldResult = { held: Set<string>; terms: Term[] };

export async function holdForReview(opts: { accountId: string; body: string; messageIds: string[]; transaction: Transaction }): Promise<HoldResult> {
  const none: HoldResult = { held: new Set(), terms: [] };
  if (opts.messageIds.length === 0) return none;
  const terms = await termsUnderReview(opts.transaction);
  const matched = matchingTerms(opts.body, terms);
  if (matched.length === 0) return none;
  const review = await notAllowed(opts.accountId, matched, opts.transaction);
  if (review.length === 0) return none;
  return applyHold(opts.accountId, review, opts.messageIds, opts.transaction);
}

/**
 * The same hold for queued messages of different bodies and accounts (the scheduled release,
 * api/sms/release.ts: a message scheduled before a term went under review is checked again when
 * it is released). The platform list is read once; the messages are grouped by account and by
 * the terms that hold them. Answers the ids held.
 */
export async function holdManyForReview(messages: { id: string; accountId: string; body: string }[], transaction: Transaction): Promise<Set<string>> {
  const held = new Set<string>();
  if (messages.length === 0) return held;
  const terms = await termsUnderReview(transaction);
  if (terms.length === 0) return held;
  const byAccount = new Map<string, { id: string; matched: Term[] }[]>();
  for (const m of messages) {
    const matched = matchingTerms(m.body, terms);
    if (matched.length === 0) continue;
    const list = byAccount.get(m.accountId) ?? [];
    list.push({ id: m.id, matched });
    byAccount.set(m.accountId, list);
  }
  for (const [accountId, list] of byAccount) {
    const all = new Map<string, Term>();
    for (const m of list) for (const t of m.matched) all.set(termKey(t), t);
    const review = new Set((await notAllowed(accountId, [...all.values()], transaction)).map(termKey));
    const groups = new Map<string, { terms: Term[]; ids: string[] }>();
    for (const m of list) {
      const mine = m.matched.filter((t) => review.has(termKey(t)));
      if (mine.length === 0) continue;
      const key = mine.map(termKey).sort().join("\n");
      const g = groups.get(key) ?? { terms: mine, ids: [] };
      g.ids.push(m.id);
      groups.set(key, g);
    }
    for (const g of groups.values()) for (const id of (await applyHold(accountId, g.terms, g.ids, transaction)).held) held.add(id);
  }
  return held;
}

const termKey = (t: Term) => `${t.kind}:${t.value}`;

/** The platform's words and URL domains under review (usually none or a few). */
export const TERMS_SQL = `SELECT kind, value FROM moderation_terms`;

async function termsUnderReview(transaction: Transaction): Promise<Term[]> {
  return rows<Term>(TERMS_SQL, undefined, { transaction });
}

/** The matched terms the account has no approval for. */
async function notAllowed(accountId: string, matched: Term[], transaction: Transaction): Promise<Term[]> {
  const allowed = await rows<Term>(
    `SELECT kind, value FROM moderation_approvals WHERE account_id = $1 AND status = 'approved' AND (kind || ':' || value) = ANY($2::text[])`,
    [accountId, matched.map(termKey)],
    { transaction },
  );
  return matched.filter((t) => !allowed.some((a) => a.kind === t.kind && a.value === t.value));
}

/** Holds the account's queued `messageIds` on the reviews of `review` (opened when missing). */
async function applyHold(accountId: string, review: Term[], messageIds: string[], transaction: Transaction): Promise<HoldResult> {
  // created_at as text: exact to the microsecond (a JS Date is not), it names the message's month.
  const held = await rows<{ id: string; created_at: string }>(
    `UPDATE messages SET status = 'pending', queued_at = NULL, error_code = $3, error_message = $4, updated_at = now()
     WHERE id = ANY($2::uuid[]) AND account_id = $1 AND status = 'queued' RETURNING id, created_at::text AS created_at`,
    [accountId, messageIds, HELD_ERROR_CODE, HELD_REASON],
    { transaction },
  );
  if (held.length === 0) return { held: new Set(), terms: [] };
  const ids = held.map((h) => h.id);
  const created = held.map((h) => h.created_at);
  await exec(`DELETE FROM outbox WHERE published_at IS NULL AND payload->>'message_id' = ANY($1::text[])`, [ids], { transaction });
  await exec(
    `DELETE FROM message_events WHERE message_id = ANY($1::uuid[]) AND message_created_at = ANY($2::timestamptz[]) AND status = 'queued' AND source = 'system'`,
    [ids, created],
    { transaction },
  );
  await exec(
    `INSERT INTO message_events (message_id, message_created_at, account_id, status, source, payload)
     SELECT m.id, m.created_at, $2, 'pending', 'system', jsonb_build_object('reason', $3::text, 'error_code', $3::text, 'error_message', $4::text, 'terms', $5::jsonb)
     FROM unnest($1::uuid[], $6::timestamptz[]) AS m(id, created_at)`,
    [ids, accountId, HELD_ERROR_CODE, HELD_REASON, JSON.stringify(review), created],
    { transaction },
  );
  // Concurrent accepts meet on the partial unique index: the later upsert waits for the first and does nothing.
  await exec(
    `INSERT INTO moderation_approvals (account_id, kind, value) SELECT $1, t.kind, t.value FROM unnest($2::text[], $3::text[]) AS t(kind, value)
     ON CONFLICT (account_id, kind, value) WHERE status = 'pending' DO NOTHING`,
    [accountId, review.map((t) => t.kind), review.map((t) => t.value)],
    { transaction },
  );
  await exec(
    `INSERT INTO moderation_holds (message_id, message_created_at, approval_id, account_id)
     SELECT m.id, m.created_at, a.id, $1 FROM unnest($2::uuid[], $4::timestamptz[]) AS m(id, created_at)
     CROSS JOIN moderation_approvals a
     WHERE a.account_id = $1 AND a.status = 'pending' AND (a.kind || ':' || a.value) = ANY($3::text[])`,
    [accountId, ids, review.map(termKey), created],
    { transaction },
  );
  return { held: new Set(ids), terms: review };
}

/** The accept answer's entries of held messages say so (status pending, the reason). */
export function markHeld<T extends { id: string; status: string; error_code?: string; error_message?: string }>(entries: T[], held: Set<string>): void {
  for (const e of entries) {
    if (!held.has(e.id)) continue;
    (e as { status: string }).status = "pending";
    e.error_code = HELD_ERROR_CODE;
    e.error_message = HELD_REASON;
  }
}
