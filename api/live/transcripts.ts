/**
 * Transcripts (/live/history, GET webchat/transcripts): conversations searched by protocol, name,
 * e-mail, phone and agent, 20 per page, newest first, and one conversation's transcript with its
 * transitions. Owners and admins see every conversation of the account; anyone else only the
 * conversations they attended (spec section 6).
 */
import type { SignedInCtx } from "../lib/context";
import { AppError } from "../lib/errors";
import { assertId } from "../lib/owned";
import { keyset, pageInput } from "../lib/page";
import { intParam, validate } from "../lib/validate";
import { SUPERVISOR_ROLES_SQL, seesAll } from "../policy/policy";
import { sortTime, timeIdCursor } from "./keyset";
import { z } from "../lib/zod";
import { assertAttendant } from "./rooms/guards";
import { roomMessages } from "./rooms/queries";
import type { Room } from "./rooms/types";
import { roomSummary } from "./rooms/views";
// Lag-tolerant reads (ADR 030): this module's queries run on the read replica while it is healthy.
import { escapeLike, replicaRow as row, replicaRows as rows } from "../lib/sql";

export const TRANSCRIPTS_PER_PAGE = 20;

export const transcriptSearchSchema = z.object({
  search: z.string().trim().max(120).optional().default(""),
  email: z.string().trim().max(200).optional().default(""),
  phone: z.string().trim().max(30).optional().default(""),
  agent: z
    .union([z.uuid(), z.literal("")])
    .optional()
    .default(""),
  /** Deprecated: OFFSET pages of 20 (the history screen's numbered pages); `cursor` pages by keyset. */
  page: intParam(1, 10_000, undefined),
  ...pageInput,
});
export type TranscriptSearch = z.input<typeof transcriptSearchSchema>;

/** Rooms I attended: mine now, or given to me at some point. */
const MINE = `(r.agent_id = $2 OR EXISTS (SELECT 1 FROM live_room_events e WHERE e.room_id = r.id
  AND ((e.type = 'assigned' AND e.payload->>'agent_id' = $2::text) OR (e.type IN ('transfer_accept','resumed','closed') AND e.actor_id = $2))))`;

export async function searchTranscripts(ctx: SignedInCtx, input: TranscriptSearch) {
  assertAttendant(ctx);
  const q = validate(transcriptSearchSchema, input);
  const all = seesAll(ctx.actor, "transcripts");
  const where = [`r.account_id = $1`];
  const bind: unknown[] = [ctx.actor.accountId, ctx.actor.userId];
  const add = (value: unknown) => `$${bind.push(value)}`;
  // $2 (me) is always bound: an owner's query names it without filtering by it.
  where.push(all ? `$2::uuid IS NOT NULL` : MINE);
  if (q.search) {
    const like = add(`%${escapeLike(q.search)}%`);
    const digits = q.search.replace(/\D/g, "");
    const parts = [`r.protocol LIKE ${add(`${escapeLike(q.search)}%`)}`, `r.username ILIKE ${like}`, `r.email ILIKE ${like}`];
    if (digits.length >= 4) parts.push(`regexp_replace(coalesce(r.phone, ''), '\\D', '', 'g') LIKE ${add(`%${digits}%`)}`);
    where.push(`(${parts.join(" OR ")})`);
  }
  if (q.email) where.push(`r.email ILIKE ${add(`%${escapeLike(q.email)}%`)}`);
  if (q.phone) {
    const digits = q.phone.replace(/\D/g, "");
    where.push(digits ? `regexp_replace(coalesce(r.phone, ''), '\\D', '', 'g') LIKE ${add(`%${digits}%`)}` : "false");
  }
  if (q.agent && all) where.push(`r.agent_id = ${add(q.agent)}`);
  const after = timeIdCursor(q.cursor);
  // The deprecated page (OFFSET, 20 a page unless limit) when no cursor is given.
  const page = after ? undefined : q.page;
  const limit = page !== undefined && (input.limit === undefined || input.limit === "") ? TRANSCRIPTS_PER_PAGE : q.limit;
  if (after) where.push(`(r.created_at, r.id) < (${add(after[0])}::timestamptz, ${add(after[1])}::uuid)`);
  const found = await rows<Room & { agent_name: string | null; total: number; sort_key: string }>(
    `SELECT r.*, trim(u.first_name || ' ' || u.last_name) AS agent_name, ${sortTime("r.created_at")} AS sort_key
            ${page !== undefined ? ", count(*) OVER ()::int AS total" : ""}
     FROM live_rooms r LEFT JOIN users u ON u.id = r.agent_id
     WHERE ${where.join(" AND ")}
     ORDER BY r.created_at DESC, r.id DESC LIMIT ${limit + 1} OFFSET ${page !== undefined ? (page - 1) * limit : 0}`,
    bind,
  );
  const out = {
    ...keyset(
      found,
      limit,
      (r) => [r.sort_key, r.id],
      (r) => ({ ...roomSummary(r), agent_name: r.agent_name }),
    ),
    all,
  };
  if (page === undefined) return out as typeof out & Partial<Numbered>;
  const total = found[0]?.total ?? 0;
  return { ...out, page, last_page: Math.max(1, Math.ceil(total / limit)), total };
}

