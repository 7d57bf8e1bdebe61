/**
 * Import files on disk: an upload is streamed to `${UPLOAD_DIR}/imports/<id>/<n>.csv` while the
 * CSV parser counts its records (so a line break inside a quoted cell is no new row, and a broken
 * file is refused at once), its encoding is checked (UTF-8, else Latin-1 as old Excel exports
 * write it) and NUL bytes (a binary file renamed .csv) are noticed. Then only the head is parsed
 * again for the preview: delimiter, header and first rows. No file is ever held whole in memory.
 */
import { isUtf8 } from "node:buffer";
import { once } from "node:events";
import { finished } from "node:stream/promises";
import { createReadStream, createWriteStream } from "node:fs";
import { mkdir, open, readdir, rm } from "node:fs/promises";
import { join, resolve } from "node:path";
import { parse } from "csv-parse";
import { IMPORT_MAX_ROWS } from "../../models/constants";
import { env } from "../lib/env";
import { AppError } from "../lib/errors";

export type Delimiter = "," | ";";
export type Encoding = "utf8" | "latin1";
/** What an import row keeps about each file (contact_imports.files). `path` is relative to UPLOAD_DIR. */
export type StoredFile = {
  name: string;
  path: string;
  size: number;
  rows: number;
  columns: string[];
  delimiter: Delimiter;
  encoding: Encoding;
  preview: string[][];
};

export const PREVIEW_ROWS = 5;

export function uploadRoot() {
  return resolve(env().UPLOAD_DIR);
}
export function importDir(importId: string) {
  return join(uploadRoot(), "imports", importId);
}
export function absolute(relativePath: string) {
  return join(uploadRoot(), relativePath);
}
export function errorReportPath(importId: string) {
  return join(importDir(importId), "errors.csv");
}
export async function removeImportFiles(importId: string, opts: { keepReport?: boolean } = {}) {
  const dir = importDir(importId);
  if (!opts.keepReport) return rm(dir, { recursive: true, force: true });
  const names = await readdir(dir).catch(() => [] as string[]);
  await Promise.all(names.filter((n) => n !== "errors.csv").map((n) => rm(join(dir, n), { force: true })));
}

export const isCsvName = (name: string) => /\.csv$/i.test(name.trim());

/** UTF-8 check across chunk boundaries: an incomplete sequence at a chunk's end is carried over. */
class Utf8Check {
  ok = true;
  private carry: Uint8Array | null = null;
  push(chunk: Uint8Array) {
    if (!this.ok) return;
    let b = this.carry ? Buffer.concat([this.carry, chunk]) : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    // Keep back the trailing bytes of a multi-byte character that continues in the next chunk.
    let cut = b.length;
    for (let i = b.length - 1; i >= 0 && i >= b.length - 3; i--) {
      const c = b[i];
      if ((c & 0xc0) === 0x80) continue; // continuation byte
      if (c >= 0xc0) {
        const need = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : 2;
        if (b.length - i < need) cut = i;
      }
      break;
    }
    this.carry = cut < b.length ? Uint8Array.prototype.slice.call(b, cut) : null;
    if (cut < b.length) b = b.subarray(0, cut);
    if (!isUtf8(b)) this.ok = false;
  }
  finish() {
    if (this.carry) this.ok = false;
  }
}

/**
 * The records of an upload, counted by the same parser (and options) the worker will use, fed
 * chunk by chunk as they arrive: a file the worker could not read is refused now, before anything
 * is imported. Bytes are read as Latin-1 here (structure only: quotes and delimiters are ASCII).
 */
class RecordCheck {
  records = 0;
  error: unknown = null;
  private parser: ReturnType<typeof parse> | null = null;
  private head: Buffer[] = [];
  private headSize = 0;

  push(chunk: Buffer) {
    if (this.parser) return this.write(chunk);
    this.head.push(chunk);
    this.headSize += chunk.length;
    if (chunk.includes(10) || chunk.includes(13) || this.headSize > 64 * 1024) this.open();
  }
  private open() {
    const first = Buffer.concat(this.head)
      .toString("latin1")
      .split(/\r\n|\n|\r/, 1)[0];
    this.parser = parse(parserOptions({ delimiter: detectDelimiter(first), encoding: "latin1" }));
    this.parser.on("data", () => this.records++);
    this.parser.on("error", (e) => (this.error ??= e));
    for (const c of this.head) this.write(c);
    this.head = [];
  }
  private write(chunk: Buffer) {
    if (!this.error) this.parser!.write(chunk);
  }
  async finish() {
    if (!this.parser) this.open();
    if (!this.error) {
      this.parser!.end();
      await finished(this.parser!).catch((e) => (this.error ??= e));
    }
  }
}

/**
 * Stream one upload to disk. Refuses a file with more than 1,000,000 data rows as soon as the
 * count passes it (IMPORT_TOO_MANY_ROWS), and one that is not a CSV — a quote that never closes
 * or opens mid-cell, NUL bytes of a binary file, nothing in it (IMPORT_LAYOUT).
 */
