/** The success answers of the workflow boards routes (./api), as TypeBox schemas for the OpenAPI document (checked against the answers in tests). */
import { Type } from "@sinclair/typebox";
import { t } from "elysia";
import { Page } from "../lib/page-schema";

const nullable = <T extends Parameters<typeof t.Union>[0][number]>(s: T) => t.Union([s, t.Null()]);
const uuid = t.String({ format: "uuid" });
const when = t.String({ format: "date-time" });
const int = Type.Integer();
const priority = t.Union([t.Literal("low"), t.Literal("normal"), t.Literal("high"), t.Literal("urgent")], { description: "Spec section 4: low, normal/medium, high, urgent" });
const outcome = nullable(t.Union([t.Literal("sold"), t.Literal("lost")], { description: "Sold or lost; null while open" }));

export const Board = t.Object({ id: uuid, name: t.String(), created_at: when, updated_at: when });
export const BoardOne = t.Object({ data: Board });
export const BoardSummary = t.Object({
  ...Board.properties,
  columns: Type.Integer({ description: "How many columns (at most 30)" }),
  deals: Type.Integer({ description: "Live (not archived) deals" }),
  value_cents: Type.Integer({ description: "Their value, minor units of the account's currency" }),
});
export const Boards = Page(BoardSummary, "The account's boards, oldest first (one page)");

export const Column = t.Object({ id: uuid, board_id: uuid, name: t.String(), position: int });
export const ColumnOne = t.Object({ data: Column });
export const Columns = t.Object({ data: t.Array(Column, { description: "The board's columns in order" }) });

export const DealCard = t.Object({
  id: uuid,
  board_id: uuid,
  column_id: uuid,
  position: t.Number({ description: "Order inside the column (ascending; fractional)" }),
  version: Type.Integer({ description: "Grows on every change: send it as expected_version to move" }),
  lead_name: t.String({ description: "Up to 25 characters" }),
  description: t.String({ description: "Up to 200 characters" }),
  owner_id: nullable(uuid),
  owner_name: nullable(t.String()),
  due_date: t.String({ format: "date" }),
  channel: nullable(t.String()),
  value_cents: Type.Integer({ description: "Minor units of the account's currency" }),
  priority,
  outcome,
  outcome_at: nullable(when),
  contact_id: nullable(uuid),
  room_id: nullable(uuid),
  archived_at: nullable(when),
  tasks_total: int,
  tasks_done: int,
  created_at: when,
  updated_at: when,
});
export const DealOne = t.Object({ data: DealCard });
export const LinkedDeals = Page(t.Object({ ...DealCard.properties, board_name: t.String(), column_name: t.String() }), "Live deals first, newest first (at most 200)");
export const ArchivedDeals = Page(DealCard, "Newest archived first (at most 500)");

export const BoardView = t.Object({
  data: t.Object({
    ...Board.properties,
    currency: t.String({ description: "The account's currency (ISO 4217)" }),
    columns: t.Array(t.Object({ ...Column.properties, deals: t.Array(DealCard, { description: "Its live deals in order" }) })),
  }),
});

export const Task = t.Object({
  id: uuid,
  deal_id: uuid,
  title: t.String(),
  description: t.String(),
  priority,
  due_at: when,
  owner_id: nullable(uuid),
  owner_name: nullable(t.String()),
  done: t.Boolean(),
  done_at: nullable(when),
  notified_at: nullable(when),
  created_at: when,
});
export const TaskOne = t.Object({ data: Task });
export const Comment = t.Object({ id: uuid, deal_id: uuid, author_id: nullable(uuid), author_name: nullable(t.String()), body: t.String(), created_at: when });
export const CommentOne = t.Object({ data: Comment });
export const DealProduct = t.Object({
  id: uuid,
  deal_id: uuid,
  product_id: nullable(uuid),
  name: t.String({ description: "The catalogue product's name when added" }),
  unit_price_cents: Type.Integer({ description: "The product's price less its discount when added" }),
  quantity: int,
  discount_cents: Type.Integer({ description: "The line's discount" }),
  total_cents: Type.Integer({ description: "unit × quantity − discount" }),
});
export const DealProducts = t.Object({ data: t.Array(DealProduct), total_cents: Type.Integer({ description: "The deal's products total, minor units" }) });

export const DealDetail = t.Object({
  data: t.Object({
    ...DealCard.properties,
    board_name: t.String(),
    column_name: t.String(),
    currency: t.String(),
    tasks: t.Array(Task),
    comments: t.Array(Comment),
    products: t.Array(DealProduct),
    products_total_cents: int,
    contact: nullable(t.Object({ id: uuid, name: t.String(), mobile_number: nullable(t.String()), email: nullable(t.String()) })),
    room: nullable(t.Object({ id: uuid, protocol: t.String(), channel: t.String(), status: t.String(), username: t.String() })),
  }),
});

export const Moved = t.Object({ ok: t.Literal(true), deal: DealCard });
export const MoveConflict = t.Object(
  {
    error: t.Object({ code: t.Literal("DEAL_VERSION_CONFLICT"), message: t.String() }),
    current: DealCard,
  },
  { description: "The deal changed since the mover saw it (or the deal it was to go before left that column): nothing was written; `current` is the deal as it is now" },
);
export const Deleted = t.Object({ deleted: int });
export const ColumnDeleted = t.Object({ deleted: int, moved: Type.Integer({ description: "Deals moved to move_cards_to" }) });

const money = Type.Integer();
export const Reports = t.Object({
  data: t.Object({
    currency: t.String(),
    filters: t.Object({ board_id: nullable(uuid), owner_id: nullable(uuid), from: t.String({ format: "date" }), to: t.String({ format: "date" }), group: t.String() }),
    by_column: t.Array(
      t.Object({ board_id: uuid, board_name: t.String(), column_id: uuid, column_name: t.String(), position: int, deals: int, value_cents: money, products_cents: money }),
    ),
    by_owner: t.Array(t.Object({ owner_id: nullable(uuid), owner_name: nullable(t.String()), deals: int, value_cents: money, products_cents: money })),
    outcomes: t.Array(t.Object({ period: t.String({ description: "First day of the period (São Paulo)" }), sold: int, sold_cents: money, lost: int, lost_cents: money })),
    totals: t.Object({ sold: int, sold_cents: money, lost: int, lost_cents: money }),
    time_in_column: t.Array(
      t.Object({
        board_id: uuid,
        column_id: uuid,
        column_name: t.String(),
        position: int,
        stays: Type.Integer({ description: "Stays that ended in the period" }),
        average_seconds: nullable(t.Number({ description: "Their average length, seconds" })),
        current: Type.Integer({ description: "Deals in the column now" }),
      }),
    ),
  }),
});
