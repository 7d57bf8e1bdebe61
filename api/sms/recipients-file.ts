/**
 * A CSV file of SMS recipients (the send screen's "file" mode), streamed as it is uploaded:
 * parsed by csv-parse (delimiter , or ; from the first line; UTF-8, or Latin-1 as old Excel
 * exports write it), the phone column found, each number normalized to E.164 and COPYed with the
 * row's other columns (as template variables) into the UNLOGGED staging table sms_send_rows.
 * The accept transaction (api/sms/accept.ts) then expands the batch set-based into messages and
 * removes it. Nothing is held in memory beyond a few buffers; at most MAX_FILE_ROWS rows.
 * Invalid rows (the phone cell empty or not a phone number) are COPYed too, with their reason and
 * the cell as written, and become the campaign's report of invalid rows (api/sms/invalid-rows.ts).
 * `n` is the row's line in the file (the header is line 1), as a spreadsheet numbers it.
 *
 * The phone column: the first whose header is mobile / celular / telefone / phone / numero (and
 * a few spellings of those); otherwise the first column whose value in the first data row is a
 * phone number. A first row whose cells contain a phone number is data, not a header: the
 * columns are then named col1, col2…
 */
import { openSession } from "../lib/pg-session";
import { isUtf8 } from "node:buffer";
import { createHash, randomUUID } from "node:crypto";
import { once } from "node:events";
import { finished } from "node:stream/promises";
import { CsvError, parse } from "csv-parse";
import { from as copyFrom } from "pg-copy-streams";
import { normalizePhone } from "../contacts/phone";
import { detectDelimiter, isCsvName, parserOptions, type Encoding } from "../imports/files";
import { copyText } from "../imports/rows";
import type { SignedInCtx } from "../lib/context";
import { AppError } from "../lib/errors";
import { can } from "../policy/policy";
import type { StagedFile } from "./accept";
import { MAX_FILE_ROWS } from "./schemas";
import { columnVariable } from "./template-vars";
import { exec } from "../lib/sql";

const PHONE_HEADERS = new Set(["mobile", "mobile_number", "celular", "telefone", "phone", "numero", "numero_celular", "telefone_celular", "whatsapp", "fone", "msisdn"]);
const HEAD_BYTES = 64 * 1024;
const COPY_CHUNK = 256 * 1024;
/** Staged batches older than this were left by a crash between the upload and the accept. */
export const STAGED_BATCH_TTL_MINUTES = 60;

/** Why a row of the file is not sent (campaign_invalid_rows.reason). */
export type InvalidRowReason = "empty" | "invalid_phone" | "invalid_email";

/**
 * The recipient column of a channel's file: the header names that mark it, how a cell becomes a
 * recipient (normalized; null when it is not one), how a first row is told to be data rather than
 * a header, the reason of a non-empty cell that is no recipient, and the field errors' keys.
 */
export type RecipientColumn = {
  /** The database session's application_name (seen in pg_stat_activity). */
  session: string;
  headers: ReadonlySet<string>;
  recipient: (cell: string) => string | null;
  isData: (cell: string) => boolean;
  invalid: Exclude<InvalidRowReason, "empty">;
  errors: { noColumn: string; noRecipients: string };
};

/** SMS (and WhatsApp): numbers normalized to E.164. */
export const PHONE_COLUMN: RecipientColumn = {
  session: "mensageria-sms-file",
  headers: PHONE_HEADERS,
  recipient: normalizePhone,
  isData: (c) => /\d{8,}/.test(c.replace(/\D/g, "")) && normalizePhone(c) !== null,
  invalid: "invalid_phone",
  errors: { noColumn: "sms.errors.fileNoPhoneColumn", noRecipients: "sms.errors.noRecipients" },
};
/** The cell of an invalid row is kept up to this many characters. */
const MAX_INVALID_VALUE = 200;

const fileError = (message: string) => new AppError("VALIDATION", { fields: { file: [message] } });

/** Variable names of the columns (blank or repeated names get a position suffix). */
function variableNames(header: string[] | null, width: number): string[] {
  const seen = new Set<string>();
  return Array.from({ length: width }, (_, i) => {
    let name = header ? columnVariable(header[i] ?? "") : "";
    if (!name || seen.has(name)) name = `col${i + 1}`;
    seen.add(name);
    return name;
  });
}

type UploadedFiles = AsyncIterable<{ name: string; stream: ReadableStream<Uint8Array> }>;

/** Reads the uploaded files (the first one is used) and stages its recipients; the caller accepts the batch or drops it. */
export function stageSmsFile(ctx: SignedInCtx, files: UploadedFiles): Promise<StagedFile> {
  return stageFile(ctx, files, "/sms/send", PHONE_COLUMN);
}

/** The first uploaded file (a CSV) staged with `column`, for those who may open `screen`. */
export async function stageFile(ctx: SignedInCtx, files: UploadedFiles, screen: string, column: RecipientColumn): Promise<StagedFile> {
  if (!can(ctx.actor, screen)) throw new AppError("FORBIDDEN");
  for await (const file of files) {
    if (!isCsvName(file.name)) throw fileError("sms.errors.fileNotCsv");
    return stageStream(file.name, file.stream, column);
  }
  throw fileError("validation.required");
}

