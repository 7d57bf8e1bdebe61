/**
 * Workflow boards (issue 22, ADR 056; spec sections 2 /pipelines…, 3, 4, 5): an account's boards
 * of ordered columns holding deals (cards) with tasks, comments and catalogue products; moves with
 * optimistic concurrency; deals tied to live-chat rooms and contacts. Every use-case takes the
 * caller's ctx, checks the route's roles (`/pipelines`: the product routes' roles and allow-lists,
 * api/policy), scopes every query by the acting account (another account's id is a 404) and, after
 * its transaction commits, publishes what changed on the account's board stream (./events).
 * Reports are in ./reports, the due-task notifier in ./due-tasks.
 */
import type { Transaction } from "sequelize";
import { sequelize } from "../../models";
import type { SignedInCtx } from "../lib/context";
import { AppError } from "../lib/errors";
import { assertId } from "../lib/owned";
import { onePage } from "../lib/page";
import { exec, row, rows } from "../lib/sql";
import { validate } from "../lib/validate";
import { can, seesAll } from "../policy/policy";
import { type BoardPublish, publishBoard } from "./events";
import {
  boardSchema,
  columnSchema,
  commentSchema,
  dealProductSchema,
  dealProductUpdateSchema,
  dealSchema,
  dealUpdateSchema,
  deleteColumnSchema,
  LEAD_NAME_MAX,
  MAX_COLUMNS,
  moveSchema,
  type Outcome,
  type Priority,
  renameSchema,
  reorderSchema,
  taskSchema,
  taskUpdateSchema,
} from "./schemas";

export * from "./schemas";

// ---------------------------------------------------------------------------------------------
// Types (snake_case, as PostgreSQL answers and the API sends)

export type Board = { id: string; name: string; created_at: Date; updated_at: Date };
export type BoardSummary = Board & { columns: number; deals: number; value_cents: number };
export type Column = { id: string; board_id: string; name: string; position: number };
/** A deal as a card on the board. */
export type DealCard = {
  id: string;
  board_id: string;
  column_id: string;
  position: number;
  version: number;
  lead_name: string;
  description: string;
  owner_id: string | null;
  owner_name: string | null;
  due_date: string;
  channel: string | null;
  value_cents: number;
  priority: Priority;
  outcome: Outcome | null;
  outcome_at: Date | null;
  contact_id: string | null;
  room_id: string | null;
  archived_at: Date | null;
  tasks_total: number;
  tasks_done: number;
  created_at: Date;
  updated_at: Date;
};
export type BoardView = Board & { currency: string; columns: Array<Column & { deals: DealCard[] }> };
export type Task = {
  id: string;
  deal_id: string;
  title: string;
  description: string;
  priority: Priority;
  due_at: Date;
  owner_id: string | null;
  owner_name: string | null;
  done: boolean;
  done_at: Date | null;
  notified_at: Date | null;
  created_at: Date;
};
export type Comment = { id: string; deal_id: string; author_id: string | null; author_name: string | null; body: string; created_at: Date };
export type DealProduct = {
  id: string;
  deal_id: string;
  product_id: string | null;
  name: string;
  unit_price_cents: number;
  quantity: number;
  discount_cents: number;
  total_cents: number;
};
export type DealContact = { id: string; name: string; mobile_number: string | null; email: string | null };
export type DealRoom = { id: string; protocol: string; channel: string; status: string; username: string };
export type DealDetail = DealCard & {
  board_name: string;
  column_name: string;
  currency: string;
  tasks: Task[];
  comments: Comment[];
  products: DealProduct[];
  products_total_cents: number;
  contact: DealContact | null;
  room: DealRoom | null;
};
/** A deal listed on a room or a contact: the card, and where it is. */
export type LinkedDeal = DealCard & { board_name: string; column_name: string };
export type MoveResult = { ok: true; deal: DealCard } | { ok: false; conflict: true; current: DealCard };

// ---------------------------------------------------------------------------------------------
// Access and plumbing

export const PIPELINES_PATH = "/pipelines";
export const PIPELINE_REPORTS_PATH = "/pipelines/reports";

function assertAccess(ctx: SignedInCtx) {
  if (!can(ctx.actor, PIPELINES_PATH)) throw new AppError("FORBIDDEN");
}
/** Whether the actor may open workflow boards (the realtime service asks it too). */
export const canUseBoards = (actor: SignedInCtx["actor"]) => can(actor, PIPELINES_PATH);

const fieldError = (field: string, key: string) => new AppError("VALIDATION", { fields: { [field]: [key] } });

type Tx = { transaction: Transaction };
/** A transaction whose board events are published once it commits. */
async function inTx<T>(fn: (t: Tx, events: BoardPublish[]) => Promise<T>): Promise<T> {
  const events: BoardPublish[] = [];
  const out = await sequelize().transaction((transaction) => fn({ transaction }, events));
  await publishBoard(events);
  return out;
}

const DEAL_COLUMNS = `d.id, d.board_id, d.column_id, d.position, d.version, d.lead_name, d.description, d.owner_id,
  NULLIF(btrim(concat_ws(' ', u.first_name, u.last_name)), '') AS owner_name, to_char(d.due_date, 'YYYY-MM-DD') AS due_date,
  d.channel, d.value_cents, d.priority, d.outcome, d.outcome_at, d.contact_id, d.room_id, d.archived_at,
  (SELECT count(*) FROM pipeline_tasks t WHERE t.deal_id = d.id AND t.account_id = d.account_id)::int AS tasks_total,
  (SELECT count(*) FROM pipeline_tasks t WHERE t.deal_id = d.id AND t.account_id = d.account_id AND t.done_at IS NOT NULL)::int AS tasks_done,
  d.created_at, d.updated_at`;
const DEAL_FROM = "pipeline_deals d LEFT JOIN users u ON u.id = d.owner_id";

async function dealCard(accountId: string, dealId: string, t?: Tx): Promise<DealCard | null> {
  return row<DealCard>(`SELECT ${DEAL_COLUMNS} FROM ${DEAL_FROM} WHERE d.id = $1 AND d.account_id = $2`, [dealId, accountId], t);
}
async function mustDealCard(accountId: string, dealId: string, t?: Tx): Promise<DealCard> {
  const found = await dealCard(accountId, dealId, t);
  if (!found) throw new AppError("NOT_FOUND");
  return found;
}

/**
 * The board row locked (columns are added, renamed and deleted under it: the 30-column limit and
 * unique names hold). NO KEY UPDATE, like every lock here: rows that only reference the board (a
 * move's history row) take KEY SHARE and are not held up by it, so no lock cycle forms.
 */
async function lockBoard(ctx: SignedInCtx, boardId: string, t: Tx): Promise<Board> {
  assertId(boardId);
  const b = await row<Board>(`SELECT id, name, created_at, updated_at FROM pipeline_boards WHERE id = $1 AND account_id = $2 FOR NO KEY UPDATE`, [boardId, ctx.actor.accountId], t);
  if (!b) throw new AppError("NOT_FOUND");
  return b;
}

/** A deal locked for a change (another account's, or a malformed id: 404). */
async function lockDeal(ctx: SignedInCtx, dealId: string, t: Tx) {
  assertId(dealId);
  const d = await row<{ id: string; board_id: string; column_id: string; version: number; archived_at: Date | null; owner_id: string | null }>(
    `SELECT id, board_id, column_id, version, archived_at, owner_id FROM pipeline_deals WHERE id = $1 AND account_id = $2 FOR NO KEY UPDATE`,
    [dealId, ctx.actor.accountId],
    t,
  );
  if (!d) throw new AppError("NOT_FOUND");
  return d;
}

