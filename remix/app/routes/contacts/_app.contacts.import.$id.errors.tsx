/**
 * /contacts/import/{id}/errors: the error report of an import as a CSV download, streamed record
 * by record, with its header and messages in the reader's language ('Invalid number on line 7').
 * A byte-order mark lets spreadsheet programs read the accents right.
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { Readable } from "node:stream";
import { parse } from "csv-parse";
import { errorReport, getImport } from "~api/imports/services";
import { orHttpError, requireRoute } from "~/lib/auth.server";
import { i18next } from "~/lib/i18n.server";

const csvField = (v: string) => (/[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
const csvLine = (fields: string[]) => fields.map(csvField).join(",") + "\r\n";

function contentDisposition(name: string) {
  const ascii =
    name
      .normalize("NFD")
      .replace(/[^\x20-\x7e]/g, "")
      .replace(/["\\]/g, "") || "errors.csv";
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  const id = params.id ?? "";
  const imp = await orHttpError(getImport(ctx, id));
  const report = await orHttpError(errorReport(ctx, id));
  const t = await i18next.getFixedT(request, ["imports", "errors", "validation"]);
  const message = (key: string, p: { file: string; line: string }) => {
    const [ns, ...rest] = key.split(".");
    return ns === "errors" || ns === "validation" ? (t(`${ns}:${rest.join(".")}`, { ...p, defaultValue: key }) as string) : key;
  };

  const records = Readable.fromWeb(report as unknown as import("node:stream/web").ReadableStream<Uint8Array>).pipe(parse({ relax_column_count: true, bom: true }));
  async function* body() {
    yield "\uFEFF" + csvLine(["file", "line", "column", "value", "error"].map((c) => t(`imports:report.columns.${c}`) as string));
    let header = true;
    let batch = "";
    for await (const rec of records as AsyncIterable<string[]>) {
      if (header) {
        header = false;
        continue;
      }
      const [file = "", line = "", column = "", value = "", error = ""] = rec;
      batch += csvLine([file, line, column, value, message(error, { file, line })]);
      if (batch.length > 64 * 1024) {
        yield batch;
        batch = "";
      }
    }
    if (batch) yield batch;
  }
  const lines = body();
  const encoder = new TextEncoder();
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const r = await lines.next();
      if (r.done) controller.close();
      else controller.enqueue(encoder.encode(r.value));
    },
    async cancel() {
      records.destroy();
      await lines.return(undefined);
    },
  });
  const base = (imp.files[0]?.name ?? "import").replace(/\.csv$/i, "");
  return new Response(stream, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": contentDisposition(t("imports:report.filename", { name: base }) as string),
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
