/**
 * Contacts API: contacts, bulk actions, LGPD export and erasure, groups and custom fields. The
 * route schemas document the shapes; the use-cases validate them (same zod schemas as the screens)
 * and enforce permission and account scoping. /groups, /fields and /bulk come before /:id.
 */
import { Elysia, t } from "elysia";
import { created } from "../http/created";
import { createdResponse as created201, errorResponses, successResponse } from "../http/openapi";
import { pageQuery } from "../lib/page-schema";
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
  listGroups,
  pageCustomFields,
  saveContact,
  updateContact,
  updateCustomField,
  updateGroup,
} from "./services";

const bearer = [{ bearer: [] }];
/** openapi's createdResponse, typed for `detail.responses` (its Location header schema is typed `type: string`, which ResponsesObject refuses). */
const createdResponse = (...a: Parameters<typeof created201>) => created201(...a) as unknown as ReturnType<typeof successResponse>;
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
  ...pageQuery,
  after: t.Optional(t.String({ deprecated: true, description: "Alias of cursor (the `next` of the previous answer)" })),
});

const contactBody = t.Object(
  {
    name: t.Optional(t.Union([t.String({ description: "Full name, split at the first space when first_name/last_name are absent" }), t.Null()])),
    first_name: text,
    last_name: text,
    mobile_number: t.Optional(
      t.Union([t.String({ description: "Any format; stored E.164 (+55 assumed for 10 or 11 digits). Creating with an existing number merges into that contact" }), t.Null()]),
    ),
    phone: text,
    email: text,
    birth_date: t.Optional(t.Union([t.String({ description: "YYYY-MM-DD or dd/mm/yyyy" }), t.Null()])),
    gender: t.Optional(t.Union([oneOf(GENDERS), t.Literal(""), t.Null()])),
    company: text,
    website: text,
    address: text,
    number: text,
    complement: text,
    district: text,
    zip: text,
    city: text,
    state: text,
    country: text,
    description: text,
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
  .get("/groups", ({ ctx, query }) => listGroups(ctx, query), {
    query: t.Object(pageQuery),
    detail: {
      responses: successResponse(R.GroupPage),
      summary: "Contact groups of the acting account with their member counts, by name (case-insensitive), keyset paged (cursor, limit)",
    },
  })
  .post(
    "/groups",
    async ({ ctx, body, set }) => {
      const group = await createGroup(ctx, body);
      return created(set, `/api/contacts/groups/${group.id}`, group);
    },
    {
      body: groupBody,
      detail: { responses: { ...createdResponse(R.ContactGroup), ...errorResponses(409) }, summary: "Create a group (409 GROUP_NAME_TAKEN for a name in use, case-insensitive)" },
    },
  )
  .get("/groups/:id", ({ ctx, params, query }) => getGroup(ctx, params.id, query), {
    params: id,
    query: listQuery,
    detail: {
      responses: successResponse(R.GroupDetail),
      summary: "A group and a keyset page of its contacts, filtered as GET /contacts: {group, contacts: {data, next_cursor, total, total_capped}}",
    },
  })
  .put("/groups/:id", ({ ctx, params, body }) => updateGroup(ctx, params.id, body), {
    params: id,
    body: groupBody,
    detail: { responses: { ...successResponse(R.GroupUpdated), ...errorResponses(409) }, summary: "Rename or describe a group (409 GROUP_NAME_TAKEN for a name in use)" },
  })
  .delete("/groups/:id", async ({ ctx, params }) => ({ ok: true as const, ...(await deleteGroup(ctx, params.id)) }), {
    params: id,
    detail: { responses: successResponse(R.GroupDeleted), summary: "Delete a group; its members stay as contacts" },
  })
  .get("/fields", ({ ctx, query }) => pageCustomFields(ctx, query), {
    query: t.Object(pageQuery),
    detail: {
      responses: successResponse(R.CustomFieldPage),
      summary: "Custom contact fields of the acting account, in display order (position, label), keyset paged (cursor, limit)",
    },
  })
  .post(
    "/fields",
    async ({ ctx, body, set }) => {
      const field = await createCustomField(ctx, body);
      return created(set, `/api/contacts/fields/${field.id}`, field);
    },
    {
      body: t.Object({ key: t.String({ description: "^[a-z][a-z0-9_]{0,39}$, fixed after creation" }), ...fieldFlags }),
      detail: {
        responses: { ...createdResponse(R.CustomField), ...errorResponses(409) },
        summary: "Define a custom field (owner or admin; 409 CUSTOM_FIELD_TAKEN for a key in use)",
      },
    },
  )
  .get("/fields/:id", ({ ctx, params }) => getCustomField(ctx, params.id), { params: id, detail: { responses: successResponse(R.CustomField), summary: "One custom field" } })
  .put("/fields/:id", ({ ctx, params, body }) => updateCustomField(ctx, params.id, body), {
    params: id,
    body: t.Object(fieldFlags),
    detail: { responses: successResponse(R.CustomField), summary: "Edit a custom field (owner or admin); stored values are not rewritten when the type changes" },
  })
  .delete("/fields/:id", async ({ ctx, params }) => ({ ok: true as const, ...(await deleteCustomField(ctx, params.id)) }), {
    params: id,
    detail: { responses: successResponse(R.CustomFieldDeleted), summary: "Delete a custom field (owner or admin) and its values from every contact" },
  })
  .get("", ({ ctx, query }) => listContacts(ctx, query), {
    query: listQuery,
    detail: {
      responses: successResponse(R.ContactPage),
      summary:
        "Contacts, newest first (created_at, id), keyset paged (cursor, limit: 50 by default); total is exact up to 10,000 (total_capped beyond). `after`/`next` are deprecated aliases of cursor/next_cursor",
    },
  })
  .post(
    "",
    async ({ ctx, body, set }) => {
      const { id: contactId, inserted } = await saveContact(ctx, body);
      const contact = { ...(await getContact(ctx, contactId)), inserted };
      // A new contact is created (201 + Location); a merge into an existing one is not (200).
      return inserted ? created(set, `/api/contacts/${contactId}`, contact) : contact;
    },
    {
      body: contactBody,
      detail: {
        responses: {
          ...createdResponse(R.ContactSaved, "Created: a new contact (inserted: true)"),
          ...successResponse(R.ContactSaved, "Merged into the contact with the same mobile number (inserted: false)"),
        },
        summary: "Create a contact (201 + Location), or merge into the one with the same mobile number (200, inserted: false)",
      },
    },
  )
  .post("/bulk", ({ ctx, body }) => bulkContacts(ctx, body), {
    body: t.Object({ action: oneOf(BULK_ACTIONS), ids: t.Array(t.String(), { maxItems: 1000 }), group_id: t.Optional(t.String()) }),
    detail: {
      responses: successResponse(R.BulkDone),
      summary: "Delete contacts, or add them to / remove them from a group (ids of other accounts are ignored); answers {action, count}",
    },
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
    {
      params: id,
      body: contactBody,
      detail: {
        responses: { ...successResponse(R.Contact), ...errorResponses(409) },
        summary: "Replace a contact's fields (409 NUMBER_ALREADY_REGISTERED when the mobile is another contact's)",
      },
    },
  )
  .delete(
    "/:id",
    async ({ ctx, params }) => {
      await deleteContact(ctx, params.id);
      return { ok: true as const };
    },
    { params: id, detail: { responses: successResponse(R.Ok), summary: "Delete a contact" } },
  )
  .get("/:id/activity", ({ ctx, params }) => contactActivity(ctx, params.id), {
    params: id,
    detail: { responses: successResponse(R.ContactActivity), summary: "The person's conversations, messages and opt-outs across channels" },
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
      detail: {
        responses: {
          "200": {
            description: "The file (Content-Disposition: attachment; contato-<id>.json or .csv)",
            content: {
              "application/json": { schema: R.ContactExport },
              "text/csv": { schema: { type: "string", description: "UTF-8 with BOM: key,value rows of the same data (contact.first_name, custom_fields.0.value…)" } },
            },
          },
        } as unknown as ReturnType<typeof successResponse>,
        summary: "LGPD: everything held about the contact as JSON or CSV (owner or admin; audited)",
      },
    },
  )
  .post("/:id/erase", ({ ctx, params }) => eraseContact(ctx, params.id), {
    params: id,
    detail: { responses: successResponse(R.ContactErased), summary: "LGPD: erase the contact (owner or admin); the audit keeps only its id" },
  });