/** Ids chosen on a form must be the account's: a member, a contact, a live room. */
async function checkRefs(ctx: SignedInCtx, d: { owner_id?: string | null; contact_id?: string | null; room_id?: string | null }, t?: Tx) {
  const a = ctx.actor.accountId;
  if (d.owner_id && !(await row(`SELECT 1 AS one FROM memberships WHERE account_id = $1 AND user_id = $2`, [a, d.owner_id], t))) {
    throw fieldError("owner_id", "pipelines.errors.ownerNotMember");
  }
  if (d.contact_id && !(await row(`SELECT 1 AS one FROM contacts WHERE account_id = $1 AND id = $2`, [a, d.contact_id], t))) {
    throw fieldError("contact_id", "pipelines.errors.contactNotFound");
  }
  if (d.room_id && !(await row(`SELECT 1 AS one FROM live_rooms WHERE account_id = $1 AND id = $2`, [a, d.room_id], t))) {
    throw fieldError("room_id", "pipelines.errors.roomNotFound");
  }
}

/** Position spacing of a column's deals (ADR 056): a move writes the midpoint of its neighbours. */
const STEP = 1024;

/** Renumbers a column's live deals STEP apart, keeping their order (only when a gap is exhausted). */
async function renumber(accountId: string, columnId: string, t: Tx) {
  await exec(
    `UPDATE pipeline_deals d SET position = r.n * ${STEP}
       FROM (SELECT id, row_number() OVER (ORDER BY position, id) AS n FROM pipeline_deals WHERE account_id = $1 AND column_id = $2 AND archived_at IS NULL) r
      WHERE d.id = r.id`,
    [accountId, columnId],
    t,
  );
}
async function endPosition(accountId: string, columnId: string, t: Tx): Promise<number> {
  const r = await row<{ max: number | null }>(
    `SELECT max(position) AS max FROM pipeline_deals WHERE account_id = $1 AND column_id = $2 AND archived_at IS NULL`,
    [accountId, columnId],
    t,
  );
  return (r?.max ?? 0) + STEP;
}

/** Opens a deal's stay in a column (the history the reports' time in column reads), closing the open one. */
async function recordStay(ctx: SignedInCtx, deal: { id: string; board_id: string }, from: string | null, to: string, t: Tx) {
  await exec(`UPDATE pipeline_deal_moves SET left_at = now() WHERE account_id = $1 AND deal_id = $2 AND left_at IS NULL`, [ctx.actor.accountId, deal.id], t);
  await exec(
    `INSERT INTO pipeline_deal_moves (account_id, board_id, deal_id, from_column_id, to_column_id, moved_by) VALUES ($1, $2, $3, $4, $5, $6)`,
    [ctx.actor.accountId, deal.board_id, deal.id, from, to, ctx.actor.userId],
    t,
  );
}

/** Catches the unique index on column names raced past the check. */
function uniqueName(err: unknown): never {
  const e = err as { name?: string; original?: { code?: string; constraint?: string } };
  if (e?.original?.code === "23505" && e.original.constraint === "pipeline_columns_name_idx") throw fieldError("name", "pipelines.errors.columnNameTaken");
  throw err;
}

// ---------------------------------------------------------------------------------------------
// Boards

/** The account's boards, oldest first, with their figures (an account has a handful: one page, at most 500). */
export async function listBoards(ctx: SignedInCtx): Promise<{ data: BoardSummary[]; next_cursor: string | null }> {
  assertAccess(ctx);
  const data = await rows<BoardSummary>(
    `SELECT b.id, b.name, b.created_at, b.updated_at,
            (SELECT count(*) FROM pipeline_columns c WHERE c.board_id = b.id AND c.account_id = b.account_id)::int AS columns,
            coalesce(s.deals, 0)::int AS deals, coalesce(s.value, 0)::bigint AS value_cents
       FROM pipeline_boards b
       LEFT JOIN (SELECT board_id, count(*) AS deals, sum(value_cents) AS value FROM pipeline_deals
                   WHERE account_id = $1 AND archived_at IS NULL GROUP BY board_id) s ON s.board_id = b.id
      WHERE b.account_id = $1 ORDER BY b.created_at, b.id LIMIT 500`,
    [ctx.actor.accountId],
  );
  return onePage(data);
}

/** A new board, with its first columns in order (`columns`: names; at most 30, unique in any case). */
export async function createBoard(ctx: SignedInCtx, input: unknown): Promise<{ data: Board }> {
  assertAccess(ctx);
  const d = validate(boardSchema, input);
  const names = d.columns ?? [];
  if (names.length > MAX_COLUMNS) throw fieldError("columns", "pipelines.errors.maxColumns");
  names.forEach((n, i) => {
    if (n.length > 50) throw fieldError(`columns.${i}`, "validation.maxLength::50");
    if (names.findIndex((m) => m.toLowerCase() === n.toLowerCase()) !== i) throw fieldError(`columns.${i}`, "pipelines.errors.columnNameTaken");
  });
  return inTx(async (t, events) => {
    const b = (await row<Board>(
      `INSERT INTO pipeline_boards (account_id, name, created_by) VALUES ($1, $2, $3) RETURNING id, name, created_at, updated_at`,
      [ctx.actor.accountId, d.name, ctx.actor.userId],
      t,
    ))!;
    if (names.length) {
      await exec(
        `INSERT INTO pipeline_columns (account_id, board_id, name, position) SELECT $1::uuid, $2::uuid, n, i FROM unnest($3::text[]) WITH ORDINALITY AS x(n, i)`,
        [ctx.actor.accountId, b.id, names],
        t,
      );
    }
    events.push({ accountId: ctx.actor.accountId, boardId: b.id, event: "board_created", data: { board: b }, actorId: ctx.actor.userId });
    return { data: b };
  });
}

async function boardColumns(accountId: string, boardId: string, t?: Tx): Promise<Column[]> {
  return rows<Column>(`SELECT id, board_id, name, position FROM pipeline_columns WHERE account_id = $1 AND board_id = $2 ORDER BY position, id`, [accountId, boardId], t);
}

/** A board with its columns in order, each with its non-archived deals in order. */
export async function getBoard(ctx: SignedInCtx, boardId: string): Promise<{ data: BoardView }> {
  assertAccess(ctx);
  assertId(boardId);
  const a = ctx.actor.accountId;
  const b = await row<Board & { currency: string }>(
    `SELECT b.id, b.name, b.created_at, b.updated_at, ac.currency FROM pipeline_boards b JOIN accounts ac ON ac.id = b.account_id WHERE b.id = $1 AND b.account_id = $2`,
    [boardId, a],
  );
  if (!b) throw new AppError("NOT_FOUND");
  const columns = await boardColumns(a, boardId);
  const deals = await rows<DealCard>(`SELECT ${DEAL_COLUMNS} FROM ${DEAL_FROM} WHERE d.account_id = $1 AND d.board_id = $2 AND d.archived_at IS NULL ORDER BY d.position, d.id`, [
    a,
    boardId,
  ]);
  return { data: { ...b, columns: columns.map((c) => ({ ...c, deals: deals.filter((d) => d.column_id === c.id) })) } };
}

