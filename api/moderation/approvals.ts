/**
 * Word and URL approvals (spec section 7: GET/POST/PUT words/approvals, POST …/{id}/approve and
 * /reject; the same for urls). An approval is the review of one term for one account; the
 * messages it holds wait for it (./hold).
 *  - approve (staff): the approval becomes the account's allowance for the term; every message it
 *    held that no other open review still holds is released — `queued`, an outbox row to its
 *    channel's stream and a system `queued` event, in one transaction;
 *  - reject (staff, with a reason): every message it held that is still pending becomes `rejected`
 *    (error_code moderation_rejected, the reason as error_message, price 0) and its price goes back
 *    to the balance — in the same transaction as the status change, which happens only once
 *    (… WHERE status = 'pending'), so the refund happens exactly once.
 * Deciding twice the same way answers the approval again; the opposite decision is refused.
 * Locks are taken account → approval → messages, the order of the accept transaction.
 */
import { returnUnits } from "../products/products";
import { creditBalance } from "../accounts/balance";
import { type Transaction } from "sequelize";
import { sequelize } from "../../models";
import { recordAudit } from "../audit/record";
import { dispatchStream } from "../channels/registry";
import type { SignedInCtx } from "../lib/context";
import { AppError } from "../lib/errors";
import { assertId } from "../lib/owned";
import { decodeCursor, keyset } from "../lib/page";
import { validate } from "../lib/validate";
import { assertAccountSide, assertReader, assertStaff } from "./access";
import type { TermKind } from "./match";
import { approvalNoteSchema, approvalRequestSchema, approvalsQuerySchema, rejectSchema } from "./schemas";
import { exec, rows } from "../lib/sql";

export const REJECTED_ERROR_CODE = "moderation_rejected";

export type Approval = {
  id: string;
  account_id: string;
  account_name: string;
  kind: TermKind;
  value: string;
  status: "pending" | "approved" | "rejected";
  note: string;
  reason: string;
  decided_at: Date | null;
  created_at: Date;
  /** Messages still waiting on it, and all it ever held. */
  held: number;
  total: number;
};
/** `from`/`to` are the spec's names; `sender`/`recipient` stay as deprecated aliases. */
export type HeldMessage = {
  id: string;
  from: string;
  to: string;
  recipient: string;
  sender: string;
  body: string;
  price: number;
  status: string;
  created_at: Date;
  hold_state: string;
};

const SELECT = `SELECT a.id, a.account_id, acc.name AS account_name, a.kind, a.value, a.status, a.note, a.reason, a.decided_at, a.created_at,
  (SELECT count(*)::int FROM moderation_holds h WHERE h.approval_id = a.id AND h.state = 'held') AS held,
  (SELECT count(*)::int FROM moderation_holds h WHERE h.approval_id = a.id) AS total
  FROM moderation_approvals a JOIN accounts acc ON acc.id = a.account_id`;

/**
 * A keyset page of the reviews: pending first, then newest first — the order (pending, created_at,
 * id) DESC, whose last row's key is the cursor. Staff see every account's, an account its own.
 */
