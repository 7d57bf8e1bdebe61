/**
 * SMPP 3.4 pieces shared by our SMPP client (./adapter) and our SMPP server (api/smpp/server.ts):
 * command statuses, data codings, the concatenation UDH (IE 00, 8-bit reference), the standard
 * delivery-receipt text ("id:… sub:… dlvrd:… submit date:… done date:… stat:… err:… text:…")
 * and the reassembly of concatenated parts. No I/O.
 */
import type { MessageStatus } from "../../messages/status";
import { GSM_BASIC, isGsm7 } from "../../sms/segments";

export const STATUS = {
  ESME_ROK: 0x00,
  ESME_RINVMSGLEN: 0x01,
  ESME_RINVCMDLEN: 0x02,
  ESME_RINVCMDID: 0x03,
  ESME_RINVBNDSTS: 0x04,
  ESME_RALYBND: 0x05,
  ESME_RSYSERR: 0x08,
  ESME_RINVSRCADR: 0x0a,
  ESME_RINVDSTADR: 0x0b,
  ESME_RINVMSGID: 0x0c,
  ESME_RBINDFAIL: 0x0d,
  ESME_RINVPASWD: 0x0e,
  ESME_RINVSYSID: 0x0f,
  ESME_RCANCELFAIL: 0x11,
  ESME_RREPLACEFAIL: 0x13,
  ESME_RMSGQFUL: 0x14,
  ESME_RSUBMITFAIL: 0x45,
  ESME_RTHROTTLED: 0x58,
  ESME_RINVSCHED: 0x61,
  ESME_RQUERYFAIL: 0x67,
  ESME_RINVDCS: 0x104,
  ESME_RX_T_APPN: 0x64,
} as const;

export const DATA_CODING = { GSM7: 0, UCS2: 8 } as const;
export const ESM_CLASS_RECEIPT = 0x04;
export const ESM_CLASS_UDHI = 0x40;

/** Concatenation information element: 00 03 ref total seq (the UDH length byte is added by the codec). */
export function concatUdh(ref: number, total: number, seq: number): Buffer {
  return Buffer.from([0x05, 0x00, 0x03, ref & 0xff, total, seq]);
}

/** A stable 8-bit reference for a message's parts: the same on every retry of the same message. */
export function concatRef(messageId: string): number {
  let h = 0x811c9dc5;
  for (const ch of messageId) h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193) >>> 0;
  return h & 0xff;
}

export type Concat = { ref: number; total: number; seq: number };

/** The concatenation IE (8-bit IE 00 or 16-bit IE 08) among decoded UDH elements (each without the UDHL byte). */
export function concatOf(udh: Buffer[] | undefined): Concat | null {
  for (const ie of udh ?? []) {
    if (ie[0] === 0x00 && ie[1] === 3) return { ref: ie[2], total: ie[3], seq: ie[4] };
    if (ie[0] === 0x08 && ie[1] === 4) return { ref: ie.readUInt16BE(2), total: ie[4], seq: ie[5] };
  }
  return null;
}

/**
 * GSM 03.38 default alphabet by code (3GPP TS 23.038 6.2.1): the characters of api/sms/segments.ts
 * in code order, with the escape to the extension table at 0x1B. 0x09 is "Ç" (capital) as in the
 * standard and in Unicode's GSM0338 mapping: a lowercase "ç" has no code in the default alphabet.
 */
const GSM_CODES = [...GSM_BASIC.slice(0, 0x1b), "\x1b", ...GSM_BASIC.slice(0x1b)];
/** The extension table's characters (after 0x1B) by code. */
const GSM_EXTENSION_CODES: Record<string, number> = { "\f": 0x0a, "^": 0x14, "{": 0x28, "}": 0x29, "\\": 0x2f, "[": 0x3c, "~": 0x3d, "]": 0x3e, "|": 0x40, "€": 0x65 };
const GSM_INDEX = new Map(GSM_CODES.map((ch, code) => [ch, code]));
const GSM_EXTENSION_BY_CODE = new Map(Object.entries(GSM_EXTENSION_CODES).map(([ch, code]) => [code, ch]));

/** Unpacked GSM 7-bit (one septet per octet, as SMPP carries it); null when an octet is no septet. */
export function decodeGsm7(octets: Buffer): string | null {
  let out = "";
  for (let i = 0; i < octets.length; i++) {
    const c = octets[i];
    if (c > 0x7f) return null;
    if (c === 0x1b && i + 1 < octets.length) {
      // An unknown extension code reads as its default-alphabet character (TS 23.038 6.2.1.1).
      const next = octets[++i];
      out += GSM_EXTENSION_BY_CODE.get(next) ?? GSM_CODES[next & 0x7f];
    } else out += c === 0x1b ? " " : GSM_CODES[c];
  }
  return out;
}

/** GSM 7-bit octets of a text isGsm7() accepts (anything else becomes "?"). */
export function encodeGsm7(text: string): Buffer {
  const out: number[] = [];
  for (const ch of text) {
    const ext = GSM_EXTENSION_CODES[ch];
    if (ext !== undefined) out.push(0x1b, ext);
    else out.push(GSM_INDEX.get(ch) ?? 0x3f);
  }
  return Buffer.from(out);
}

