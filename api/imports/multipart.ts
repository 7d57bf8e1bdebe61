/**
 * A streaming multipart/form-data reader: the file parts of a request body, one after the other,
 * each as a stream read straight from the socket. Nothing is buffered beyond one chunk, so a
 * 1 GB upload costs the same memory as a 1 kB one (Request.formData() would hold it all).
 * Each part must be read to its end (or is skipped) before the next one is produced.
 */
import { AppError } from "../lib/errors";

export type MultipartFile = { kind: "file"; field: string; name: string; stream: ReadableStream<Uint8Array> };
export type MultipartField = { kind: "field"; field: string; value: string };
export type MultipartPart = MultipartFile | MultipartField;

/** A plain field's text is cut at this size (fields carry a token, a message body, a few words). */
export const MAX_FIELD_BYTES = 64 * 1024;

const CRLF = Buffer.from("\r\n");
const HEADER_END = Buffer.from("\r\n\r\n");

export function boundaryOf(contentType: string | null): string | null {
  const m = /^multipart\/form-data\b.*?;\s*boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType ?? "");
  return m ? (m[1] ?? m[2]) : null;
}

function dispositionParam(header: string, name: string): string | null {
  const star = new RegExp(`;\\s*${name}\\*=(?:UTF-8|utf-8)''([^;]+)`).exec(header);
  if (star) {
    try {
      return decodeURIComponent(star[1].trim());
    } catch {}
  }
  const m = new RegExp(`;\\s*${name}=(?:"((?:[^"\\\\]|\\\\.)*)"|([^;\\s]+))`, "i").exec(header);
  if (!m) return null;
  return m[1] !== undefined ? m[1].replace(/\\(.)/g, "$1").replace(/%22/g, '"') : m[2];
}

export class MultipartReader {
  private reader: ReadableStreamDefaultReader<Uint8Array>;
  private buf: Buffer = Buffer.alloc(0);
  private ended = false;
  private readonly delimiter: Buffer;
  /** The current part's body is still being read. */
  private inPart = false;

  constructor(body: ReadableStream<Uint8Array>, boundary: string) {
    this.reader = body.getReader();
    this.delimiter = Buffer.from(`\r\n--${boundary}`);
  }

  private async fill(): Promise<boolean> {
    if (this.ended) return false;
    const { value, done } = await this.reader.read();
    if (done) {
      this.ended = true;
      return false;
    }
    if (value?.byteLength) this.buf = this.buf.length ? Buffer.concat([this.buf, value]) : Buffer.from(value.buffer, value.byteOffset, value.byteLength);
    return true;
  }

  private bad(): never {
    throw new AppError("VALIDATION", { fields: { files: ["validation.invalid"] } });
  }

  /** The next piece of the current part's body, or null at its end. */
  private async partChunk(): Promise<Buffer | null> {
    if (!this.inPart) return null;
    for (;;) {
      const at = this.buf.indexOf(this.delimiter);
      if (at >= 0) {
        const chunk = this.buf.subarray(0, at);
        this.buf = this.buf.subarray(at + 2); // keep "--boundary" for the next header read
        this.inPart = false;
        return chunk.length ? chunk : null;
      }
      // Hand out what cannot be the start of the delimiter; keep the tail that might be.
      const safe = this.buf.length - (this.delimiter.length - 1);
      if (safe > 8 * 1024 || (safe > 0 && this.ended)) {
        const chunk = this.buf.subarray(0, safe);
        this.buf = this.buf.subarray(safe);
        return chunk;
      }
      if (!(await this.fill())) this.bad(); // the body ended inside a part
    }
  }

  private async skipPart() {
    while ((await this.partChunk()) !== null);
  }

  /** The next part's headers, or null after the closing delimiter. */
  private async nextHeaders(first: boolean): Promise<string | null> {
    const dash = Buffer.from(this.delimiter.subarray(2)); // "--boundary"
    if (first) {
      // Preamble: anything before the first "--boundary".
      for (;;) {
        const at = this.buf.indexOf(dash);
        if (at >= 0) {
          this.buf = this.buf.subarray(at);
          break;
        }
        if (this.buf.length > 64 * 1024 || !(await this.fill())) this.bad();
      }
    }
    while (this.buf.length < dash.length + 2) if (!(await this.fill())) this.bad();
    if (!this.buf.subarray(0, dash.length).equals(dash)) this.bad();
    const after = this.buf.subarray(dash.length, dash.length + 2).toString("latin1");
    if (after === "--") return null;
    if (!this.buf.subarray(dash.length, dash.length + 2).equals(CRLF)) this.bad();
    this.buf = this.buf.subarray(dash.length + 2);
    for (;;) {
      const end = this.buf.indexOf(HEADER_END);
      if (end >= 0) {
        const headers = this.buf.subarray(0, end).toString("utf8");
        this.buf = this.buf.subarray(end + 4);
        this.inPart = true;
        return headers;
      }
      if (this.buf.length > 16 * 1024 || !(await this.fill())) this.bad();
    }
  }

  /** File parts (those with a filename), in order; plain fields are skipped. */
  async *files(): AsyncGenerator<MultipartFile> {
    for await (const part of this.parts({ fields: false })) if (part.kind === "file") yield part;
  }

  /**
   * Every part in order: plain fields with their text (UTF-8, cut at MAX_FIELD_BYTES), files as
   * streams. With `fields: false` plain fields are skipped unread.
   */
  async *parts(opts: { fields?: boolean } = {}): AsyncGenerator<MultipartPart> {
    let first = true;
    for (;;) {
      if (this.inPart) await this.skipPart(); // the previous part was not read to its end
      const headers = await this.nextHeaders(first);
      first = false;
      if (headers === null) return;
      const disposition = headers.split("\r\n").find((h) => /^content-disposition:/i.test(h)) ?? "";
      const field = dispositionParam(disposition, "name") ?? "";
      const name = dispositionParam(disposition, "filename");
      if (name === null) {
        if (opts.fields === false) {
          await this.skipPart();
          continue;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        for (let c = await this.partChunk(); c !== null; c = await this.partChunk()) {
          if (size < MAX_FIELD_BYTES) chunks.push(Buffer.from(c));
          size += c.length;
        }
        yield { kind: "field", field, value: Buffer.concat(chunks).subarray(0, MAX_FIELD_BYTES).toString("utf8") };
        continue;
      }
      const stream = new ReadableStream<Uint8Array>(
        {
          pull: async (controller) => {
            const chunk = await this.partChunk();
            if (chunk === null) controller.close();
            else controller.enqueue(chunk);
          },
        },
        { highWaterMark: 0 },
      );
      yield { kind: "file", field, name, stream };
    }
  }

  /** Read and drop the rest of the body (after a refusal, so the client can read the answer). */
  async drain(limitBytes = 64 * 1024 * 1024) {
    let n = 0;
    this.buf = Buffer.alloc(0);
    while (n < limitBytes && (await this.fill())) {
      n += this.buf.length;
      this.buf = Buffer.alloc(0);
    }
    if (!this.ended) await this.reader.cancel().catch(() => undefined);
  }
}
