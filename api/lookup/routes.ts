/**
 * Number lookup API (issue 22, ADR 058), one plugin of the app (api/app.ts): one number, lists
 * (CSV upload or a contact group), their results and CSV export, cleaning a group, usage. Thin:
 * the use-cases in ./services check the role and scope every query by account.
 */
import { Elysia, t } from "elysia";
import { authenticated } from "../http/auth";
import { created } from "../http/created";
import { createdResponse, errorResponses, fileResponse, successResponse } from "../http/openapi";
import { boundaryOf, MultipartReader } from "../imports/multipart";
import { AppError } from "../lib/errors";
import { fromAcceptLanguage } from "../lib/i18n";
import * as R from "./responses";
import { cleanGroup, createFileList, createGroupList, exportResults, getList, listLists, listResults, lookupNumber, lookupUsage, recentLookups } from "./services";

const id = t.Object({ id: t.String() });
const created201 = (...a: Parameters<typeof createdResponse>) => createdResponse(...a) as unknown as ReturnType<typeof successResponse>;
const csv = (chunks: AsyncGenerator<string>, name: string) => {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const r = await chunks.next();
      if (r.done) controller.close();
      else controller.enqueue(encoder.encode(r.value));
    },
    async cancel() {
      await chunks.return(undefined);
    },
  });
  return new Response(body, {
    headers: { "Content-Type": "text/csv; charset=utf-8", "Content-Disposition": `attachment; filename="${name}"`, "Cache-Control": "private, no-store" },
  });
};
const csvDoc = (what: string) =>
  fileResponse({ "text/csv": "UTF-8, header line,number,status,valid,type,country,carrier,original_carrier,ported,price,currency,created_at" }, what) as unknown as ReturnType<
    typeof successResponse
  >;

