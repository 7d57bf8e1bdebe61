/**
 * The platform-wide SMS reports, monitor and sales and the analytics over the API (issue 23; spec
 * section 7: POST /admin/sms/insights, GET /admin/sms/monitor, /admin/sms/monitor/analytics; and
 * the screens' figures: GET /admin/sms/reports, /admin/sms/dashboard, /admin/sms/sales,
 * /admin/analytics). Each service checks who may read it (./scope.ts, ADR 065).
 */
import { Type } from "@sinclair/typebox";
import { Elysia, t } from "elysia";
import { authenticated } from "../http/auth";
import { successResponse } from "../http/openapi";
import { adminAnalytics } from "./analytics";
import { adminSmsMonitor, adminSmsMonitorAnalytics } from "./monitor";
import { adminSmsDashboard, adminSmsReport, adminSmsSales } from "./reports";

const bearer = [{ bearer: [] }];
const int = Type.Integer;
const nullable = <T extends Parameters<typeof t.Union>[0][number]>(s: T) => t.Union([s, t.Null()]);
const time = t.String({ format: "date-time" });
const day = t.String({ format: "date", description: "YYYY-MM-DD, São Paulo" });
const Money = t.Object({ currency: t.String({ description: "ISO 4217" }), amount: int({ description: "Minor units of the currency" }) });
const Account = t.Object({ id: t.String(), name: t.String() });
const ScopedAccount = nullable(t.Object({ id: t.String(), name: t.String(), currency: t.String() }));
const Reach = t.Union([t.Literal("platform"), t.Literal("reseller")], { description: "Every account (platform staff) or the reseller's customers" });
const figures = {
  messages: int({ description: "Outbound SMS created in the period, whatever their status" }),
  segments: int(),
  sent: int({ description: "Handed to a provider" }),
  delivered: int(),
  failed: int({ description: "Failed or unavailable" }),
  delivery_rate: t.Number({ description: "delivered / sent, 0..1, 4 decimals" }),
};
const revenueAmounts = t.Array(Money, { description: "Customer price of the charged, not refunded messages, per currency" });

const period = {
  from: t.Optional(t.String({ description: "First day YYYY-MM-DD (São Paulo). Default: 6 days before `to`" })),
  to: t.Optional(t.String({ description: "Last day (default today); at most 31 days" })),
  account_id: t.Optional(t.String({ description: "One account (uuid) in reach; absent: every account in reach" })),
};
const reportFilters = {
  route: t.Optional(t.String({ description: "T1, T2, T4 or T6" })),
  provider: t.Optional(t.String({ description: "A provider connection's name" })),
  status: t.Optional(t.String({ description: "A message status" })),
};