export async function stageStream(name: string, stream: ReadableStream<Uint8Array>, column: RecipientColumn = PHONE_COLUMN): Promise<StagedFile> {
  const batchId = randomUUID();
  const hash = createHash("sha256");
  const reader = stream.getReader();
  // The head decides the encoding and the delimiter.
  const head: Buffer[] = [];
  let headSize = 0;
  let ended = false;
  while (headSize < HEAD_BYTES) {
    const { value, done } = await reader.read();
    if (done) {
      ended = true;
      break;
    }
    const b = Buffer.from(value.buffer, value.byteOffset, value.byteLength);
    head.push(b);
    headSize += b.length;
  }
  const headBuf = Buffer.concat(head);
  // A multi-byte character cut at the end of the head is not a reason to call the file Latin-1.
  let probe = headBuf;
  if (!ended) for (let cut = 0; cut < 4 && probe.length && !isUtf8(probe); cut++) probe = probe.subarray(0, probe.length - 1);
  const encoding: Encoding = isUtf8(probe) ? "utf8" : "latin1";
  const firstLine = headBuf.toString("latin1").split(/\r\n|\n|\r/, 1)[0] ?? "";
  const parser = parse({ ...parserOptions({ delimiter: detectDelimiter(firstLine), encoding }), info: true });

  const client = await openSession(column.session);
  let copy: ReturnType<typeof copyFrom> | null = null;
  const feed = (async () => {
    try {
      hash.update(headBuf);
      if (!parser.write(headBuf)) await once(parser, "drain");
      while (!ended) {
        const { value, done } = await reader.read();
        if (done) break;
        hash.update(value);
        if (!parser.write(value)) await once(parser, "drain");
      }
      parser.end();
    } catch (e) {
      parser.destroy(e as Error);
    }
  })();

  let header: string[] | null | undefined;
  let names: string[] = [];
  let col = -1;
  let rows = 0;
  let invalid = 0;
  let buf = "";
  try {
    copy = client.query(copyFrom(`COPY sms_send_rows (batch_id, n, recipient, vars, reason) FROM STDIN`));
    const stage = async (record: string[], line: number) => {
      rows++;
      if (rows > MAX_FILE_ROWS) throw fileError(`sms.errors.fileTooManyRows::${MAX_FILE_ROWS}`);
      const cell = (record[col] ?? "").replace(/\0/g, "");
      const recipient = column.recipient(cell);
      if (!recipient) {
        invalid++;
        const reason: InvalidRowReason = cell.trim() === "" ? "empty" : column.invalid;
        buf += `${batchId}\t${line}\t${copyText(cell.slice(0, MAX_INVALID_VALUE))}\t{}\t${reason}\n`;
      } else {
        const vars: Record<string, string> = {};
        for (let i = 0; i < record.length && i < names.length; i++) if (i !== col && record[i] !== "") vars[names[i]] = record[i].replace(/\0/g, "").slice(0, 500);
        buf += `${batchId}\t${line}\t${copyText(recipient)}\t${copyText(JSON.stringify(vars))}\t\\N\n`;
      }
      if (buf.length > COPY_CHUNK) {
        const ok = copy!.write(buf);
        buf = "";
        if (!ok) await once(copy!, "drain");
      }
    };
    for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
      const line = info.lines;
      if (header === undefined) {
        // A first row holding a recipient is data: the file has no header.
        header = record.some(column.isData) ? null : record;
        names = variableNames(header, record.length);
        if (header) {
          col = names.findIndex((n) => column.headers.has(n));
          // Without a recipient header, the first data row decides (below).
        } else {
          col = record.findIndex((c) => column.recipient(c));
          await stage(record, line);
        }
        continue;
      }
      if (col < 0) {
        col = record.findIndex((c) => column.recipient(c));
        if (col < 0) throw fileError(column.errors.noColumn);
        names = variableNames(header, Math.max(record.length, names.length));
      }
      if (record.length > names.length) names = variableNames(header ?? null, record.length);
      await stage(record, line);
    }
    await feed;
    if (header === undefined || col < 0) throw fileError(header === undefined ? column.errors.noRecipients : column.errors.noColumn);
    copy.end(buf);
    await finished(copy);
    copy = null;
    return { batchId, name: name.slice(0, 200), rows, invalid, columns: names.filter((_, i) => i !== col), hash: hash.digest("hex") };
  } catch (e) {
    reader.cancel().catch(() => undefined);
    parser.destroy();
    if (copy) {
      copy.destroy(e instanceof Error ? e : new Error(String(e)));
      await finished(copy).catch(() => undefined);
    }
    // Direct pg: the same raw client as the COPY above, so the clean-up follows the stream it ran on.
    await client.query(`DELETE FROM sms_send_rows WHERE batch_id = $1`, [batchId]).catch(() => undefined);
    if (e instanceof CsvError) throw fileError("sms.errors.fileLayout");
    throw e;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Remove a staged batch that was not accepted (validation error, insufficient balance…). */
export async function dropStagedFile(file: StagedFile | null | undefined) {
  if (!file) return;
  await exec(`DELETE FROM sms_send_rows WHERE batch_id = $1`, [file.batchId]);
}

/** Worker sweep: batches a crash left behind. */
export async function sweepStagedFiles(): Promise<void> {
  await exec(`DELETE FROM sms_send_rows WHERE created_at < now() - make_interval(mins => $1)`, [STAGED_BATCH_TTL_MINUTES]);
}