export async function storeUpload(stream: ReadableStream<Uint8Array>, absPath: string, name: string) {
  await mkdir(join(absPath, ".."), { recursive: true });
  const out = createWriteStream(absPath, { highWaterMark: 1 << 20 });
  let diskError: unknown = null;
  out.on("error", (e) => (diskError ??= e)); // also the writes still pending when a refusal destroys it
  const check = new RecordCheck();
  const utf8 = new Utf8Check();
  const layout = () => new AppError("IMPORT_LAYOUT", { params: { file: name } });
  const tooMany = () => new AppError("IMPORT_TOO_MANY_ROWS", { params: { file: name } });
  let size = 0;
  const reader = stream.getReader();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      if (!value?.byteLength) continue;
      const chunk = Buffer.from(value.buffer, value.byteOffset, value.byteLength);
      size += chunk.length;
      if (chunk.includes(0)) throw layout();
      utf8.push(chunk);
      check.push(chunk);
      if (check.error) throw layout();
      if (check.records - 1 > IMPORT_MAX_ROWS) throw tooMany();
      if (diskError) throw diskError;
      if (!out.write(chunk)) await once(out, "drain"); // rejects on a disk error
    }
    if (diskError) throw diskError;
    utf8.finish();
    await check.finish();
    if (check.error || check.records === 0) throw layout();
    if (check.records - 1 > IMPORT_MAX_ROWS) throw tooMany();
  } catch (e) {
    await reader.cancel().catch(() => undefined);
    out.destroy();
    throw e;
  } finally {
    reader.releaseLock();
  }
  out.end();
  await finished(out);
  return { size, rows: check.records - 1, encoding: (utf8.ok ? "utf8" : "latin1") as Encoding };
}

/** "," or ";": whichever appears more often outside quotes on the header line (Brazilian Excel writes ";"). */
export function detectDelimiter(firstLine: string): Delimiter {
  let inQuote = false;
  let commas = 0;
  let semis = 0;
  for (const ch of firstLine) {
    if (ch === '"') inQuote = !inQuote;
    else if (!inQuote && ch === ",") commas++;
    else if (!inQuote && ch === ";") semis++;
  }
  return semis > commas ? ";" : ",";
}

/** Options shared by the head read and the worker's full parse, so both read a file the same way. */
export function parserOptions(file: { delimiter: Delimiter; encoding: Encoding }) {
  return {
    delimiter: file.delimiter,
    encoding: file.encoding === "latin1" ? ("latin1" as const) : ("utf8" as const),
    bom: true,
    relax_column_count: true,
    skip_empty_lines: true,
    skip_records_with_empty_values: true,
  };
}

/** A header cell that is really data (a phone number or an e-mail) means the file has no header row. */
function looksLikeData(cell: string) {
  return cell.includes("@") || /^\+?[\d\s().-]{8,}$/.test(cell.trim());
}

/** Header names as the mapping keys them: trimmed, blanks named by position, repeats numbered. */
export function headerNames(record: string[]): string[] {
  const seen = new Map<string, number>();
  return record.map((raw, i) => {
    let name = raw.replace(/^\ufeff/, "").trim() || `#${i + 1}`;
    const n = (seen.get(name.toLowerCase()) ?? 0) + 1;
    seen.set(name.toLowerCase(), n);
    if (n > 1) name = `${name} (${n})`;
    return name;
  });
}

/** Delimiter, header columns and the first data rows of a stored file; IMPORT_LAYOUT when it is not a CSV with a header. */
export async function readHead(absPath: string, name: string, encoding: Encoding) {
  const layout = () => new AppError("IMPORT_LAYOUT", { params: { file: name } });
  const fh = await open(absPath, "r");
  let head: string;
  try {
    const buf = Buffer.alloc(64 * 1024);
    const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
    head = buf
      .subarray(0, bytesRead)
      .toString(encoding)
      .replace(/^\ufeff/, "");
  } finally {
    await fh.close();
  }
  const firstLine = head.split(/\r\n|\n|\r/, 1)[0] ?? "";
  const delimiter = detectDelimiter(firstLine);
  const records: string[][] = [];
  const source = createReadStream(absPath, { highWaterMark: 64 * 1024 });
  source.on("error", () => undefined); // reported through the parser
  const parser = source.pipe(parse({ ...parserOptions({ delimiter, encoding }), to: PREVIEW_ROWS + 1 }));
  try {
    for await (const record of parser as AsyncIterable<string[]>) {
      records.push(record.map((v) => v.trim()));
      if (records.length > PREVIEW_ROWS) break;
    }
  } catch {
    throw layout();
  } finally {
    source.destroy();
    parser.destroy();
  }
  const [header, ...rows] = records;
  if (!header || header.every((c) => !c) || header.some(looksLikeData)) throw layout();
  const columns = headerNames(header);
  const preview = rows.map((r) => columns.map((_, i) => r[i] ?? ""));
  return { delimiter, columns, preview };
}
