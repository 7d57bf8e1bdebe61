/**
 * The success answers of the contact routes (get.ts, list.ts, save.ts, groups.ts, fields.ts,
 * bulk.ts, lgpd.ts), as TypeBox schemas for the OpenAPI document (api/http/openapi.ts
 * successResponse / createdResponse). In tests every JSON answer is checked against them.
 */
import { Type } from "@sinclair/typebox";
import { t } from "elysia";
import { BULK_ACTIONS } from "./schemas";
import { CUSTOM_FIELD_TYPES } from "../../models/constants";
import { Page } from "../lib/page-schema";

const int = Type.Integer;
const str = () => t.Union([t.String(), t.Null()]);
const oneOf = (values: readonly string[], description?: string) =>
  t.Union(
    values.map((v) => t.Literal(v)),
    description ? { description } : {},
  );
const GroupRef = t.Object({ id: t.String({ format: "uuid" }), name: t.String() });

export const Contact = t.Object({
  id: t.String({ format: "uuid" }),
  name: t.String({ description: "First and last name, else the formatted mobile" }),
  first_name: str(),
  last_name: str(),
  birth_date: t.Union([t.String({ format: "date" }), t.Null()]),
  mobile_number: t.Union([t.String({ description: "E.164" }), t.Null()]),
  mobile_formatted: t.String(),
  phone: str(),
  phone_formatted: t.String(),
  email: str(),
  gender: str(),
  company: str(),
  website: str(),
  address: str(),
  number: str(),
  complement: str(),
  district: str(),
  zip: str(),
  city: str(),
  state: str(),
  country: str(),
  description: str(),
  tags: t.Array(t.String()),
  groups: t.Array(GroupRef),
  custom: t.Array(
    t.Object({
      key: t.String(),
      label: t.String(),
      type: oneOf(CUSTOM_FIELD_TYPES),
      options: t.Array(t.String()),
      required: t.Boolean(),
      sensitive: t.Boolean(),
      visible_in_attendance: t.Boolean(),
      value: t.Union([t.String(), t.Number(), t.Null()], { description: "null when empty or masked" }),
      masked: t.Boolean({ description: "A value exists that the caller may not see" }),
    }),
  ),
  min_wait_time: t.Union([t.Number(), t.Null()], { description: "Seconds waited in the live-chat queue" }),
  avg_wait_time: t.Union([t.Number(), t.Null()], { description: "Seconds" }),
  max_wait_time: t.Union([t.Number(), t.Null()], { description: "Seconds" }),
  created_at: t.String({ format: "date-time" }),
  updated_at: t.String({ format: "date-time" }),
});

export const ContactSaved = t.Composite([Contact, t.Object({ inserted: t.Boolean({ description: "false: merged into the contact with the same mobile" }) })]);

export const ContactPage = t.Object({
  data: t.Array(
    t.Object({
      id: t.String({ format: "uuid" }),
      name: t.String(),
      first_name: str(),
      last_name: str(),
      mobile_number: str(),
      mobile_formatted: t.String(),
      email: str(),
      company: str(),
      city: str(),
      tags: t.Array(t.String()),
      groups: t.Array(t.String(), { description: "Group names" }),
      created_at: t.String({ format: "date-time" }),
    }),
  ),
  next_cursor: t.Union([t.String(), t.Null()], { description: "Send it back as `cursor` (same filters) for the next page; null on the last page" }),
  next: t.Union([t.String(), t.Null()], { deprecated: true, description: "Alias of next_cursor (sent back as `after`)" }),
  total: int({ description: "Matches of the filters, exact up to 10,000" }),
  total_capped: t.Boolean({ description: "true: there are more than 10,000 and total says 10,000" }),
});

export const ContactGroup = t.Object({
  id: t.String({ format: "uuid" }),
  name: t.String(),
  description: t.String({ description: "Empty when none" }),
  members: int({ description: "Contacts in the group" }),
  created_at: t.String({ format: "date-time" }),
});

export const GroupPage = Page(ContactGroup);

export const GroupDetail = t.Object({ group: ContactGroup, contacts: ContactPage });

export const GroupUpdated = t.Object({ id: t.String({ format: "uuid" }), name: t.String(), description: t.String() });

export const GroupDeleted = t.Object({ ok: t.Literal(true), id: t.String({ format: "uuid" }), name: t.String() });

export const CustomField = t.Object({
  id: t.String({ format: "uuid" }),
  key: t.String({ description: "The key of the value in a contact's custom map; fixed after creation" }),
  label: t.String(),
  type: oneOf(CUSTOM_FIELD_TYPES),
  options: t.Array(t.String(), { description: "The choices of a list field (empty for the other types)" }),
  required: t.Boolean(),
  sensitive: t.Boolean({ description: "Its values are masked for everyone but owner and admin" }),
  visible_in_attendance: t.Boolean(),
  position: int({ description: "Display order, ascending" }),
});

export const CustomFieldPage = Page(CustomField);

export const CustomFieldDeleted = t.Object({ ok: t.Literal(true), id: t.String({ format: "uuid" }), key: t.String() });

export const BulkDone = t.Object({
  action: oneOf(BULK_ACTIONS),
  count: int({ description: "Contacts deleted, added to the group (those already in it not counted) or removed from it" }),
});

export const ContactActivity = t.Object({
  conversations: t.Array(t.Object({ id: t.String(), channel: t.String(), status: t.String(), created_at: t.String({ format: "date-time" }) })),
  messages: t.Array(t.Object({ id: t.String(), channel: t.String(), direction: t.String(), status: t.String(), created_at: t.String({ format: "date-time" }) })),
  opt_outs: t.Array(t.Object({ channel: t.String(), created_at: t.String({ format: "date-time" }) })),
});

/** GET /contacts/{id}/export?format=json: the file's content (an attachment). */
export const ContactExport = t.Object({
  exported_at: t.String({ format: "date-time" }),
  contact: t.Record(t.String(), t.Unknown(), { description: "Every column of the contact row (dates as ISO 8601)" }),
  custom_fields: t.Array(
    t.Object({ key: t.String(), label: t.String(), type: oneOf(CUSTOM_FIELD_TYPES), sensitive: t.Boolean(), value: t.Union([t.String(), t.Number(), t.Null()]) }),
    { description: "Every custom value, sensitive ones too" },
  ),
  tags: t.Array(t.String()),
  groups: t.Array(t.Object({ id: t.String({ format: "uuid" }), name: t.String(), added_at: t.String({ format: "date-time" }) })),
  audit: t.Array(
    t.Object({
      id: t.String({ description: "The audit entry's id (a bigint, as text)" }),
      action: t.String(),
      by: t.Union([t.String({ description: "E-mail of the user" }), t.Null()]),
      at: t.String({ format: "date-time" }),
      meta: t.Record(t.String(), t.Unknown(), { description: "The entry's details" }),
    }),
    { description: "Audit entries naming the contact" },
  ),
});

export const ContactErased = t.Object({ id: t.String({ format: "uuid" }), erased: t.Literal(true) });

export const Ok = t.Object({ ok: t.Literal(true) });
