/** CSV import API: upload (streamed multipart), status, start with a mapping, error report. Rules live in ./services. */
import { Elysia, t } from "elysia";
import { authenticated } from "../http/auth";
import { created } from "../http/created";
import { createdResponse, errorResponses, fileResponse, successResponse } from "../http/openapi";
import { AppError } from "../lib/errors";
import { fromAcceptLanguage, translate } from "../lib/i18n";
import { pageQuery } from "../lib/page-schema";
import * as R from "./responses";
import { boundaryOf, MultipartReader } from "./multipart";
import { errorReportWithMessages } from "./report";
import { createImport, getImport, listImports, startImport, type ImportUpload, type ImportView } from "./services";

const id = t.Object({ id: t.String() });
const created201 = (...a: Parameters<typeof createdResponse>) => createdResponse(...a) as unknown as ReturnType<typeof successResponse>;

/** The view as the API answers it: the failure's key also as a message in the caller's language. */
function withMessage(view: ImportView, request: Request) {
  const locale = fromAcceptLanguage(request.headers.get("Accept-Language"));
  const [ns, ...rest] = (view.failure ?? "").split(".");
  return { ...view, failureMessage: view.failure ? translate(locale, `${ns}:${rest.join(".")}`, view.failureParams) : null };
}

async function* fileParts(reader: MultipartReader): AsyncGenerator<ImportUpload> {
  for await (const part of reader.files()) yield { name: part.name, stream: part.stream };
}

export const importRoutes = new Elysia({ prefix: "/contacts/imports", tags: ["contacts"], detail: { security: [{ bearer: [] }] } })
  .use(authenticated)
  .post(
    "",
    async ({ ctx, request, set }) => {
      const boundary = boundaryOf(request.headers.get("Content-Type"));
      if (!boundary || !request.body) throw new AppError("VALIDATION", { fields: { files: ["validation.required"] } });
      const reader = new MultipartReader(request.body, boundary);
      try {
        const view = await createImport(ctx, fileParts(reader));
        return created(set, `/api/contacts/imports/${view.id}`, withMessage(view, request));
      } catch (e) {
        await reader.drain().catch(() => undefined);
        throw e;
      }
    },
    {
      parse: "none",
      detail: {
        responses: created201(R.ContactImport, "Uploaded (status uploaded): Location is the import"),
        summary:
          "Upload up to 10 .csv files (multipart field `files`, repeated; up to 1,000,000 rows each). Answers the import with each file's columns, a 5-row preview and a suggested mapping",
        requestBody: {
          required: true,
          content: {
            "multipart/form-data": { schema: { type: "object", properties: { files: { type: "array", items: { type: "string", format: "binary" } } }, required: ["files"] } },
          },
        },
      },
    },
  )
  .get(
    "",
    async ({ ctx, query, request }) => {
      const page = await listImports(ctx, query);
      return { ...page, data: page.data.map((v) => withMessage(v, request)) };
    },
    {
      query: t.Object(pageQuery),
      detail: { responses: successResponse(R.ContactImportPage), summary: "The account's imports, newest first (created_at, id), keyset paged (cursor, limit)" },
    },
  )
  .get("/:id", async ({ ctx, params, request }) => withMessage(await getImport(ctx, params.id), request), {
    params: id,
    detail: {
      responses: successResponse(R.ContactImport),
      summary: "An import's status and progress: status, percent, rowsPerSecond, processed/inserted/merged rows, errorCount, failure",
    },
  })
  .post(
    "/:id/start",
    async ({ ctx, params, body, request }) =>
      withMessage(await startImport(ctx, params.id, { mapping: body.mapping, groupId: body.group_id ?? null, newGroupName: body.new_group_name ?? null }), request),
    {
      params: id,
      body: t.Object({
        mapping: t.Record(t.String(), t.String(), { description: 'CSV header -> contact field (first_name, mobile_number, email…), "name", "custom:<key>" or "" to ignore' }),
        group_id: t.Optional(t.Union([t.String(), t.Null()])),
        new_group_name: t.Optional(t.Union([t.String(), t.Null()])),
      }),
      detail: {
        responses: { ...successResponse(R.ContactImport, "Started (status queued)"), ...errorResponses(409) },
        summary:
          "Start an uploaded import with its column mapping; optionally add the contacts to a group (existing id or a new name). 409 IMPORT_NOT_READY when it is not waiting for its mapping",
      },
    },
  )
  .get(
    "/:id/errors",
    async ({ ctx, params, request }) =>
      new Response(await errorReportWithMessages(ctx, params.id, fromAcceptLanguage(request.headers.get("Accept-Language"))), {
        headers: { "Content-Type": "text/csv; charset=utf-8", "Content-Disposition": `attachment; filename="import-${params.id}-errors.csv"` },
      }),
    {
      params: id,
      detail: {
        responses: fileResponse(
          {
            "text/csv":
              "UTF-8, header file,line,column,value,error,message; one row per rejected line: error is a stable key (errors.IMPORT_INVALID_NUMBER…), message that error in the caller's language (Accept-Language)",
          },
          "The error report (an attachment)",
        ) as unknown as ReturnType<typeof successResponse>,
        summary: "The error report (CSV: file, line, column, value, error, message) of rejected lines; 404 until the job has written it",
      },
    },
  );
