/**
 * The RCS reports' routes (issue 21; spec section 7): the customer's list, charts and insights
 * (./reports.ts) and platform staff's messages, insights and synthetic report (./admin-reports.ts),
 * with their answers' schemas for the OpenAPI document (api/http/openapi.ts).
 */
import { Type } from "@sinclair/typebox";
import { Elysia, t } from "elysia";
import { authenticated } from "../http/auth";
import { successResponse } from "../http/openapi";
import { Page, pageQuery } from "../lib/page-schema";
import { adminRcsInsights, adminRcsMessages, adminRcsSintetic } from "./admin-reports";
import { listRcsMessages, rcsCharts, rcsInsights } from "./reports";

const bearer = [{ bearer: [] }];
const int = Type.Integer;
const nullable = <T extends Parameters<typeof t.Union>[0][number]>(s: T) => t.Union([s, t.Null()]);
const day = t.String({ format: "date", description: "YYYY-MM-DD, São Paulo" });
const statuses = t.Record(t.String(), int(), { description: "Outbound messages per status" });
const time = t.String({ format: "date-time" });
const Money = t.Object({ currency: t.String({ description: "ISO 4217" }), amount: int({ description: "Minor units of the currency" }) });
const Amounts = t.Array(Money, { description: "One amount per currency (accounts may use different ones), by currency" });

const figures = {
  messages: int({ description: "Outbound RCS messages created in the period, whatever their status" }),
  sent: int({ description: "Handed to Google" }),
  delivered: int({ description: "Delivered or read" }),
  read: int(),
  failed: int(),
  waiting: int({ description: "Not yet handed to Google" }),
  delivery_rate: t.Number({ description: "delivered / sent, 0..1, 4 decimals" }),
  read_rate: t.Number({ description: "read / delivered" }),
  failure_rate: t.Number({ description: "failed / messages" }),
  statuses,
  basic: int({ description: "Priced basic: a plain text under 160 characters without suggestions" }),
  rich: int({ description: "Priced rich: anything else" }),
};
const short = { messages: int(), delivered: int({ description: "Delivered or read" }), read: int(), failed: int() };
const Agent = t.Object({
  id: nullable(t.String({ format: "uuid", description: "null: no agent holds this Google id any more" })),
  name: t.String(),
  rbm_agent_id: t.String({ description: "Google's agent id: the messages' sender" }),
});
const filters = t.Object({ agent: nullable(t.String({ format: "uuid" })), type: nullable(t.String()) }, { description: "The filters applied" });

/** The insights of one account (its currency) or of every account (costs per currency). */
const insightsOf = <C extends Parameters<typeof t.Array>[0]>(cost: C, extra: Record<string, Parameters<typeof t.Array>[0]> = {}) =>
  t.Object({
    from: day,
    to: day,
    ...figures,
    cost,
    received: int({ description: "Inbound RCS messages (the contacts' own)" }),
    fallback_sms: int({ description: "SMS legs sent for RCS messages a handset could not take (priced as SMS)" }),
    data: t.Array(t.Object({ day, ...figures, cost }), { description: "One per day, oldest first, days without messages included" }),
    types: t.Array(t.Object({ type: t.String({ description: "text, link, midia, card, card-carousel" }), ...short, cost }), { description: "Every type" }),
    agents: t.Array(t.Object({ agent: Agent, ...short, cost, ...extra }), { description: "Each agent that sent, the most messages first" }),
    classes: t.Array(t.Object({ class: t.String({ description: "basic or rich" }), messages: int(), cost })),
    filters,
  });

const centavos = int({ description: "In the currency's minor units (centavos)" });
export const RcsInsightsOne = t.Composite([
  insightsOf(centavos),
  t.Object({ currency: t.String(), fallback_cost: int({ description: "The fallback SMS legs' price (minor units)" }) }),
]);

const chartDay = { total: int({ description: "Outbound messages" }), cost: centavos, statuses };
export const RcsCharts = t.Object({
  days: int({ description: "7 or 30" }),
  from: day,
  to: day,
  currency: t.String(),
  data: t.Array(t.Object({ day, ...chartDay }), { description: "One per day, oldest first, days without messages included" }),
  totals: t.Object(chartDay),
  next_cursor: t.Null({ description: "Always null: one page" }),
});

