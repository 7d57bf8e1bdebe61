/**
 * The account's e-mail messages (issue 17; spec section 7 GET /email/messages, /email/messages/{id};
 * the E-mail message entity: id, created_at, to, subject, status, opens, clicks, error_code,
 * error_message):
 * - listEmailMessages: a range of São Paulo days (at most 31, default today) filtered by id, status,
 *   from and to (addresses, exact), newest first (`order=asc` oldest first), a keyset page
 *   {data, next_cursor} — the SMS history's day and paging rules (api/sms/history.ts), the
 *   addresses checked here. A lag-tolerant read (ADR 030).
 * - getEmailMessage: one message with its events in order (queued, sent, deferred, delivered,
 *   opened, clicked, or bounced / blocked / dropped with the code and reason) and its counts of
 *   opens and clicks. 404 for another account's.
 */
import type { SignedInCtx } from "../lib/context";
import { AppError } from "../lib/errors";
import { keyset } from "../lib/page";
import { replicaRows, row, rows } from "../lib/sql";
import { validate } from "../lib/validate";
import { z } from "../lib/zod";
import { can } from "../policy/policy";
import { POSITION_SQL, timeIdCursor } from "../sms/cursor";
import { HISTORY_TIME_ZONE, saoPauloToday, smsHistorySchema } from "../sms/history";
import { engagementCounts } from "./tracking";

export type EmailMessage = {
  id: string;
  from: string;
  to: string;
  subject: string;
  status: string;
  price: number;
  currency: string;
  error_code: string | null;
  error_message: string | null;
  created_at: Date;
  scheduled_at: Date | null;
  sent_at: Date | null;
  delivered_at: Date | null;
  opened_at: Date | null;
  failed_at: Date | null;
};
export type EmailEvent = { status: string; source: "provider" | "system"; created_at: Date; error_code: string | null; error_message: string | null };
export type EmailMessageDetail = EmailMessage & { text: string; html: string | null; opens: number; clicks: number; events: EmailEvent[] };

type Row = Omit<EmailMessage, "from" | "to" | "price" | "subject" | "opened_at"> & {
  sender: string;
  recipient: string;
  price: string;
  subject: string | null;
  read_at: Date | null;
};
const COLUMNS = `id, sender, recipient, content->>'subject' AS subject, status, price, currency, error_code, error_message, created_at, scheduled_at, sent_at, delivered_at, read_at, failed_at`;
const view = ({ sender, recipient, price, currency, subject, read_at, ...m }: Row): EmailMessage => ({
  ...m,
  from: sender,
  to: recipient,
  subject: subject ?? "",
  price: Number(price),
  currency: currency.trim(),
  opened_at: read_at,
});

const address = z.string().trim().toLowerCase().max(254, "validation.maxLength::254").email("validation.email").optional();
const addressesSchema = z.object({ from: address, to: address });
const cursorSchema = z.object({ cursor: z.string().max(1000, "validation.invalid").optional() });
const blank = (v: unknown) => (v === "" || v === null ? undefined : v);

export async function listEmailMessages(ctx: SignedInCtx, input: unknown = {}): Promise<{ data: EmailMessage[]; next_cursor: string | null }> {
  if (!can(ctx.actor, "/mail/history")) throw new AppError("FORBIDDEN");
  const { cursor, from, to, page: _numbered, ...filters } = (input && typeof input === "object" ? input : {}) as Record<string, unknown>;
  // The SMS history's rules for the days, id, status, order and limit; the addresses are e-mail's.
  const q = validate(smsHistorySchema, filters);
  const who = validate(addressesSchema, { from: blank(from), to: blank(to) });
  const after = timeIdCursor(validate(cursorSchema, { cursor: blank(cursor) }).cursor);
  const lte = q.created_at.lte || saoPauloToday();
  const gte = q.created_at.gte || lte;
  const desc = q.order !== "asc";
  const bind: unknown[] = [ctx.actor.accountId, gte, lte];
  const where = [
    "account_id = $1",
    "channel = 'email'",
    `created_at >= ($2::date)::timestamp AT TIME ZONE '${HISTORY_TIME_ZONE}'`,
    `created_at < ($3::date + 1)::timestamp AT TIME ZONE '${HISTORY_TIME_ZONE}'`,
  ];
  const add = (sql: (n: string) => string, value: unknown) => {
    bind.push(value);
    where.push(sql(`$${bind.length}`));
  };
  if (q.id) add((n) => `id = ${n}::uuid`, q.id);
  if (q.status) add((n) => `status = ${n}`, q.status);
  if (who.from) add((n) => `sender = ${n}`, who.from);
  if (who.to) add((n) => `recipient = ${n}`, who.to);
  if (after) {
    bind.push(after[0], after[1]);
    where.push(`(created_at, id) ${desc ? "<" : ">"} ($${bind.length - 1}::timestamptz, $${bind.length}::uuid)`);
  }
  bind.push(q.limit + 1);
  const dir = desc ? "DESC" : "ASC";
  const found = await replicaRows<Row & { position: string }>(
    `SELECT ${COLUMNS}, ${POSITION_SQL("created_at")} AS position FROM messages
      WHERE ${where.join(" AND ")} ORDER BY created_at ${dir}, id ${dir} LIMIT $${bind.length}`,
    bind,
  );
  return keyset(
    found,
    q.limit,
    (r) => [r.position, r.id],
    ({ position: _p, ...r }) => view(r),
  );
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function getEmailMessage(ctx: SignedInCtx, id: string): Promise<{ data: EmailMessageDetail }> {
  if (!can(ctx.actor, "/mail/history") && !can(ctx.actor, "/mail/send")) throw new AppError("FORBIDDEN");
  const found = UUID.test(id)
    ? await row<Row & { body: string; html: string | null }>(
        `SELECT ${COLUMNS}, body, content->>'html' AS html FROM messages WHERE id = $1 AND account_id = $2 AND channel = 'email'`,
        [id, ctx.actor.accountId],
      )
    : null;
  if (!found) throw new AppError("NOT_FOUND");
  const events = await rows<EmailEvent & { payload: { error_code?: string | null; error_message?: string | null } }>(
    `SELECT status, source, created_at, payload FROM message_events WHERE message_id = $1 AND account_id = $2 ORDER BY created_at, id`,
    [id, ctx.actor.accountId],
  );
  const { body, html, ...m } = found;
  return {
    data: {
      ...view(m),
      text: body,
      html,
      ...(await engagementCounts(id, ctx.actor.accountId)),
      events: events.map(({ payload, ...e }) => ({ ...e, error_code: payload?.error_code ?? null, error_message: payload?.error_message ?? null })),
    },
  };
}
