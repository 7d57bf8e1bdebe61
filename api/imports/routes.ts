/** CSV import API: upload (streamed multipart), status, start with a mapping, error report. Rules live in ./services. */
import { Elysia, t } from "elysia";
import { authenticated } from "../http/auth";
import { AppError } from "../lib/errors";
import { boundaryOf, MultipartReader } from "./multipart";
import { createImport, errorReport, getImport, listImports, startImport, type ImportUpload } from "./services";

const id = t.Object({ id: t.String() });

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
        set.status = 201;
        return view;
      } catch (e) {
        await reader.drain().catch(() => undefined);
        throw e;
      }
    },
    {
      parse: "none",
      detail: {
        summary: "Upload up to 10 .csv files (multipart field `files`, repeated; up to 1,000,000 rows each). Answers the import with each file's columns, a 5-row preview and a suggested mapping",
        requestBody: {
          required: true,
          content: { "multipart/form-data": { schema: { type: "object", properties: { files: { type: "array", items: { type: "string", format: "binary" } } }, required: ["files"] } } },
        },
      },
    },
  )
  .get("", ({ ctx }) => listImports(ctx), { detail: { summary: "The account's last 20 imports, newest first" } })
  .get("/:id", ({ ctx, params }) => getImport(ctx, params.id), {
    params: id,
    detail: { summary: "An import's status and progress: status, percent, rowsPerSecond, processed/inserted/merged rows, errorCount, failure" },
  })
  .post(
    "/:id/start",
    ({ ctx, params, body }) => startImport(ctx, params.id, { mapping: body.mapping, groupId: body.group_id ?? null, newGroupName: body.new_group_name ?? null }),
    {
      params: id,
      body: t.Object({
        mapping: t.Record(t.String(), t.String(), { description: 'CSV header -> contact field (first_name, mobile_number, email…), "name", "custom:<key>" or "" to ignore' }),
        group_id: t.Optional(t.Union([t.String(), t.Null()])),
        new_group_name: t.Optional(t.Union([t.String(), t.Null()])),
      }),
      detail: { summary: "Start an uploaded import with its column mapping; optionally add the contacts to a group (existing id or a new name)" },
    },
  )
  .get(
    "/:id/errors",
    async ({ ctx, params }) =>
      new Response(await errorReport(ctx, params.id), {
        headers: { "Content-Type": "text/csv; charset=utf-8", "Content-Disposition": `attachment; filename="import-${params.id}-errors.csv"` },
      }),
    { params: id, detail: { summary: "The error report (CSV: file, line, column, value, error) of rejected lines" } },
  );
