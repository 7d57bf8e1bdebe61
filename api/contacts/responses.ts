/**
 * The success answers of the main contact routes (get.ts, list.ts, save.ts), as TypeBox schemas
 * for the OpenAPI document (api/http/openapi.ts successResponse).
 */
import { Type } from "@sinclair/typebox";
import { t } from "elysia";

const int = Type.Integer;
const str = () => t.Union([t.String(), t.Null()]);
const Group = t.Object({ id: t.String({ format: "uuid" }), name: t.String() });

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
  groups: t.Array(Group),
  custom: t.Array(
    t.Object({
      key: t.String(),
      label: t.String(),
      type: t.String(),
      options: t.Array(t.String()),
      required: t.Boolean(),
      sensitive: t.Boolean(),
      visible_in_attendance: t.Boolean(),
      value: t.Union([t.String(), t.Number(), t.Null()]),
      masked: t.Boolean({ description: "A value exists that the caller may not see" }),
    }),
  ),
  min_wait_time: t.Union([t.Number(), t.Null()]),
  avg_wait_time: t.Union([t.Number(), t.Null()]),
  max_wait_time: t.Union([t.Number(), t.Null()]),
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
  next: t.Union([t.String(), t.Null()], { description: "Send it back as `after` for the next page" }),
  total: int({ description: "Exact up to 10,000" }),
  total_capped: t.Boolean(),
});

export const Ok = t.Object({ ok: t.Literal(true) });
