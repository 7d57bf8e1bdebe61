/**
 * The success answers of the CSV import routes (./services ImportView), as TypeBox schemas for the
 * OpenAPI document (api/http/openapi.ts). In tests every JSON answer is checked against them.
 */
import { Type } from "@sinclair/typebox";
import { t } from "elysia";
import { IMPORT_STATUSES } from "../../models/constants";
import { Page } from "../lib/page-schema";

const int = Type.Integer;
const nullable = <T extends Parameters<typeof t.Union>[0][number]>(s: T) => t.Union([s, t.Null()]);

export const ContactImport = t.Object({
  id: t.String({ format: "uuid" }),
  status: t.Union(
    IMPORT_STATUSES.map((s) => t.Literal(s)),
    {
      description: "uploaded (waiting for its mapping), queued, running, completed or failed",
    },
  ),
  files: t.Array(
    t.Object({
      name: t.String(),
      size: int({ description: "Bytes" }),
      columns: t.Array(t.String(), { description: "The header's columns" }),
      preview: t.Array(t.Array(t.String()), { description: "The first rows (up to 5), cell by cell" }),
      delimiter: t.Union([t.Literal(","), t.Literal(";")]),
    }),
  ),
  mapping: t.Record(t.String(), t.String(), { description: "The mapping it was started with: CSV header -> contact field" }),
  suggestedMapping: t.Record(t.String(), t.String(), { description: "CSV header -> the contact field guessed from its name" }),
  groupId: nullable(t.String({ format: "uuid" })),
  totalRows: int({ description: "Data rows of all files" }),
  processedRows: int(),
  insertedRows: int({ description: "New contacts" }),
  mergedRows: int({ description: "Rows merged into an existing contact with the same mobile" }),
  errorCount: int({ description: "Rejected rows (GET .../errors lists them)" }),
  percent: int({ description: "0 to 100" }),
  rowsPerSecond: int(),
  failure: nullable(t.String({ description: "Why the import failed: a stable key (errors.IMPORT_LAYOUT, errors.IMPORT_TOO_MANY_ROWS…)" })),
  failureParams: t.Record(t.String(), t.Union([t.String(), t.Number()]), { description: "Values of the failure's message (the file's name)" }),
  failureMessage: nullable(t.String({ description: "The failure in the caller's language (Accept-Language)" })),
  startedAt: nullable(t.String({ format: "date-time" })),
  finishedAt: nullable(t.String({ format: "date-time" })),
  createdAt: t.String({ format: "date-time" }),
});

export const ContactImportPage = Page(ContactImport);