/** The board's archived deals, newest archived first (at most 500). */
export async function archivedDeals(ctx: SignedInCtx, boardId: string): Promise<{ data: DealCard[]; next_cursor: string | null }> {
  assertAccess(ctx);
  assertId(boardId);
  if (!(await row(`SELECT 1 AS one FROM pipeline_boards WHERE id = $1 AND account_id = $2`, [boardId, ctx.actor.accountId]))) throw new AppError("NOT_FOUND");
  const data = await rows<DealCard>(
    `SELECT ${DEAL_COLUMNS} FROM ${DEAL_FROM} WHERE d.account_id = $1 AND d.board_id = $2 AND d.archived_at IS NOT NULL ORDER BY d.archived_at DESC, d.id LIMIT 500`,
    [ctx.actor.accountId, boardId],
  );
  return onePage(data);
}

export async function renameBoard(ctx: SignedInCtx, boardId: string, input: unknown): Promise<{ data: Board }> {
  assertAccess(ctx);
  const d = validate(renameSchema, input);
  return inTx(async (t, events) => {
    await lockBoard(ctx, boardId, t);
    const b = (await row<Board>(
      `UPDATE pipeline_boards SET name = $3, updated_at = now() WHERE id = $1 AND account_id = $2 RETURNING id, name, created_at, updated_at`,
      [boardId, ctx.actor.accountId, d.name],
      t,
    ))!;
    events.push({ accountId: ctx.actor.accountId, boardId, event: "board_renamed", data: { board: b }, actorId: ctx.actor.userId });
    return { data: b };
  });
}

/** Deletes a board with its columns, deals and their history. */
export async function deleteBoard(ctx: SignedInCtx, boardId: string): Promise<{ deleted: number }> {
  assertAccess(ctx);
  return inTx(async (t, events) => {
    await lockBoard(ctx, boardId, t);
    const n = await exec(`DELETE FROM pipeline_boards WHERE id = $1 AND account_id = $2`, [boardId, ctx.actor.accountId], t);
    events.push({ accountId: ctx.actor.accountId, boardId, event: "board_deleted", data: {}, actorId: ctx.actor.userId });
    return { deleted: n };
  });
}

// ---------------------------------------------------------------------------------------------
// Columns

async function assertNameFree(accountId: string, boardId: string, name: string, exceptId: string | null, t: Tx) {
  const taken = await row(
    `SELECT 1 AS one FROM pipeline_columns WHERE account_id = $1 AND board_id = $2 AND lower(name) = lower($3) AND ($4::uuid IS NULL OR id <> $4)`,
    [accountId, boardId, name, exceptId],
    t,
  );
  if (taken) throw fieldError("name", "pipelines.errors.columnNameTaken");
}

/** A column at the board's end: at most 30 per board, its name unique in any case (spec section 5). */
export async function createColumn(ctx: SignedInCtx, boardId: string, input: unknown): Promise<{ data: Column }> {
  assertAccess(ctx);
  const d = validate(columnSchema, input);
  return inTx(async (t, events) => {
    await lockBoard(ctx, boardId, t);
    const a = ctx.actor.accountId;
    const count = await row<{ n: number; max: number | null }>(
      `SELECT count(*)::int AS n, max(position) AS max FROM pipeline_columns WHERE account_id = $1 AND board_id = $2`,
      [a, boardId],
      t,
    );
    if ((count?.n ?? 0) >= MAX_COLUMNS) throw fieldError("name", "pipelines.errors.maxColumns");
    await assertNameFree(a, boardId, d.name, null, t);
    const c = (await row<Column>(
      `INSERT INTO pipeline_columns (account_id, board_id, name, position) VALUES ($1, $2, $3, $4) RETURNING id, board_id, name, position`,
      [a, boardId, d.name, (count?.max ?? 0) + 1],
      t,
    ).catch(uniqueName))!;
    events.push({ accountId: a, boardId, event: "column_created", data: { column: c }, actorId: ctx.actor.userId });
    return { data: c };
  });
}

/** A column locked, after its board (the order every use-case takes them in). */
async function lockColumn(ctx: SignedInCtx, columnId: string, t: Tx): Promise<Column> {
  assertId(columnId);
  const found = await row<{ board_id: string }>(`SELECT board_id FROM pipeline_columns WHERE id = $1 AND account_id = $2`, [columnId, ctx.actor.accountId], t);
  if (!found) throw new AppError("NOT_FOUND");
  await lockBoard(ctx, found.board_id, t);
  const c = await row<Column>(`SELECT id, board_id, name, position FROM pipeline_columns WHERE id = $1 AND account_id = $2 FOR NO KEY UPDATE`, [columnId, ctx.actor.accountId], t);
  if (!c) throw new AppError("NOT_FOUND");
  return c;
}

export async function renameColumn(ctx: SignedInCtx, columnId: string, input: unknown): Promise<{ data: Column }> {
  assertAccess(ctx);
  const d = validate(columnSchema, input);
  return inTx(async (t, events) => {
    const c = await lockColumn(ctx, columnId, t);
    await assertNameFree(ctx.actor.accountId, c.board_id, d.name, c.id, t);
    const updated = (await row<Column>(
      `UPDATE pipeline_columns SET name = $3 WHERE id = $1 AND account_id = $2 RETURNING id, board_id, name, position`,
      [columnId, ctx.actor.accountId, d.name],
      t,
    ).catch(uniqueName))!;
    events.push({ accountId: ctx.actor.accountId, boardId: c.board_id, event: "column_renamed", data: { column: updated }, actorId: ctx.actor.userId });
    return { data: updated };
  });
}

/** The board's columns in a new order: `column_ids` lists every column of the board once. */
export async function reorderColumns(ctx: SignedInCtx, boardId: string, input: unknown): Promise<{ data: Column[] }> {
  assertAccess(ctx);
  const d = validate(reorderSchema, input);
  return inTx(async (t, events) => {
    await lockBoard(ctx, boardId, t);
    const a = ctx.actor.accountId;
    const current = await boardColumns(a, boardId, t);
    const given = new Set(d.column_ids.map((s) => s.toLowerCase()));
    if (given.size !== d.column_ids.length || given.size !== current.length || current.some((c) => !given.has(c.id))) {
      throw fieldError("column_ids", "pipelines.errors.reorderMismatch");
    }
    await exec(
      `UPDATE pipeline_columns c SET position = x.i FROM unnest($3::uuid[]) WITH ORDINALITY AS x(id, i) WHERE c.id = x.id AND c.account_id = $1 AND c.board_id = $2`,
      [a, boardId, d.column_ids.map((s) => s.toLowerCase())],
      t,
    );
    const columns = await boardColumns(a, boardId, t);
    events.push({ accountId: a, boardId, event: "columns_reordered", data: { columns }, actorId: ctx.actor.userId });
    return { data: columns };
  });
}

/**
 * Deletes a column. Its deals (archived ones too) move to `move_cards_to`, another column of the
 * board, after that column's deals, in their order; a column holding deals needs one.
 */
