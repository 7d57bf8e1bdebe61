/**
 * The success answers of the SMPP user routes (./users), as TypeBox schemas for the OpenAPI
 * document (api/http/openapi.ts successResponse). A password is never stored in clear: it is in
 * the answer of a create or a reset only.
 */
import { Type } from "@sinclair/typebox";
import { t } from "elysia";
import { Page } from "../lib/page-schema";

export const SmppUser = t.Object({
  id: t.String({ format: "uuid" }),
  system_id: t.String({ description: "The SMPP system_id it binds with (unique on the platform)" }),
  route: t.String({ description: "T1, T2, T4 or T6" }),
  tps: Type.Integer({ description: "Submits per second allowed" }),
  enabled: t.Boolean(),
  created_at: t.String({ format: "date-time" }),
  updated_at: t.String({ format: "date-time" }),
});

const password = t.String({ description: "The generated 8-character password: shown in this answer only" });

export const SmppUserPage = Page(SmppUser, "Newest first (created_at, id)");
export const SmppUserOne = t.Object({ data: SmppUser });
export const SmppUserCreated = t.Object({ data: SmppUser, password });
export const SmppUserUpdated = t.Object({
  data: SmppUser,
  password: t.Optional(t.String({ description: "The new password, when reset_password was true: shown in this answer only" })),
});
export const SmppUsersDeleted = t.Object({ deleted: Type.Integer() });
export const SmppUserDeleted = t.Object({ ok: t.Literal(true) });
