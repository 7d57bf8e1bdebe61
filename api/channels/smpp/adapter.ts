/**
 * SMPP 3.4 client provider (ADR 011): one persistent bind_transceiver per provider connection
 * (per worker process), enquire_link keep-alive, reconnect with exponential backoff (1 s … 30 s).
 * With several workers the SMSC sees one bind per worker (its bind limit must allow them,
 * docs/deploy.md); the connection's tps is shared by all of them (a submit slot in Redis), and an
 * MO's concatenated parts are reassembled in Redis whichever bind they arrive on.
 *
 * send(): the body is split like api/sms/segments.ts counts it (153 GSM-7 septets / 67 UCS-2
 * units per part); each part is a submit_sm with data_coding 0 (GSM 03.38) or 8 (UCS-2 BE),
 * registered_delivery 1 and, when there are several, the UDH 00 03 ref total seq (ref derived
 * from our message id, so a retry reuses it). Each accepted part is recorded in message_parts at
 * once; a retry of the same message (a throttled part, a lost connection) submits only the parts
 * not yet recorded, so no part reaches the handset twice. The message's provider id is part 1's.
 *
 * deliver_sm: with esm_class 0x04 a delivery receipt ("id:… stat:…") -> api/messages/parts.ts
 * (the same status machine, dedupe and message event as webhook receipts); otherwise an inbound
 * SMS (MO) -> api/messages/inbound.ts, concatenated parts reassembled first.
 *
 * No status look-up (ChannelAdapter.status): SMPP's query_sm asks about one part, over a bind
 * whose peers often refuse it, and a concatenated message's parts would each need one. A message
 * whose receipt never comes therefore ends `unavailable` (EXPIRED) after SMS_VALIDITY_SECONDS
 * (api/messages/reconcile.ts) — the same end the SMSC itself reports when validity passes.
 */
import smpp, { type PDU, type Session } from "smpp";
import { receiveInbound } from "../../messages/inbound";
import { applyPartReceipt } from "../../messages/parts";
import { smsParts } from "../../sms/segments";
import type { ProviderConnection } from "../provider-connections";
import { PermanentSendError, ProviderThrottledError, type ChannelAdapter, type OutboundMessage } from "../contract";
import { concatOf, concatRef, concatUdh, DATA_CODING, e164, ESM_CLASS_RECEIPT, parseReceiptText, STAT_STATUS, STATUS, textOf } from "./protocol";
import { SharedReassembler } from "./reassembly";
import { redis } from "../../lib/redis";
import { keys } from "../../lib/redis-keys";
import { exec, rows } from "../../lib/sql";

export type SmppSettings = { host: string; port: number; system_id: string; password: string; system_type?: string; tps?: number };

const PERMANENT = new Set<number>([STATUS.ESME_RINVMSGLEN, STATUS.ESME_RINVSRCADR, STATUS.ESME_RINVDSTADR]);
const BIND_WAIT_MS = 5000;
const RESPONSE_TIMEOUT_MS = 10_000;
const ENQUIRE_LINK_MS = 30_000;
const MAX_BACKOFF_MS = 30_000;

export function smppSettings(c: ProviderConnection): SmppSettings {
  const s = c.settings as Partial<SmppSettings>;
  return {
    host: String(s.host ?? "127.0.0.1"),
    port: Number(s.port ?? 2775),
    system_id: String(s.system_id ?? ""),
    password: String(s.password ?? ""),
    system_type: s.system_type ? String(s.system_type) : "",
    tps: s.tps ? Number(s.tps) : undefined,
  };
}

/** One SMSC link: connect, bind, keep alive, reconnect; submits wait for the bind. */
export class SmppLink {
  private session: Session | null = null;
  private bound = false;
  private closed = false;
  private attempt = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private waiters: Array<() => void> = [];
  /** An MO's parts may arrive over the binds of different workers: held in Redis. */
  private mo: SharedReassembler<string>;

  constructor(
    readonly connection: ProviderConnection,
    readonly settings: SmppSettings,
  ) {
    this.mo = new SharedReassembler<string>(connection.id);
    this.open();
  }

  get isBound() {
    return this.bound;
  }

