/**
 * The quick reading of a report's MIME structure (ADR 074): the parts of a mail, each with its
 * content type and its content decoded from its transfer encoding, and the top-level report-type.
 * What mailparser gives ./reports.ts for a report, at a fraction of its cost (a DSN: about 0.4 ms
 * of CPU in mailparser, whatever the runtime — its stream machinery, not the bytes): the inbound
 * listener reads one report per message sent, so at a campaign's pace this was a third of its work.
 *
 * It reads well-formed MIME only, and says so: null for anything it does not take apart with
 * certainty (no boundary, an unknown transfer encoding, a part over the depth or count limits,
 * unterminated headers), and ./reports.ts then asks mailparser, which is lenient with real MTAs'
 * junk. Headers are unfolded; Content-Type is read with libmime (parameters quoted, continued,
 * RFC 2231); base64 by Buffer, quoted-printable by libqp; 7bit, 8bit and binary as the bytes are.
 * A message/rfc822 (or message/global) part stays one part, as mailparser's `ignoreEmbedded` keeps it.
 */
import libmime from "libmime";
import { decode as decodeQuotedPrintable } from "libqp";

export type MimePart = { contentType: string; content: Buffer };
export type MimeReading = { reportType: string | null; parts: MimePart[] };

/** Deeper nesting or more leaves than a report ever has: not ours to read quickly. */
const MAX_DEPTH = 6;
const MAX_PARTS = 64;
const MULTIPART = /^multipart\//;
const EMBEDDED = new Set(["message/rfc822", "message/global"]);

type Entity = { headers: Map<string, string>; body: string };

/**
 * An entity's header block (unfolded, names lower case, the first of a name kept) and its body.
 * `text` is latin1, so every byte is one char and decoding a part gives back its bytes.
 */
function entityOf(text: string): Entity | null {
  // An entity with no header fields starts with its empty line.
  const m = /^\r?\n/.exec(text) ?? /\r?\n\r?\n/.exec(text);
  // A header block must end with an empty line, unless the entity is headers only.
  const head = m ? text.slice(0, m.index) : text;
  const body = m ? text.slice(m.index + m[0].length) : "";
  const headers = new Map<string, string>();
  let last: string | null = null;
  for (const line of head.split(/\r?\n/)) {
    if (line === "") continue;
    if (line[0] === " " || line[0] === "\t") {
      if (last === null) return null; // a continuation before any field
      headers.set(last, `${headers.get(last)} ${line.trim()}`);
      continue;
    }
    const colon = line.indexOf(":");
    if (colon <= 0) return null;
    const name = line.slice(0, colon).trim().toLowerCase();
    if (headers.has(name)) {
      last = null;
      continue;
    }
    headers.set(name, line.slice(colon + 1).trim());
    last = name;
  }
  return { headers, body };
}

/** The body of a multipart entity split at its boundary: the parts between the first delimiter and the closing one (or the end). */
function bodyParts(body: string, boundary: string): string[] | null {
  const delimiter = `--${boundary}`;
  const parts: string[] = [];
  let start = -1;
  let pos = 0;
  // A delimiter line starts a line: at the body's start or after a line break.
  while (pos <= body.length) {
    const at = body.indexOf(delimiter, pos);
    if (at < 0) break;
    const lineStart = at === 0 || body[at - 1] === "\n";
    const after = at + delimiter.length;
    if (!lineStart) {
      pos = after;
      continue;
    }
    const closing = body.startsWith("--", after);
    if (start >= 0) {
      // The line break before the delimiter belongs to the delimiter (RFC 2046 section 5.1.1).
      let end = at;
      if (body[end - 1] === "\n") end--;
      if (body[end - 1] === "\r") end--;
      parts.push(body.slice(start, Math.max(start, end)));
      if (parts.length > MAX_PARTS) return null;
    }
    if (closing) return parts;
    const eol = body.indexOf("\n", after);
    if (eol < 0) return parts;
    start = eol + 1;
    pos = start;
  }
  if (start < 0) return null; // no delimiter at all
  parts.push(body.slice(start));
  return parts;
}

function decoded(body: string, encoding: string | undefined): Buffer | null {
  const e = (encoding ?? "7bit").trim().toLowerCase();
  if (e === "7bit" || e === "8bit" || e === "binary") return Buffer.from(body, "latin1");
  if (e === "base64") return Buffer.from(body.replace(/[^A-Za-z0-9+/=]/g, ""), "base64");
  if (e === "quoted-printable") return decodeQuotedPrintable(body);
  return null;
}

function collect(entity: Entity, depth: number, out: MimePart[]): boolean {
  const type = libmime.parseHeaderValue(entity.headers.get("content-type") ?? "text/plain");
  const contentType = (type.value || "text/plain").toLowerCase();
  if (MULTIPART.test(contentType)) {
    const boundary = type.params.boundary;
    if (!boundary || depth >= MAX_DEPTH) return false;
    const parts = bodyParts(entity.body, boundary);
    if (!parts) return false;
    for (const text of parts) {
      const child = entityOf(text);
      if (!child || !collect(child, depth + 1, out)) return false;
      if (out.length > MAX_PARTS) return false;
    }
    return true;
  }
  // An embedded message is one part, its own MIME unread (as mailparser's ignoreEmbedded).
  const content = decoded(entity.body, EMBEDDED.has(contentType) ? "8bit" : entity.headers.get("content-transfer-encoding"));
  if (!content) return false;
  out.push({ contentType, content });
  return true;
}

/** The parts of a mail and its report-type, or null when it is not MIME this reads with certainty. */
export function readMime(raw: Buffer): MimeReading | null {
  try {
    const top = entityOf(raw.toString("latin1"));
    if (!top) return null;
    const type = libmime.parseHeaderValue(top.headers.get("content-type") ?? "text/plain");
    const reportType = (type.value ?? "").toLowerCase() === "multipart/report" ? (type.params["report-type"]?.trim().toLowerCase() ?? null) : null;
    const parts: MimePart[] = [];
    return collect(top, 0, parts) ? { reportType, parts } : null;
  } catch {
    return null;
  }
}
