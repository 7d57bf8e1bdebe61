/**
 * The success answers of the lookup routes (./routes), as TypeBox schemas for the OpenAPI document
 * (api/http/openapi.ts successResponse); in tests each answer is checked against its schema.
 */
import { Type } from "@sinclair/typebox";
import { t } from "elysia";

const nullable = <T extends Parameters<typeof t.Union>[0][number]>(s: T) => t.Union([s, t.Null()]);
const at = nullable(t.String({ format: "date-time" }));
const type = nullable(t.Union([t.Literal("mobile"), t.Literal("landline"), t.Literal("voip"), t.Literal("unknown")], { description: "null when the number is invalid" }));

export const LookupAnswer = t.Object({
  number: t.String({ description: "E.164" }),
  valid: t.Boolean(),
  type,
  carrier: nullable(t.String({ description: "The current carrier (Vivo, Claro, TIM, Oi, Algar…)" })),
  ported: nullable(t.Boolean({ description: "Moved from another carrier (number portability)" })),
  country: nullable(t.String({ description: "ISO 3166-1 alpha-2" })),
});

export const LookupResult = t.Object({
  id: t.String(),
  line: nullable(Type.Integer({ description: "A list's line (data rows from 1); null for a single lookup" })),
  number: t.String({ description: "E.164, or a bad line's cell as written" }),
  status: t.Union([t.Literal("ok"), t.Literal("invalid"), t.Literal("bad_line")], { description: "bad_line: the cell is no phone number (not looked up, not charged)" }),
  valid: t.Boolean(),
  type,
  country: nullable(t.String()),
  carrier: nullable(t.String()),
  originalCarrier: nullable(t.String({ description: "The carrier the number was ported from (the current one when not ported)" })),
  ported: nullable(t.Boolean()),
  price: Type.Integer({ description: "Charged, in the currency's minor units" }),
  currency: t.String(),
  createdAt: t.String({ format: "date-time" }),
});
export const LookupResults = t.Object({
  data: t.Array(LookupResult),
  next_cursor: nullable(t.String({ description: "A list's results: the cursor of the next page, null on the last; single lookups: always null (the newest `limit`)" })),
});

export const LookupList = t.Object({
  id: t.String({ format: "uuid" }),
  source: t.Union([t.Literal("file"), t.Literal("group")]),
  name: t.String({ description: "The file's or the group's name" }),
  status: t.Union([t.Literal("queued"), t.Literal("running"), t.Literal("completed"), t.Literal("failed")]),
  groupId: nullable(t.String({ format: "uuid" })),
  cleanGroupId: nullable(t.String({ format: "uuid", description: "The group it cleans when it finishes" })),
  totalRows: Type.Integer(),
  processedRows: Type.Integer(),
  validCount: Type.Integer(),
  invalidCount: Type.Integer(),
  badLines: Type.Integer({ description: "Lines whose cell is no phone number: not looked up, refunded" }),
  percent: Type.Integer(),
  unitPrice: Type.Integer(),
  currency: t.String(),
  charged: Type.Integer({ description: "Debited when it started: every line at the unit price" }),
  refunded: Type.Integer({ description: "Given back when it ended: the lines not looked up" }),
  failure: nullable(t.String({ description: "An errors.* key when it failed" })),
  cleanedGroupId: nullable(t.String({ format: "uuid", description: "The new group the cleaned contacts moved to" })),
  cleanedCount: nullable(Type.Integer()),
  startedAt: at,
  finishedAt: at,
  createdAt: t.String({ format: "date-time" }),
});
export const LookupLists = t.Object({ data: t.Array(LookupList), next_cursor: t.Null({ description: "Always null: the newest `limit` lists" }) });

export const LookupCleaned = t.Object({
  moved: Type.Integer({ description: "Contacts moved out of the group (invalid or landline numbers)" }),
  groupId: nullable(t.String({ format: "uuid", description: "The new group they moved to; null when none moved" })),
});

const usage = { lookups: Type.Integer(), valid: Type.Integer(), invalid: Type.Integer(), cost: Type.Integer({ description: "Minor units of the currency" }) };
export const LookupUsage = t.Object({
  from: t.String({ format: "date" }),
  to: t.String({ format: "date" }),
  currency: t.String(),
  days: t.Array(t.Object({ day: t.String({ format: "date", description: "A São Paulo calendar day" }), ...usage })),
  total: t.Object(usage),
});