  private open() {
    if (this.closed) return;
    const s = this.settings;
    const session = smpp.connect({ url: `smpp://${s.host}:${s.port}`, auto_enquire_link_period: ENQUIRE_LINK_MS });
    this.session = session;
    session.on("connect", () => {
      session.bind_transceiver({ system_id: s.system_id, password: s.password, system_type: s.system_type ?? "", interface_version: 0x34 }, (pdu: PDU) => {
        if (pdu.command_status === STATUS.ESME_ROK) {
          this.bound = true;
          this.attempt = 0;
          for (const w of this.waiters.splice(0)) w();
        } else {
          console.error(`smpp ${this.connection.name}: bind refused with status 0x${pdu.command_status.toString(16)}`);
          session.close();
        }
      });
    });
    session.on("enquire_link", (pdu: PDU) => session.send(pdu.response()));
    session.on("unbind", (pdu: PDU) => {
      session.send(pdu.response());
      session.close();
    });
    session.on("deliver_sm", (pdu: PDU) => {
      session.pause();
      this.onDeliver(pdu)
        .then((status) => session.send(pdu.response({ command_status: status })))
        .catch((e) => {
          console.error(`smpp ${this.connection.name}: deliver_sm failed`, e);
          session.send(pdu.response({ command_status: STATUS.ESME_RX_T_APPN }));
        })
        .finally(() => session.resume());
    });
    session.on("error", (e: Error) => console.error(`smpp ${this.connection.name}: ${e.message}`));
    session.on("close", () => {
      this.bound = false;
      if (this.session === session) this.session = null;
      this.scheduleReconnect();
    });
  }

  private scheduleReconnect() {
    if (this.closed || this.timer) return;
    const delay = Math.min(MAX_BACKOFF_MS, 1000 * 2 ** this.attempt++);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.open();
    }, delay);
  }

  async ready(ms = BIND_WAIT_MS): Promise<boolean> {
    if (this.bound) return true;
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(t);
        resolve(true);
      };
      const t = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== done);
        resolve(false);
      }, ms);
      this.waiters.push(done);
    });
  }

  /** Sends a request PDU and resolves with its response (rejects on timeout or a closed link). */
  async request(command: string, params: Record<string, unknown>): Promise<PDU> {
    // The connection's tps: submits spaced at least 1/tps seconds apart across every worker's bind.
    if (command === "submit_sm" && this.settings.tps) {
      const wait = await nextSlot(this.connection.id, 1000 / this.settings.tps);
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    }
    const session = this.session;
    if (!session || !this.bound) throw new Error(`smpp ${this.connection.name}: not bound`);
    return new Promise((resolve, reject) => {
      const t = setTimeout(() => reject(new Error(`smpp ${this.connection.name}: no ${command}_resp in ${RESPONSE_TIMEOUT_MS} ms`)), RESPONSE_TIMEOUT_MS);
      const sent = session.send(new smpp.PDU(command, params), (pdu: PDU) => {
        clearTimeout(t);
        resolve(pdu);
      });
      if (!sent) {
        clearTimeout(t);
        reject(new Error(`smpp ${this.connection.name}: connection not writable`));
      }
    });
  }

  private async onDeliver(pdu: PDU): Promise<number> {
    const { text, udh } = textOf(pdu);
    if ((pdu.esm_class & 0x3c) === ESM_CLASS_RECEIPT) {
      const parsed = parseReceiptText(text);
      const id = (pdu.receipted_message_id as string | undefined) || parsed?.id;
      const status = parsed ? STAT_STATUS[parsed.stat] : undefined;
      if (!id || !status) return STATUS.ESME_ROK; // unreadable receipt: acknowledged, nothing to apply
      // A receipt can outrun the recording of its submit's answer: wait a little for the part.
      for (let i = 0; i < 10; i++) {
        const r = await applyPartReceipt({
          provider: this.connection.name,
          partId: id,
          status,
          errorCode: parsed?.err && parsed.err !== "000" ? parsed.err : null,
          occurredAt: new Date(),
          eventId: `smpp:${id}:${parsed?.stat}`,
        });
        if (r.result !== "unknown_part") return STATUS.ESME_ROK;
        await new Promise((res) => setTimeout(res, 200));
      }
      return STATUS.ESME_ROK;
    }
    const from = e164(pdu.source_addr);
    if (!from) return STATUS.ESME_ROK;
    const concat = concatOf(udh);
    const body = concat ? ((await this.mo.add(String(pdu.source_addr ?? ""), String(pdu.destination_addr ?? ""), concat, text)).parts?.join("") ?? null) : text;
    if (body === null) return STATUS.ESME_ROK;
    await receiveInbound({ provider: this.connection.name, providerMessageId: null, from, to: String(pdu.destination_addr ?? ""), body, occurredAt: new Date() });
    return STATUS.ESME_ROK;
  }

  close() {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    const s = this.session;
    this.session = null;
    this.bound = false;
    if (s) {
      try {
        s.unbind?.({}, () => s.close());
        setTimeout(() => s.destroy(), 1000).unref?.();
      } catch {
        s.destroy();
      }
    }
  }
}

