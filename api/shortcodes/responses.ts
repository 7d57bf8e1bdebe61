/**
 * The success answers of the short code routes (./services), as TypeBox schemas for the OpenAPI
 * document (api/http/openapi.ts successResponse).
 */
import { t } from "elysia";

export const ShortCode = t.Object({
  id: t.String({ format: "uuid" }),
  number: t.String({ description: "The short code's number (the sender of its messages)" }),
  nickname: t.String({ description: "The account's name for it (empty: none)" }),
  deliverability: t.Array(t.String(), { description: "Carriers it is homologated with" }),
  status: t.Union([t.Literal("active"), t.Literal("inactive")]),
  created_at: t.String({ format: "date-time" }),
  updated_at: t.String({ format: "date-time" }),
});

export const ShortCodeList = t.Object({
  data: t.Array(ShortCode, { description: "By number" }),
  next_cursor: t.Null({ description: "Always null: the short codes the platform assigned to the account are one page" }),
});
