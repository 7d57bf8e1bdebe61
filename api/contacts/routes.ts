/**
 * Contacts API: contacts, bulk actions, LGPD export and erasure, groups and custom fields. The
 * route schemas document the shapes; the use-cases validate them (same zod schemas as the screens)
 * and enforce permission and account scoping. /groups, /fields and /bulk come before /:id.
 */
import { Elysia, t } from "elysia";
import { errorResponses, successResponse } from "../http/openapi";
import * as R from "./responses";
import { BULK_ACTIONS } from "./schemas";
import { CUSTOM_FIELD_TYPES, GENDERS } from "../../models/constants";
import { authenticated } from "../http/auth";
import {
  bulkContacts,
  contactActivity,
  createCustomField,
  createGroup,
  deleteContact,
  deleteCustomField,
  deleteGroup,
  eraseContact,
  exportContact,
  getContact,
  getCustomField,
  getGroup,
  listContacts,
  listCustomFields,
  listGroups,
  saveContact,
  updateContact,
  updateCustomField,
  updateGroup,
} from "./services";

const bearer = [{ bearer: [] }];
const id = t.Object({ id: t.String() });
/** A union of literals, not t.UnionEnum: Elysia fills an absent optional UnionEnum with its first value (a missing role became "owner"). */
const oneOf = (values: readonly string[]) => t.Union(values.map((v) => t.Literal(v)));
const text = t.Optional(t.Union([t.String(), t.Null()]));

const listQuery = t.Object({
  q: t.Optional(t.String({ description: "Search in names, e-mail, mobile number (digits) and company" })),
  group: t.Optional(t.String({ description: "Group id" })),
  tag: t.Optional(t.String()),
  field: t.Optional(t.String({ description: "Custom field key (with value: equality)" })),
  value: t.Optional(t.String()),
  after: t.Optional(t.String({ description: "Cursor: the `next` of the previous page" })),
});

const contactBody = t.Object(
  {
    name: t.Optional(t.Union([t.String({ description: "Full name, split at the first space when first_name/last_name are absent" }), t.Null()])),
    first_name: text, last_name: text,
    mobile_number: t.Optional(t.Union([t.String({ description: "Any format; stored E.164 (+55 assumed for 10 or 11 digits). Creating with an existing number merges into that contact" }), t.Null()])),
    phone: text, email: text,
    birth_date: t.Optional(t.Union([t.String({ description: "YYYY-MM-DD or dd/mm/yyyy" }), t.Null()])),
    gender: t.Optional(t.Union([oneOf(GENDERS), t.Literal(""), t.Null()])),
    company: text, website: text, address: text, number: text, complement: text, district: text, zip: text, city: text, state: text, country: text, description: text,
    tags: t.Optional(t.Union([t.String({ description: "Comma-separated" }), t.Array(t.String()), t.Null()])),
    custom: t.Optional(t.Record(t.String(), t.Union([t.String(), t.Number(), t.Null()]), { description: "Custom field key -> value" })),
    group_ids: t.Optional(t.Array(t.String())),
  },
  { additionalProperties: true },
);

const groupBody = t.Object({ name: t.String(), description: t.Optional(t.Union([t.String(), t.Null()])) });

const fieldFlags = {
  label: t.String(),
  type: oneOf(CUSTOM_FIELD_TYPES),
  options: t.Optional(t.Union([t.Array(t.String()), t.String(), t.Null()], { description: "Options of a list field" })),
  required: t.Optional(t.Boolean()),
  sensitive: t.Optional(t.Boolean({ description: "Masked for everyone but owner and admin" })),
  visible_in_attendance: t.Optional(t.Boolean()),
  position: t.Optional(t.Integer({ minimum: 0 })),
};