const AdminSmsReport = t.Object({
  data: t.Object({
    from: day,
    to: day,
    account: ScopedAccount,
    filters: t.Object({ route: nullable(t.String()), provider: nullable(t.String()), status: nullable(t.String()) }),
    reach: Reach,
    ...figures,
    revenue: revenueAmounts,
    statuses: t.Array(t.Object({ status: t.String(), messages: int() })),
    routes: t.Array(t.Object({ route: nullable(t.String()), provider: nullable(t.String()), ...figures, revenue: revenueAmounts })),
    customers: t.Array(t.Object({ account: Account, currency: t.String(), ...figures, revenue: int() }), { description: "The 50 customers with the most messages" }),
  }),
});
const Window = t.Object({ days: int(), ...figures, revenue: revenueAmounts });
const AdminSmsDashboard = t.Object({
  data: t.Object({
    from: day,
    to: day,
    today: Window,
    last7: Window,
    last30: Window,
    data: t.Array(t.Object({ day, ...figures, revenue: revenueAmounts })),
    reach: Reach,
  }),
});
const Margin = t.Object(
  {
    currency: t.String({ description: "ISO 4217" }),
    revenue: int({ description: "Minor units" }),
    cost: nullable(int({ description: "The providers' cost: segments × the cost per segment of each message's provider and route in force when it was sent" })),
    margin: nullable(int({ description: "revenue − cost" })),
    margin_rate: nullable(t.Number({ description: "margin / revenue, 4 decimals" })),
    uncosted: int({
      description: "Charged messages without a known cost (not sent yet, or no cost recorded for their provider and route then): cost and margin are null when any",
    }),
  },
  { description: "Provider cost and margin in one currency (ADR 070)" },
);
const hiddenFromResellers = "; null for a reseller (the platform's cost is not shown to resellers)";
const AdminSmsSales = t.Object({
  data: t.Object({
    from: day,
    to: day,
    account: ScopedAccount,
    revenue: revenueAmounts,
    messages: int(),
    segments: int(),
    customers: t.Array(
      t.Object({
        account: Account,
        currency: t.String(),
        messages: int(),
        segments: int(),
        revenue: int(),
        margin: nullable(Margin),
      }),
      { description: `The 50 customers with the most revenue; margin${hiddenFromResellers}` },
    ),
    routes: t.Array(t.Object({ route: nullable(t.String()), messages: int(), segments: int(), revenue: revenueAmounts, margin: nullable(t.Array(Margin)) }), {
      description: `Per route; margin per currency${hiddenFromResellers}`,
    }),
    margin: nullable(t.Array(Margin, { description: `Cost and margin per currency${hiddenFromResellers}` })),
    reach: Reach,
  }),
});
const Provider = t.Object({
  provider: t.String(),
  messages: int(),
  sent: int(),
  delivered: int(),
  failed: int(),
  delivery_rate: t.Number(),
  errors: t.Array(t.Object({ code: t.String(), messages: int() })),
});
const AdminSmsMonitor = t.Object({
  data: t.Object({
    at: time,
    minutes: int(),
    throughput: t.Array(t.Object({ minute: time, accepted: int(), sent: int(), per_second: t.Number() })),
    per_second: t.Number({ description: "Messages sent per second over the window" }),
    queue: t.Array(t.Object({ route: t.String(), provider: nullable(t.String()), queued: int(), sending: int() })),
    waiting: int(),
    streams: t.Array(
      t.Object({
        stream: t.String(),
        shard: int(),
        length: int({ description: "Entries in the shard (acked entries are deleted: the unfinished work)" }),
        pending: int({ description: "Delivered to a dispatcher, not yet acknowledged" }),
        lag: nullable(int({ description: "Not yet delivered to the dispatchers group" })),
        dead: int({ description: "Entries in the dead-letter stream" }),
      }),
    ),
    providers: t.Array(Provider, { description: "The last hour, per provider" }),
  }),
});
const AdminSmsMonitorAnalytics = t.Object({
  data: t.Object({
    from: time,
    to: time,
    providers: t.Array(Provider),
    hours: t.Array(t.Object({ hour: time, provider: t.String(), messages: int(), sent: int(), delivered: int(), failed: int(), delivery_rate: t.Number() })),
  }),
});
const Compared = { value: int(), previous: int(), growth: nullable(t.Number({ description: "(value − previous) / previous, 4 decimals" })) };
const AdminAnalytics = t.Object({
  data: t.Object({
    from: day,
    to: day,
    previous: t.Object({ from: day, to: day }),
    active_accounts: t.Object(Compared),
    new_accounts: t.Object(Compared),
    messages: t.Object(Compared),
    channels: t.Array(t.Object({ channel: t.String(), ...Compared })),
    revenue: t.Array(t.Object({ currency: t.String(), ...Compared })),
  }),
});

export const adminSmsRoutes = new Elysia({ prefix: "/admin", tags: ["admin"], detail: { security: bearer } })
  .use(authenticated)
  .get("/sms/reports", async ({ ctx, query }) => ({ data: await adminSmsReport(ctx, query) }), {
    query: t.Object({ ...period, ...reportFilters }),
    detail: {
      responses: successResponse(AdminSmsReport),
      summary: "SMS of every account in reach over a period (at most 31 days): totals, per status, per route and provider, the customers with the most messages",
    },
  })
  .post("/sms/insights", async ({ ctx, body }) => ({ data: await adminSmsReport(ctx, body ?? {}) }), {
    body: t.Optional(t.Object({ ...period, ...reportFilters })),
    detail: { responses: successResponse(AdminSmsReport), summary: "The same figures as GET /admin/sms/reports, with the filters in the body" },
  })
  .get("/sms/dashboard", async ({ ctx }) => ({ data: await adminSmsDashboard(ctx) }), {
    detail: { responses: successResponse(AdminSmsDashboard), summary: "SMS of every account in reach today, the last 7 and 30 São Paulo days, and per day" },
  })
  .get("/sms/sales", async ({ ctx, query }) => ({ data: await adminSmsSales(ctx, query) }), {
    query: t.Object(period),
    detail: {
      responses: successResponse(AdminSmsSales),
      summary: "SMS revenue (customer price) per customer and per route over a period; for platform staff also the providers' cost and the margin",
    },
  })
  .get("/sms/monitor", async ({ ctx }) => ({ data: await adminSmsMonitor(ctx) }), {
    detail: {
      responses: successResponse(AdminSmsMonitor),
      summary: "Platform staff: SMS throughput per minute, the queue per route and per dispatch stream shard, the last hour per provider",
    },
  })
  .get("/sms/monitor/analytics", async ({ ctx }) => ({ data: await adminSmsMonitorAnalytics(ctx) }), {
    detail: { responses: successResponse(AdminSmsMonitorAnalytics), summary: "Platform staff: the last 24 hours of SMS per provider and per hour" },
  })
  .get("/analytics", async ({ ctx, query }) => ({ data: await adminAnalytics(ctx, query) }), {
    query: t.Object({ from: t.Optional(t.String()), to: t.Optional(t.String()) }),
    detail: {
      responses: successResponse(AdminAnalytics),
      summary: "Platform staff: active accounts, messages per channel and revenue of a period (default the last 30 days) against the period before",
    },
  });
