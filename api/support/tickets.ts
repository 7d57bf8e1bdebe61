/**
 * Support tickets (issue 23, ADR 061): a customer's people ask the platform for help; the
 * platform's staff answer. Two sides, one conversation:
 * - the customer side (/support…, /api/support/tickets…): anyone signed in to an account opens a
 *   ticket (category and subject required; a first message and a file optional), reads and
 *   answers the account's tickets, closes one, and rates a closed one 0 to 5, once. Every query is
 *   scoped by the acting account: another account's ticket is 404.
 * - the staff side (/admin/tickets, /admin/support/{id}, /api/admin/tickets…): the platform's
 *   staff (the policy's /admin/tickets: owner or admin of the platform account) see every ticket,
 *   answer, assign it to one of them and change its status.
 * Status: open (the platform's turn) -> in_progress (someone is on it) -> answered (the customer's
 * turn) -> closed. A customer's message sets it open again; a staff message sets it answered
 * (or whatever status the staff picks with it); a closed ticket takes no more messages.
 * Each step notifies the other side in /notifications (the person it concerns) and by e-mail,
 * both written in the same transaction as the step; each step is audited.
 */
import { sequelize } from "../../models/db";
import type { Locale } from "../../models/constants";
import { recordAudit } from "../audit/record";
import type { Ctx, SignedInCtx } from "../lib/context";
import { AppError } from "../lib/errors";
import { decodeCursor, keyset, pageInput } from "../lib/page";
import { UUID } from "../lib/owned";
import { escapeLike, exec, row, rows } from "../lib/sql";
import { validate } from "../lib/validate";
import { z } from "../lib/zod";
import { enqueueMail } from "../mail/enqueue";
import { notify } from "../notifications/services";
import { can } from "../policy/policy";
import { CATEGORIES, COMMENT_MAX, MESSAGE_MAX, RATING_MAX, RATING_MIN, STATUSES, SUBJECT_MAX, type TicketStatus } from "./constants";
import { type CheckedAttachment, checkAttachment, type IncomingAttachment, putAttachment, signedFileUrl } from "./files";

const text = (max: number) => z.string().trim().max(max, `validation.maxLength::${max}`);
const optionalText = (max: number) => z.preprocess((v) => (v === null ? undefined : v), text(max).optional());

export const openTicketSchema = z.object({
  category: z.enum(CATEGORIES, { error: "validation.required" }),
  subject: text(SUBJECT_MAX).min(1, "validation.required"),
  message: optionalText(MESSAGE_MAX),
});
export const replySchema = z.object({ message: text(MESSAGE_MAX).min(1, "validation.required") });
/** A staff reply may carry the status the ticket takes with it (default: answered). */
export const staffReplySchema = replySchema.extend({ status: z.enum(STATUSES, { error: "validation.option" }).optional() });
export const rateSchema = z.object({
  rating: z.coerce
    .number({ error: "validation.required" })
    .int("validation.integer")
    .min(RATING_MIN, `validation.min::${RATING_MIN}`)
    .max(RATING_MAX, `validation.max::${RATING_MAX}`),
  comment: optionalText(COMMENT_MAX),
});
const uuidOrEmpty = z.preprocess((v) => (v === "" ? null : v), z.string().regex(UUID, "validation.option").nullable());
export const updateTicketSchema = z
  .object({ status: z.enum(STATUSES, { error: "validation.option" }).optional(), assigned_to: uuidOrEmpty.optional() })
  .refine((v) => v.status !== undefined || v.assigned_to !== undefined, { message: "validation.required", path: ["status"] });

const listSchema = z.object({
  status: z.union([z.enum(STATUSES, { error: "validation.option" }), z.literal("")]).optional(),
  category: z.union([z.enum(CATEGORIES, { error: "validation.option" }), z.literal("")]).optional(),
  /** Staff lists: "me" (assigned to me), "none" (nobody yet), or a staff person's id. */
  assigned: z.union([z.literal("me"), z.literal("none"), z.literal(""), z.string().regex(UUID, "validation.option")]).optional(),
  /** Staff lists: a part of the subject or of the customer's name, or the ticket's number. */
  q: z.string().trim().max(100, "validation.maxLength::100").optional(),
  ...pageInput,
});

