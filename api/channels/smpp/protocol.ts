/**
 * SMPP 3.4 pieces shared by our SMPP client (./adapter) and our SMPP server (api/smpp/server.ts):
 * command statuses, data codings, the concatenation UDH (IE 00, 8-bit reference), the standard
 * delivery-receipt text ("id:… sub:… dlvrd:… submit date:… done date:… stat:… err:… text:…")
 * and the reassembly of concatenated parts. No I/O.
 */
import type { MessageStatus } from "../../messages/status";

export const STATUS = {
  ESME_ROK: 0x00,
  ESME_RINVMSGLEN: 0x01,
  ESME_RINVBNDSTS: 0x04,
  ESME_RALYBND: 0x05,
  ESME_RSYSERR: 0x08,
  ESME_RINVSRCADR: 0x0a,
  ESME_RINVDSTADR: 0x0b,
  ESME_RBINDFAIL: 0x0d,
  ESME_RINVPASWD: 0x0e,
  ESME_RINVSYSID: 0x0f,
  ESME_RMSGQFUL: 0x14,
  ESME_RSUBMITFAIL: 0x45,
  ESME_RTHROTTLED: 0x58,
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

/** The text of a received short_message / message_payload as the codec decoded it. */
export function textOf(pdu: { [field: string]: unknown }): { text: string; udh?: Buffer[] } {
  const sm = (pdu.message_payload && (pdu.message_payload as { message?: unknown }).message !== undefined ? pdu.message_payload : pdu.short_message) as
    | { message?: string | Buffer; udh?: Buffer[] }
    | string
    | Buffer
    | undefined;
  if (!sm) return { text: "" };
  if (typeof sm === "string") return { text: sm };
  if (Buffer.isBuffer(sm)) return { text: sm.toString("latin1") };
  const m = sm.message;
  return { text: typeof m === "string" ? m : m ? m.toString("latin1") : "", udh: sm.udh };
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

/**
 * Holds the parts of concatenated messages until all arrived (per sender key + reference), then
 * gives the whole text once. Parts older than `ttlMs` are dropped (an incomplete message is lost,
 * as on a handset).
 */
export class Reassembler {
  private pending = new Map<string, { at: number; total: number; parts: Map<number, string> }>();
  constructor(private ttlMs = 10 * 60_000) {}

  /** The full text when `part` completed its message, else null. */
  add(key: string, c: Concat, text: string): string | null {
    this.sweep();
    const k = `${key}|${c.ref}|${c.total}`;
    let entry = this.pending.get(k);
    if (!entry) {
      entry = { at: Date.now(), total: c.total, parts: new Map() };
      this.pending.set(k, entry);
    }
    entry.parts.set(c.seq, text);
    if (entry.parts.size < entry.total) return null;
    this.pending.delete(k);
    let whole = "";
    for (let i = 1; i <= entry.total; i++) whole += entry.parts.get(i) ?? "";
    return whole;
  }

  private sweep() {
    const now = Date.now();
    for (const [k, e] of this.pending) if (now - e.at > this.ttlMs) this.pending.delete(k);
  }
}

/** E.164 from an SMPP address ("5511987654321" or "+55…"); null when it is not a phone number. */
export function e164(addr: string | undefined | null): string | null {
  const digits = String(addr ?? "").replace(/^\+/, "");
  return /^[1-9]\d{7,14}$/.test(digits) ? `+${digits}` : null;
}
