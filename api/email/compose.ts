/**
 * The MIME text of one outgoing e-mail (RFC 5322, RFC 2045–2047), written directly for the one
 * shape the channel sends: a few headers, then a text part, an HTML part, or both as
 * multipart/alternative (ADR 074). nodemailer's composer did this before through a tree of streams
 * at ~0.4 ms of CPU a message; its SMTP pool still sends the result (`raw`).
 *
 * - Header values lose any CR/LF (and other line breaks) before anything else: no field can be
 *   injected, whatever a subject, a display name or a variable holds.
 * - Non-ASCII in the subject or a display name becomes encoded words (libmime, UTF-8, Q); an ASCII
 *   display name with specials is a quoted string. Long header lines are folded at 76 (libmime).
 * - A non-ASCII domain is written in its ASCII (punycode) form.
 * - Parts are quoted-printable (libqp), or base64 when more than half of them is not ASCII (CJK
 *   text: quoted-printable would triple it); lines of at most 76 characters. The boundary holds
 *   "=_", which neither encoding can produce.
 * - CRLF line endings throughout: the text is what is signed (./dkim.ts) and sent as is.
 */
import { randomBytes } from "node:crypto";
import { domainToASCII } from "node:url";
import libmime from "libmime";
import { encode as qpEncode, wrap as qpWrap } from "libqp";

export type ComposedEmail = {
  from: { address: string; name?: string | null };
  to: string;
  replyTo?: string | null;
  subject: string;
  messageId: string;
  /** Extra header fields, in order (List-Unsubscribe…): names as written, values single-line ASCII. */
  headers?: Record<string, string>;
  text?: string | null;
  html?: string | null;
  date?: Date;
};

/** A header value on one line: every kind of line break becomes a space. */
const oneLine = (value: string) => value.replace(/\r\n|[\r\n\u0085\u2028\u2029\v\f]/g, " ");
const ASCII = /^[\x20-\x7e]*$/;

function address(value: string): string {
  const a = oneLine(value).trim();
  const at = a.lastIndexOf("@");
  if (at < 0 || ASCII.test(a)) return a;
  const domain = domainToASCII(a.slice(at + 1)) || a.slice(at + 1);
  return `${a.slice(0, at)}@${domain}`;
}

/** A display name: encoded words when not ASCII, a quoted string when it holds specials, else as it is. */
function displayName(name: string): string {
  const n = oneLine(name).trim();
  if (!ASCII.test(n)) return libmime.encodeWords(n, "Q", 52);
  if (/^[\w !#$%&'*+\-/=?^`{|}~]*$/.test(n)) return n;
  return `"${n.replace(/["\\]/g, "\\$&")}"`;
}

function mailbox(a: { address: string; name?: string | null }): string {
  return a.name?.trim() ? `${displayName(a.name)} <${address(a.address)}>` : address(a.address);
}

function headerLine(name: string, value: string): string {
  return libmime.foldLines(`${name}: ${value}`, 76);
}

/** RFC 5322 date in UTC ("Tue, 01 Dec 2026 06:46:10 +0000"). */
const rfc5322Date = (d: Date) => d.toUTCString().replace(/GMT$/, "+0000");

function encodedPart(type: "plain" | "html", content: string): string {
  const bytes = Buffer.from(content.replace(/\r?\n/g, "\r\n"), "utf8");
  let nonAscii = 0;
  for (const b of bytes) if (b > 0x7e || (b < 0x20 && b !== 0x0d && b !== 0x0a && b !== 0x09)) nonAscii++;
  const base64 = nonAscii * 2 > bytes.length;
  const body = base64 ? (bytes.toString("base64").match(/.{1,76}/g) ?? []).join("\r\n") : qpWrap(qpEncode(bytes), 76);
  return `Content-Type: text/${type}; charset=utf-8\r\nContent-Transfer-Encoding: ${base64 ? "base64" : "quoted-printable"}\r\n\r\n${body}`;
}

/** The message's text: header fields, an empty line, the body; CRLF line endings. */
export function composeEmail(m: ComposedEmail): string {
  const lines = [headerLine("From", mailbox(m.from))];
  if (m.replyTo) lines.push(headerLine("Reply-To", address(m.replyTo)));
  lines.push(headerLine("To", address(m.to)));
  const subject = oneLine(m.subject);
  lines.push(headerLine("Subject", ASCII.test(subject) ? subject : libmime.encodeWords(subject, "Q", 52)));
  lines.push(headerLine("Message-ID", oneLine(m.messageId)));
  lines.push(`Date: ${rfc5322Date(m.date ?? new Date())}`);
  for (const [name, value] of Object.entries(m.headers ?? {})) lines.push(headerLine(oneLine(name).replace(/[:\s]/g, ""), oneLine(value)));
  lines.push("MIME-Version: 1.0");
  const parts = [m.text ? encodedPart("plain", m.text) : null, m.html ? encodedPart("html", m.html) : null].filter((p): p is string => p !== null);
  if (parts.length === 0) parts.push(encodedPart("plain", ""));
  if (parts.length === 1) return `${lines.join("\r\n")}\r\n${parts[0]}\r\n`;
  const boundary = `=_m_${randomBytes(12).toString("hex")}`;
  lines.push(`Content-Type: multipart/alternative; boundary="${boundary}"`);
  return `${lines.join("\r\n")}\r\n\r\n${parts.map((p) => `--${boundary}\r\n${p}\r\n`).join("")}--${boundary}--\r\n`;
}