const RcsMessageItem = t.Object({
  id: t.String({ format: "uuid" }),
  direction: t.Union([t.Literal("outbound"), t.Literal("inbound")]),
  type: t.String({ description: "text, link, midia, card, card-carousel" }),
  from: t.String({ description: "The agent's Google id (outbound) or the contact (inbound)" }),
  to: t.String({ description: "The contact, E.164 (outbound) or the agent's Google id (inbound)" }),
  body: t.String({ description: "The content's plain text" }),
  content: nullable(t.Record(t.String(), t.Unknown(), { description: "The spec's content JSON (type, messageText, suggestions, images…)" })),
  status: t.String(),
  price: centavos,
  currency: t.String(),
  error_code: nullable(t.String()),
  error_message: nullable(t.String()),
  created_at: time,
  sent_at: nullable(time),
  delivered_at: nullable(time),
  read_at: nullable(time),
  failed_at: nullable(time),
});
export const RcsMessages = Page(RcsMessageItem, "Newest first (created_at, id); oldest first with order=asc");

const ReportAccount = nullable(
  t.Object({ id: t.String({ format: "uuid" }), name: t.String(), currency: t.String() }, { description: "The account asked for; null: every account" }),
);
const accountRef = t.Object({ id: t.String(), name: t.String() });
export const AdminRcsInsights = t.Composite([insightsOf(Amounts, { account: accountRef }), t.Object({ account: ReportAccount, fallback_cost: Amounts })]);
export const AdminRcsMessages = Page(
  t.Composite([RcsMessageItem, t.Object({ account_id: t.String({ format: "uuid" }), account_name: t.String() })]),
  "Every account's messages, newest first (created_at, id)",
);
const sinteticCounts = {
  messages: int({ description: "Outbound RCS messages created that day" }),
  statuses,
  basic: int({ description: "Priced basic" }),
  rich: int({ description: "Priced rich" }),
  fallback_sms: int({ description: "SMS legs sent that day for RCS messages a handset could not take" }),
};
export const AdminRcsSintetic = t.Object({
  from: day,
  to: day,
  account: ReportAccount,
  data: t.Array(
    t.Object({
      day,
      account: accountRef,
      currency: t.String(),
      ...sinteticCounts,
      revenue: int({ description: "Charged and not refunded (all but rejected, optout and failed before Google took them), minor units of the account's currency" }),
    }),
    { description: "One row per account and São Paulo day with RCS messages: newest day first, then by account name" },
  ),
  next_cursor: t.Union([t.String(), t.Null()], { description: "Send it back as `cursor` (same filters) for the next page; null on the last page" }),
  totals: t.Object({ ...sinteticCounts, revenue: Amounts }, { description: "The whole period (every page)" }),
});

const period = {
  from: t.Optional(t.String({ description: "First day YYYY-MM-DD (São Paulo). Default: 6 days before `to`" })),
  to: t.Optional(t.String({ description: "Last day (default today); at most 31 days" })),
};
const insightsBody = t.Optional(
  t.Object({
    days: t.Optional(t.Union([t.String(), t.Number()], { description: "7 or 30 (the last days, today included); instead of from/to" })),
    ...period,
    agent: t.Optional(t.String({ description: "One agent (rcs_agents id)" })),
    type: t.Optional(t.String({ description: "One type: text, link, midia, card, card-carousel" })),
  }),
);
const listFilters = {
  id: t.Optional(t.String()),
  status: t.Optional(t.String({ description: "One status (queued, sent, delivered, read, failed, received…)" })),
  from: t.Optional(t.String({ description: "Sender, exact: an agent's Google id, or a contact for inbound messages" })),
  to: t.Optional(t.String({ description: "Recipient in any format (normalized to E.164), exact" })),
  agent: t.Optional(t.String({ description: "One agent (rcs_agents id): its messages" })),
  type: t.Optional(t.String({ description: "text, link, midia, card, card-carousel" })),
  "created_at[gte]": t.Optional(t.String({ description: "First day YYYY-MM-DD (São Paulo). Default: the last day" })),
  "created_at[lte]": t.Optional(t.String({ description: "Last day YYYY-MM-DD (São Paulo). Default: today; at most 31 days in all" })),
  order: t.Optional(t.String({ description: "desc (default) or asc" })),
  ...pageQuery,
};