/**
 * The connection's next submit slot, shared by every worker (each has its own bind): the slot is
 * max(now, the stored next) and the stored next moves one gap past it, in one script on Redis's
 * clock (processes' clocks may differ). The wait before this submit, in ms.
 */
const SLOT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local at = math.max(now, tonumber(redis.call('GET', KEYS[1]) or '0'))
redis.call('SET', KEYS[1], tostring(at + tonumber(ARGV[1])), 'PX', 60000)
return at - now
`;
async function nextSlot(connectionId: string, gapMs: number): Promise<number> {
  return Number(await redis().eval(SLOT, 1, keys.smppLinkSlot(connectionId), String(Math.ceil(gapMs))));
}

const links = new Map<string, SmppLink>();

/** The link of a connection in this process (opened on first use). */
export function linkFor(c: ProviderConnection): SmppLink {
  let link = links.get(c.id);
  if (!link) {
    link = new SmppLink(c, smppSettings(c));
    links.set(c.id, link);
  }
  return link;
}

export function closeLink(connectionId: string) {
  links.get(connectionId)?.close();
  links.delete(connectionId);
}

async function submitParts(link: SmppLink, c: ProviderConnection, message: OutboundMessage): Promise<string> {
  const { coding, parts } = smsParts(message.body);
  const done = await rows<{ part: number; provider_message_id: string }>(`SELECT part, provider_message_id FROM message_parts WHERE message_id = $1 AND provider = $2`, [
    message.id,
    c.name,
  ]);
  const ids = new Map(done.map((d) => [d.part, d.provider_message_id]));
  const ref = concatRef(message.id);
  const total = parts.length;
  const sender = message.sender || "";
  for (let i = 0; i < total; i++) {
    const seq = i + 1;
    if (ids.has(seq)) continue;
    const resp = await link.request("submit_sm", {
      source_addr_ton: /^\d+$/.test(sender) ? (sender.length > 8 ? 1 : 3) : 5,
      source_addr_npi: /^\d+$/.test(sender) ? 1 : 0,
      source_addr: sender,
      dest_addr_ton: 1,
      dest_addr_npi: 1,
      destination_addr: message.recipient.replace(/^\+/, ""),
      registered_delivery: 1,
      data_coding: DATA_CODING[coding],
      short_message: total > 1 ? { udh: concatUdh(ref, total, seq), message: parts[i] } : { message: parts[i] },
    });
    const status = resp.command_status;
    if (status === STATUS.ESME_RTHROTTLED || status === STATUS.ESME_RMSGQFUL) {
      throw new ProviderThrottledError(`smpp ${c.name}: part ${seq}/${total} throttled (0x${status.toString(16)})`);
    }
    if (PERMANENT.has(status)) throw new PermanentSendError(`smpp_0x${status.toString(16)}`, `The SMSC refused the message (command_status 0x${status.toString(16)})`);
    if (status !== STATUS.ESME_ROK || !resp.message_id) throw new Error(`smpp ${c.name}: submit_sm answered 0x${status.toString(16)}`);
    await exec(
      `INSERT INTO message_parts (message_id, part, total, provider, provider_message_id) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (message_id, part) DO NOTHING`,
      [message.id, seq, total, c.name, String(resp.message_id)],
    );
    ids.set(seq, String(resp.message_id));
  }
  return ids.get(1)!;
}

export function smppAdapter(c: ProviderConnection): ChannelAdapter {
  const settings = smppSettings(c);
  return {
    channel: c.channel,
    provider: c.name,
    capabilities: { text: true, media: false, deliveryReceipts: true, idempotentSubmit: false },
    configured: () => c.enabled && Boolean(settings.host && settings.system_id),
    async send(message) {
      const link = linkFor(c);
      if (!(await link.ready())) throw new Error(`smpp ${c.name}: not bound to ${settings.host}:${settings.port}`);
      return { providerMessageId: await submitParts(link, c, message) };
    },
    start: () => void linkFor(c),
    close: () => closeLink(c.id),
  };
}