type TicketRow = {
  id: string;
  number: string | number;
  account_id: string;
  account_name: string;
  category: string;
  subject: string;
  status: TicketStatus;
  opened_by: string | null;
  opened_by_name: string | null;
  opened_by_email: string | null;
  assigned_to: string | null;
  assigned_to_name: string | null;
  last_side: "customer" | "staff";
  last_message_at: Date;
  closed_at: Date | null;
  rating: number | null;
  rating_comment: string | null;
  rated_at: Date | null;
  messages: number | string;
  created_at: Date;
  updated_at: Date;
};

const iso = (d: Date | string | null) => (d ? new Date(d).toISOString() : null);

export type TicketView = ReturnType<typeof ticketOut>;
function ticketOut(t: TicketRow) {
  return {
    id: t.id,
    number: Number(t.number),
    account_id: t.account_id,
    account_name: t.account_name,
    category: t.category,
    subject: t.subject,
    status: t.status,
    opened_by: t.opened_by,
    opened_by_name: t.opened_by_name,
    opened_by_email: t.opened_by_email,
    assigned_to: t.assigned_to,
    assigned_to_name: t.assigned_to_name,
    last_side: t.last_side,
    messages: Number(t.messages),
    rating: t.rating,
    rating_comment: t.rating_comment,
    rated_at: iso(t.rated_at),
    closed_at: iso(t.closed_at),
    last_message_at: iso(t.last_message_at) as string,
    created_at: iso(t.created_at) as string,
    updated_at: iso(t.updated_at) as string,
  };
}

const NAME = (alias: string) => `nullif(btrim(${alias}.first_name || ' ' || coalesce(${alias}.last_name, '')), '')`;
const TICKET_SQL = `SELECT t.id, t.number, t.account_id, a.name AS account_name, t.category, t.subject, t.status, t.opened_by,
    ${NAME("o")} AS opened_by_name, o.email AS opened_by_email, t.assigned_to, ${NAME("s")} AS assigned_to_name, t.last_side,
    t.last_message_at, t.closed_at, t.rating, t.rating_comment, t.rated_at, t.created_at, t.updated_at,
    (SELECT count(*) FROM support_messages m WHERE m.ticket_id = t.id) AS messages
  FROM support_tickets t JOIN accounts a ON a.id = t.account_id
  LEFT JOIN users o ON o.id = t.opened_by LEFT JOIN users s ON s.id = t.assigned_to`;

type Side = "customer" | "staff";

function assertStaff(ctx: SignedInCtx) {
  if (!can(ctx.actor, "/admin/tickets")) throw new AppError("FORBIDDEN");
}
function assertCustomer(ctx: SignedInCtx) {
  if (!can(ctx.actor, "/support")) throw new AppError("FORBIDDEN");
}

/** One ticket as `side` may see it: the account's own (customer) or any (staff); else 404. */
async function findTicket(ctx: SignedInCtx, side: Side, id: string, lock = false): Promise<TicketRow> {
  if (!UUID.test(id)) throw new AppError("NOT_FOUND");
  if (lock) await row(`SELECT 1 FROM support_tickets WHERE id = $1 FOR UPDATE`, [id], { transaction: ctx.transaction });
  const found = await row<TicketRow>(`${TICKET_SQL} WHERE t.id = $1 AND ($2::uuid IS NULL OR t.account_id = $2::uuid)`, [id, side === "staff" ? null : ctx.actor.accountId], {
    transaction: ctx.transaction,
  });
  if (!found) throw new AppError("NOT_FOUND");
  return found;
}

type MessageRow = { id: string | number; side: Side; body: string; author_id: string | null; author_name: string | null; created_at: Date; files: FileRow[] };
type FileRow = { id: string; name: string; media_type: string; size: number };

