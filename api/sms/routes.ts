/**
 * SMS API (JWT): accept a send, list the history, read one message with its events. Thin: the use-cases validate,
 * check permission (/sms/send, /sms/history) and scope by account.
 */
import { Elysia, t } from "elysia";
import { authenticated } from "../http/auth";
import { acceptSms } from "./accept";
import { getSmsMessage } from "./get";
import { listSmsMessages } from "./history";

const bearer = [{ bearer: [] }];

const sendBody = t.Object({
  to: t.Union([t.String(), t.Array(t.String())], { description: "One number or up to 1,000 (any format; +55 assumed for 10 or 11 digits). Repeated numbers are sent once" }),
  from: t.Optional(t.Union([t.String({ description: "Sender: up to 11 letters/digits, or a short code" }), t.Null()])),
  body: t.String({ description: "1 to 1,600 characters; GSM-7 when every character is in GSM 03.38, else UCS-2" }),
  route: t.Optional(t.Union([t.Literal("T1"), t.Literal("T2"), t.Literal("T4"), t.Literal("T6"), t.Literal(""), t.Null()], { description: "Default T1" })),
  scheduled_at: t.Optional(t.Union([t.String({ description: "Not accepted yet (422)" }), t.Null()])),
});

export const smsRoutes = new Elysia({ prefix: "/sms", tags: ["sms"], detail: { security: bearer } })
  .use(authenticated)
  .post("/messages", ({ ctx, body, request }) => acceptSms(ctx, body, { idempotencyKey: request.headers.get("Idempotency-Key") }), {
    body: sendBody,
    detail: {
      summary:
        "Send SMS: priced (segments × price per segment × recipients) and debited at once; 402 INSUFFICIENT_BALANCE, 422 per recipient index. " +
        "Idempotency-Key header: the same key and request answer the first response; another request under the key is 409 IDEMPOTENCY_CONFLICT",
    },
  })
  .get("/messages", ({ ctx, query }) => listSmsMessages(ctx, query), {
    query: t.Object({
      id: t.Optional(t.String({ description: "One message id (uuid)" })),
      status: t.Optional(t.String({ description: "One status of spec section 4 (queued, sent, delivered, failed…)" })),
      from: t.Optional(t.String({ description: "Sender, exact" })),
      to: t.Optional(t.String({ description: "Recipient in any format (normalized to E.164), exact" })),
      "created_at[gte]": t.Optional(t.String({ description: "First day YYYY-MM-DD (São Paulo, from 00:00:00). Default: today" })),
      "created_at[lte]": t.Optional(t.String({ description: "Last day YYYY-MM-DD (São Paulo, to 23:59:59). Default: today; at most 31 days in all" })),
      order_by: t.Optional(t.String({ description: "created_at (the only order)" })),
      order: t.Optional(t.String({ description: "desc (default) or asc" })),
      page: t.Optional(t.String({ description: "1-based page of 50 (OFFSET: for the first pages)" })),
      cursor: t.Optional(t.String({ description: "next_cursor of the previous answer (keyset: fast at any depth); send the same filters" })),
    }),
    detail: {
      summary:
        "SMS history of the account, newest first (created_at, id), 50 a page: data, page, last_page (from a count capped at 10,000 rows; total_capped), next_cursor",
    },
  })
  .get("/messages/:id", ({ ctx, params }) => getSmsMessage(ctx, params.id), {
    params: t.Object({ id: t.String() }),
    detail: { summary: "One SMS of the account with its status history (404 for another account's)" },
  });