export async function deleteColumn(ctx: SignedInCtx, columnId: string, input: unknown = {}): Promise<{ deleted: number; moved: number }> {
  assertAccess(ctx);
  const d = validate(deleteColumnSchema, input ?? {});
  return inTx(async (t, events) => {
    const c = await lockColumn(ctx, columnId, t);
    const a = ctx.actor.accountId;
    const held = await row<{ n: number }>(`SELECT count(*)::int AS n FROM pipeline_deals WHERE account_id = $1 AND column_id = $2`, [a, columnId], t);
    let moved = 0;
    if ((held?.n ?? 0) > 0) {
      if (!d.move_cards_to) throw fieldError("move_cards_to", "pipelines.errors.moveCardsToRequired");
      const target = await row<Column>(
        `SELECT id, board_id, name, position FROM pipeline_columns WHERE id = $1 AND account_id = $2 AND board_id = $3 FOR NO KEY UPDATE`,
        [d.move_cards_to, a, c.board_id],
        t,
      );
      if (!target || target.id === c.id) throw fieldError("move_cards_to", "pipelines.errors.moveCardsToInvalid");
      const start = await endPosition(a, target.id, t);
      const ids = await rows<{ id: string }>(
        `UPDATE pipeline_deals d SET column_id = $3, position = $4::float8 + (r.n - 1) * ${STEP}, version = d.version + 1, updated_at = now()
           FROM (SELECT id, row_number() OVER (ORDER BY archived_at IS NOT NULL, position, id) AS n FROM pipeline_deals WHERE account_id = $1 AND column_id = $2) r
          WHERE d.id = r.id AND d.column_id = $2 RETURNING d.id`,
        [a, columnId, target.id, start],
        t,
      );
      moved = ids.length;
      const list = ids.map((r) => r.id);
      await exec(`UPDATE pipeline_deal_moves SET left_at = now() WHERE account_id = $1 AND deal_id = ANY($2::uuid[]) AND left_at IS NULL`, [a, list], t);
      await exec(
        `INSERT INTO pipeline_deal_moves (account_id, board_id, deal_id, from_column_id, to_column_id, moved_by)
         SELECT $1::uuid, $2::uuid, id, $3::uuid, $4::uuid, $5::uuid FROM pipeline_deals WHERE account_id = $1 AND id = ANY($6::uuid[]) AND archived_at IS NULL`,
        [a, c.board_id, columnId, target.id, ctx.actor.userId, list],
        t,
      );
    }
    const n = await exec(`DELETE FROM pipeline_columns WHERE id = $1 AND account_id = $2`, [columnId, a], t);
    events.push({ accountId: a, boardId: c.board_id, event: "column_deleted", data: { column_id: columnId, moved_to: d.move_cards_to, moved }, actorId: ctx.actor.userId });
    return { deleted: n, moved };
  });
}

// ---------------------------------------------------------------------------------------------
// Deals

type NewDeal = {
  lead_name: string;
  description: string;
  owner_id: string | null;
  due_date: string;
  channel: string | null;
  value_cents: number;
  priority: Priority;
  contact_id: string | null;
  room_id: string | null;
};

async function insertDeal(ctx: SignedInCtx, boardId: string, columnId: string | null, d: NewDeal, t: Tx, events: BoardPublish[]): Promise<DealCard> {
  const a = ctx.actor.accountId;
  await lockBoard(ctx, boardId, t);
  const column = columnId
    ? await row<{ id: string }>(`SELECT id FROM pipeline_columns WHERE id = $1 AND account_id = $2 AND board_id = $3 FOR NO KEY UPDATE`, [columnId, a, boardId], t)
    : await row<{ id: string }>(`SELECT id FROM pipeline_columns WHERE account_id = $1 AND board_id = $2 ORDER BY position, id LIMIT 1 FOR NO KEY UPDATE`, [a, boardId], t);
  if (!column) throw fieldError("column_id", columnId ? "pipelines.errors.columnNotOnBoard" : "pipelines.errors.noColumns");
  await checkRefs(ctx, d, t);
  const position = await endPosition(a, column.id, t);
  const created = (await row<{ id: string }>(
    `INSERT INTO pipeline_deals (account_id, board_id, column_id, position, lead_name, description, owner_id, due_date, channel, value_cents, priority, contact_id, room_id, created_by)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14) RETURNING id`,
    [a, boardId, column.id, position, d.lead_name, d.description, d.owner_id, d.due_date, d.channel, d.value_cents, d.priority, d.contact_id, d.room_id, ctx.actor.userId],
    t,
  ))!;
  await recordStay(ctx, { id: created.id, board_id: boardId }, null, column.id, t);
  const card = await mustDealCard(a, created.id, t);
  events.push({ accountId: a, boardId, event: "deal_created", data: { deal: card }, actorId: ctx.actor.userId });
  return card;
}

/**
 * A deal at the end of a column of the board (`column_id`, else the first column). Lead name (25)
 * and description (200) required, priority and due date required (spec section 5); the owner is
 * the caller unless another member is named; contact and live room optional, the account's.
 */
export async function createDeal(ctx: SignedInCtx, boardId: string, input: unknown): Promise<{ data: DealCard }> {
  assertAccess(ctx);
  assertId(boardId);
  const d = validate(dealSchema, input);
  return inTx(async (t, events) => {
    const card = await insertDeal(
      ctx,
      boardId,
      d.column_id,
      {
        lead_name: d.lead_name,
        description: d.description,
        owner_id: d.owner_id ?? ctx.actor.userId,
        due_date: d.due_date,
        channel: d.channel,
        value_cents: d.value ?? d.value_cents ?? 0,
        priority: d.priority,
        contact_id: d.contact_id,
        room_id: d.room_id,
      },
      t,
      events,
    );
    return { data: card };
  });
}

/** A deal with its tasks, comments, products and their total, its contact and live room. */
export async function getDeal(ctx: SignedInCtx, dealId: string): Promise<{ data: DealDetail }> {
  assertAccess(ctx);
  assertId(dealId);
  const a = ctx.actor.accountId;
  const card = await row<DealCard & { board_name: string; column_name: string; currency: string }>(
    `SELECT ${DEAL_COLUMNS}, b.name AS board_name, c.name AS column_name, ac.currency
       FROM ${DEAL_FROM} JOIN pipeline_boards b ON b.id = d.board_id JOIN pipeline_columns c ON c.id = d.column_id JOIN accounts ac ON ac.id = d.account_id
      WHERE d.id = $1 AND d.account_id = $2`,
    [dealId, a],
  );
  if (!card) throw new AppError("NOT_FOUND");
  const [tasks, comments, products, contact, room] = await Promise.all([
    dealTasks(a, dealId),
    rows<Comment>(
      `SELECT m.id, m.deal_id, m.author_id, NULLIF(btrim(concat_ws(' ', u.first_name, u.last_name)), '') AS author_name, m.body, m.created_at
         FROM pipeline_comments m LEFT JOIN users u ON u.id = m.author_id WHERE m.account_id = $1 AND m.deal_id = $2 ORDER BY m.created_at, m.id`,
      [a, dealId],
    ),
    dealProducts(a, dealId),
    card.contact_id
      ? row<DealContact>(
          `SELECT id, coalesce(NULLIF(btrim(concat_ws(' ', first_name, last_name)), ''), mobile_number, email::text, '') AS name, mobile_number, email::text AS email
             FROM contacts WHERE id = $1 AND account_id = $2`,
          [card.contact_id, a],
        )
      : null,
    card.room_id ? row<DealRoom>(`SELECT id, protocol, channel, status, username FROM live_rooms WHERE id = $1 AND account_id = $2`, [card.room_id, a]) : null,
  ]);
  return { data: { ...card, tasks, comments, products, products_total_cents: productsTotal(products), contact, room } };
}

