/**
 * The inbound SMTP listener of the e-mail channel (ADR 036): the MX of every `bounces.<domain>`
 * (a CNAME to EMAIL_HOST), where DSNs and complaints about our mail arrive. Its process is
 * ./inbound-server.ts; tests start it in their own process.
 *
 * - RCPT TO is accepted only for a signed return path of ours (./return-path.ts) and for the
 *   feedback-loop address `fbl@<EMAIL_HOST>` (fblAddress): any other address, or one whose tag is
 *   wrong, is refused 550 5.1.1 at RCPT, so spam and guessed ids are turned away before any data
 *   is read.
 * - The feedback-loop address is the one registered with mailbox providers' complaint feedback
 *   loops (they send every complaint there, not to the return path). It takes ARF reports only
 *   (anything else is refused 550 5.6.0 after DATA); a report names its message by the signed
 *   return path it quotes — its Original-Mail-From field (RFC 5965) or the returned message's
 *   Return-Path header —, never by the unsigned Message-ID, so a forged complaint names nothing. MAIL FROM may be anything, `<>` above all (RFC 5321
 *   section 4.5.5: DSNs are sent with a null reverse path).
 * - The unsubscribe address `unsubscribe@<EMAIL_HOST>` (unsubscribeAddress) is the mailto of every
 *   campaign message's List-Unsubscribe (RFC 2369; ./unsubscribe.ts): a mail there whose Subject
 *   (else its text) holds a token that verifies is handed to onUnsubscribe, answered 250 once the
 *   opt-out is recorded (451 when recording failed); without a valid token it is refused 550 5.7.1,
 *   so a forged request opts nobody out.
 * - No AUTH (nobody signs in to an MX). STARTTLS only when a key and certificate are given (the
 *   process reads EMAIL_INBOUND_TLS_KEY / EMAIL_INBOUND_TLS_CERT); without them it is not offered
 *   (smtp-server would otherwise offer it with its own built-in test certificate).
 * - A message over MAX_REPORT_BYTES (10 MB) is refused 552, announced in EHLO's SIZE; nothing past
 *   the limit is kept in memory.
 * - On DATA the mail is read by parseReport (./reports.ts: a DSN, an ARF complaint, or other) and
 *   handed to onReport with the messages its recipients name, awaited: 250 once it resolved, 451
 *   4.3.0 when it threw, so the sender keeps the report and tries again later and nothing is lost.
 *   onReport may therefore see the same report twice (a retry after a 451, or a lost 250), and
 *   must be idempotent.
 */
import type { AddressInfo } from "node:net";
import { SMTPServer, type SMTPServerDataStream, type SMTPServerSession } from "smtp-server";
import { env } from "../lib/env";
import { simpleParser } from "mailparser";
import { MAX_REPORT_BYTES, parseReport, type Report } from "./reports";
import { messageOfReturnPath } from "./return-path";
import { readUnsubscribeToken, type UnsubscribeToken } from "./unsubscribe";

/** The feedback-loop address: where providers' complaint feedback loops send their ARF reports. */
export const fblAddress = (host: string = env().EMAIL_HOST) => `fbl@${host}`;
/** The mailto of List-Unsubscribe (./unsubscribe.ts unsubscribeHeaders writes it). */
export const unsubscribeAddress = (host: string = env().EMAIL_HOST) => `unsubscribe@${host}`;

/** A token as ./unsubscribe.ts writes it (payload.tag, base64url), anywhere in a text. */
const TOKEN_IN_TEXT = /[A-Za-z0-9_-]{10,900}\.[A-Za-z0-9_-]{22}(?![A-Za-z0-9_-])/g;

/** The first token in the mail's Subject, else in its text part, that verifies; null when none does. */
async function unsubscribeTokenOf(mail: Buffer): Promise<UnsubscribeToken | null> {
  const parsed = await simpleParser(mail, { skipHtmlToText: true, skipTextToHtml: true, skipImageLinks: true, skipTextLinks: true });
  for (const text of [parsed.subject ?? "", (parsed.text ?? "").slice(0, 20_000)]) {
    for (const candidate of text.match(TOKEN_IN_TEXT) ?? []) {
      const token = readUnsubscribeToken(candidate);
      if (token) return token;
    }
  }
  return null;
}

/** One message a report is about: the one its return path names. */
export type ReportedMessage = { messageId: string; domain: string };

export type InboundReport = {
  report: Report;
  /** The messages named by the recipients of the SMTP transaction (deduplicated, in RCPT order). */
  recipients: ReportedMessage[];
  /** The mail's size in bytes, as received. */
  size: number;
  /** The envelope sender ("" for the null reverse path `<>`). */
  mailFrom: string;
  /** The sending MTA's address. */
  remoteAddress: string;
};

export type InboundSmtpOptions = {
  port: number;
  host: string;
  /** Called once per accepted mail; a throw (or rejection) answers 451 and the sender retries. */
  onReport: (inbound: InboundReport) => Promise<void> | void;
  /** Called for a mail to the unsubscribe address with a valid token (idempotent: a retry may repeat it); a throw answers 451. */
  onUnsubscribe?: (request: { token: UnsubscribeToken; mailFrom: string; remoteAddress: string }) => Promise<void> | void;
  /** PEM key and certificate for STARTTLS; without them STARTTLS is not offered. */
  tls?: { key: string | Buffer; cert: string | Buffer };
  /** The host name in the greeting and EHLO answer (default EMAIL_HOST). */
  name?: string;
  /** How long close() lets open sessions finish before it cuts them (421). */
  closeTimeoutMs?: number;
};

