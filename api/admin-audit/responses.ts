/**
 * The success answers of /api/admin/audit, /api/admin/logs and /api/admin/sms/trackers
 * (./routes.ts), as TypeBox schemas for the OpenAPI document; in tests every answer is checked against them.
 */
import { Type } from "@sinclair/typebox";
import { t } from "elysia";
import { Page } from "../lib/page-schema";

const nullable = <T extends Parameters<typeof t.Union>[0][number]>(s: T) => t.Union([s, t.Null()]);

export const AuditChange = t.Object({
  field: t.String(),
  before: nullable(t.String({ description: "The value before (JSON text when not a string); null: none (a new fact)" })),
  after: nullable(t.String({ description: "The value after; null: removed" })),
});

export const AdminAuditEntry = t.Object({
  id: Type.Integer(),
  action: t.String({ description: "Action code: users.invited, sms_routes.updated, sms_trackers.created…" }),
  description: t.String({ description: "The action in the caller's language (Accept-Language)" }),
  account_id: nullable(t.String({ format: "uuid" })),
  account_name: nullable(t.String()),
  user_id: nullable(t.String({ format: "uuid" })),
  user_email: nullable(t.String()),
  ip: nullable(t.String()),
  changes: t.Array(AuditChange, { description: "Before/after of each field the action changed, or the facts it recorded" }),
  created_at: t.String({ format: "date-time" }),
});
export const AdminAuditPage = Page(AdminAuditEntry, "Audit entries of the accounts in reach, newest first");

export const AppLogEntry = t.Object({
  id: Type.Integer(),
  source: t.Union([t.Literal("api"), t.Literal("provider")]),
  code: t.String({ description: "The error's class or code (TypeError, INTERNAL, UNDELIV, http_422, no_provider…)" }),
  message: t.String({ description: "The error's text, redacted of credentials, at most 500 characters; never a message body" }),
  account_id: nullable(t.String({ format: "uuid" })),
  account_name: nullable(t.String()),
  detail: t.Record(t.String(), t.Unknown(), { description: "api: method, path, status; provider: channel, provider, message_id, kind (permanent, deferred, transient)" }),
  created_at: t.String({ format: "date-time" }),
});
export const AppLogPage = Page(AppLogEntry, "Application errors and provider failures, newest first");

export const Tracker = t.Object({
  id: t.String({ format: "uuid" }),
  kind: t.Union([t.Literal("phone"), t.Literal("sender")]),
  value: t.String({ description: "E.164 phone number, or a sender id (up to 11 letters and digits)" }),
  label: nullable(t.String()),
  created_by_email: nullable(t.String()),
  created_at: t.String({ format: "date-time" }),
});
export const TrackerPage = Page(Tracker, "Every tracker, newest first (at most 200: one page)");
export const TrackerOne = t.Object({ data: Tracker });
export const TrackerDeleted = t.Object({ data: t.Object({ id: t.String({ format: "uuid" }), deleted: t.Boolean() }) });
export const TrackedMessage = t.Object({
  id: t.String({ format: "uuid" }),
  account_id: t.String({ format: "uuid" }),
  account_name: t.String(),
  direction: t.Union([t.Literal("outbound"), t.Literal("inbound")]),
  sender: t.String(),
  recipient: t.String(),
  status: t.String(),
  created_at: t.String({ format: "date-time" }),
});
export const TrackedPage = t.Object({
  tracker: Tracker,
  data: t.Array(TrackedMessage),
  next_cursor: nullable(t.String()),
});
