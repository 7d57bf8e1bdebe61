/**
 * The success answer of GET /logs (routes.ts), as a TypeBox schema for the OpenAPI document
 * (api/http/openapi.ts successResponse). In tests every answer is checked against it.
 */
import { Type } from "@sinclair/typebox";
import { t } from "elysia";
import { Page } from "../lib/page-schema";

const nullable = <T extends Parameters<typeof t.Union>[0][number]>(s: T) => t.Union([s, t.Null()]);

export const AuditEntry = t.Object({
  id: Type.Integer(),
  action: t.String({ description: "Action code: auth.login, auth.login_failed, users.invited, accounts.updated…" }),
  description: t.String({ description: "The action in the caller's language (Accept-Language); the code when it has no text" }),
  user_id: nullable(t.String({ format: "uuid", description: "Who did it (null: the system or an unknown person)" })),
  user_email: nullable(t.String()),
  ip: nullable(t.String()),
  user_agent: nullable(t.String()),
  meta: t.Record(t.String(), t.Unknown(), { description: "Details of the event (free-form per action)" }),
  created_at: t.String({ format: "date-time" }),
});

export const AuditPage = Page(AuditEntry, "Audit events, newest first");
