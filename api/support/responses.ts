/**
 * The success answers of the support routes (routes.ts), as TypeBox schemas for the OpenAPI
 * document (api/http/openapi.ts successResponse). In tests every answer is checked against them.
 */
import { Type } from "@sinclair/typebox";
import { t } from "elysia";
import { Page } from "../lib/page-schema";
import { CATEGORIES, STATUSES } from "./constants";

const DateTime = t.String({ format: "date-time" });
const Nullable = <T extends Parameters<typeof t.Union>[0][number]>(s: T) => t.Union([s, t.Null()]);
const Side = t.Union([t.Literal("customer"), t.Literal("staff")]);
const Status = t.Union(STATUSES.map((s) => t.Literal(s)));

export const Ticket = t.Object({
  id: t.String({ format: "uuid" }),
  number: Type.Integer({ description: "The number people quote (#1042)" }),
  account_id: t.String({ format: "uuid" }),
  account_name: t.String(),
  category: t.Union(CATEGORIES.map((c) => t.Literal(c))),
  subject: t.String(),
  status: Status,
  opened_by: Nullable(t.String({ format: "uuid" })),
  opened_by_name: Nullable(t.String()),
  opened_by_email: Nullable(t.String()),
  assigned_to: Nullable(t.String({ format: "uuid", description: "The platform's person on it" })),
  assigned_to_name: Nullable(t.String()),
  last_side: t.Union([t.Literal("customer"), t.Literal("staff")], { description: "Who wrote last: customer (the platform's turn) or staff" }),
  messages: Type.Integer(),
  rating: Nullable(Type.Integer({ minimum: 0, maximum: 5, description: "0 to 5, once the ticket is closed" })),
  rating_comment: Nullable(t.String()),
  rated_at: Nullable(DateTime),
  closed_at: Nullable(DateTime),
  last_message_at: DateTime,
  created_at: DateTime,
  updated_at: DateTime,
});

const TicketFile = t.Object({
  id: t.String({ format: "uuid" }),
  name: t.String(),
  media_type: t.String(),
  size: Type.Integer({ description: "Bytes" }),
  url: t.String({ description: "A signed link to the bytes, valid for a day" }),
});

const ThreadMessage = t.Object({
  id: t.String(),
  side: Side,
  body: t.String(),
  author_id: Nullable(t.String({ format: "uuid" })),
  author_name: Nullable(t.String()),
  created_at: DateTime,
  files: t.Array(TicketFile),
});

export const TicketAnswer = t.Object({ data: t.Composite([Ticket, t.Object({ thread: t.Array(ThreadMessage, { description: "The conversation, oldest first" }) })]) });
export const TicketPage = Page(Ticket, "Tickets, the latest activity first, keyset paged");
export const TicketMessagePage = Page(
  t.Object({
    id: t.String(),
    ticket_id: t.String({ format: "uuid" }),
    number: Type.Integer(),
    subject: t.String(),
    status: Status,
    side: Side,
    body: t.String({ description: "The message, cut at 300 characters" }),
    author_name: Nullable(t.String()),
    created_at: DateTime,
  }),
  "The latest messages of the account's tickets, newest first",
);
export const StaffPeople = Page(t.Object({ id: t.String({ format: "uuid" }), name: t.String(), email: t.String() }), "The platform's owners and admins, by name");
