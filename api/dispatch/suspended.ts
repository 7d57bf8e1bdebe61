/**
 * Messages of an account that is no longer active (suspended by staff or by the billing job, ADR
 * 063/044; or deleted, `inactive`) are never handed to a provider (ADR 069). The dispatcher's
 * claim does not take them (`ACCOUNT_ACTIVE`, one anti-join in the claim it already runs); the
 * entries it did not claim are offered here in ONE statement per batch, which fails those that
 * were due to go (pending, queued, scheduled and due) with error_code `account_suspended` (or
 * `account_inactive`), writes their `failed` and `refund` events, and returns their price through
 * the ledger: one `refund` posting per account of the batch (reference `suspension:<account>`),
 * the units of a product to the product (ADR 048). The row lock and the status re-check make each
 * message fail — and be refunded — once, however often its entry is delivered again.
 *
 * A message already `sending` when its account stopped (a submit in flight) is not touched here:
 * if its worker dies, the redelivery asks the provider first, and fails it (failUnsent) only when
 * the provider never got it (api/dispatch/dispatcher.ts).
 */
import { sequelize } from "../../models";
import { creditBalance } from "../accounts/balance";
import { followLiveMessages } from "../live/pipeline";
import { rows } from "../lib/sql";
import { returnUnits } from "../products/products";

/** The messages (alias `messages`, as the claim names them) of an active account. */
export const ACCOUNT_ACTIVE = `NOT EXISTS (SELECT 1 FROM accounts sa WHERE sa.id = messages.account_id AND sa.status <> 'active')`;

/** error_code and the stored reason (a locale key, api/sms/error-message.ts) per account status. */
export const STOPPED = {
  suspended: { code: "account_suspended", reason: "errors.ACCOUNT_SUSPENDED" },
  inactive: { code: "account_inactive", reason: "errors.ACCOUNT_INACTIVE" },
} as const;
export type StoppedStatus = keyof typeof STOPPED;

/** The failure of a message whose account has `status` (anything but active). */
export const stoppedFailure = (status: string) => STOPPED[status === "inactive" ? "inactive" : "suspended"];

/** Due to go: what the dispatcher's claim takes (alias m). */
const DUE = `(m.status IN ('pending','queued') OR (m.status = 'scheduled' AND (m.scheduled_at IS NULL OR m.scheduled_at <= now())))`;

type Failed = { id: string; account_id: string; price: string; product_id: string | null; segments: number; error_message: string };

/**
 * Fails (and refunds) the due messages among `ids` whose account is not active; answers their ids.
 * The rows are locked in id order (as the receipts' and the `sent` batches lock theirs).
 */
export async function failOfStoppedAccounts(ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const failed = await sequelize().transaction(async (t) => {
    const found = await rows<Failed>(
      `WITH l AS MATERIALIZED (
         SELECT m.id, m.created_at, m.status AS previous, a.status AS account_status
           FROM messages m JOIN accounts a ON a.id = m.account_id
          WHERE m.id = ANY($1::uuid[]) AND m.direction = 'outbound' AND a.status <> 'active' AND ${DUE}
          ORDER BY m.id FOR UPDATE OF m
       ), f AS (
         UPDATE messages m SET status = 'failed', failed_at = now(),
                error_code = CASE WHEN l.account_status = 'inactive' THEN $4 ELSE $2 END,
                error_message = CASE WHEN l.account_status = 'inactive' THEN $5 ELSE $3 END, updated_at = now()
           FROM l WHERE m.id = l.id AND m.created_at = l.created_at AND ${DUE}
         RETURNING m.id, m.created_at, m.account_id, m.price, m.currency, m.product_id, m.segments, m.error_code, m.error_message, l.previous
       ), ev AS (
         INSERT INTO message_events (message_id, message_created_at, account_id, status, source, payload)
         SELECT id, created_at, account_id, 'failed', 'system', jsonb_build_object('error_code', error_code, 'error_message', error_message, 'previous', previous) FROM f
         UNION ALL
         SELECT id, created_at, account_id, 'refund', 'system', jsonb_build_object('price', price, 'currency', trim(currency), 'reason', error_code) FROM f WHERE price > 0
       )
       SELECT id, account_id, price, product_id, segments, error_message FROM f ORDER BY account_id, id`,
      [ids, STOPPED.suspended.code, STOPPED.suspended.reason, STOPPED.inactive.code, STOPPED.inactive.reason],
      { transaction: t },
    );
    // Units back to products first, then the balances (the order an accept locks them in), accounts in id order.
    const units = new Map<string, { accountId: string; productId: string; units: number }>();
    const refunds = new Map<string, { amount: number; code: string }>();
    for (const m of found) {
      if (m.product_id) {
        const k = `${m.account_id}:${m.product_id}`;
        const u = units.get(k) ?? { accountId: m.account_id, productId: m.product_id, units: 0 };
        u.units += Number(m.segments);
        units.set(k, u);
      }
      const r = refunds.get(m.account_id) ?? { amount: 0, code: m.error_message === STOPPED.inactive.reason ? STOPPED.inactive.code : STOPPED.suspended.code };
      r.amount += Number(m.price);
      refunds.set(m.account_id, r);
    }
    for (const u of [...units.values()].sort((a, b) => `${a.accountId}:${a.productId}`.localeCompare(`${b.accountId}:${b.productId}`))) {
      await returnUnits(u.accountId, u.productId, u.units, t);
    }
    for (const [accountId, r] of [...refunds.entries()].sort(([a], [b]) => a.localeCompare(b))) {
      await creditBalance(accountId, r.amount, t, { kind: "refund", reference: `suspension:${accountId}`, reason: r.code });
    }
    return found;
  });
  if (failed.length) {
    // A live chat message that went out as one of these (a WhatsApp room's) fails with it.
    await followLiveMessages(failed.map((m) => ({ accountId: m.account_id, messageId: m.id, status: "failed", reason: m.error_message })))
      .then((live) => live.publish())
      .catch((e) => console.warn(`live messages of stopped accounts: ${(e as Error).message}`));
  }
  return new Set(failed.map((m) => m.id));
}
