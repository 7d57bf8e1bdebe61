/**
 * What a mail sent to one of our return paths says (ADR 036, the inbound listener): a delivery
 * status notification (RFC 3464: a bounce, a delay, a success), a complaint (RFC 5965, the Abuse
 * Reporting Format of the mailbox providers' feedback loops), or anything else (an auto-reply, a
 * person answering the bounce address), which is `other` and changes nothing.
 *
 * The MIME is mailparser's (with keepDeliveryStatus, so the `message/delivery-status` part stays a
 * part instead of being folded into the text). The report fields are ours: both formats write them
 * as header-style field groups (`Name: value`, folded lines, groups separated by a blank line) —
 * in a DSN, the first group is about the message and each further group about one recipient.
 * Typed values (`rfc822; a@b`, `dns; mx.example`, `smtp; 550 …`) lose their type.
 *
 * Real reports stray from the RFCs, and the reading is lenient where they do: a missing blank line
 * between two recipients (a second Final-Recipient starts a new one), an Action written with a
 * comment, a Status missing (taken from the Diagnostic-Code, else from the action), Gmail's
 * X-Original-Message-ID when the returned headers are not there. parseReport never throws: junk,
 * or a mail over MAX_REPORT_BYTES (refused before it is parsed), is `other`.
 */
import { type ParsedMail, simpleParser } from "mailparser";
import { type MimePart, readMime } from "./report-mime";

/** The largest report read (the inbound listener refuses larger mail at SMTP with 552). */
export const MAX_REPORT_BYTES = 10 * 1024 * 1024;

export const DSN_ACTIONS = ["failed", "delayed", "delivered", "relayed", "expanded"] as const;
export type DsnAction = (typeof DSN_ACTIONS)[number];

export type DsnRecipient = {
  /** Final-Recipient (else Original-Recipient), without its type and angle brackets, case as written. */
  recipient: string;
  originalRecipient: string | null;
  action: DsnAction;
  /** The enhanced status code (RFC 3463), e.g. 5.1.1. */
  status: string;
  /** Diagnostic-Code without its type (usually the remote server's SMTP answer), folded lines joined. */
  diagnostic: string | null;
  /** Remote-MTA's host (or address), without its type and comments. */
  remoteMta: string | null;
};

export type DsnReport = {
  kind: "dsn";
  /** Original-Envelope-Id (the ENVID of our MAIL FROM, RFC 3461), xtext decoded. */
  envelopeId: string | null;
  reportingMta: string | null;
  /** The returned message's Message-ID, as written (`<…>`). */
  originalMessageId: string | null;
  recipients: DsnRecipient[];
};

export type ArfReport = {
  kind: "arf";
  /** abuse, fraud, virus, other, not-spam, auth-failure…, lower case. */
  feedbackType: string;
  originalMailFrom: string | null;
  originalRcptTo: string | null;
  originalMessageId: string | null;
  /** The returned message's Return-Path header (the envelope sender it was delivered with), as an address. */
  originalReturnPath: string | null;
  arrivalDate: string | null;
  reportedDomain: string | null;
};

export type Report = DsnReport | ArfReport | { kind: "other" };

const OTHER: Report = Object.freeze({ kind: "other" });

/** The parts a DSN's status may come in (RFC 3464; RFC 6533 for internationalized addresses). */
const DELIVERY_STATUS = new Set(["message/delivery-status", "message/global-delivery-status"]);
const FEEDBACK_REPORT = "message/feedback-report";
/** The parts that return the original message, or only its headers. */
const RETURNED = new Set(["text/rfc822-headers", "message/rfc822", "message/global", "message/global-headers"]);
/** Recipient groups read from one DSN at most (a report is about one message: a handful at most). */
const MAX_RECIPIENTS = 1000;

type Part = MimePart;

/**
 * mailparser's options: report parts stay parts (keepDeliveryStatus), no HTML work, and a returned
 * message stays one part even when marked inline (`ignoreEmbedded`, passed on to mailsplit, its
 * MIME splitter: otherwise an inline message/rfc822, as in RFC 5965's own example, is opened up
 * and its headers, the Message-ID among them, are lost).
 */
const PARSER_OPTIONS = {
  keepDeliveryStatus: true,
  skipHtmlToText: true,
  skipTextToHtml: true,
  skipImageLinks: true,
  skipTextLinks: true,
  ignoreEmbedded: true,
} as Parameters<typeof simpleParser>[1];
type Group = Map<string, string>;