/** Changes a deal's fields (absent ones kept); `outcome` sold/lost stamps when, null reopens it. */
export async function updateDeal(ctx: SignedInCtx, dealId: string, input: unknown): Promise<{ data: DealCard }> {
  assertAccess(ctx);
  const d = validate(dealUpdateSchema, input);
  return inTx(async (t, events) => {
    const cur = await lockDeal(ctx, dealId, t);
    await checkRefs(ctx, d, t);
    const sets: string[] = [];
    const bind: unknown[] = [dealId, ctx.actor.accountId];
    const set = (col: string, v: unknown, cast = "") => {
      bind.push(v);
      sets.push(`${col} = $${bind.length}${cast}`);
    };
    if (d.lead_name !== undefined) set("lead_name", d.lead_name);
    if (d.description !== undefined) set("description", d.description);
    if (d.owner_id !== undefined) set("owner_id", d.owner_id, "::uuid");
    if (d.due_date !== undefined) set("due_date", d.due_date, "::date");
    if (d.channel !== undefined) set("channel", d.channel);
    const value = d.value ?? d.value_cents;
    if (value !== undefined) set("value_cents", value, "::bigint");
    if (d.priority !== undefined) set("priority", d.priority);
    if (d.contact_id !== undefined) set("contact_id", d.contact_id, "::uuid");
    if (d.room_id !== undefined) set("room_id", d.room_id, "::uuid");
    if (d.outcome !== undefined) {
      set("outcome", d.outcome);
      sets.push(`outcome_at = CASE WHEN $${bind.length}::text IS NULL THEN NULL WHEN outcome IS DISTINCT FROM $${bind.length}::text THEN now() ELSE outcome_at END`);
    }
    if (sets.length) await exec(`UPDATE pipeline_deals SET ${sets.join(", ")}, version = version + 1, updated_at = now() WHERE id = $1 AND account_id = $2`, bind, t);
    const card = await mustDealCard(ctx.actor.accountId, dealId, t);
    events.push({ accountId: ctx.actor.accountId, boardId: cur.board_id, event: "deal_updated", data: { deal: card }, actorId: ctx.actor.userId });
    return { data: card };
  });
}

/**
 * Moves a deal to a column of its board, before `before_deal_id` (a live deal of that column) or
 * at index `position`, else at the end. One small transaction: the target column's row and the
 * deal's are locked, the deal gets the midpoint of its new neighbours' positions (ADR 056).
 * `expected_version` is the version the mover saw: another change since (a move, an edit) makes
 * this a conflict answering the deal as it is now — nothing is written; so is a `before_deal_id`
 * that is no longer in the target column.
 */
export async function moveDeal(ctx: SignedInCtx, dealId: string, input: unknown): Promise<MoveResult> {
  assertAccess(ctx);
  assertId(dealId);
  const d = validate(moveSchema, input);
  const a = ctx.actor.accountId;
  const outcome = await inTx(async (t, events): Promise<MoveResult> => {
    // The target column first (moves into a column are serialized), then the deal; deleteColumn
    // takes its board and columns before their deals too. Every lock is NO KEY UPDATE: a row that
    // only references a locked one (a history row, a new deal) takes KEY SHARE and never waits on it.
    const target = await row<{ id: string; board_id: string }>(
      `SELECT id, board_id FROM pipeline_columns WHERE id = $1 AND account_id = $2 FOR NO KEY UPDATE`,
      [d.to_column_id, a],
      t,
    );
    const cur = await lockDeal(ctx, dealId, t);
    if (!target || target.board_id !== cur.board_id) throw fieldError("to_column_id", "pipelines.errors.columnNotOnBoard");
    if (cur.archived_at) throw fieldError("form", "pipelines.errors.dealArchived");
    if (cur.version !== d.expected_version) return { ok: false, conflict: true, current: await mustDealCard(a, dealId, t) };
    const neighbours = async () => {
      if (d.before_deal_id) {
        if (d.before_deal_id === dealId) return null;
        const next = await row<{ position: number }>(
          `SELECT position FROM pipeline_deals WHERE id = $1 AND account_id = $2 AND column_id = $3 AND archived_at IS NULL`,
          [d.before_deal_id, a, target.id],
          t,
        );
        if (!next) return null;
        const prev = await row<{ position: number }>(
          `SELECT position FROM pipeline_deals WHERE account_id = $1 AND column_id = $2 AND archived_at IS NULL AND id <> $3 AND (position, id) < ($4::float8, $5::uuid) ORDER BY position DESC, id DESC LIMIT 1`,
          [a, target.id, dealId, next.position, d.before_deal_id],
          t,
        );
        return { prev: prev?.position ?? null, next: next.position };
      }
      const list = await rows<{ position: number }>(
        `SELECT position FROM pipeline_deals WHERE account_id = $1 AND column_id = $2 AND archived_at IS NULL AND id <> $3 ORDER BY position, id`,
        [a, target.id, dealId],
        t,
      );
      const i = Math.min(d.position ?? list.length, list.length);
      return { prev: list[i - 1]?.position ?? null, next: list[i]?.position ?? null };
    };
    let around = await neighbours();
    if (!around) return { ok: false, conflict: true, current: await mustDealCard(a, dealId, t) };
    const place = (p: { prev: number | null; next: number | null }) =>
      p.prev === null && p.next === null ? STEP : p.prev === null ? p.next! - STEP : p.next === null ? p.prev + STEP : (p.prev + p.next) / 2;
    let position = place(around);
    if (around.prev !== null && around.next !== null && !(position > around.prev && position < around.next)) {
      // The gap is exhausted (or two deals share a position): renumber the column once and place again.
      await renumber(a, target.id, t);
      around = (await neighbours())!;
      position = place(around);
    }
    await exec(
      `UPDATE pipeline_deals SET column_id = $3, position = $4, version = version + 1, updated_at = now() WHERE id = $1 AND account_id = $2`,
      [dealId, a, target.id, position],
      t,
    );
    if (cur.column_id !== target.id) await recordStay(ctx, { id: dealId, board_id: cur.board_id }, cur.column_id, target.id, t);
    const card = await mustDealCard(a, dealId, t);
    events.push({ accountId: a, boardId: cur.board_id, event: "deal_moved", data: { deal: card, from_column_id: cur.column_id }, actorId: ctx.actor.userId });
    return { ok: true, deal: card };
  });
  return outcome;
}

/** Archives a deal (off the board, kept with its history), or restores it at its column's end. */
export async function archiveDeal(ctx: SignedInCtx, dealId: string, archived = true): Promise<{ data: DealCard }> {
  assertAccess(ctx);
  return inTx(async (t, events) => {
    const cur = await lockDeal(ctx, dealId, t);
    const a = ctx.actor.accountId;
    if (archived && !cur.archived_at) {
      await exec(`UPDATE pipeline_deals SET archived_at = now(), version = version + 1, updated_at = now() WHERE id = $1 AND account_id = $2`, [dealId, a], t);
      await exec(`UPDATE pipeline_deal_moves SET left_at = now() WHERE account_id = $1 AND deal_id = $2 AND left_at IS NULL`, [a, dealId], t);
    } else if (!archived && cur.archived_at) {
      const position = await endPosition(a, cur.column_id, t);
      await exec(
        `UPDATE pipeline_deals SET archived_at = NULL, position = $3, version = version + 1, updated_at = now() WHERE id = $1 AND account_id = $2`,
        [dealId, a, position],
        t,
      );
      await recordStay(ctx, { id: dealId, board_id: cur.board_id }, cur.column_id, cur.column_id, t);
    }
    const card = await mustDealCard(a, dealId, t);
    events.push({ accountId: a, boardId: cur.board_id, event: archived ? "deal_archived" : "deal_restored", data: { deal: card }, actorId: ctx.actor.userId });
    return { data: card };
  });
}

