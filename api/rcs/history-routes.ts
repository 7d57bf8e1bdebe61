/**
 * RCS history API (issue 21; spec section 7 "GET rcs/messages"): the account's RCS messages of a
 * range of São Paulo days, both directions, each with its SMS fallback leg. Thin: ./history checks
 * the role and scopes by account.
 */
import { Type } from "@sinclair/typebox";
import { Elysia, t } from "elysia";
import { authenticated } from "../http/auth";
import { errorResponses, successResponse } from "../http/openapi";
import { pageQuery } from "../lib/page-schema";
import { listRcsMessages } from "./history";

const bearer = [{ bearer: [] }];
const nullable = <T extends Parameters<typeof t.Union>[0][number]>(s: T) => t.Union([s, t.Null()]);

export const RcsMessages = t.Object({
  data: t.Array(
    t.Object({
      id: t.String({ format: "uuid" }),
      direction: t.Union([t.Literal("outbound"), t.Literal("inbound")]),
      type: t.String({ description: "text, link, midia, card or card-carousel (inbound: what the handset sent)" }),
      agent_id: nullable(t.String({ format: "uuid", description: "The agent here (outbound: the sender; inbound: the recipient)" })),
      agent_name: nullable(t.String()),
      from: t.String({ description: "Outbound: the agent's Google id; inbound: the handset" }),
      to: t.String({ description: "Outbound: the handset; inbound: the agent's Google id" }),
      body: t.String({ description: "The content's plain text" }),
      status: t.String(),
      price: Type.Integer({ description: "In the currency's minor units" }),
      currency: t.String(),
      price_class: nullable(t.String({ description: "basic or rich" })),
      error_code: nullable(t.String()),
      created_at: t.String({ format: "date-time" }),
      fallback: nullable(
        t.Object(
          { id: t.String({ format: "uuid" }), status: t.String(), price: Type.Integer(), currency: t.String() },
          { description: "The SMS that stood in for it (a handset not RCS-capable)" },
        ),
      ),
    }),
  ),
  next_cursor: nullable(t.String({ description: "Send back as `cursor`, with the same filters, for the next page" })),
});

export const rcsHistoryRoutes = new Elysia({ prefix: "/rcs", tags: ["rcs"], detail: { security: bearer } })
  .use(authenticated)
  .get("/messages", ({ ctx, query }) => listRcsMessages(ctx, query), {
    query: t.Object({
      status: t.Optional(t.String({ description: "One status (queued, sent, delivered, read, failed, received…)" })),
      to: t.Optional(t.String({ description: "The handset in any format (normalized to E.164), exact: an outbound message's recipient, an inbound one's sender" })),
      type: t.Optional(t.String({ description: "text, link, midia, card or card-carousel" })),
      direction: t.Optional(t.String({ description: "outbound or inbound" })),
      "created_at[gte]": t.Optional(t.String({ description: "First day YYYY-MM-DD (São Paulo, from 00:00:00). Default: the last day" })),
      "created_at[lte]": t.Optional(t.String({ description: "Last day YYYY-MM-DD (São Paulo, to 23:59:59). Default: today; at most 31 days in all" })),
      order: t.Optional(t.String({ description: "desc (default, newest first) or asc" })),
      ...pageQuery,
    }),
    detail: {
      responses: { ...successResponse(RcsMessages), ...errorResponses(422) },
      summary:
        "RCS history of the account (both directions) of a range of São Paulo days, newest first, a keyset page of `limit` (send `cursor` back with the same filters); each row with its SMS fallback leg",
    },
  });