/** The customer's RCS figures and list (policy /rcs/insights, /rcs/history). */
export const rcsReportRoutes = new Elysia({ prefix: "/rcs/messages", tags: ["rcs"], detail: { security: bearer } })
  .use(authenticated)
  .post("/list", ({ ctx, body }) => listRcsMessages(ctx, body ?? {}), {
    body: t.Optional(
      t.Object({
        ...listFilters,
        created_at: t.Optional(t.Object({ gte: t.Optional(t.String()), lte: t.Optional(t.String()) })),
        limit: t.Optional(t.Union([t.String(), t.Number()])),
      }),
    ),
    detail: {
      responses: successResponse(RcsMessages),
      summary:
        "The account's RCS messages (both directions) of a range of São Paulo days (at most 31), filtered; a keyset page of `limit` (send `cursor` back with the same filters)",
    },
  })
  .get("/charts", async ({ ctx, query }) => ({ ...(await rcsCharts(ctx, query)), next_cursor: null }), {
    query: t.Object({ days: t.Optional(t.String({ description: "7 (default) or 30" })) }),
    detail: { responses: successResponse(RcsCharts), summary: "Per São Paulo day of the last 7 or 30 days (one page): outbound RCS messages per status and cost" },
  })
  .post("/insights", ({ ctx, body }) => rcsInsights(ctx, body ?? {}), {
    body: insightsBody,
    detail: {
      responses: successResponse(RcsInsightsOne),
      summary:
        "Totals of a period (days 7 or 30, or from/to: default the last 7 days, at most 31): per status, delivery and read rates, cost, per day, type, agent, basic and rich, inbound, fallback SMS legs",
    },
  });

const accountQuery = { account_id: t.Optional(t.String({ description: "One account (uuid); absent: every account" })) };

/** Platform staff's RCS reports (policy /admin/rcs/reports/*; ./admin-reports checks the staff). */
export const rcsAdminReportRoutes = new Elysia({ prefix: "/admin/rcs", tags: ["admin"], detail: { security: bearer } })
  .use(authenticated)
  .get("/messages", ({ ctx, query }) => adminRcsMessages(ctx, query), {
    query: t.Object({ ...listFilters, ...accountQuery }),
    detail: {
      responses: successResponse(AdminRcsMessages),
      summary: "Every account's RCS messages (both directions) of a range of São Paulo days, newest first, each with its account; a keyset page of `limit`",
    },
  })
  .post("/insights", ({ ctx, body }) => adminRcsInsights(ctx, body ?? {}), {
    body: t.Optional(t.Object({ ...insightsBody.properties, ...accountQuery })),
    detail: { responses: successResponse(AdminRcsInsights), summary: "The RCS insights of every account (or one): costs per currency, each agent with its account" },
  })
  .post("/sintetic", ({ ctx, body }) => adminRcsSintetic(ctx, body ?? {}), {
    body: t.Optional(t.Object({ ...period, ...accountQuery, cursor: t.Optional(t.String()), limit: t.Optional(t.Union([t.String(), t.Number()])) })),
    detail: {
      responses: successResponse(AdminRcsSintetic),
      summary:
        "The synthetic report: per customer account and São Paulo day of a period (default the last 7 days, at most 31): RCS messages per status, basic and rich, fallback SMS legs and revenue; keyset pages",
    },
  });

/** Both, as one plugin: one .use in api/app.ts (Elysia's types stop at ~45 in a chain, TS2589). */
export const rcsReportApi = new Elysia({ name: "rcs-report-api" }).use(rcsReportRoutes).use(rcsAdminReportRoutes);
