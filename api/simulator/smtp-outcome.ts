/**
 * What the simulator's local SMTP peer (./smtp-peer.ts, ADR 036) does with a recipient, decided by
 * the local part of its address like the SMS simulator's magic numbers: refused at RCPT TO, or
 * accepted and then reported on (a DSN, RFC 3464; a complaint, RFC 5965). Pure (no imports), so
 * the rules are unit-tested (./smtp-outcome.test.ts) and any test can predict what an address gets.
 *
 * The prefixes are matched case-insensitively at the start of the local part:
 * `Bounce.1@x.test`, `bounce+abc@x.test` and `"bounce"@x.test` all bounce.
 */

/** 550 5.1.1 at RCPT TO: the mailbox does not exist (a hard bounce the sender sees at once). */
export const BOUNCE_PREFIX = "bounce";
/** 554 5.7.1 at RCPT TO: refused as spam / by the receiver's policy (the platform's `blocked`). */
export const BLOCK_PREFIX = "block";
/** 451 4.2.0 at RCPT TO, every time: a temporary refusal (greylisting, a busy mailbox); the sender retries. */
export const DEFER_PREFIX = "defer";
/** 250, then a failed DSN (5.1.1): the relay took it and the final MX refused it later. */
export const LATE_BOUNCE_PREFIX = "late-bounce";
/** 250, then a success DSN and an ARF abuse report: delivered, and the recipient marked it as spam. */
export const COMPLAIN_PREFIX = "complain";
/** 250, then a delayed DSN (4.4.7): still being retried; nothing final follows. */
export const DELAY_PREFIX = "delay";

/** A report the peer sends after accepting a message: a DSN of one of the three actions, or an ARF complaint. */
export type PeerReport = "delivered" | "failed" | "delayed" | "complaint";

export type RecipientOutcome =
  /** Refused at RCPT TO with this reply (code, enhanced status, text): nothing is recorded or reported. */
  | { at: "rcpt"; code: 550 | 554 | 451; status: "5.1.1" | "5.7.1" | "4.2.0"; reply: string }
  /** Accepted (250 at RCPT TO and after DATA), then these reports, SIMULATOR_DELAY_MS later. */
  | { at: "data"; reports: PeerReport[] };

/** The local part of an address, lower case, without the quotes of a quoted local part. */
export function localPart(address: string): string {
  const at = address.lastIndexOf("@");
  const local = at >= 0 ? address.slice(0, at) : address;
  return local.replace(/^"(.*)"$/, "$1").toLowerCase();
}

/** What the peer does with recipient `address`. */
export function recipientOutcome(address: string): RecipientOutcome {
  const local = localPart(address);
  if (local.startsWith(BOUNCE_PREFIX)) return { at: "rcpt", code: 550, status: "5.1.1", reply: `5.1.1 <${address}>: Recipient address rejected: User unknown` };
  if (local.startsWith(BLOCK_PREFIX)) return { at: "rcpt", code: 554, status: "5.7.1", reply: `5.7.1 <${address}>: Recipient address rejected: Message refused as spam by policy` };
  if (local.startsWith(DEFER_PREFIX)) return { at: "rcpt", code: 451, status: "4.2.0", reply: `4.2.0 <${address}>: Recipient address temporarily unavailable, try again later` };
  if (local.startsWith(LATE_BOUNCE_PREFIX)) return { at: "data", reports: ["failed"] };
  if (local.startsWith(COMPLAIN_PREFIX)) return { at: "data", reports: ["delivered", "complaint"] };
  if (local.startsWith(DELAY_PREFIX)) return { at: "data", reports: ["delayed"] };
  return { at: "data", reports: ["delivered"] };
}

/** The DSN fields of each action (RFC 3464 Action and Status; the Diagnostic-Code's SMTP reply). */
export const DSN_ACTIONS = {
  delivered: { status: "2.0.0", diagnostic: "250 2.0.0 Ok: delivered to the mailbox" },
  failed: { status: "5.1.1", diagnostic: "550 5.1.1 Recipient address rejected: User unknown in the final mailbox host" },
  delayed: { status: "4.4.7", diagnostic: "451 4.4.7 Delivery delayed: the final mailbox host did not accept it yet, still trying" },
} as const;

/** The NOTIFY keyword (RFC 3461 section 4.1) that asks for each DSN action. */
const NOTIFY_KEYWORD = { delivered: "SUCCESS", failed: "FAILURE", delayed: "DELAY" } as const;

/**
 * Whether report `kind` goes to the return path, given the recipient's NOTIFY (upper case, as
 * smtp-server parses it; undefined when the RCPT TO had none).
 * - NOTIFY given: exactly what it lists (RFC 3461): NEVER gets nothing, SUCCESS a success DSN,
 *   FAILURE a failed one, DELAY a delayed one.
 * - No NOTIFY: every DSN, success included. RFC 3461 leaves the default to the MTA (usually
 *   FAILURE,DELAY); this peer also reports success so that a fresh machine sees `delivered` from a
 *   sender that asks nothing. A sender that wants no success DSNs says NOTIFY=FAILURE,DELAY.
 * - A complaint is not a DSN: the recipient's mailbox provider sends it whatever the envelope asked.
 */
export function wantsReport(kind: PeerReport, notify: readonly string[] | undefined): boolean {
  if (kind === "complaint") return true;
  if (!notify || notify.length === 0) return true;
  return notify.includes(NOTIFY_KEYWORD[kind]);
}
