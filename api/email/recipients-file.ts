/**
 * A CSV file of e-mail recipients (/mail/send "file" mode, POST /api/email/campaigns multipart):
 * the same rules as the SMS file send and the contact import (api/sms/recipients-file.ts) — csv-parse,
 * delimiter , or ; from the first line, UTF-8 or Latin-1, streamed while it arrives and COPYed into
 * the staging table sms_send_rows (the recipient column holds the address, lower case; the other
 * columns are the row's {{variables}} by header name), at most MAX_FILE_ROWS rows. The accept
 * transaction (./campaigns.ts) expands the batch set-based and removes it.
 *
 * The address column: the first whose header is email / e-mail / mail / correio… ; otherwise the
 * first column whose value in the first data row is an address. A file with none is refused naming
 * the field (`file`: "No column with e-mail addresses was found"). Rows whose cell is empty or not an
 * address are counted (`invalid`) and not sent.
 */
import { isUtf8 } from "node:buffer";
import { createHash, randomUUID } from "node:crypto";
import { once } from "node:events";
import { finished } from "node:stream/promises";
import { CsvError, parse } from "csv-parse";
import { from as copyFrom } from "pg-copy-streams";
import { detectDelimiter, isCsvName, parserOptions, type Encoding } from "../imports/files";
import { copyText } from "../imports/rows";
import type { SignedInCtx } from "../lib/context";
import { AppError } from "../lib/errors";
import { openSession } from "../lib/pg-session";
import { exec } from "../lib/sql";
import { can } from "../policy/policy";
import type { StagedFile } from "../sms/accept";
import { MAX_FILE_ROWS } from "../sms/schemas";
import { columnVariable } from "../sms/template-vars";

const EMAIL_HEADERS = new Set(["email", "e_mail", "mail", "email_address", "endereco_de_email", "endereco_email", "correio", "correo", "correo_electronico", "emails"]);
const ADDRESS = /^[^\s@"<>(),;:\\[\]]{1,64}@[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)+$/;
const HEAD_BYTES = 64 * 1024;
const COPY_CHUNK = 256 * 1024;

/** The cell as an address (trimmed, lower case), or null. */
export function emailCell(cell: string): string | null {
  const a = cell.trim().toLowerCase();
  return a.length <= 254 && ADDRESS.test(a) ? a : null;
}

const fileError = (message: string) => new AppError("VALIDATION", { fields: { file: [message] } });

function variableNames(header: string[] | null, width: number): string[] {
  const seen = new Set<string>();
  return Array.from({ length: width }, (_, i) => {
    let name = header ? columnVariable(header[i] ?? "") : "";
    if (!name || seen.has(name)) name = `col${i + 1}`;
    seen.add(name);
    return name;
  });
}

/** Reads the uploaded files (the first one is used) and stages its recipients; the caller accepts the batch or drops it. */
export async function stageEmailFile(ctx: SignedInCtx, files: AsyncIterable<{ name: string; stream: ReadableStream<Uint8Array> }>): Promise<StagedFile> {
  if (!can(ctx.actor, "/mail/send")) throw new AppError("FORBIDDEN");
  for await (const file of files) {
    if (!isCsvName(file.name)) throw fileError("sms.errors.fileNotCsv");
    return stageEmailStream(file.name, file.stream);
  }
  throw fileError("validation.required");
}

export async function stageEmailStream(name: string, stream: ReadableStream<Uint8Array>): Promise<StagedFile> {
  const batchId = randomUUID();
  const hash = createHash("sha256");
  const reader = stream.getReader();
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
  let probe = headBuf;
  if (!ended) for (let cut = 0; cut < 4 && probe.length && !isUtf8(probe); cut++) probe = probe.subarray(0, probe.length - 1);
  const encoding: Encoding = isUtf8(probe) ? "utf8" : "latin1";
  const firstLine = headBuf.toString("latin1").split(/\r\n|\n|\r/, 1)[0] ?? "";
  const parser = parse({ ...parserOptions({ delimiter: detectDelimiter(firstLine), encoding }), info: true });

  const client = await openSession("mensageria-email-file");
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
      const address = emailCell(cell);
      if (!address) {
        invalid++;
        buf += `${batchId}\t${line}\t${copyText(cell.slice(0, 200))}\t{}\t${cell.trim() === "" ? "empty" : "invalid_email"}\n`;
      } else {
        const vars: Record<string, string> = {};
        for (let i = 0; i < record.length && i < names.length; i++) if (i !== col && record[i] !== "") vars[names[i]] = record[i].replace(/\0/g, "").slice(0, 500);
        buf += `${batchId}\t${line}\t${copyText(address)}\t${copyText(JSON.stringify(vars))}\t\\N\n`;
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
        // A first row holding an address is data: the file has no header.
        header = record.some((c) => emailCell(c)) ? null : record;
        names = variableNames(header, record.length);
        if (header) col = names.findIndex((n) => EMAIL_HEADERS.has(n));
        else {
          col = record.findIndex((c) => emailCell(c));
          await stage(record, line);
        }
        continue;
      }
      if (col < 0) {
        col = record.findIndex((c) => emailCell(c));
        if (col < 0) throw fileError("emailCampaigns.errors.fileNoEmailColumn");
        names = variableNames(header, Math.max(record.length, names.length));
      }
      if (record.length > names.length) names = variableNames(header ?? null, record.length);
      await stage(record, line);
    }
    await feed;
    if (header === undefined || col < 0) throw fileError(header === undefined ? "emailCampaigns.errors.noRecipients" : "emailCampaigns.errors.fileNoEmailColumn");
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
    await client.query(`DELETE FROM sms_send_rows WHERE batch_id = $1`, [batchId]).catch(() => undefined);
    if (e instanceof CsvError) throw fileError("sms.errors.fileLayout");
    throw e;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Remove a staged batch that was not accepted (validation error, insufficient balance…). */
export async function dropStagedEmailFile(file: StagedFile | null | undefined) {
  if (!file) return;
  await exec(`DELETE FROM sms_send_rows WHERE batch_id = $1`, [file.batchId]);
}