export type InboundSmtp = { port: number; close(): Promise<void> };

/** Recipients of one transaction: a DSN names one return path; a few more is already odd. */
const MAX_RECIPIENTS = 50;
/** Sessions at once: sending MTAs retry later when refused. */
const MAX_CLIENTS = 200;

/** An SMTP answer for smtp-server: its code, and the text (with our enhanced status code first). */
function reply(code: number, text: string): Error & { responseCode: number } {
  return Object.assign(new Error(text), { responseCode: code });
}

/** Starts listening on host:port (port 0: any free one); resolves once it listens. */
export async function startInboundSmtp(options: InboundSmtpOptions): Promise<InboundSmtp> {
  const server = new SMTPServer({
    name: options.name ?? env().EMAIL_HOST,
    banner: "reports only",
    secure: false,
    ...(options.tls ? { key: options.tls.key, cert: options.tls.cert } : {}),
    disabledCommands: options.tls ? ["AUTH"] : ["AUTH", "STARTTLS"],
    authOptional: true,
    size: MAX_REPORT_BYTES,
    rejectOversized: true,
    maxRecipients: MAX_RECIPIENTS,
    maxClients: MAX_CLIENTS,
    closeTimeout: options.closeTimeoutMs ?? 5000,
    logger: false,
    // The client's host name is not used: no reverse DNS look-up per session.
    disableReverseLookup: true,
    onRcptTo(address, _session, callback) {
      if (!messageOfReturnPath(address.address) && !isFbl(address.address) && !isUnsubscribe(address.address)) {
        return callback(reply(550, "5.1.1 No such recipient: this host takes only reports about its own mail"));
      }
      callback();
    },
    onData(stream, session, callback) {
      received(stream, session).then(
        (answer) => callback(null, answer),
        (err: Error) => callback(err),
      );
    },
  });

  const fbl = fblAddress(options.name ?? env().EMAIL_HOST).toLowerCase();
  const isFbl = (address: string) => address.trim().toLowerCase() === fbl;
  const unsubscribeTo = unsubscribeAddress(options.name ?? env().EMAIL_HOST).toLowerCase();
  const isUnsubscribe = (address: string) => Boolean(options.onUnsubscribe) && address.trim().toLowerCase() === unsubscribeTo;

  /** Reads the mail (at most the size limit of it), then hands it to onReport. */
  async function received(stream: SMTPServerDataStream, session: SMTPServerSession): Promise<string> {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size <= MAX_REPORT_BYTES) chunks.push(chunk);
    }
    // smtp-server answers an oversized mail 552 itself (rejectOversized): this reply is not sent.
    if (stream.sizeExceeded || size > MAX_REPORT_BYTES) throw reply(552, "5.3.4 Message too big");
    const mail = Buffer.concat(chunks);
    const mailFrom = session.envelope.mailFrom ? session.envelope.mailFrom.address : "";
    if (options.onUnsubscribe && session.envelope.rcptTo.every((r) => isUnsubscribe(r.address))) {
      const token = await unsubscribeTokenOf(mail);
      if (!token) throw reply(550, "5.7.1 No valid unsubscribe token in the subject or the text");
      try {
        await options.onUnsubscribe({ token, mailFrom, remoteAddress: session.remoteAddress });
      } catch (err) {
        console.error(`inbound mail: an unsubscribe request from ${session.remoteAddress} was not recorded (answered 451)`, err);
        throw reply(451, "4.3.0 Unsubscribe not recorded, please try again later");
      }
      return "2.0.0 Unsubscribed";
    }
    const report = await parseReport(mail);
    const recipients = new Map<string, ReportedMessage>();
    const name = (address: string | null) => {
      const named = address ? messageOfReturnPath(address) : null;
      if (named) recipients.set(`${named.messageId}@${named.domain}`, named);
    };
    for (const rcpt of session.envelope.rcptTo) name(rcpt.address);
    if (session.envelope.rcptTo.some((r) => isFbl(r.address))) {
      if (report.kind !== "arf" && recipients.size === 0) throw reply(550, "5.6.0 This address takes only ARF feedback reports");
      if (report.kind === "arf") {
        name(report.originalMailFrom);
        name(report.originalReturnPath);
      }
    }
    try {
      await options.onReport({ report, recipients: [...recipients.values()], size, mailFrom, remoteAddress: session.remoteAddress });
    } catch (err) {
      console.error(`inbound mail: a ${report.kind} report from ${session.remoteAddress} was not recorded (answered 451)`, err);
      throw reply(451, "4.3.0 Report not recorded, please try again later");
    }
    return `2.0.0 Report received (${report.kind})`;
  }

  // A client's broken connection is reported here; without a listener it would end the process.
  server.on("error", (err: Error & { remote?: string }) => {
    console.error(`inbound mail: ${err.remote ? `${err.remote}: ` : ""}${err.message}`);
  });

  await new Promise<void>((resolve, reject) => {
    const failed = (err: Error) => reject(err);
    server.server.once("error", failed);
    server.listen(options.port, options.host, () => {
      server.server.off("error", failed);
      resolve();
    });
  });

  return {
    port: (server.server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