const latin1 = (octets: Buffer) => octets.toString("latin1"); // byte n is U+00nn (TextDecoder's "latin1" is windows-1252)
const decoder = (label: string) => {
  const d = new TextDecoder(label);
  return (octets: Buffer) => d.decode(octets);
};

/**
 * The data_coding values of SMPP 3.4 section 5.2.19 we accept, with how their octets read. Every
 * other value is refused (ESME_RINVDCS): 2 and 4 (8-bit binary — a text body cannot carry it and
 * our providers would send text, not those octets), 5 and 13 (JIS X 0208 / X 0212 octets without
 * a defined encoding form), 9 (pictograms), the reserved values and the message-waiting groups.
 * 1 (IA5) reads each octet as ISO-8859-1: ASCII is its lower half, and ESMEs that send accented
 * Latin-1 text as IA5 keep it. (Kannel sends GSM 03.38 as data_coding 0: ADR 011, issue 12.)
 */
const DATA_CODINGS: Record<number, (octets: Buffer) => string | null> = {
  0x00: decodeGsm7, // SMSC default: GSM 03.38
  0x01: latin1,
  0x03: latin1,
  0x06: decoder("iso-8859-5"),
  0x07: decoder("iso-8859-8"),
  0x08: decoder("utf-16be"),
  0x0a: decoder("iso-2022-jp"),
  0x0e: decoder("euc-kr"), // KS C 5601
};

/** The text of `octets` in `dataCoding`, or null when we do not accept that coding (or the octets are not in it). */
export function decodeText(dataCoding: number, octets: Buffer): string | null {
  // 0xF0–0xF3: the GSM default alphabet with a message class (bit 2 clear); 0xF4–0xF7 are 8-bit data.
  const decode = (dataCoding & 0xfc) === 0xf0 ? decodeGsm7 : DATA_CODINGS[dataCoding];
  return decode ? decode(octets) : null;
}

/** The UDH information elements (each without the UDHL byte) and the rest of a user data with UDHI set. */
export function splitUdh(octets: Buffer): { udh: Buffer[]; message: Buffer } {
  const end = 1 + octets[0];
  const udh: Buffer[] = [];
  for (let i = 1; i + 1 < end; i += 2 + octets[i + 1]) udh.push(octets.subarray(i, Math.min(end, i + 2 + octets[i + 1])));
  return { udh, message: octets.subarray(end) };
}

/**
 * Makes the `smpp` package leave received short_message / message_payload octets undecoded
 * ({udh?, message: Buffer}): it reads data_coding 1 as GSM 03.38 and decodes only a few codings,
 * so the SMPP server decodes them itself (decodeText). Encoding (what we send) is unchanged.
 */
export function keepMessagesRaw(filters: { message: { decode: (this: { esm_class?: number }, value: unknown, skipUdh?: boolean) => unknown } }) {
  filters.message.decode = function (value, skipUdh) {
    if (!Buffer.isBuffer(value)) return value;
    if (!skipUdh && value.length && Number(this.esm_class ?? 0) & ESM_CLASS_UDHI) return splitUdh(value);
    return { message: value };
  };
}

/**
 * The text of a received short_message / message_payload (message_payload when present), its UDH,
 * and whether its data_coding is one we accept (`text` null when not). Octets the codec left
 * undecoded are decoded here by data_coding; a string the codec decoded is taken as it is.
 */
export function messageOf(pdu: { [field: string]: unknown }): { text: string | null; udh?: Buffer[] } {
  const sm = (pdu.message_payload && (pdu.message_payload as { message?: unknown }).message !== undefined ? pdu.message_payload : pdu.short_message) as
    | { message?: string | Buffer; udh?: Buffer[] }
    | string
    | Buffer
    | undefined;
  const coding = Number(pdu.data_coding ?? 0);
  const read = (m: string | Buffer | undefined) => (typeof m === "string" ? m : decodeText(coding, m ?? Buffer.alloc(0)));
  if (!sm || typeof sm === "string" || Buffer.isBuffer(sm)) return { text: read(sm) };
  return { text: read(sm.message), udh: sm.udh };
}

/** messageOf for a peer we take anything from (our SMSC's deliver_sm): an unaccepted coding reads as Latin-1. */
export function textOf(pdu: { [field: string]: unknown }): { text: string; udh?: Buffer[] } {
  const m = messageOf(pdu);
  if (m.text !== null) return m as { text: string; udh?: Buffer[] };
  const sm = (pdu.message_payload ?? pdu.short_message) as { message?: Buffer } | Buffer | undefined;
  const octets = Buffer.isBuffer(sm) ? sm : sm?.message;
  return { text: Buffer.isBuffer(octets) ? latin1(octets) : "", udh: m.udh };
}

/** A text as SMPP user data: GSM 7-bit (data_coding 0) when GSM-7 carries it, else UCS-2 (8). */
export function encodeText(text: string): { dataCoding: number; octets: Buffer } {
  if (isGsm7(text)) return { dataCoding: DATA_CODING.GSM7, octets: encodeGsm7(text) };
  return { dataCoding: DATA_CODING.UCS2, octets: Buffer.from(text, "utf16le").swap16() };
}

