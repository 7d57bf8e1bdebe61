/**
 * The error report for the API: the job's CSV (file,line,column,value,error, where error is a
 * stable key such as errors.IMPORT_INVALID_NUMBER) with one more column, `message`: that error in
 * the caller's language, for the person who opens the file. Streamed record by record.
 */
import { Readable } from "node:stream";
import { parse } from "csv-parse";
import type { SignedInCtx } from "../lib/context";
import { translate } from "../lib/i18n";
import { errorReport } from "./services";

const csvField = (v: string) => (/[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
const csvLine = (fields: string[]) => fields.map(csvField).join(",") + "\n";

/** The message of an error key ("errors.X" or "validation.y::arg"); anything else stays as it is. */
function message(locale: string, key: string, params: { file: string; line: string }) {
  const [name, arg] = key.split("::");
  const [ns, ...rest] = name.split(".");
  if (ns !== "errors" && ns !== "validation") return key;
  return translate(locale, `${ns}:${rest.join(".")}`, { ...params, 0: arg, defaultValue: key });
}

export async function errorReportWithMessages(ctx: SignedInCtx, id: string, locale: string): Promise<ReadableStream<Uint8Array>> {
  const report = await errorReport(ctx, id);
  const records = Readable.fromWeb(report as unknown as import("node:stream/web").ReadableStream<Uint8Array>).pipe(parse({ relax_column_count: true, bom: true }));
  const iterator = (records as AsyncIterable<string[]>)[Symbol.asyncIterator]();
  const encoder = new TextEncoder();
  let header = true;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let batch = "";
      while (batch.length < 64 * 1024) {
        const r = await iterator.next();
        if (r.done) break;
        const [file = "", line = "", column = "", value = "", error = ""] = r.value;
        if (header) {
          header = false;
          batch += csvLine(["file", "line", "column", "value", "error", "message"]);
          continue;
        }
        batch += csvLine([file, line, column, value, error, message(locale, error, { file, line })]);
      }
      if (batch) controller.enqueue(encoder.encode(batch));
      else controller.close();
    },
    cancel() {
      records.destroy();
    },
  });
}