/** Reads a mail sent to a return path: a DSN, an ARF complaint, or `other`. Never throws. */
export async function parseReport(raw: Buffer | string): Promise<Report> {
  try {
    const size = typeof raw === "string" ? Buffer.byteLength(raw) : raw.length;
    if (size > MAX_REPORT_BYTES || size === 0) return OTHER;
    // Well-formed reports (every one an MTA sends per message) are read quickly (./report-mime.ts,
    // ADR 074); anything else — and any mail the quick reading finds no report in — by mailparser.
    const read = quickReport(typeof raw === "string" ? Buffer.from(raw) : raw);
    return read.kind !== "other" ? read : thoroughReport(raw);
  } catch {
    return OTHER;
  }
}

/** The report the quick reading finds (./report-mime.ts); `other` also when it could not read the mail. */
export function quickReport(raw: Buffer): Report {
  const quick = readMime(raw);
  return quick ? reportOf(quick.parts, quick.reportType) : OTHER;
}

/** The report mailparser reads in a mail (the lenient reading; tests compare the quick one with it). Never throws. */
export async function thoroughReport(raw: Buffer | string): Promise<Report> {
  try {
    const mail = await simpleParser(raw, PARSER_OPTIONS);
    const parts: Part[] = (mail.attachments ?? []).map((a) => ({ contentType: String(a.contentType ?? "").toLowerCase(), content: a.content }));
    return reportOf(parts, reportTypeOf(mail));
  } catch {
    return OTHER;
  }
}

function reportOf(parts: Part[], reportType: string | null): Report {
  const status = parts.find((p) => DELIVERY_STATUS.has(p.contentType));
  const feedback = parts.find((p) => p.contentType === FEEDBACK_REPORT);
  const returned = parts.find((p) => RETURNED.has(p.contentType));
  // The report-type says which a multipart/report is; a report part found without it still counts
  // (a report nested in a multipart/mixed), a DSN first.
  if (reportType === "feedback-report" && feedback) return arfOf(feedback, returned);
  if (status) return dsnOf(status, returned);
  if (feedback) return arfOf(feedback, returned);
  return OTHER;
}

function reportTypeOf(mail: ParsedMail): string | null {
  const ct = mail.headers.get("content-type") as { value?: string; params?: Record<string, string> } | undefined;
  if (ct?.value?.toLowerCase() !== "multipart/report") return null;
  return ct.params?.["report-type"]?.trim().toLowerCase() ?? null;
}

function dsnOf(part: Part, returned: Part | undefined): DsnReport {
  const groups = fieldGroups(part.content.toString("utf8"));
  const perMessage = groups[0] ?? new Map();
  const recipients: DsnRecipient[] = [];
  for (const g of recipientGroups(groups)) {
    const r = recipientOf(g);
    if (r) recipients.push(r);
    if (recipients.length >= MAX_RECIPIENTS) break;
  }
  const envelopeId = perMessage.get("original-envelope-id");
  return {
    kind: "dsn",
    envelopeId: envelopeId ? xtextDecode(envelopeId) || null : null,
    reportingMta: mtaOf(perMessage.get("reporting-mta")),
    originalMessageId: returnedMessageId(returned) ?? messageIdOf(perMessage.get("x-original-message-id")),
    recipients,
  };
}

/**
 * The groups about recipients: every group with a Final-Recipient, Original-Recipient or Action
 * (so the first group counts too when an MTA wrote no blank line after the per-message fields).
 */
function recipientGroups(groups: Group[]): Group[] {
  return groups.filter((g) => g.has("final-recipient") || g.has("original-recipient") || g.has("action"));
}

function recipientOf(g: Group): DsnRecipient | null {
  const originalRecipient = addressOf(g.get("original-recipient"));
  const recipient = addressOf(g.get("final-recipient")) ?? originalRecipient;
  if (!recipient) return null;
  const diagnostic = untyped(g.get("diagnostic-code")) || null;
  const code = statusCodeOf(g.get("status")) ?? statusCodeOf(diagnostic);
  const action = actionOf(g.get("action"), code);
  if (!action) return null;
  return {
    recipient,
    originalRecipient,
    action,
    status: code ?? (action === "failed" ? "5.0.0" : action === "delayed" ? "4.0.0" : "2.0.0"),
    diagnostic,
    remoteMta: mtaOf(g.get("remote-mta")),
  };
}

/** The action as written (its first word: "failed (bad address)" is failed); unknown or missing: as the status class says, else null. */
function actionOf(value: string | undefined, code: string | null): DsnAction | null {
  const word = /^[a-z]+/.exec((value ?? "").trim().toLowerCase())?.[0];
  if (word && (DSN_ACTIONS as readonly string[]).includes(word)) return word as DsnAction;
  if (!code) return null;
  return code.startsWith("5.") ? "failed" : code.startsWith("4.") ? "delayed" : "delivered";
}

/** The first enhanced status code (class 2, 4 or 5) in a text, e.g. "5.1.1" of "5.1.1 (bad mailbox)" or "smtp; 550 5.1.1 …". */
function statusCodeOf(value: string | null | undefined): string | null {
  const m = /(?:^|[^\d.])([245]\.\d{1,3}\.\d{1,3})(?![\d.]*\d)/.exec(value ?? "");
  return m ? m[1] : null;
}

