/**
 * Support tickets over the API (issue 23, ADR 061): the account's side under /support/tickets,
 * the platform staff's under /admin/tickets, and the signed links to attachments. Messages and new
 * tickets take JSON, or multipart with the same fields and an optional `file` (one attachment,
 * at most 10 MB, refused by its declared length before it is read). Thin: the use-cases
 * (./tickets.ts) check who, validate and scope.
 */
import { Elysia, t } from "elysia";
import { readLimited } from "../catalog/images";
import { authenticated } from "../http/auth";
import { created } from "../http/created";
import { createdResponse, errorResponses, fileResponse, requestBody, successResponse, zodBody } from "../http/openapi";
import { AppError } from "../lib/errors";
import { onePage } from "../lib/page";
import { pageQuery } from "../lib/page-schema";
import { FILE_MAX_BYTES } from "./constants";
import { fileTooLarge, type IncomingAttachment, signedFile } from "./files";
import { StaffPeople, TicketAnswer, TicketMessagePage, TicketPage } from "./responses";
import {
  answerTicket,
  assignableStaff,
  closeTicket,
  getTicket,
  getTicketAsStaff,
  listAllTickets,
  listTicketMessages,
  listTickets,
  openTicket,
  openTicketSchema,
  rateSchema,
  rateTicket,
  replySchema,
  replyToTicket,
  staffReplySchema,
  updateTicket,
  updateTicketSchema,
} from "./tickets";

/** What a multipart body may carry besides the file (boundaries, headers, the text fields). */
const SLACK = 64 * 1024;

/** The fields of a JSON or multipart body, and its file when one came. */
async function fieldsAndFile(request: Request): Promise<{ fields: Record<string, unknown>; file: IncomingAttachment | null }> {
  const type = request.headers.get("Content-Type") ?? "";
  if (!/^multipart\/form-data;/i.test(type)) {
    const fields = await request.json().catch(() => {
      throw new AppError("VALIDATION", { fields: { form: ["validation.invalid"] } });
    });
    return { fields: fields && typeof fields === "object" ? (fields as Record<string, unknown>) : {}, file: null };
  }
  const declared = Number(request.headers.get("Content-Length") ?? Number.NaN);
  if (Number.isFinite(declared) && declared > FILE_MAX_BYTES + SLACK) throw fileTooLarge();
  const body = await readLimited(request.body, FILE_MAX_BYTES + SLACK).catch((e) => {
    throw e instanceof AppError ? fileTooLarge() : e;
  });
  const form = await new Response(body, { headers: { "Content-Type": type } }).formData().catch(() => {
    throw new AppError("VALIDATION", { fields: { form: ["validation.invalid"] } });
  });
  const fields: Record<string, unknown> = {};
  let file: IncomingAttachment | null = null;
  for (const [k, v] of form.entries()) {
    const value = v as unknown as string | File;
    if (typeof value === "string") fields[k] = value;
    else if (k === "file" && value.size > 0) file = { name: value.name, bytes: new Uint8Array(await value.arrayBuffer()) };
  }
  return { fields, file };
}

const id = t.Object({ id: t.String() });
const multipart = (schema: Record<string, unknown>) => ({
  type: "object" as const,
  properties: {
    ...schema,
    file: { type: "string" as const, format: "binary", description: `One attachment: JPG, PNG, GIF, WebP, PDF, Word or ZIP, at most ${FILE_MAX_BYTES} bytes` },
  },
});
const withFile = (schema: Parameters<typeof zodBody>[0]) => {
  const json = zodBody(schema);
  const props = ((json.content["application/json"].schema as { properties?: Record<string, unknown> }).properties ?? {}) as Record<string, unknown>;
  return requestBody({ "application/json": json.content["application/json"].schema as object, "multipart/form-data": multipart(props) });
};
const listQuery = t.Object({
  status: t.Optional(t.String({ description: "open, in_progress, answered or closed" })),
  category: t.Optional(t.String({ description: "billing, technical, sms, whatsapp, email, rcs, live, account or other" })),
  ...pageQuery,
});