/** Deletes a deal with its tasks, comments, products and history. */
export async function deleteDeal(ctx: SignedInCtx, dealId: string): Promise<{ deleted: number }> {
  assertAccess(ctx);
  return inTx(async (t, events) => {
    const cur = await lockDeal(ctx, dealId, t);
    const n = await exec(`DELETE FROM pipeline_deals WHERE id = $1 AND account_id = $2`, [dealId, ctx.actor.accountId], t);
    events.push({ accountId: ctx.actor.accountId, boardId: cur.board_id, event: "deal_deleted", data: { deal_id: dealId, column_id: cur.column_id }, actorId: ctx.actor.userId });
    return { deleted: n };
  });
}

/**
 * A copy of a deal right after it in its column: its fields (no outcome), its tasks (undone, not
 * yet notified) and products; not its comments nor its history.
 */
export async function duplicateDeal(ctx: SignedInCtx, dealId: string): Promise<{ data: DealCard }> {
  assertAccess(ctx);
  return inTx(async (t, events) => {
    const cur = await lockDeal(ctx, dealId, t);
    const a = ctx.actor.accountId;
    const next = await row<{ position: number }>(
      `SELECT position FROM pipeline_deals WHERE account_id = $1 AND column_id = $2 AND archived_at IS NULL
         AND position > (SELECT position FROM pipeline_deals WHERE id = $3) ORDER BY position LIMIT 1`,
      [a, cur.column_id, dealId],
      t,
    );
    const src = (await row<{ position: number }>(`SELECT position FROM pipeline_deals WHERE id = $1`, [dealId], t))!;
    let position = cur.archived_at ? await endPosition(a, cur.column_id, t) : next ? (src.position + next.position) / 2 : src.position + STEP;
    if (!cur.archived_at && next && !(position > src.position && position < next.position)) {
      await renumber(a, cur.column_id, t);
      const again = (await row<{ position: number }>(`SELECT position FROM pipeline_deals WHERE id = $1`, [dealId], t))!;
      position = again.position + STEP / 2;
    }
    const copy = (await row<{ id: string }>(
      `INSERT INTO pipeline_deals (account_id, board_id, column_id, position, lead_name, description, owner_id, due_date, channel, value_cents, priority, contact_id, room_id, created_by)
       SELECT account_id, board_id, column_id, $3::float8, lead_name, description, owner_id, due_date, channel, value_cents, priority, contact_id, room_id, $4::uuid
         FROM pipeline_deals WHERE id = $1 AND account_id = $2 RETURNING id`,
      [dealId, a, position, ctx.actor.userId],
      t,
    ))!;
    await exec(
      `INSERT INTO pipeline_tasks (account_id, deal_id, title, description, priority, due_at, owner_id)
       SELECT account_id, $3::uuid, title, description, priority, due_at, owner_id FROM pipeline_tasks WHERE account_id = $1 AND deal_id = $2 ORDER BY created_at, id`,
      [a, dealId, copy.id],
      t,
    );
    await exec(
      `INSERT INTO pipeline_deal_products (account_id, deal_id, product_id, name, unit_price_cents, quantity, discount_cents)
       SELECT account_id, $3::uuid, product_id, name, unit_price_cents, quantity, discount_cents FROM pipeline_deal_products WHERE account_id = $1 AND deal_id = $2 ORDER BY created_at, id`,
      [a, dealId, copy.id],
      t,
    );
    await recordStay(ctx, { id: copy.id, board_id: cur.board_id }, null, cur.column_id, t);
    const card = await mustDealCard(a, copy.id, t);
    events.push({ accountId: a, boardId: cur.board_id, event: "deal_created", data: { deal: card, duplicate_of: dealId }, actorId: ctx.actor.userId });
    return { data: card };
  });
}

// ---------------------------------------------------------------------------------------------
// Tasks

const TASK_COLUMNS = `k.id, k.deal_id, k.title, k.description, k.priority, k.due_at, k.owner_id,
  NULLIF(btrim(concat_ws(' ', u.first_name, u.last_name)), '') AS owner_name, (k.done_at IS NOT NULL) AS done, k.done_at, k.notified_at, k.created_at`;

function dealTasks(accountId: string, dealId: string, t?: Tx): Promise<Task[]> {
  return rows<Task>(
    `SELECT ${TASK_COLUMNS} FROM pipeline_tasks k LEFT JOIN users u ON u.id = k.owner_id WHERE k.account_id = $1 AND k.deal_id = $2 ORDER BY k.done_at IS NOT NULL, k.due_at, k.id`,
    [accountId, dealId],
    t,
  );
}
async function taskById(accountId: string, taskId: string, t?: Tx): Promise<Task> {
  const found = await row<Task>(
    `SELECT ${TASK_COLUMNS} FROM pipeline_tasks k LEFT JOIN users u ON u.id = k.owner_id WHERE k.id = $1 AND k.account_id = $2`,
    [taskId, accountId],
    t,
  );
  if (!found) throw new AppError("NOT_FOUND");
  return found;
}
/** A task locked, with its deal's board (a task of another account: 404). */
async function lockTask(ctx: SignedInCtx, taskId: string, t: Tx) {
  assertId(taskId);
  const k = await row<{ id: string; deal_id: string; board_id: string; done_at: Date | null }>(
    `SELECT k.id, k.deal_id, d.board_id, k.done_at FROM pipeline_tasks k JOIN pipeline_deals d ON d.id = k.deal_id
      WHERE k.id = $1 AND k.account_id = $2 FOR NO KEY UPDATE OF k`,
    [taskId, ctx.actor.accountId],
    t,
  );
  if (!k) throw new AppError("NOT_FOUND");
  return k;
}
const dealChanged = async (ctx: SignedInCtx, boardId: string, dealId: string, t: Tx, events: BoardPublish[]) => {
  const card = await mustDealCard(ctx.actor.accountId, dealId, t);
  events.push({ accountId: ctx.actor.accountId, boardId, event: "deal_updated", data: { deal: card }, actorId: ctx.actor.userId });
};