export async function listApprovals(ctx: SignedInCtx, kind: TermKind, input: unknown = {}): Promise<{ data: Approval[]; next_cursor: string | null }> {
  const { all } = assertReader(ctx);
  const q = validate(approvalsQuerySchema, input ?? {});
  const after = decodeCursor(q.cursor, ["number", "string", "string"]);
  const bind: unknown[] = [kind];
  let where = "a.kind = $1";
  if (!all) {
    bind.push(ctx.actor.accountId);
    where += ` AND a.account_id = $${bind.length}`;
  }
  if (q.status) {
    bind.push(q.status);
    where += ` AND a.status = $${bind.length}`;
  }
  if (after) {
    if (!/^[0-9a-f-]{36}$/i.test(String(after[2])) || Number.isNaN(Date.parse(String(after[1])))) {
      throw new AppError("VALIDATION", { fields: { cursor: ["validation.invalid"] } });
    }
    bind.push(after[0] ? 1 : 0, after[1], after[2]);
    where += ` AND ((a.status = 'pending')::int, a.created_at, a.id) < ($${bind.length - 2}::int, $${bind.length - 1}::timestamptz, $${bind.length}::uuid)`;
  }
  const found = await rows<Approval & { cursor_ts: string }>(
    `${SELECT.replace("SELECT ", `SELECT to_char(a.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS cursor_ts, `)} WHERE ${where}
     ORDER BY (a.status = 'pending') DESC, a.created_at DESC, a.id DESC LIMIT ${q.limit + 1}`,
    bind,
  );
  return keyset(
    found,
    q.limit,
    (r) => [r.status === "pending" ? 1 : 0, r.cursor_ts, r.id],
    ({ cursor_ts: _c, ...r }) => r,
  );
}

async function visibleApproval(ctx: SignedInCtx, kind: TermKind, id: string, all: boolean): Promise<Approval> {
  assertId(id);
  const [row] = await rows<Approval>(`${SELECT} WHERE a.id = $1 AND a.kind = $2${all ? "" : " AND a.account_id = $3"}`, all ? [id, kind] : [id, kind, ctx.actor.accountId]);
  if (!row) throw new AppError("NOT_FOUND");
  return row;
}

/** One approval with (up to 100 of) the messages it holds or held. */
export async function getApproval(ctx: SignedInCtx, kind: TermKind, id: string): Promise<{ data: Approval & { messages: HeldMessage[] } }> {
  const { all } = assertReader(ctx);
  const approval = await visibleApproval(ctx, kind, id, all);
  const messages = await rows<HeldMessage>(
    `SELECT m.id, m.sender AS "from", m.recipient AS "to", m.recipient, m.sender, m.body, m.price::int AS price, m.status, m.created_at, h.state AS hold_state
     FROM moderation_holds h JOIN messages m ON m.id = h.message_id AND m.created_at = h.message_created_at WHERE h.approval_id = $1 ORDER BY m.created_at, m.id LIMIT 100`,
    [id],
  );
  return { data: { ...approval, messages } };
}

/** The account asks ahead to use a term (or answers its open request). */
export async function requestApproval(ctx: SignedInCtx, kind: TermKind, input: unknown): Promise<{ data: Approval; created: boolean }> {
  assertAccountSide(ctx);
  const data = validate(approvalRequestSchema(kind), input);
  const db = sequelize();
  const created = await db.transaction(async (transaction) => {
    await exec(`SELECT id FROM accounts WHERE id = $1 FOR UPDATE`, [ctx.actor.accountId], { transaction });
    const [row] = await rows<{ id: string }>(
      `INSERT INTO moderation_approvals (account_id, kind, value, note, requested_by) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (account_id, kind, value) WHERE status = 'pending' DO NOTHING RETURNING id`,
      [ctx.actor.accountId, kind, data.value, data.note, ctx.actor.userId],
      { transaction },
    );
    if (row) return { id: row.id, created: true };
    const [open] = await rows<{ id: string }>(
      `SELECT id FROM moderation_approvals WHERE account_id = $1 AND kind = $2 AND value = $3 AND status = 'pending'`,
      [ctx.actor.accountId, kind, data.value],
      { transaction },
    );
    if (data.note) await exec(`UPDATE moderation_approvals SET note = $2, updated_at = now() WHERE id = $1`, [open.id, data.note], { transaction });
    return { id: open.id, created: false };
  });
  return { data: await visibleApproval(ctx, kind, created.id, false), created: created.created };
}

/** The account's justification on its pending request. */
export async function updateApprovalNote(ctx: SignedInCtx, kind: TermKind, id: string, input: unknown): Promise<{ data: Approval }> {
  assertAccountSide(ctx);
  assertId(id);
  const data = validate(approvalNoteSchema, input);
  const found = await rows<{ id: string; status: string }>(
    `UPDATE moderation_approvals SET note = $4, updated_at = now() WHERE id = $1 AND kind = $2 AND account_id = $3 RETURNING id, status`,
    [id, kind, ctx.actor.accountId, data.note],
  );
  if (found.length === 0) throw new AppError("NOT_FOUND");
  return { data: await visibleApproval(ctx, kind, id, false) };
}

/** Locks the account, then the approval (the accept transaction's order). */
async function lockApproval(kind: TermKind, id: string, t: Transaction) {
  assertId(id);
  const [peek] = await rows<{ account_id: string }>(`SELECT account_id FROM moderation_approvals WHERE id = $1 AND kind = $2`, [id, kind], { transaction: t });
  if (!peek) throw new AppError("NOT_FOUND");
  await exec(`SELECT id FROM accounts WHERE id = $1 FOR UPDATE`, [peek.account_id], { transaction: t });
  const [row] = await rows<{ id: string; account_id: string; status: string; value: string }>(
    `SELECT id, account_id, status, value FROM moderation_approvals WHERE id = $1 FOR UPDATE`,
    [id],
    { transaction: t },
  );
  return row;
}

export async function approve(ctx: SignedInCtx, kind: TermKind, id: string): Promise<{ data: Approval; released: number }> {
  assertStaff(ctx);
  const db = sequelize();
  const out = await db.transaction(async (transaction) => {
    const a = await lockApproval(kind, id, transaction);
    if (a.status === "approved") return { accountId: a.account_id, released: [] as Array<{ id: string }> };
    if (a.status === "rejected") throw new AppError("VALIDATION", { fields: { status: ["validation.option"] } });
    await exec(`UPDATE moderation_approvals SET status = 'approved', decided_by = $2, decided_at = now(), updated_at = now() WHERE id = $1`, [id, ctx.actor.userId], {
      transaction,
    });
    await exec(`UPDATE moderation_holds SET state = 'released', resolved_at = now() WHERE approval_id = $1 AND state = 'held'`, [id], { transaction });
    // Released: pending messages of this approval that no other review still holds.
    const released = await rows<{ id: string; channel: string; account_id: string; segments: number; price: string; currency: string }>(
      `UPDATE messages m SET status = 'queued', queued_at = now(), error_code = NULL, error_message = NULL, updated_at = now()
       WHERE (m.id, m.created_at) IN (SELECT h.message_id, h.message_created_at FROM moderation_holds h WHERE h.approval_id = $1)
         AND m.status = 'pending'
         AND NOT EXISTS (SELECT 1 FROM moderation_holds o WHERE o.message_id = m.id AND o.state = 'held')
       RETURNING m.id, m.channel, m.account_id, m.segments, m.price, m.currency`,
      [id],
      { transaction },
    );
    if (released.length > 0) {
      await exec(
        `INSERT INTO outbox (topic, payload) SELECT t, jsonb_build_object('message_id', id::text) FROM unnest($1::text[], $2::uuid[]) AS r(t, id)`,
        [released.map((m) => dispatchStream(m.channel)), released.map((m) => m.id)],
        { transaction },
      );
      await exec(
        `INSERT INTO message_events (message_id, message_created_at, account_id, status, source, payload)
         SELECT m.id, m.created_at, m.account_id, 'queued', 'system', jsonb_build_object('segments', m.segments, 'price', m.price, 'currency', m.currency, 'previous', 'pending', 'approval_id', $2::text)
         FROM messages m WHERE m.id = ANY($1::uuid[])`,
        [released.map((m) => m.id), id],
        { transaction },
      );
    }
    await recordAudit({ ...ctx, transaction }, `moderation.${kind}_approved`, { accountId: a.account_id, meta: { id, value: a.value, released: released.length } });
    return { accountId: a.account_id, released };
  });
  return { data: await visibleApproval(ctx, kind, id, true), released: out.released.length };
}

export async function reject(ctx: SignedInCtx, kind: TermKind, id: string, input: unknown): Promise<{ data: Approval; rejected: number; refunded: number }> {
  assertStaff(ctx);
  const { reason } = validate(rejectSchema, input);
  const db = sequelize();
  const out = await db.transaction(async (transaction) => {
    const a = await lockApproval(kind, id, transaction);
    if (a.status === "rejected") return { accountId: a.account_id, rejected: [] as Array<{ id: string; refunded: string }> };
    if (a.status === "approved") throw new AppError("VALIDATION", { fields: { status: ["validation.option"] } });
    await exec(
      `UPDATE moderation_approvals SET status = 'rejected', reason = $3, decided_by = $2, decided_at = now(), updated_at = now() WHERE id = $1`,
      [id, ctx.actor.userId, reason],
      { transaction },
    );
    const ids = (await rows<{ message_id: string }>(`SELECT message_id FROM moderation_holds WHERE approval_id = $1`, [id], { transaction })).map((r) => r.message_id);
    // A rejected message waits on nothing else: all its holds end here.
    await exec(`UPDATE moderation_holds SET state = 'rejected', resolved_at = now() WHERE message_id = ANY($1::uuid[]) AND state = 'held'`, [ids], { transaction });
    const rejected = await rows<{ id: string; created_at: string; refunded: string; product_id: string | null; segments: number }>(
      `WITH old AS (SELECT id, price FROM messages WHERE id = ANY($1::uuid[]) AND status = 'pending' FOR UPDATE)
       UPDATE messages m SET status = 'rejected', failed_at = now(), error_code = $2, error_message = $3, price = 0, updated_at = now()
       FROM old WHERE m.id = old.id RETURNING m.id, m.created_at::text AS created_at, old.price AS refunded, m.product_id, m.segments`,
      [ids, REJECTED_ERROR_CODE, reason],
      { transaction },
    );
    const refund = rejected.reduce((s, m) => s + Number(m.refunded), 0);
    // Messages a product covered give their units back to it (ADR 048): the product row before the balance row, the order an accept locks them in.
    for (const m of rejected) if (m.product_id) await returnUnits(a.account_id, m.product_id, m.segments, transaction);
    await creditBalance(a.account_id, refund, transaction, { kind: "refund", reference: `approval:${a.id}`, reason: "rejected in moderation", by: ctx.actor.userId });
    if (rejected.length > 0) {
      await exec(
        `INSERT INTO message_events (message_id, message_created_at, account_id, status, source, payload)
         SELECT r.id, r.created_at, $2, 'rejected', 'system', jsonb_build_object('error_code', $3::text, 'error_message', $4::text, 'refunded', r.refunded, 'previous', 'pending', 'approval_id', $5::text)
         FROM unnest($1::uuid[], $6::bigint[], $7::timestamptz[]) AS r(id, refunded, created_at)`,
        [rejected.map((m) => m.id), a.account_id, REJECTED_ERROR_CODE, reason, id, rejected.map((m) => m.refunded), rejected.map((m) => m.created_at)],
        { transaction },
      );
    }
    await recordAudit({ ...ctx, transaction }, `moderation.${kind}_rejected`, {
      accountId: a.account_id,
      meta: { id, value: a.value, rejected: rejected.length, refunded: refund },
    });
    return { accountId: a.account_id, rejected };
  });
  return {
    data: await visibleApproval(ctx, kind, id, true),
    rejected: out.rejected.length,
    refunded: out.rejected.reduce((s, m) => s + Number(m.refunded), 0),
  };
}