const customerRoutes = new Elysia({ name: "support-routes", tags: ["support"], detail: { security: [{ bearer: [] }] } })
  .use(authenticated)
  .get("/support/tickets", ({ ctx, query }) => listTickets(ctx, query), {
    query: listQuery,
    detail: { responses: { ...successResponse(TicketPage), ...errorResponses(403) }, summary: "The account's tickets, the latest activity first" },
  })
  .post(
    "/support/tickets",
    async ({ ctx, request, set }) => {
      const { fields, file } = await fieldsAndFile(request);
      const answer = await openTicket(ctx, fields, file);
      return created(set, `/api/support/tickets/${answer.data.id}`, answer);
    },
    {
      parse: "none",
      detail: {
        requestBody: withFile(openTicketSchema),
        responses: { ...createdResponse(TicketAnswer, "The ticket; Location is the ticket"), ...errorResponses(403, 422) },
        summary: "Open a ticket: category and subject required, a first message and one file optional; the platform's staff are told",
      },
    },
  )
  .get("/support/tickets/:id", ({ ctx, params }) => getTicket(ctx, params.id), {
    params: id,
    detail: { responses: { ...successResponse(TicketAnswer), ...errorResponses(403, 404) }, summary: "One ticket of the account with its conversation" },
  })
  .post(
    "/support/tickets/:id/messages",
    async ({ ctx, params, request }) => {
      const { fields, file } = await fieldsAndFile(request);
      return replyToTicket(ctx, params.id, fields, file);
    },
    {
      params: id,
      parse: "none",
      detail: {
        requestBody: withFile(replySchema),
        responses: { ...successResponse(TicketAnswer), ...errorResponses(403, 404, 409, 422) },
        summary: "Write on a ticket (it is the platform's turn again); a closed ticket takes none (TICKET_CLOSED)",
      },
    },
  )
  .post("/support/tickets/:id/close", ({ ctx, params }) => closeTicket(ctx, params.id), {
    params: id,
    detail: { responses: { ...successResponse(TicketAnswer), ...errorResponses(403, 404, 409) }, summary: "Close a ticket (solved): it can then be rated" },
  })
  .post("/support/tickets/:id/rating", ({ ctx, params, body }) => rateTicket(ctx, params.id, body), {
    params: id,
    body: t.Record(t.String(), t.Any()),
    detail: {
      requestBody: zodBody(rateSchema),
      responses: { ...successResponse(TicketAnswer), ...errorResponses(403, 404, 409) },
      summary: "Rate the answer of a closed ticket, 0 to 5, once (TICKET_NOT_CLOSED, TICKET_ALREADY_RATED)",
    },
  })
  .get("/support/messages", ({ ctx, query }) => listTicketMessages(ctx, query), {
    query: t.Object({ ...pageQuery }),
    detail: { responses: { ...successResponse(TicketMessagePage), ...errorResponses(403) }, summary: "The latest messages on the account's tickets, newest first" },
  });

const staffRoutes = new Elysia({ name: "support-admin-routes", tags: ["support"], detail: { security: [{ bearer: [] }] } })
  .use(authenticated)
  .get("/admin/tickets", ({ ctx, query }) => listAllTickets(ctx, query), {
    query: t.Object({
      status: t.Optional(t.String({ description: "open, in_progress, answered or closed" })),
      category: t.Optional(t.String()),
      assigned: t.Optional(t.String({ description: "me, none, or a staff person's id" })),
      q: t.Optional(t.String({ description: "A part of the subject or of the customer's name, or the ticket's number" })),
      ...pageQuery,
    }),
    detail: { responses: { ...successResponse(TicketPage), ...errorResponses(403) }, summary: "Every customer's tickets (platform staff), the latest activity first" },
  })
  .get("/admin/tickets/staff", async ({ ctx }) => onePage(await assignableStaff(ctx)), {
    detail: {
      responses: { ...successResponse(StaffPeople), ...errorResponses(403) },
      summary: "The platform's people a ticket can be assigned to (owners and admins of the platform; one page)",
    },
  })
  .get("/admin/tickets/:id", ({ ctx, params }) => getTicketAsStaff(ctx, params.id), {
    params: id,
    detail: { responses: { ...successResponse(TicketAnswer), ...errorResponses(403, 404) }, summary: "One ticket with its conversation" },
  })
  .put("/admin/tickets/:id", ({ ctx, params, body }) => updateTicket(ctx, params.id, body), {
    params: id,
    body: t.Record(t.String(), t.Any()),
    detail: {
      requestBody: zodBody(updateTicketSchema),
      responses: { ...successResponse(TicketAnswer), ...errorResponses(403, 404, 409) },
      summary: "Change a ticket's status and/or who is on it (assigned_to null: nobody); the customer is told of a new status",
    },
  })
  .post(
    "/admin/tickets/:id/messages",
    async ({ ctx, params, request }) => {
      const { fields, file } = await fieldsAndFile(request);
      return answerTicket(ctx, params.id, fields, file);
    },
    {
      params: id,
      parse: "none",
      detail: {
        requestBody: withFile(staffReplySchema),
        responses: { ...successResponse(TicketAnswer), ...errorResponses(403, 404, 409, 422) },
        summary: "Answer a ticket: it becomes the customer's turn (answered) or the status sent; the person who opened it is told",
      },
    },
  );

/** The signed links the screens make to a message's file. */
const fileRoutes = new Elysia({ name: "support-file-routes", tags: ["support"] }).get(
  "/support/files/:id",
  async ({ params, query }) => {
    const f = await signedFile(params.id, query.exp, query.sig);
    return new Response(Bun.file(f.path), {
      headers: {
        "Content-Type": f.media_type,
        "Content-Length": String(f.size),
        "Content-Disposition": `attachment; filename="${f.name.replace(/[^\x20-\x7e]/g, "_")}"; filename*=UTF-8''${encodeURIComponent(f.name)}`,
        "Cache-Control": "private, max-age=3600",
        "X-Content-Type-Options": "nosniff",
        "Content-Security-Policy": "default-src 'none'; sandbox",
      },
    });
  },
  {
    params: id,
    query: t.Object({ exp: t.Optional(t.String()), sig: t.Optional(t.String()) }),
    detail: {
      security: [],
      responses: { ...fileResponse({ "application/octet-stream": "The attachment's bytes (its own media type)" }), ...errorResponses(404) },
      summary: "An attachment of a ticket's message, through the signed link the ticket's answer gives (expires in a day)",
    },
  },
);

export const supportApi = new Elysia({ name: "support-api" }).use(customerRoutes).use(staffRoutes).use(fileRoutes);
