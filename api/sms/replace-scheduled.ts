/**
 * Replaces the text of one scheduled SMS of the acting account before its release (our SMPP
 * server's replace_sm). In ONE transaction, under the message's row lock: the new body, its
 * segments and coding, its price at the same price per segment — the difference debited (only if
 * balance + credit limit cover it, else INSUFFICIENT_BALANCE and nothing changes) or refunded —,
 * a `replaced` system event and the audit entry. The release checks moderation on the body it
 * sends (api/sms/release.ts), so a replaced text meets the same review. Needs /sms/send.
 */
import { debitBalance } from "../accounts/balance";
import { type Transaction } from "sequelize";
import { sequelize } from "../../models";
import { recordAudit } from "../audit/record";
import type { SignedInCtx } from "../lib/context";
import { AppError } from "../lib/errors";
import { can } from "../policy/policy";
import { MAX_BODY } from "./schemas";
import { smsSegments } from "./segments";
import { exec, rows } from "../lib/sql";

const bodyError = (message: string) => new AppError("VALIDATION", { fields: { body: [message] } });

/**
 * True when replaced; false when the account has no such message or it is no longer scheduled.
 * `scheduledAt`: a new time for it (the caller checked it is in the future and within range);
 * absent, it keeps its time. `also`: more to write in the same transaction when it was replaced.
 */
export async function replaceScheduledSms(
  ctx: SignedInCtx,
  messageId: string,
  body: string,
  opts: { scheduledAt?: Date; also?: (t: Transaction) => Promise<void> } = {},
): Promise<boolean> {
  if (!can(ctx.actor, "/sms/send")) throw new AppError("FORBIDDEN");
  if (body.trim() === "") throw bodyError("validation.required");
  if ([...body].length > MAX_BODY) throw bodyError(`validation.maxLength::${MAX_BODY}`);
  const db = sequelize();
  const accountId = ctx.actor.accountId;
  return db.transaction(async (transaction) => {
    const [m] = await rows<{ status: string; segments: number; price: string; created_at: string }>(
      `SELECT status, segments, price, created_at::text AS created_at FROM messages WHERE id = $1 AND account_id = $2 AND channel = 'sms' AND direction = 'outbound' FOR UPDATE`,
      [messageId, accountId],
      { transaction },
    );
    if (!m || m.status !== "scheduled") return false;
    const { segments, coding } = smsSegments(body);
    const perSegment = m.segments > 0 ? Number(m.price) / m.segments : 0;
    const price = Math.round(segments * perSegment);
    const difference = price - Number(m.price);
    const at = opts.scheduledAt?.toISOString() ?? null;
    await exec(
      `UPDATE messages SET body = $2, segments = $3, coding = $4, price = $5, scheduled_at = COALESCE($6::timestamptz, scheduled_at), updated_at = now() WHERE id = $1 AND created_at = $7`,
      [messageId, body, segments, coding, price, at, m.created_at],
      { transaction },
    );
    await exec(
      `INSERT INTO message_events (message_id, message_created_at, account_id, status, source, payload) VALUES ($1, $4, $2, 'replaced', 'system', $3::jsonb)`,
      [messageId, accountId, JSON.stringify({ segments, price, previous_price: Number(m.price), ...(at ? { scheduled_at: at } : {}) }), m.created_at],
      { transaction },
    );
    await recordAudit({ ...ctx, transaction }, "sms.replaced", { meta: { message_id: messageId, segments, price, ...(at ? { scheduled_at: at } : {}) } });
    await opts.also?.(transaction);
    // Last, like acceptSms: the account row is locked only from here to COMMIT.
    if (!(await debitBalance(accountId, difference, transaction))) throw new AppError("INSUFFICIENT_BALANCE");
    return true;
  });
}
