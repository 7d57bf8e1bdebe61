/**
 * The reports the simulator's SMTP peer (./smtp-peer.ts) sends back about a message it accepted,
 * as the MIME a real MTA or mailbox provider writes (CRLF line endings throughout):
 * - a DSN, RFC 3464: `multipart/report; report-type=delivery-status` — a readable text part, the
 *   `message/delivery-status` part (per-message fields, then one recipient's fields) and the
 *   original message's header as `text/rfc822-headers` (the header only, as most MTAs do, even
 *   when RET=FULL asked for the whole message: RFC 3461 allows it);
 * - a complaint, RFC 5965 (ARF): `multipart/report; report-type=feedback-report` — a text part,
 *   the `message/feedback-report` part and the original header as `text/rfc822-headers`.
 * One report per recipient: the platform sends one recipient per message (its return path names
 * the message), and a single-recipient DSN is what the inbound listener reads most simply.
 * Pure apart from a random boundary and Message-ID; tests parse the output with mailparser.
 */
import { randomBytes } from "node:crypto";
import { DSN_ACTIONS } from "./smtp-outcome";

/** What a report says about the original message and one of its recipients. */
export type Original = {
  /** The envelope's MAIL FROM (the return path): where the report goes. */
  mailFrom: string;
  recipient: string;
  /** ORCPT of the recipient (RFC 3461, `addr-type;address`, xtext already decoded), if the sender gave one. */
  orcpt?: string | null;
  /** ENVID of the envelope, if the sender gave one. */
  envid?: string | null;
  arrivalDate: Date;
  /** The original message's header block, as received. */
  header: string;
  /** The sending client's address, as the peer saw it. */
  sourceIp: string;
};

const CRLF = "\r\n";

/** An RFC 5322 date in UTC (`Sat, 28 Nov 2026 10:00:00 +0000`). */
export const rfc5322Date = (d: Date) => d.toUTCString().replace(/GMT$/, "+0000");

/** `text` with every line ending CRLF (a header block as received may end lines with LF alone). */
const crlf = (text: string) => text.replace(/\r?\n/g, CRLF);

const needs8bit = (text: string) => /[^\x00-\x7f]/.test(text);

function part(contentType: string, body: string): string {
  const encoding = needs8bit(body) ? "8bit" : "7bit";
  return `Content-Type: ${contentType}${CRLF}Content-Transfer-Encoding: ${encoding}${CRLF}${CRLF}${crlf(body)}`;
}

/** A whole multipart/report message: its header, then the parts between boundaries. */
function report(o: { reportingMta: string; from: string; to: string; subject: string; reportType: string; parts: string[]; now: Date }): string {
  const boundary = `=_report_${randomBytes(12).toString("hex")}`;
  const header = [
    `From: ${o.from}`,
    `To: <${o.to}>`,
    `Subject: ${o.subject}`,
    `Date: ${rfc5322Date(o.now)}`,
    `Message-ID: <${randomBytes(12).toString("hex")}@${o.reportingMta}>`,
    "MIME-Version: 1.0",
    // RFC 3834: an automatic answer; nobody should answer it automatically again.
    "Auto-Submitted: auto-replied",
    `Content-Type: multipart/report; report-type=${o.reportType}; boundary="${boundary}"`,
  ].join(CRLF);
  // Each part keeps its last line break: the CRLF before a delimiter belongs to the delimiter (RFC 2046 5.1.1).
  const body = o.parts.map((p) => `--${boundary}${CRLF}${p.endsWith(CRLF) ? p : p + CRLF}${CRLF}`).join("");
  return `${header}${CRLF}${CRLF}This is a MIME-encapsulated message.${CRLF}${CRLF}${body}--${boundary}--${CRLF}`;
}

/** The header block of the original, for `text/rfc822-headers` (it must end with its line break). */
const originalHeader = (header: string) => {
  const h = crlf(header).replace(/(\r\n)+$/, "");
  return `${h}${CRLF}`;
};

/** `rfc822;a@b` (ORCPT) -> `rfc822; a@b` (Original-Recipient). */
const originalRecipient = (orcpt: string) => orcpt.replace(/^([^;]+);\s*/, "$1; ");

const SUBJECTS = {
  delivered: "Successful Mail Delivery Report",
  failed: "Undelivered Mail Returned to Sender",
  delayed: "Delayed Mail (still being retried)",
} as const;