export const contactRoutes = new Elysia({ prefix: "/contacts", tags: ["contacts"], detail: { security: bearer } })
  .use(authenticated)
  .get("/groups", ({ ctx }) => listGroups(ctx), { detail: { summary: "Contact groups of the acting account with their member counts" } })
  .post("/groups", ({ ctx, body }) => createGroup(ctx, body), { body: groupBody, detail: { summary: "Create a group (409 GROUP_NAME_TAKEN for a name in use, case-insensitive)" } })
  .get("/groups/:id", ({ ctx, params, query }) => getGroup(ctx, params.id, query), {
    params: id,
    query: listQuery,
    detail: { summary: "A group and a keyset page (50) of its contacts: {group, contacts: {data, next, total, total_capped}}" },
  })
  .put("/groups/:id", ({ ctx, params, body }) => updateGroup(ctx, params.id, body), { params: id, body: groupBody, detail: { summary: "Rename or describe a group" } })
  .delete("/groups/:id", async ({ ctx, params }) => ({ ok: true, ...(await deleteGroup(ctx, params.id)) }), {
    params: id,
    detail: { summary: "Delete a group; its members stay as contacts" },
  })
  .get("/fields", ({ ctx }) => listCustomFields(ctx), { detail: { summary: "Custom contact fields of the acting account, in display order" } })
  .post("/fields", ({ ctx, body }) => createCustomField(ctx, body), {
    body: t.Object({ key: t.String({ description: "^[a-z][a-z0-9_]{0,39}$, fixed after creation" }), ...fieldFlags }),
    detail: { summary: "Define a custom field (owner or admin; 409 CUSTOM_FIELD_TAKEN for a key in use)" },
  })
  .get("/fields/:id", ({ ctx, params }) => getCustomField(ctx, params.id), { params: id, detail: { summary: "One custom field" } })
  .put("/fields/:id", ({ ctx, params, body }) => updateCustomField(ctx, params.id, body), {
    params: id,
    body: t.Object(fieldFlags),
    detail: { summary: "Edit a custom field (owner or admin); stored values are not rewritten when the type changes" },
  })
  .delete("/fields/:id", async ({ ctx, params }) => ({ ok: true, ...(await deleteCustomField(ctx, params.id)) }), {
    params: id,
    detail: { summary: "Delete a custom field (owner or admin) and its values from every contact" },
  })
  .get("", ({ ctx, query }) => listContacts(ctx, query), {
    query: listQuery,
    detail: { responses: successResponse(R.ContactPage), summary: "Contacts, newest first, 50 a page by keyset (`after`); total is exact up to 10,000 (total_capped beyond)" },
  })
  .post(
    "",
    async ({ ctx, body }) => {
      const { id: contactId, inserted } = await saveContact(ctx, body);
      return { ...(await getContact(ctx, contactId)), inserted };
    },
    { body: contactBody, detail: { responses: successResponse(R.ContactSaved), summary: "Create a contact, or merge into the one with the same mobile number (inserted: false)" } },
  )
  .post("/bulk", ({ ctx, body }) => bulkContacts(ctx, body), {
    body: t.Object({ action: oneOf(BULK_ACTIONS), ids: t.Array(t.String(), { maxItems: 1000 }), group_id: t.Optional(t.String()) }),
    detail: { summary: "Delete contacts, or add them to / remove them from a group (ids of other accounts are ignored); answers {action, count}" },
  })
  .get("/:id", ({ ctx, params }) => getContact(ctx, params.id), {
    params: id,
    detail: { responses: successResponse(R.Contact), summary: "One contact with groups and custom values (sensitive values masked unless owner or admin)" },
  })
  .put(
    "/:id",
    async ({ ctx, params, body }) => {
      await updateContact(ctx, params.id, body);
      return getContact(ctx, params.id);
    },
    { params: id, body: contactBody, detail: { responses: { ...successResponse(R.Contact), ...errorResponses(409) }, summary: "Replace a contact's fields (409 NUMBER_ALREADY_REGISTERED when the mobile is another contact's)" } },
  )
  .delete(
    "/:id",
    async ({ ctx, params }) => {
      await deleteContact(ctx, params.id);
      return { ok: true };
    },
    { params: id, detail: { responses: successResponse(R.Ok), summary: "Delete a contact" } },
  )
  .get("/:id/activity", ({ ctx, params }) => contactActivity(ctx, params.id), {
    params: id,
    detail: { summary: "The person's conversations, messages and opt-outs across channels" },
  })
  .get(
    "/:id/export",
    async ({ ctx, params, query, set }) => {
      const file = await exportContact(ctx, params.id, query.format ?? "json");
      set.headers["content-type"] = file.contentType;
      set.headers["content-disposition"] = `attachment; filename="${file.filename}"`;
      set.headers["cache-control"] = "no-store";
      return file.body;
    },
    {
      params: id,
      query: t.Object({ format: t.Optional(oneOf(["json", "csv"])) }),
      detail: { summary: "LGPD: everything held about the contact as JSON or CSV (owner or admin; audited)" },
    },
  )
  .post("/:id/erase", ({ ctx, params }) => eraseContact(ctx, params.id), {
    params: id,
    detail: { summary: "LGPD: erase the contact (owner or admin); the audit keeps only its id" },
  });