/** A task of a deal: title, description, priority and due time required (spec section 5); its owner (default: the deal's owner) is notified when it is due. */
export async function addTask(ctx: SignedInCtx, dealId: string, input: unknown): Promise<{ data: Task }> {
  assertAccess(ctx);
  const d = validate(taskSchema, input);
  return inTx(async (t, events) => {
    const deal = await lockDeal(ctx, dealId, t);
    await checkRefs(ctx, { owner_id: d.owner_id }, t);
    const k = (await row<{ id: string }>(
      `INSERT INTO pipeline_tasks (account_id, deal_id, title, description, priority, due_at, owner_id) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
      [ctx.actor.accountId, dealId, d.title, d.description, d.priority, d.due_at, d.owner_id ?? deal.owner_id ?? ctx.actor.userId],
      t,
    ))!;
    await dealChanged(ctx, deal.board_id, dealId, t, events);
    return { data: await taskById(ctx.actor.accountId, k.id, t) };
  });
}

/** Changes a task; a new due time is notified again when it comes. */
export async function updateTask(ctx: SignedInCtx, taskId: string, input: unknown): Promise<{ data: Task }> {
  assertAccess(ctx);
  const d = validate(taskUpdateSchema, input);
  return inTx(async (t, events) => {
    const k = await lockTask(ctx, taskId, t);
    await checkRefs(ctx, { owner_id: d.owner_id }, t);
    await exec(
      `UPDATE pipeline_tasks SET title = coalesce($3, title), description = coalesce($4, description), priority = coalesce($5, priority),
              owner_id = CASE WHEN $7::boolean THEN $6::uuid ELSE owner_id END,
              notified_at = CASE WHEN $8::timestamptz IS NOT NULL AND $8::timestamptz <> due_at THEN NULL ELSE notified_at END,
              due_at = coalesce($8::timestamptz, due_at), updated_at = now()
        WHERE id = $1 AND account_id = $2`,
      [taskId, ctx.actor.accountId, d.title ?? null, d.description ?? null, d.priority ?? null, d.owner_id ?? null, d.owner_id !== undefined, d.due_at ?? null],
      t,
    );
    await dealChanged(ctx, k.board_id, k.deal_id, t, events);
    return { data: await taskById(ctx.actor.accountId, taskId, t) };
  });
}

/** Marks a task done or undone (`done` absent: the other state). */
export async function toggleTask(ctx: SignedInCtx, taskId: string, done?: boolean): Promise<{ data: Task }> {
  assertAccess(ctx);
  return inTx(async (t, events) => {
    const k = await lockTask(ctx, taskId, t);
    const next = done ?? !k.done_at;
    await exec(
      `UPDATE pipeline_tasks SET done_at = CASE WHEN $3 THEN coalesce(done_at, now()) ELSE NULL END, updated_at = now() WHERE id = $1 AND account_id = $2`,
      [taskId, ctx.actor.accountId, next],
      t,
    );
    await dealChanged(ctx, k.board_id, k.deal_id, t, events);
    return { data: await taskById(ctx.actor.accountId, taskId, t) };
  });
}

export async function deleteTask(ctx: SignedInCtx, taskId: string): Promise<{ deleted: number }> {
  assertAccess(ctx);
  return inTx(async (t, events) => {
    const k = await lockTask(ctx, taskId, t);
    const n = await exec(`DELETE FROM pipeline_tasks WHERE id = $1 AND account_id = $2`, [taskId, ctx.actor.accountId], t);
    await dealChanged(ctx, k.board_id, k.deal_id, t, events);
    return { deleted: n };
  });
}

// ---------------------------------------------------------------------------------------------
// Comments

export async function addComment(ctx: SignedInCtx, dealId: string, input: unknown): Promise<{ data: Comment }> {
  assertAccess(ctx);
  const d = validate(commentSchema, input);
  return inTx(async (t, events) => {
    const deal = await lockDeal(ctx, dealId, t);
    const c = (await row<{ id: string }>(
      `INSERT INTO pipeline_comments (account_id, deal_id, author_id, body) VALUES ($1, $2, $3, $4) RETURNING id`,
      [ctx.actor.accountId, dealId, ctx.actor.userId, d.body],
      t,
    ))!;
    await dealChanged(ctx, deal.board_id, dealId, t, events);
    const data = (await row<Comment>(
      `SELECT m.id, m.deal_id, m.author_id, NULLIF(btrim(concat_ws(' ', u.first_name, u.last_name)), '') AS author_name, m.body, m.created_at
         FROM pipeline_comments m LEFT JOIN users u ON u.id = m.author_id WHERE m.id = $1`,
      [c.id],
      t,
    ))!;
    return { data };
  });
}

/** Deletes a comment: its author's own, or any as the account's owner or admin. */
export async function deleteComment(ctx: SignedInCtx, commentId: string): Promise<{ deleted: number }> {
  assertAccess(ctx);
  assertId(commentId);
  return inTx(async (t, events) => {
    const c = await row<{ id: string; deal_id: string; author_id: string | null; board_id: string }>(
      `SELECT m.id, m.deal_id, m.author_id, d.board_id FROM pipeline_comments m JOIN pipeline_deals d ON d.id = m.deal_id WHERE m.id = $1 AND m.account_id = $2 FOR NO KEY UPDATE OF m`,
      [commentId, ctx.actor.accountId],
      t,
    );
    if (!c) throw new AppError("NOT_FOUND");
    if (c.author_id !== ctx.actor.userId && !seesAll(ctx.actor, "activity")) throw new AppError("FORBIDDEN");
    const n = await exec(`DELETE FROM pipeline_comments WHERE id = $1 AND account_id = $2`, [commentId, ctx.actor.accountId], t);
    await dealChanged(ctx, c.board_id, c.deal_id, t, events);
    return { deleted: n };
  });
}

// ---------------------------------------------------------------------------------------------
// Products

const PRODUCT_COLUMNS = "id, deal_id, product_id, name, unit_price_cents, quantity, discount_cents, (unit_price_cents * quantity - discount_cents)::bigint AS total_cents";

function dealProducts(accountId: string, dealId: string, t?: Tx): Promise<DealProduct[]> {
  return rows<DealProduct>(`SELECT ${PRODUCT_COLUMNS} FROM pipeline_deal_products WHERE account_id = $1 AND deal_id = $2 ORDER BY created_at, id`, [accountId, dealId], t);
}
/** The deal's products total in minor units: each line's unit price × quantity − its discount. */
export const productsTotal = (lines: Array<Pick<DealProduct, "total_cents">>) => lines.reduce((sum, l) => sum + l.total_cents, 0);

export type DealProducts = { data: DealProduct[]; total_cents: number };
async function productsAnswer(accountId: string, dealId: string, t?: Tx): Promise<DealProducts> {
  const data = await dealProducts(accountId, dealId, t);
  return { data, total_cents: productsTotal(data) };
}

/**
 * A catalogue product on a deal: its name and unit price (the product's price less its discount)
 * as now, a quantity (1..100,000) and a line discount no larger than the line.
 */
export async function addDealProduct(ctx: SignedInCtx, dealId: string, input: unknown): Promise<DealProducts> {
  assertAccess(ctx);
  const d = validate(dealProductSchema, input);
  return inTx(async (t, events) => {
    const deal = await lockDeal(ctx, dealId, t);
    const a = ctx.actor.accountId;
    const p = await row<{ id: string; name: string; unit: number }>(
      `SELECT id, name, (price_cents - discount_cents)::bigint AS unit FROM catalog_products WHERE id = $1 AND account_id = $2`,
      [d.product_id, a],
      t,
    );
    if (!p) throw fieldError("product_id", "pipelines.errors.productNotFound");
    const discount = d.discount ?? d.discount_cents ?? 0;
    if (discount > p.unit * d.quantity) throw fieldError("discount_cents", "pipelines.errors.discountAboveLine");
    await exec(
      `INSERT INTO pipeline_deal_products (account_id, deal_id, product_id, name, unit_price_cents, quantity, discount_cents) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [a, dealId, p.id, p.name, p.unit, d.quantity, discount],
      t,
    );
    await dealChanged(ctx, deal.board_id, dealId, t, events);
    return productsAnswer(a, dealId, t);
  });
}

async function lockLine(ctx: SignedInCtx, lineId: string, t: Tx) {
  assertId(lineId);
  const l = await row<{ id: string; deal_id: string; board_id: string; unit_price_cents: number; quantity: number; discount_cents: number }>(
    `SELECT l.id, l.deal_id, d.board_id, l.unit_price_cents, l.quantity, l.discount_cents FROM pipeline_deal_products l JOIN pipeline_deals d ON d.id = l.deal_id
      WHERE l.id = $1 AND l.account_id = $2 FOR NO KEY UPDATE OF l`,
    [lineId, ctx.actor.accountId],
    t,
  );
  if (!l) throw new AppError("NOT_FOUND");
  return l;
}

/** Changes a deal product's quantity or discount. */
export async function updateDealProduct(ctx: SignedInCtx, lineId: string, input: unknown): Promise<DealProducts> {
  assertAccess(ctx);
  const d = validate(dealProductUpdateSchema, input);
  return inTx(async (t, events) => {
    const l = await lockLine(ctx, lineId, t);
    const quantity = d.quantity ?? l.quantity;
    const discount = d.discount ?? d.discount_cents ?? l.discount_cents;
    if (discount > l.unit_price_cents * quantity) throw fieldError("discount_cents", "pipelines.errors.discountAboveLine");
    await exec(`UPDATE pipeline_deal_products SET quantity = $3, discount_cents = $4 WHERE id = $1 AND account_id = $2`, [lineId, ctx.actor.accountId, quantity, discount], t);
    await dealChanged(ctx, l.board_id, l.deal_id, t, events);
    return productsAnswer(ctx.actor.accountId, l.deal_id, t);
  });
}

export async function removeDealProduct(ctx: SignedInCtx, lineId: string): Promise<DealProducts> {
  assertAccess(ctx);
  return inTx(async (t, events) => {
    const l = await lockLine(ctx, lineId, t);
    await exec(`DELETE FROM pipeline_deal_products WHERE id = $1 AND account_id = $2`, [lineId, ctx.actor.accountId], t);
    await dealChanged(ctx, l.board_id, l.deal_id, t, events);
    return productsAnswer(ctx.actor.accountId, l.deal_id, t);
  });
}

// ---------------------------------------------------------------------------------------------
// Conversations and contacts

/** Today + `days` in America/Sao_Paulo, as YYYY-MM-DD. */
function saoPauloDate(days: number): string {
  const d = new Date(Date.now() + days * 86_400_000);
  return new Intl.DateTimeFormat("en-CA", { timeZone: "America/Sao_Paulo", year: "numeric", month: "2-digit", day: "2-digit" }).format(d);
}
const clip = (s: string, max: number) => Array.from(s.trim()).slice(0, max).join("");

/** Where a deal made from a room or a contact goes: a board (default: the account's first) and optionally its column, plus any deal field. */
async function defaultBoard(ctx: SignedInCtx, boardId: unknown): Promise<string> {
  if (typeof boardId === "string" && boardId) {
    assertId(boardId);
    return boardId;
  }
  const b = await row<{ id: string }>(`SELECT id FROM pipeline_boards WHERE account_id = $1 ORDER BY created_at, id LIMIT 1`, [ctx.actor.accountId]);
  if (!b) throw fieldError("board_id", "pipelines.errors.noBoards");
  return b.id;
}

/**
 * A deal from a live-chat room: linked to the room and its contact, channel the room's, lead name
 * the visitor's (or the contact's) name, description the room's protocol; any of those given in
 * `input` wins. Priority normal and due in 7 days unless given. The deal shows on the room
 * (dealsForRoom) and the room on the deal (getDeal).
 */
export async function createDealFromRoom(ctx: SignedInCtx, roomId: string, input: Record<string, unknown> = {}): Promise<{ data: DealCard }> {
  assertAccess(ctx);
  assertId(roomId);
  const room = await row<{ id: string; contact_id: string | null; channel: string; protocol: string; username: string; contact_name: string | null }>(
    `SELECT r.id, r.contact_id, r.channel, r.protocol, r.username, NULLIF(btrim(concat_ws(' ', c.first_name, c.last_name)), '') AS contact_name
       FROM live_rooms r LEFT JOIN contacts c ON c.id = r.contact_id AND c.account_id = r.account_id WHERE r.id = $1 AND r.account_id = $2`,
    [roomId, ctx.actor.accountId],
  );
  if (!room) throw new AppError("NOT_FOUND");
  const boardId = await defaultBoard(ctx, input.board_id);
  return createDeal(ctx, boardId, {
    lead_name: clip(room.contact_name || room.username || room.protocol, LEAD_NAME_MAX),
    description: `#${room.protocol}`,
    due_date: saoPauloDate(7),
    priority: "normal",
    channel: room.channel,
    ...input,
    contact_id: room.contact_id,
    room_id: room.id,
  });
}

/** A deal from a contact: linked to it, lead name its name, description its phone or e-mail, unless given in `input`. */
export async function createDealFromContact(ctx: SignedInCtx, contactId: string, input: Record<string, unknown> = {}): Promise<{ data: DealCard }> {
  assertAccess(ctx);
  assertId(contactId);
  const c = await row<{ id: string; name: string | null; reach: string | null }>(
    `SELECT id, NULLIF(btrim(concat_ws(' ', first_name, last_name)), '') AS name, coalesce(mobile_number, phone, email::text) AS reach FROM contacts WHERE id = $1 AND account_id = $2`,
    [contactId, ctx.actor.accountId],
  );
  if (!c) throw new AppError("NOT_FOUND");
  const boardId = await defaultBoard(ctx, input.board_id);
  const lead = clip(c.name || c.reach || "-", LEAD_NAME_MAX);
  return createDeal(ctx, boardId, {
    lead_name: lead,
    description: c.reach || lead,
    due_date: saoPauloDate(7),
    priority: "normal",
    ...input,
    contact_id: c.id,
  });
}

async function linkedDeals(ctx: SignedInCtx, where: string, id: string): Promise<{ data: LinkedDeal[]; next_cursor: string | null }> {
  const data = await rows<LinkedDeal>(
    `SELECT ${DEAL_COLUMNS}, b.name AS board_name, c.name AS column_name
       FROM ${DEAL_FROM} JOIN pipeline_boards b ON b.id = d.board_id JOIN pipeline_columns c ON c.id = d.column_id
      WHERE d.account_id = $1 AND ${where} = $2 ORDER BY d.archived_at IS NOT NULL, d.created_at DESC, d.id LIMIT 200`,
    [ctx.actor.accountId, id],
  );
  return onePage(data);
}
/** The deals of a live-chat room (live ones first, newest first; at most 200). */
export async function dealsForRoom(ctx: SignedInCtx, roomId: string) {
  assertAccess(ctx);
  assertId(roomId);
  return linkedDeals(ctx, "d.room_id", roomId);
}
/** The deals of a contact (live ones first, newest first; at most 200). */
export async function dealsForContact(ctx: SignedInCtx, contactId: string) {
  assertAccess(ctx);
  assertId(contactId);
  return linkedDeals(ctx, "d.contact_id", contactId);
}

export { boardReports, type BoardReports } from "./reports";
export { notifyDueTasks } from "./due-tasks";