type Numbered = { page: number; last_page: number; total: number };

/** The history screen's numbered pages (20 a page; `page` as the query string has it, default 1). */
export async function transcriptPages(ctx: SignedInCtx, input: Omit<TranscriptSearch, "cursor" | "limit">) {
  const page = input.page === undefined || input.page === null || input.page === "" ? 1 : input.page;
  return (await searchTranscripts(ctx, { ...input, page })) as Awaited<ReturnType<typeof searchTranscripts>> & Numbered;
}

/** One conversation's transcript (80 messages a page, older with `before`) and its transitions. */
export async function transcript(ctx: SignedInCtx, roomId: string, opts: { before?: string | null } = {}) {
  assertAttendant(ctx);
  assertId(roomId);
  const bind: unknown[] = [ctx.actor.accountId, ctx.actor.userId, roomId];
  const room = await row<Room & { agent_name: string | null; department_name: string | null; tabulation_name: string | null }>(
    `SELECT r.*, trim(u.first_name || ' ' || u.last_name) AS agent_name, d.name AS department_name, t.name AS tabulation_name
     FROM live_rooms r LEFT JOIN users u ON u.id = r.agent_id LEFT JOIN departments d ON d.id = r.department_id
     LEFT JOIN live_tabulations t ON t.id = r.tabulation_id
     WHERE r.id = $3 AND r.account_id = $1 ${seesAll(ctx.actor, "transcripts") ? "AND $2::uuid IS NOT NULL" : `AND ${MINE}`}`,
    bind,
  );
  if (!room) throw new AppError("NOT_FOUND");
  const [messages, events, names] = await Promise.all([
    roomMessages(ctx.actor.accountId, room.id, { before: opts.before ?? null }),
    rows<{ id: string; type: string; actor_name: string | null; payload: Record<string, unknown>; created_at: Date }>(
      `SELECT e.id::text, e.type, trim(u.first_name || ' ' || u.last_name) AS actor_name, e.payload, e.created_at
       FROM live_room_events e LEFT JOIN users u ON u.id = e.actor_id WHERE e.room_id = $1 AND e.account_id = $2 ORDER BY e.id`,
      [room.id, ctx.actor.accountId],
    ),
    rows<{ id: string; name: string }>(
      `SELECT DISTINCT u.id, trim(u.first_name || ' ' || u.last_name) AS name FROM live_messages m JOIN users u ON u.id = m.user_id
       WHERE m.room_id = $1 AND m.account_id = $2`,
      [room.id, ctx.actor.accountId],
    ),
  ]);
  return {
    room: { ...roomSummary(room), agent_name: room.agent_name, department_name: room.department_name, tabulation_name: room.tabulation_name, close_reason: room.close_reason },
    messages: messages.data,
    more: messages.more,
    events,
    authors: Object.fromEntries(names.map((n) => [n.id, n.name])),
  };
}

/** Agents an admin can filter transcripts by. */
export async function transcriptAgents(ctx: SignedInCtx) {
  assertAttendant(ctx);
  if (!seesAll(ctx.actor, "transcripts")) return [];
  return rows<{ id: string; name: string }>(
    `SELECT u.id, trim(u.first_name || ' ' || u.last_name) AS name FROM memberships m JOIN users u ON u.id = m.user_id
     WHERE m.account_id = $1 AND (m.is_agent OR m.role IN (${SUPERVISOR_ROLES_SQL})) ORDER BY lower(u.first_name), lower(u.last_name)`,
    [ctx.actor.accountId],
  );
}