async function threadOf(ticketId: string) {
  const found = await rows<MessageRow>(
    `SELECT m.id, m.side, m.body, m.author_id, ${NAME("u")} AS author_name, m.created_at,
            coalesce((SELECT json_agg(json_build_object('id', f.id, 'name', f.name, 'media_type', f.media_type, 'size', f.size) ORDER BY f.created_at)
                        FROM support_files f WHERE f.message_id = m.id), '[]'::json) AS files
       FROM support_messages m LEFT JOIN users u ON u.id = m.author_id WHERE m.ticket_id = $1 ORDER BY m.id`,
    [ticketId],
  );
  return found.map((m) => ({
    id: String(m.id),
    side: m.side,
    body: m.body,
    author_id: m.author_id,
    author_name: m.author_name,
    created_at: iso(m.created_at) as string,
    files: m.files.map((f) => ({ ...f, url: signedFileUrl(f.id) })),
  }));
}

async function ticketWithThread(ctx: SignedInCtx, side: Side, id: string) {
  const t = await findTicket(ctx, side, id);
  return { data: { ...ticketOut(t), thread: await threadOf(t.id) } };
}

/** The platform's people who answer tickets: owners and admins of the platform account(s). */
async function staffPeople(): Promise<Array<{ id: string; name: string; email: string; locale: Locale; account_id: string }>> {
  return rows(
    `SELECT u.id, ${NAME("u")} AS name, u.email, u.locale, m.account_id FROM memberships m JOIN accounts a ON a.id = m.account_id JOIN users u ON u.id = m.user_id
      WHERE a.type = 'platform' AND m.role IN ('owner', 'admin') ORDER BY name, u.email`,
  );
}

/** Who may be assigned a ticket (the staff form's choices). */
export async function assignableStaff(ctx: SignedInCtx) {
  assertStaff(ctx);
  return (await staffPeople()).map(({ id, name, email }) => ({ id, name: name ?? email, email }));
}

type Recipient = { id: string; email: string; locale: Locale; name: string | null; account_id: string };
type MailKind = "ticketOpened" | "ticketAnswered" | "ticketReplied" | "ticketClosed";

/** Tells each recipient in /notifications and by e-mail, inside the step's transaction (nothing is told of a step that rolls back). */
async function tell(ctx: Ctx, to: Recipient[], t: { id: string; number: number; subject: string; account_name: string }, kind: string, mail: MailKind | null, side: Side) {
  const link = side === "staff" ? `/admin/support/${t.id}` : `/support/${t.id}`;
  const params = { number: t.number, subject: t.subject, account: t.account_name };
  for (const r of to) {
    if (r.id === ctx.actor?.userId) continue;
    await notify(ctx, { accountId: r.account_id, userId: r.id, kind, params, link });
    if (mail) await enqueueMail(ctx, r.email, r.locale, mail, { name: r.name ?? undefined, path: link, ...params, number: String(t.number) });
  }
}

async function openerOf(ticket: TicketRow, transaction?: Ctx["transaction"]): Promise<Recipient[]> {
  if (!ticket.opened_by) return [];
  const found = await row<Recipient>(
    `SELECT u.id, u.email, u.locale, u.first_name AS name, $2::uuid AS account_id FROM users u JOIN memberships m ON m.user_id = u.id AND m.account_id = $2 WHERE u.id = $1`,
    [ticket.opened_by, ticket.account_id],
    { transaction },
  );
  return found ? [found] : [];
}

/** The staff a customer's step concerns: the person assigned, or every one while nobody is. */
async function staffFor(ticket: Pick<TicketRow, "assigned_to">): Promise<Recipient[]> {
  const staff = await staffPeople();
  const assigned = staff.filter((s) => s.id === ticket.assigned_to);
  return (assigned.length ? assigned : staff).map((s) => ({ ...s, name: s.name }));
}

