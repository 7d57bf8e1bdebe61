/**
 * The success answers of the accounts routes (routes.ts), as TypeBox schemas for the OpenAPI
 * document (api/http/openapi.ts successResponse). In tests every answer is checked against them
 * (api/http/response-check.ts).
 */
import { Type } from "@sinclair/typebox";
import { t } from "elysia";
import { ACCOUNT_TYPES, ENTITY_STATUSES, PLAN_PERMISSIONS, ROLES } from "../../models/constants";
import { Page } from "../lib/page-schema";

const int = Type.Integer;
const nullable = <T extends Parameters<typeof t.Union>[0][number]>(s: T) => t.Union([s, t.Null()]);
const oneOf = (values: readonly string[], description?: string) =>
  t.Union(
    values.map((v) => t.Literal(v)),
    description ? { description } : {},
  );
const text = () => nullable(t.String());

export const Account = t.Object({
  id: t.String({ format: "uuid" }),
  name: t.String(),
  type: oneOf(ACCOUNT_TYPES),
  status: oneOf(ENTITY_STATUSES),
  currency: t.String({ description: "ISO 4217" }),
  balance: int({ description: "Prepaid balance in minor units (centavos)" }),
  limit: int({ description: "Credit limit in minor units (centavos): how far below zero the balance may go" }),
  role: oneOf(ROLES, "The person's role in this account"),
  is_agent: t.Boolean({ description: "The person attends live chat in this account" }),
  whitelabel_id: nullable(t.String({ format: "uuid" })),
  timezone: t.String({ description: "IANA time zone, e.g. America/Sao_Paulo" }),
  address: t.Object({ street: text(), number: text(), complement: text(), district: text(), city: text(), province: text(), postal_code: text() }),
});

export const AccountPage = Page(Account, "The person's accounts by name");

const Permissions = t.Partial(t.Object(Object.fromEntries(PLAN_PERMISSIONS.map((p) => [p, t.Boolean()]))), {
  description: "Plan features switched on (opening_hour, dashboard, spie, tab, department, whatsapp): the union of the active plans'",
});

const PlanOfService = t.Object({
  id: t.String({ format: "uuid" }),
  name: t.Optional(t.String()),
  ends_at: nullable(t.String({ format: "date-time" })),
  trial: t.Boolean(),
});

export const AccountInfo = t.Composite([
  Account,
  t.Object({
    plans: t.Record(t.String(), PlanOfService, { description: "The active plan of each service (sms, omni…), keyed by service" }),
    permissions: Permissions,
    trial_ended_at: nullable(
      t.String({ format: "date-time", description: "When the account's trial ended without a plan chosen since (the account is asked to choose one; nothing was deleted)" }),
    ),
    auth_token: t.Optional(t.String({ description: "The account's API token: owner and admin only" })),
  }),
]);

export const HomeSummary = t.Object({
  account: t.Object({
    name: t.String(),
    balance: int({ description: "Centavos" }),
    limit: int({ description: "Centavos" }),
    currency: t.String(),
    role: oneOf(ROLES),
    plans: t.Record(t.String(), PlanOfService),
  }),
  members: int({ description: "People in the account" }),
  unread: int({ description: "The person's unread notifications" }),
  period: t.Union([t.Literal("today"), t.Literal("7d"), t.Literal("30d")], { description: "The period of `messages`: since today's São Paulo midnight, the last 7 or 30 days" }),
  messages: t.Array(t.Object({ channel: t.String(), delivered: int(), sent: int(), pending: int(), failed: int(), total: int() }), {
    description: "The account's messages of the period by channel and status group",
  }),
  openRooms: int({ description: "Live chat rooms queued or being attended" }),
  recent: t.Array(
    t.Object({
      id: int(),
      action: t.String({ description: "Audit action code, e.g. auth.login" }),
      by: t.Union([t.String(), t.Null()], { description: "Who did it (a person of the account), null for the system" }),
      description: t.String({ description: "The action in the caller's language (Accept-Language)" }),
      at: t.String({ format: "date-time" }),
    }),
    { description: "Latest 8 audit events (everyone's for owner and admin, else the person's own)" },
  ),
});

export const AccountSwitched = t.Object({
  id: t.String({ format: "uuid", description: "The account now current" }),
  token: t.String({ description: "Access token bound to it" }),
  refresh_token: t.String(),
  summary: HomeSummary,
});
