/**
 * SMS trackers (issue 23, spec section 7 GET/POST /admin/sms/trackers, DELETE
 * /admin/sms/trackers/{id}; ADR 062): platform staff follow a phone number (E.164) or a sender id
 * across every account. A phone tracker finds the SMS sent to that number and received from it;
 * a sender tracker the SMS sent from that sender id; the last TRACKER_DAYS days, newest first, by
 * keyset. Creating and deleting one is audited (before/after). Platform staff only (policy route
 * /admin/trackers).
 */
import { sequelize } from "../../models";
import { recordAudit } from "../audit/record";
import { normalizePhone } from "../contacts/phone";
import type { SignedInCtx } from "../lib/context";
import { AppError } from "../lib/errors";
import { keyset, onePage, pageInput } from "../lib/page";
import { row, rows } from "../lib/sql";
import { validate } from "../lib/validate";
import { z } from "../lib/zod";
import { can } from "../policy/policy";
import { POSITION_SQL, timeIdCursor } from "../sms/cursor";

import { TRACKER_KINDS, type TrackerKind } from "./constants";

export { TRACKER_KINDS };
/** How far back a tracker's page looks (the messages' monthly partitions it scans stay few). */
export const TRACKER_DAYS = 30;
/** Trackers are a handful of platform watch items: the list answers one page of at most this many. */
export const TRACKERS_MAX = 200;
const SENDER = /^[A-Za-z0-9]{1,11}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const trackerSchema = z
  .object({
    kind: z.enum(TRACKER_KINDS, { error: "validation.option" }),
    value: z.string({ error: "validation.required" }).trim().min(1, "validation.required").max(32, "validation.max::32"),
    label: z
      .union([z.string(), z.null()])
      .optional()
      .transform((v) => (v ?? "").trim())
      .refine((v) => v.length <= 100, { message: "validation.max::100" }),
  })
  .transform((v, ctx) => {
    const value = v.kind === "phone" ? normalizePhone(v.value) : SENDER.test(v.value) ? v.value : null;
    if (!value) {
      ctx.addIssue({ code: "custom", path: ["value"], message: v.kind === "phone" ? "validation.phone" : "adminAudit.trackers.errors.sender" });
      return z.NEVER;
    }
    return { kind: v.kind, value, label: v.label || null };
  });

export function assertTrackerStaff(ctx: SignedInCtx) {
  if (!can(ctx.actor, "/admin/trackers")) throw new AppError("FORBIDDEN");
}

type TrackerRow = { id: string; kind: TrackerKind; value: string; label: string | null; created_by_email: string | null; created_at: Date };
const view = (r: TrackerRow) => ({
  id: r.id,
  kind: r.kind,
  value: r.value,
  label: r.label,
  created_by_email: r.created_by_email,
  created_at: new Date(r.created_at).toISOString(),
});
export type TrackerView = ReturnType<typeof view>;
const SELECT = `SELECT t.id, t.kind, t.value, t.label, u.email AS created_by_email, t.created_at FROM sms_trackers t LEFT JOIN users u ON u.id = t.created_by`;

export async function listTrackers(ctx: SignedInCtx) {
  assertTrackerStaff(ctx);
  return onePage((await rows<TrackerRow>(`${SELECT} ORDER BY t.created_at DESC, t.id DESC LIMIT ${TRACKERS_MAX}`)).map(view));
}

export async function getTracker(ctx: SignedInCtx, id: string) {
  assertTrackerStaff(ctx);
  const found = UUID.test(id) ? await row<TrackerRow>(`${SELECT} WHERE t.id = $1`, [id]) : null;
  if (!found) throw new AppError("NOT_FOUND");
  return { data: view(found) };
}

export async function createTracker(ctx: SignedInCtx, input: unknown) {
  assertTrackerStaff(ctx);
  const v = validate(trackerSchema, input ?? {});
  const id = await sequelize().transaction(async (transaction) => {
    const made = await row<{ id: string }>(
      `INSERT INTO sms_trackers (account_id, kind, value, label, created_by) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (kind, value) DO NOTHING RETURNING id`,
      [ctx.actor.accountId, v.kind, v.value, v.label, ctx.actor.userId],
      { transaction },
    );
    if (!made) throw new AppError("VALIDATION", { fields: { value: ["adminAudit.trackers.errors.taken"] } });
    await recordAudit({ ...ctx, transaction }, "sms_trackers.created", { meta: { id: made.id, after: { kind: v.kind, value: v.value, label: v.label } } });
    return made.id;
  });
  return getTracker(ctx, id);
}

export async function deleteTracker(ctx: SignedInCtx, id: string) {
  assertTrackerStaff(ctx);
  if (!UUID.test(id)) throw new AppError("NOT_FOUND");
  await sequelize().transaction(async (transaction) => {
    const gone = await row<{ kind: string; value: string; label: string | null }>(`DELETE FROM sms_trackers WHERE id = $1 RETURNING kind, value, label`, [id], { transaction });
    if (!gone) throw new AppError("NOT_FOUND");
    await recordAudit({ ...ctx, transaction }, "sms_trackers.deleted", { meta: { id, before: gone } });
  });
  return { data: { id, deleted: true } };
}

export const trackedQuerySchema = z.object({ ...pageInput });

type TrackedRow = {
  id: string;
  account_id: string;
  account_name: string;
  direction: "outbound" | "inbound";
  sender: string;
  recipient: string;
  status: string;
  created_at: Date;
  position: string;
};

/** The SMS of every account matching the tracker, the last TRACKER_DAYS days, newest first (keyset). */
export async function trackedMessages(ctx: SignedInCtx, id: string, query: unknown) {
  const { data: tracker } = await getTracker(ctx, id);
  const { cursor, limit } = validate(trackedQuerySchema, query ?? {});
  const after = timeIdCursor(cursor);
  const match =
    tracker.kind === "phone" ? `((m.direction = 'outbound' AND m.recipient = $1) OR (m.direction = 'inbound' AND m.sender = $1))` : `m.direction = 'outbound' AND m.sender = $1`;
  const bind: unknown[] = [tracker.value, TRACKER_DAYS];
  if (after) bind.push(after[0], after[1]);
  bind.push(limit + 1);
  const found = await rows<TrackedRow>(
    `SELECT m.id, m.account_id, a.name AS account_name, m.direction, m.sender, m.recipient, m.status, m.created_at, ${POSITION_SQL("m.created_at")} AS position
     FROM messages m JOIN accounts a ON a.id = m.account_id
     WHERE m.channel = 'sms' AND ${match} AND m.created_at >= now() - make_interval(days => $2)
       ${after ? "AND (m.created_at, m.id) < ($3::timestamptz, $4::uuid)" : ""}
     ORDER BY m.created_at DESC, m.id DESC LIMIT $${bind.length}`,
    bind,
  );
  return {
    tracker,
    ...keyset(
      found,
      limit,
      (r) => [r.position, r.id],
      (r) => ({
        id: r.id,
        account_id: r.account_id,
        account_name: r.account_name,
        direction: r.direction,
        sender: r.sender,
        recipient: r.recipient,
        status: r.status,
        created_at: new Date(r.created_at).toISOString(),
      }),
    ),
  };
}