const EXPLANATIONS = {
  delivered: "Your message was successfully delivered to the destination mailbox.",
  failed: "Your message could not be delivered to the recipient below. This is a permanent error; it will not be retried.",
  delayed: "Your message could not be delivered yet. It is still being retried; you do not need to send it again.",
} as const;

/**
 * An RFC 3464 DSN about `original`'s recipient: `action` with its Status and Diagnostic-Code
 * (./smtp-outcome.ts DSN_ACTIONS). `remoteMta` is the host the peer "relayed" to (the recipient's
 * MX); a delayed DSN says until when it will retry (5 days, like Postfix's maximal_queue_lifetime).
 */
export function deliveryStatusReport(o: { reportingMta: string; remoteMta: string; action: keyof typeof DSN_ACTIONS; original: Original; now: Date }): string {
  const { original: m, action } = o;
  const fields = DSN_ACTIONS[action];
  const perMessage = [`Reporting-MTA: dns; ${o.reportingMta}`, ...(m.envid ? [`Original-Envelope-Id: ${m.envid}`] : []), `Arrival-Date: ${rfc5322Date(m.arrivalDate)}`];
  const perRecipient = [
    ...(m.orcpt ? [`Original-Recipient: ${originalRecipient(m.orcpt)}`] : []),
    `Final-Recipient: rfc822; ${m.recipient}`,
    `Action: ${action}`,
    `Status: ${fields.status}`,
    `Remote-MTA: dns; ${o.remoteMta}`,
    `Diagnostic-Code: smtp; ${fields.diagnostic}`,
    `Last-Attempt-Date: ${rfc5322Date(o.now)}`,
    ...(action === "delayed" ? [`Will-Retry-Until: ${rfc5322Date(new Date(m.arrivalDate.getTime() + 5 * 86_400_000))}`] : []),
  ];
  const text = [`This is the mail system at host ${o.reportingMta}.`, "", EXPLANATIONS[action], "", `<${m.recipient}>: host ${o.remoteMta} said: ${fields.diagnostic}`, ""].join(
    CRLF,
  );
  return report({
    reportingMta: o.reportingMta,
    from: `Mail Delivery System <MAILER-DAEMON@${o.reportingMta}>`,
    to: m.mailFrom,
    subject: SUBJECTS[action],
    reportType: "delivery-status",
    now: o.now,
    parts: [
      part("text/plain; charset=utf-8", text),
      part("message/delivery-status", `${perMessage.join(CRLF)}${CRLF}${CRLF}${perRecipient.join(CRLF)}${CRLF}`),
      part("text/rfc822-headers", originalHeader(m.header)),
    ],
  });
}

/**
 * An RFC 5965 abuse report (the recipient marked the message as spam), as a mailbox provider's
 * feedback loop sends it. `reportedDomain`: the domain the report is about (the From header's);
 * `authenticationResults`: what the peer found when it received the message (its DKIM result).
 */
export function feedbackReport(o: { reportingMta: string; original: Original; reportedDomain: string; authenticationResults?: string; now: Date }): string {
  const { original: m } = o;
  const fields = [
    "Feedback-Type: abuse",
    "User-Agent: mensageria-simulator-smtp-peer/1.0",
    "Version: 1",
    ...(m.envid ? [`Original-Envelope-Id: ${m.envid}`] : []),
    `Original-Mail-From: <${m.mailFrom}>`,
    `Original-Rcpt-To: <${m.recipient}>`,
    `Arrival-Date: ${rfc5322Date(m.arrivalDate)}`,
    `Reporting-MTA: dns; ${o.reportingMta}`,
    `Source-IP: ${m.sourceIp}`,
    ...(o.authenticationResults ? [`Authentication-Results: ${o.authenticationResults}`] : []),
    `Reported-Domain: ${o.reportedDomain}`,
  ];
  const text = [
    `This is an e-mail abuse report for a message received from IP ${m.sourceIp} on ${rfc5322Date(m.arrivalDate)}.`,
    `The recipient <${m.recipient}> marked it as spam.`,
    "",
  ].join(CRLF);
  return report({
    reportingMta: o.reportingMta,
    from: `Feedback Loop <fbl@${o.reportingMta}>`,
    to: m.mailFrom,
    subject: `Abuse report for a message to ${m.recipient}`,
    reportType: "feedback-report",
    now: o.now,
    parts: [part("text/plain; charset=utf-8", text), part("message/feedback-report", `${fields.join(CRLF)}${CRLF}`), part("text/rfc822-headers", originalHeader(m.header))],
  });
}
