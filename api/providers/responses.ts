/**
 * The success answers of the provider connection and SMS route map routes (/admin/providers,
 * /admin/sms/routes), as TypeBox schemas for the OpenAPI document (api/http/openapi.ts
 * successResponse). They describe what services.ts and test-connection.ts return.
 */
import { Type } from "@sinclair/typebox";
import { t } from "elysia";
import { Page } from "../lib/page-schema";

/** A plain JSON integer (Elysia's t.Integer also accepts numeric strings). */
const int = Type.Integer;
const SmsRoute = t.Union([t.Literal("T1"), t.Literal("T2"), t.Literal("T4"), t.Literal("T6")]);
const hint = (description: string) => t.Optional(t.String({ description: `${description}: "••••" and, for a long one, its last four characters` }));

export const Provider = t.Object({
  id: t.String({ format: "uuid" }),
  name: t.String({ description: "Fixed once created (messages and webhook URLs carry it)" }),
  channel: t.String({ description: "sms" }),
  kind: t.Union([t.Literal("simulator"), t.Literal("http"), t.Literal("smpp")]),
  settings: t.Object(
    {
      url: t.Optional(t.String({ description: "http: base URL" })),
      host: t.Optional(t.String({ description: "smpp: SMSC host" })),
      port: t.Optional(int({ description: "smpp" })),
      system_id: t.Optional(t.String({ description: "smpp" })),
      system_type: t.Optional(t.String({ description: "smpp" })),
      tps: t.Optional(int({ description: "Messages per second" })),
    },
    { description: "The kind's settings without credentials (simulator: none)" },
  ),
  secrets: t.Object(
    { api_key: hint("http: the bearer key"), webhook_secret: hint("http: the receipts' secret"), password: hint("smpp: the password") },
    { description: "Each credential the connection holds, as a masked hint (never the value)" },
  ),
  routes: t.Array(SmsRoute, { description: "SMS routes that go out through it" }),
  enabled: t.Boolean(),
  created_at: t.String({ format: "date-time" }),
  updated_at: t.String({ format: "date-time" }),
});

export const ProviderPage = Page(Provider, "Every connection of the platform (a handful: one page), by channel and name");
export const ProviderOne = t.Object({ data: Provider });
export const ProviderSaved = t.Object({
  data: Provider,
  generated: t.Optional(
    t.Object(
      { webhook_secret: t.String({ description: "whsec_…: give it to the provider to sign its receipts" }) },
      { description: "An http connection saved without a webhook secret: the generated one, answered in full only this once" },
    ),
  ),
});
export const ProviderDeleted = t.Object({ ok: t.Literal(true) });

export const ProviderTest = t.Object({
  ok: t.Boolean({ description: "The settings reach the provider" }),
  code: t.Union(
    ["httpOk", "httpRefused", "httpError", "unreachable", "timeout", "bound", "bindRefused", "simulatorOk", "notConfigured"].map((c) => t.Literal(c)),
    { description: "The outcome (stable)" },
  ),
  params: t.Record(t.String(), t.Union([t.String(), t.Number()]), { description: "Values of the outcome (HTTP status, SMPP status and name, reason, ms)" }),
  message: t.String({ description: "The outcome in the caller's language (Accept-Language)" }),
  ms: int({ description: "Milliseconds the test took" }),
});

export const RouteMap = Page(
  t.Object({
    route: SmsRoute,
    connection_id: t.Union([t.String({ format: "uuid" }), t.Null()]),
    connection_name: t.Union([t.String(), t.Null()]),
  }),
  "The four SMS routes (T1, T2, T4, T6) and the connection each goes out through (null: none): always one page",
);

/** A provider's cost per SMS segment on a route from a start on (ADR 070). */
export const ProviderCost = t.Object({
  id: t.String({ format: "uuid" }),
  provider: t.String({ description: "The connection's name (what messages carry as their provider)" }),
  route: SmsRoute,
  currency: t.String({ description: "ISO 4217 (BRL, USD or EUR)" }),
  cost_per_segment: int({ description: "What the provider charges per segment, in minor units of the currency" }),
  valid_from: t.String({ format: "date-time", description: "From when it applies (a message is costed at the cost in force when it was sent)" }),
  created_at: t.String({ format: "date-time" }),
  applied: t.Boolean({ description: "Already started: history, not deletable (change it with a new cost)" }),
});
export const ProviderCostPage = Page(ProviderCost, "The connection's costs (a few per route: one page), by route, newest start first");
export const ProviderCostOne = t.Object({ data: ProviderCost });