async function addMessage(ctx: SignedInCtx, ticket: { id: string; account_id: string }, side: Side, body: string, file: CheckedAttachment | null) {
  const m = await row<{ id: string }>(
    `INSERT INTO support_messages (ticket_id, account_id, author_id, side, body) VALUES ($1, $2, $3, $4, $5) RETURNING id`,
    [ticket.id, ticket.account_id, ctx.actor.userId, side, body],
    { transaction: ctx.transaction },
  );
  if (file) {
    const sha = await putAttachment(file.bytes);
    await exec(
      `INSERT INTO support_files (account_id, ticket_id, message_id, name, media_type, size, sha256) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [ticket.account_id, ticket.id, m!.id, file.name, file.media_type, file.size, sha],
      { transaction: ctx.transaction },
    );
  }
  return m!.id;
}

const attachment = (file: IncomingAttachment | null | undefined) => (file && file.bytes.byteLength > 0 ? checkAttachment(file) : null);
/** A message that is only a file reads as the file's name. */
const bodyOr = (message: string | undefined, file: CheckedAttachment | null) => message || file?.name || "";

// ---- the customer side ----

/** The account's tickets, the latest activity first; `status` narrows. */
export async function listTickets(ctx: SignedInCtx, input: unknown) {
  assertCustomer(ctx);
  return listWhere(ctx, input, "customer");
}

async function listWhere(ctx: SignedInCtx, input: unknown, side: Side) {
  const q = validate(listSchema, input);
  const after = decodeCursor(q.cursor, ["string", "string"]);
  const assigned = q.assigned === "me" ? ctx.actor.userId : q.assigned || null;
  const number = q.q && /^#?\d{1,12}$/.test(q.q) ? Number(q.q.replace("#", "")) : null;
  const found = await rows<TicketRow>(
    `${TICKET_SQL}
      WHERE ($1::uuid IS NULL OR t.account_id = $1::uuid)
        AND ($2::text IS NULL OR t.status = $2) AND ($3::text IS NULL OR t.category = $3)
        AND ($4::text IS NULL OR ($4 = 'none' AND t.assigned_to IS NULL) OR t.assigned_to::text = $4)
        AND ($5::text IS NULL OR t.subject ILIKE $5 ESCAPE '\\' OR a.name ILIKE $5 ESCAPE '\\' OR t.number = $6::bigint)
        AND ($7::timestamptz IS NULL OR (t.last_message_at, t.id) < ($7::timestamptz, $8::uuid))
      ORDER BY t.last_message_at DESC, t.id DESC LIMIT $9`,
    [
      side === "staff" ? null : ctx.actor.accountId,
      q.status || null,
      q.category || null,
      side === "staff" ? assigned : null,
      side === "staff" && q.q ? `%${escapeLike(q.q)}%` : null,
      number,
      after?.[0] ?? null,
      after?.[1] ?? null,
      q.limit + 1,
    ],
  );
  return keyset(found, q.limit, (t) => [new Date(t.last_message_at).toISOString(), t.id], ticketOut);
}

/** Opens a ticket (and its first message, with the file if one came), tells the platform's staff. */
export async function openTicket(ctx: SignedInCtx, input: unknown, file?: IncomingAttachment | null) {
  assertCustomer(ctx);
  const v = validate(openTicketSchema, input);
  const checked = attachment(file);
  const id = await sequelize().transaction(async (transaction) => {
    const tctx = { ...ctx, transaction };
    const t = await row<{ id: string }>(
      `INSERT INTO support_tickets (account_id, category, subject, opened_by) VALUES ($1, $2, $3, $4) RETURNING id`,
      [ctx.actor.accountId, v.category, v.subject, ctx.actor.userId],
      { transaction },
    );
    const body = bodyOr(v.message, checked);
    if (body) await addMessage(tctx, { id: t!.id, account_id: ctx.actor.accountId }, "customer", body, checked);
    const ticket = await findTicket(tctx, "customer", t!.id);
    await recordAudit(tctx, "support.ticket_opened", { meta: { ticket_id: t!.id, number: Number(ticket.number), category: v.category } });
    await tell(tctx, await staffFor(ticket), { ...ticket, number: Number(ticket.number) }, "ticket_opened", "ticketOpened", "staff");
    return t!.id;
  });
  return ticketWithThread(ctx, "customer", id);
}

export async function getTicket(ctx: SignedInCtx, id: string) {
  assertCustomer(ctx);
  return ticketWithThread(ctx, "customer", id);
}

/** A message of the customer: the ticket is the platform's turn again (open). A closed ticket takes none. */
export async function replyToTicket(ctx: SignedInCtx, id: string, input: unknown, file?: IncomingAttachment | null) {
  assertCustomer(ctx);
  const checked = attachment(file);
  const v = validate(checked ? replySchema.partial() : replySchema, input);
  await sequelize().transaction(async (transaction) => {
    const tctx = { ...ctx, transaction };
    const ticket = await findTicket(tctx, "customer", id, true);
    if (ticket.status === "closed") throw new AppError("TICKET_CLOSED");
    await addMessage(tctx, ticket, "customer", bodyOr(v.message, checked), checked);
    await exec(`UPDATE support_tickets SET status = 'open', last_side = 'customer', last_message_at = now(), updated_at = now() WHERE id = $1`, [id], { transaction });
    await recordAudit(tctx, "support.ticket_replied", { meta: { ticket_id: id, side: "customer" } });
    await tell(tctx, await staffFor(ticket), { ...ticket, number: Number(ticket.number) }, "ticket_replied", "ticketReplied", "staff");
  });
  return ticketWithThread(ctx, "customer", id);
}

/** The customer closes its ticket (solved): no more messages; it can be rated. */
export async function closeTicket(ctx: SignedInCtx, id: string) {
  assertCustomer(ctx);
  await sequelize().transaction(async (transaction) => {
    const tctx = { ...ctx, transaction };
    const ticket = await findTicket(tctx, "customer", id, true);
    if (ticket.status === "closed") throw new AppError("TICKET_CLOSED");
    await exec(`UPDATE support_tickets SET status = 'closed', closed_at = now(), updated_at = now() WHERE id = $1`, [id], { transaction });
    await recordAudit(tctx, "support.ticket_closed", { meta: { ticket_id: id, side: "customer" } });
    await tell(tctx, await staffFor(ticket), { ...ticket, number: Number(ticket.number) }, "ticket_closed", null, "staff");
  });
  return ticketWithThread(ctx, "customer", id);
}

/** Rates the answer of a closed ticket, 0 to 5, once; the person assigned (or every staff) is told. */
export async function rateTicket(ctx: SignedInCtx, id: string, input: unknown) {
  assertCustomer(ctx);
  const v = validate(rateSchema, input);
  await sequelize().transaction(async (transaction) => {
    const tctx = { ...ctx, transaction };
    const ticket = await findTicket(tctx, "customer", id, true);
    if (ticket.status !== "closed") throw new AppError("TICKET_NOT_CLOSED");
    if (ticket.rating !== null) throw new AppError("TICKET_ALREADY_RATED");
    await exec(`UPDATE support_tickets SET rating = $2, rating_comment = $3, rated_at = now(), updated_at = now() WHERE id = $1`, [id, v.rating, v.comment || null], {
      transaction,
    });
    await recordAudit(tctx, "support.ticket_rated", { meta: { ticket_id: id, rating: v.rating } });
    await tell(tctx, await staffFor(ticket), { ...ticket, number: Number(ticket.number), subject: ticket.subject }, "ticket_rated", null, "staff");
  });
  return ticketWithThread(ctx, "customer", id);
}

/** The latest messages on the account's tickets (both sides), newest first: /support/messages-ticket. */
export async function listTicketMessages(ctx: SignedInCtx, input: unknown) {
  assertCustomer(ctx);
  const q = validate(z.object({ ...pageInput }), input);
  const after = decodeCursor(q.cursor, ["number"]);
  const found = await rows<{
    id: string;
    ticket_id: string;
    number: string;
    subject: string;
    status: TicketStatus;
    side: Side;
    body: string;
    author_name: string | null;
    created_at: Date;
  }>(
    `SELECT m.id, m.ticket_id, t.number, t.subject, t.status, m.side, m.body, ${NAME("u")} AS author_name, m.created_at
       FROM support_messages m JOIN support_tickets t ON t.id = m.ticket_id LEFT JOIN users u ON u.id = m.author_id
      WHERE m.account_id = $1 AND ($2::bigint IS NULL OR m.id < $2::bigint) ORDER BY m.id DESC LIMIT $3`,
    [ctx.actor.accountId, after?.[0] ?? null, q.limit + 1],
  );
  return keyset(
    found,
    q.limit,
    (m) => [Number(m.id)],
    (m) => ({ ...m, id: String(m.id), number: Number(m.number), body: m.body.length > 300 ? `${m.body.slice(0, 300)}…` : m.body, created_at: iso(m.created_at) as string }),
  );
}

// ---- the staff side ----

export async function listAllTickets(ctx: SignedInCtx, input: unknown) {
  assertStaff(ctx);
  return listWhere(ctx, input, "staff");
}

export async function getTicketAsStaff(ctx: SignedInCtx, id: string) {
  assertStaff(ctx);
  return ticketWithThread(ctx, "staff", id);
}

/** A staff answer: the ticket becomes the customer's turn (answered) or the status sent with it; the person who opened it is told. */
export async function answerTicket(ctx: SignedInCtx, id: string, input: unknown, file?: IncomingAttachment | null) {
  assertStaff(ctx);
  const checked = attachment(file);
  const v = validate(checked ? staffReplySchema.partial() : staffReplySchema, input);
  const status = v.status ?? "answered";
  await sequelize().transaction(async (transaction) => {
    const tctx = { ...ctx, transaction };
    const ticket = await findTicket(tctx, "staff", id, true);
    if (ticket.status === "closed") throw new AppError("TICKET_CLOSED");
    await addMessage(tctx, ticket, "staff", bodyOr(v.message, checked), checked);
    await exec(
      `UPDATE support_tickets SET status = $2, last_side = 'staff', last_message_at = now(), updated_at = now(),
              assigned_to = coalesce(assigned_to, $3), closed_at = CASE WHEN $2 = 'closed' THEN now() ELSE NULL END WHERE id = $1`,
      [id, status, ctx.actor.userId],
      { transaction },
    );
    await recordAudit(tctx, "support.ticket_answered", { accountId: ticket.account_id, meta: { ticket_id: id, status } });
    const t = { ...ticket, number: Number(ticket.number) };
    await tell(tctx, await openerOf(ticket, transaction), t, "ticket_answered", status === "closed" ? "ticketClosed" : "ticketAnswered", "customer");
  });
  return ticketWithThread(ctx, "staff", id);
}

/** Staff change a ticket's status and/or who is on it (an empty assignee: nobody). Audited with before and after. */
export async function updateTicket(ctx: SignedInCtx, id: string, input: unknown) {
  assertStaff(ctx);
  const v = validate(updateTicketSchema, input);
  await sequelize().transaction(async (transaction) => {
    const tctx = { ...ctx, transaction };
    const ticket = await findTicket(tctx, "staff", id, true);
    if (v.assigned_to) {
      const staff = await staffPeople();
      if (!staff.some((s) => s.id === v.assigned_to)) throw new AppError("VALIDATION", { fields: { assigned_to: ["validation.option"] } });
    }
    const status = v.status ?? ticket.status;
    const assigned = v.assigned_to === undefined ? ticket.assigned_to : v.assigned_to;
    if (status === ticket.status && assigned === ticket.assigned_to) return;
    // A rated ticket is settled: its status and the person rated stay as they were.
    if (ticket.rating !== null) throw new AppError("TICKET_ALREADY_RATED");
    await exec(
      `UPDATE support_tickets SET status = $2, assigned_to = $3, updated_at = now(),
              closed_at = CASE WHEN $2 = 'closed' THEN coalesce(closed_at, now()) ELSE NULL END
        WHERE id = $1`,
      [id, status, assigned],
      { transaction },
    );
    await recordAudit(tctx, "support.ticket_updated", {
      accountId: ticket.account_id,
      meta: { ticket_id: id, before: { status: ticket.status, assigned_to: ticket.assigned_to }, after: { status, assigned_to: assigned } },
    });
    const t = { ...ticket, number: Number(ticket.number) };
    if (status !== ticket.status) {
      await tell(tctx, await openerOf(ticket, transaction), t, `ticket_${status}`, status === "closed" ? "ticketClosed" : null, "customer");
    }
    if (assigned && assigned !== ticket.assigned_to) {
      const person = (await staffPeople()).filter((s) => s.id === assigned);
      await tell(tctx, person, t, "ticket_assigned", null, "staff");
    }
  });
  return ticketWithThread(ctx, "staff", id);
}