/** The most octets short_message holds (SMPP 3.4 5.2.21: sm_length 0–254); longer goes in message_payload. */
export const SHORT_MESSAGE_MAX = 254;

/** The fields of a text as a deliver_sm's user data: short_message when it fits, else the message_payload TLV (0x0424). */
export function userData(text: string): { data_coding: number; short_message: Buffer; message_payload?: Buffer } {
  const { dataCoding, octets } = encodeText(text);
  return octets.length <= SHORT_MESSAGE_MAX
    ? { data_coding: dataCoding, short_message: octets }
    : { data_coding: dataCoding, short_message: Buffer.alloc(0), message_payload: octets };
}

/** Our final status -> the receipt's stat word. */
export const RECEIPT_STAT: Partial<Record<MessageStatus, string>> = {
  delivered: "DELIVRD",
  read: "DELIVRD",
  failed: "UNDELIV",
  unavailable: "EXPIRED",
  rejected: "REJECTD",
  optout: "REJECTD",
};

/** SMPP 3.4 section 5.2.28 message_state values. */
export const MESSAGE_STATE = { ENROUTE: 1, DELIVERED: 2, EXPIRED: 3, DELETED: 4, UNDELIVERABLE: 5, ACCEPTED: 6, UNKNOWN: 7, REJECTED: 8 } as const;

/** `error_code` of a message canceled before its release (api/sms/cancel-scheduled.ts, campaign cancel). */
const CANCELED = "canceled";

/**
 * Our status (ADR 005) as an SMPP message_state (query_sm_resp, the receipt's message_state TLV):
 * not yet final -> ENROUTE; delivered/read -> DELIVERED; unavailable -> EXPIRED (its receipt says
 * EXPIRED); failed -> DELETED when canceled, else UNDELIVERABLE; rejected/optout -> REJECTED.
 */
export function messageState(status: MessageStatus, errorCode?: string | null): number {
  switch (status) {
    case "pending":
    case "scheduled":
    case "queued":
    case "sending":
    case "sent":
      return MESSAGE_STATE.ENROUTE;
    case "delivered":
    case "read":
      return MESSAGE_STATE.DELIVERED;
    case "unavailable":
      return MESSAGE_STATE.EXPIRED;
    case "failed":
      return errorCode === CANCELED ? MESSAGE_STATE.DELETED : MESSAGE_STATE.UNDELIVERABLE;
    case "rejected":
    case "optout":
      return MESSAGE_STATE.REJECTED;
    default:
      return MESSAGE_STATE.UNKNOWN;
  }
}

/** The receipt's stat word for a final status (a canceled message: DELETED). */
export function receiptStat(status: MessageStatus, errorCode?: string | null): string {
  return status === "failed" && errorCode === CANCELED ? "DELETED" : (RECEIPT_STAT[status] ?? "UNKNOWN");
}

/** The receipt's stat word -> ours (ENROUTE/ACCEPTD are not final and move nothing past `sent`). */
export const STAT_STATUS: Record<string, MessageStatus> = {
  DELIVRD: "delivered",
  UNDELIV: "failed",
  EXPIRED: "unavailable",
  DELETED: "failed",
  REJECTD: "rejected",
  UNKNOWN: "failed",
  ACCEPTD: "sent",
  ENROUTE: "sent",
};

function smppDate(d: Date): string {
  const p = (n: number) => String(n).padStart(2, "0");
  return `${p(d.getUTCFullYear() % 100)}${p(d.getUTCMonth() + 1)}${p(d.getUTCDate())}${p(d.getUTCHours())}${p(d.getUTCMinutes())}`;
}

/** The standard (SMPP 3.4 appendix B) receipt text. */
export function receiptText(r: { id: string; stat: string; err?: string; submitted: Date; done: Date; text?: string; delivered?: boolean }): string {
  const dlvrd = r.delivered ?? r.stat === "DELIVRD";
  return `id:${r.id} sub:001 dlvrd:${dlvrd ? "001" : "000"} submit date:${smppDate(r.submitted)} done date:${smppDate(r.done)} stat:${r.stat} err:${(r.err ?? "000").padStart(3, "0").slice(0, 3)} text:${(r.text ?? "").slice(0, 20)}`;
}

export type ParsedReceipt = { id: string; stat: string; err: string | null };

export function parseReceiptText(text: string): ParsedReceipt | null {
  const id = /(?:^|\s)id:(\S+)/i.exec(text)?.[1];
  const stat = /(?:^|\s)stat:(\w+)/i.exec(text)?.[1];
  if (!id || !stat) return null;
  const err = /(?:^|\s)err:(\w+)/i.exec(text)?.[1] ?? null;
  return { id, stat: stat.toUpperCase(), err };
}

/** E.164 from an SMPP address ("5511987654321" or "+55…"); null when it is not a phone number. */
export function e164(addr: string | undefined | null): string | null {
  const digits = String(addr ?? "").replace(/^\+/, "");
  return /^[1-9]\d{7,14}$/.test(digits) ? `+${digits}` : null;
}