export const lookupApi = new Elysia({ prefix: "/lookup", tags: ["lookup"], detail: { security: [{ bearer: [] }] } })
  .use(authenticated)
  .get(
    "",
    async ({ ctx, query }) => {
      const r = await lookupNumber(ctx, query.number);
      return { number: r.number, valid: r.valid, type: r.type, carrier: r.carrier, ported: r.ported, country: r.country };
    },
    {
      query: t.Object({ number: t.Optional(t.String({ description: "E.164: + and 8 to 15 digits, e.g. +5511987654321" })) }),
      detail: {
        responses: { ...successResponse(R.LookupAnswer), ...errorResponses(402, 422, 502) },
        summary:
          "Look up one number: valid, type (mobile, landline, voip), carrier, ported, country. Charged the account's lookup price (402 INSUFFICIENT_BALANCE, nothing asked); a number that is not E.164: 422 naming the rule; 502 PROVIDER_UNAVAILABLE refunded",
      },
    },
  )
  .get("/results", async ({ ctx, query }) => ({ data: await recentLookups(ctx, Number(query.limit ?? 50)), next_cursor: null }), {
    query: t.Object({ limit: t.Optional(t.String()) }),
    detail: { responses: successResponse(R.LookupResults), summary: "The account's single lookups, newest first (limit, 50 by default, at most 200)" },
  })
  .get("/results.csv", async ({ ctx }) => csv(await exportResults(ctx, null), "lookups.csv"), {
    detail: { responses: csvDoc("The account's single lookups as CSV, newest first (streamed)"), summary: "Export the single lookups (CSV)" },
  })
  .post(
    "/lists",
    async ({ ctx, request, set }) => {
      const boundary = boundaryOf(request.headers.get("Content-Type"));
      if (!boundary || !request.body) throw new AppError("VALIDATION", { fields: { file: ["validation.required"] } });
      const reader = new MultipartReader(request.body, boundary);
      let cleanGroupId: string | null = null;
      try {
        for await (const part of reader.parts()) {
          if (part.kind === "field" && part.field === "clean_group_id") cleanGroupId = part.value || null;
          if (part.kind === "file") {
            const view = await createFileList(ctx, { name: part.name, stream: part.stream }, { cleanGroupId });
            await reader.drain().catch(() => undefined);
            return created(set, `/api/lookup/lists/${view.id}`, view);
          }
        }
      } catch (e) {
        await reader.drain().catch(() => undefined);
        throw e;
      }
      throw new AppError("VALIDATION", { fields: { file: ["validation.required"] } });
    },
    {
      parse: "none",
      detail: {
        responses: { ...created201(R.LookupList, "Queued: Location is the list"), ...errorResponses(402, 422) },
        summary:
          "Look up a CSV list (multipart: optional field `clean_group_id` first, then the file `file`; the contact import's rules: .csv, up to 1,000,000 rows, a mobile number column — 422 IMPORT_MISSING_MOBILE). Charged per data row at once (402 INSUFFICIENT_BALANCE), bad lines refunded when it ends",
        requestBody: {
          required: true,
          content: {
            "multipart/form-data": {
              schema: { type: "object", properties: { clean_group_id: { type: "string", format: "uuid" }, file: { type: "string", format: "binary" } }, required: ["file"] },
            },
          },
        },
      },
    },
  )
  .post(
    "/lists/group",
    async ({ ctx, body, set }) => {
      const view = await createGroupList(ctx, { groupId: body.group_id, clean: body.clean ?? false });
      return created(set, `/api/lookup/lists/${view.id}`, view);
    },
    {
      body: t.Object({ group_id: t.String({ description: "A contact group of the account" }), clean: t.Optional(t.Boolean({ description: "Clean the group when it finishes" })) }),
      detail: {
        responses: { ...created201(R.LookupList, "Queued: Location is the list"), ...errorResponses(402, 422) },
        summary: "Look up the mobile numbers of a contact group, charged per number; `clean`: move its invalid and landline numbers to a new group when it finishes",
      },
    },
  )
  .get("/lists", async ({ ctx, query }) => ({ data: await listLists(ctx, Number(query.limit ?? 20)), next_cursor: null }), {
    query: t.Object({ limit: t.Optional(t.String()) }),
    detail: { responses: successResponse(R.LookupLists), summary: "The account's list lookups, newest first, with their progress" },
  })
  .get("/lists/:id", ({ ctx, params }) => getList(ctx, params.id), {
    params: id,
    detail: { responses: { ...successResponse(R.LookupList), ...errorResponses(404) }, summary: "One list: status, percent, counts, charged and refunded" },
  })
  .get(
    "/lists/:id/results",
    async ({ ctx, params, query }) => {
      const limit = Math.min(1000, Math.max(1, Number(query.limit ?? 50) || 50));
      const data = await listResults(ctx, params.id, { after: Number(query.cursor ?? query.after ?? 0) || 0, limit });
      return { data, next_cursor: data.length === limit ? String(data[data.length - 1].line) : null };
    },
    {
      params: id,
      query: t.Object({
        cursor: t.Optional(t.String({ description: "The next_cursor of the previous page (its last line)" })),
        after: t.Optional(t.String({ description: "Same as cursor" })),
        limit: t.Optional(t.String()),
      }),
      detail: { responses: { ...successResponse(R.LookupResults), ...errorResponses(404) }, summary: "A list's results in line order (after, limit up to 1,000)" },
    },
  )
  .get("/lists/:id/results.csv", async ({ ctx, params }) => csv(await exportResults(ctx, params.id), `lookup-${params.id}.csv`), {
    params: id,
    detail: { responses: { ...csvDoc("A list's results as CSV in line order (streamed)"), ...errorResponses(404) }, summary: "Export a list's results (CSV)" },
  })
  .post("/lists/:id/clean", ({ ctx, params, body, request }) => cleanGroup(ctx, params.id, body.group_id, fromAcceptLanguage(request.headers.get("Accept-Language"))), {
    params: id,
    body: t.Object({ group_id: t.String({ description: "A contact group of the account" }) }),
    detail: {
      responses: { ...successResponse(R.LookupCleaned), ...errorResponses(404, 422) },
      summary: "Clean a group with a finished list: its contacts whose number the list found invalid or a landline move to a new group (ADR 058)",
    },
  })
  .get("/usage", ({ ctx, query }) => lookupUsage(ctx, query), {
    query: t.Object({ from: t.Optional(t.String({ format: "date" })), to: t.Optional(t.String({ format: "date" })) }),
    detail: {
      responses: { ...successResponse(R.LookupUsage), ...errorResponses(422) },
      summary: "Lookups and their cost per São Paulo day (from, to: yyyy-MM-dd; the last 30 days by default)",
    },
  });