function arfOf(part: Part, returned: Part | undefined): ArfReport {
  // One group in RFC 5965; merged in case a reporter put blank lines inside it (first value wins).
  const fields: Group = new Map();
  for (const g of fieldGroups(part.content.toString("utf8"))) for (const [k, v] of g) if (!fields.has(k)) fields.set(k, v);
  const feedbackType = /^[a-z0-9-]+/.exec((fields.get("feedback-type") ?? "").trim().toLowerCase())?.[0];
  return {
    kind: "arf",
    feedbackType: feedbackType ?? "other",
    originalMailFrom: addressOf(fields.get("original-mail-from")),
    originalRcptTo: addressOf(fields.get("original-rcpt-to")),
    originalMessageId: returnedMessageId(returned),
    originalReturnPath: addressOf(returnedHeader(returned, "return-path")),
    arrivalDate: fields.get("arrival-date")?.trim() || null,
    reportedDomain: fields.get("reported-domain")?.trim().toLowerCase() || null,
  };
}

/** A header of the returned message or headers part. */
function returnedHeader(part: Part | undefined, name: string): string | undefined {
  if (!part) return undefined;
  // Only the header block: the body of a returned message is none of ours to read.
  const text = part.content.toString("utf8");
  const end = text.search(/\r?\n\r?\n/);
  return fieldGroups(end < 0 ? text : text.slice(0, end))[0]?.get(name);
}

/** The Message-ID of the returned message or headers part. */
function returnedMessageId(part: Part | undefined): string | null {
  return messageIdOf(returnedHeader(part, "message-id"));
}

function messageIdOf(value: string | undefined): string | null {
  const v = (value ?? "").trim();
  if (!v) return null;
  return /<[^<>\s]+>/.exec(v)?.[0] ?? v.split(/\s+/)[0];
}

/**
 * Header-style field groups (RFC 3464 section 2.1, RFC 5965 section 3.1): `Name: value` lines,
 * a line starting with white space continuing the one before (unfolded to one space), groups
 * separated by blank lines. Names in lower case; within a group the first of a name wins, except a
 * second Final-Recipient, which starts a new group (an MTA that wrote no blank line between two
 * recipients). Lines that are no field are skipped.
 */
export function fieldGroups(text: string): Group[] {
  const groups: Group[] = [];
  let group: Group = new Map();
  let last: string | null = null;
  const close = () => {
    if (group.size) groups.push(group);
    group = new Map();
    last = null;
  };
  for (const line of text.split(/\r\n|\r|\n/)) {
    if (/^\s*$/.test(line)) {
      close();
      continue;
    }
    if (/^[ \t]/.test(line)) {
      if (last !== null) group.set(last, `${group.get(last)} ${line.trim()}`.trim());
      continue;
    }
    const m = /^([!-9;-~]+)[ \t]*:(.*)$/.exec(line);
    if (!m) {
      last = null;
      continue;
    }
    const name = m[1].toLowerCase();
    if (name === "final-recipient" && group.has(name)) close();
    if (group.has(name)) {
      last = null; // a repeated field: the first one wins, its continuation lines are skipped
      continue;
    }
    group.set(name, m[2].trim());
    last = name;
  }
  close();
  return groups;
}

/** "rfc822; a@b" -> "a@b"; "smtp; 550 …" -> "550 …"; a value without a type as it is. */
function untyped(value: string | undefined): string {
  const v = (value ?? "").trim();
  const m = /^([A-Za-z0-9][A-Za-z0-9.+-]*)[ \t]*;[ \t]*(.*)$/s.exec(v);
  return (m ? m[2] : v).trim();
}

/** An address field without its type, angle brackets and a trailing comment. */
function addressOf(value: string | undefined): string | null {
  const v = untyped(value)
    .replace(/\s*\([^()]*\)\s*$/, "")
    .trim();
  const bracketed = /^<([^<>]*)>$/.exec(v)?.[1] ?? /<([^<>]+)>/.exec(v)?.[1];
  const address = (bracketed ?? v).trim();
  return address || null;
}

/** An MTA field ("dns; mx.example.net. (192.0.2.1)") as its host: type, comments and a trailing dot dropped. */
function mtaOf(value: string | undefined): string | null {
  const v = untyped(value)
    .replace(/\([^()]*\)/g, " ")
    .trim()
    .split(/\s+/)[0]
    ?.replace(/\.$/, "");
  return v || null;
}

/** RFC 3461 xtext: "+" and two hex digits stand for one character. */
function xtextDecode(value: string): string {
  return value.trim().replace(/\+([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}
