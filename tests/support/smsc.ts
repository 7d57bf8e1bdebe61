/**
 * A real SMSC peer on loopback for tests (smpp.createServer): binds one system_id/password,
 * answers submit_sm with its own ids (or ESME_RTHROTTLED while `throttle` says so), records every
 * submit as received, and sends deliver_sm (receipts with esm_class 0x04, or MO) on demand.
 */
import { randomUUID } from "node:crypto";
import smpp, { type PDU, type Session } from "smpp";
import { concatOf, concatUdh, receiptText, STATUS, textOf } from "../../api/channels/smpp/protocol";

export type Submitted = {
  messageId: string | null;
  status: number;
  destination: string;
  source: string;
  dataCoding: number;
  esmClass: number;
  registeredDelivery: number;
  udh: Buffer[];
  concat: { ref: number; total: number; seq: number } | null;
  text: string;
  at: Date;
  /** Which bind it came over (1 for the first bind the SMSC accepted, 2 for the second…). */
  bind: number;
};

export type Smsc = {
  port: number;
  submits: Submitted[];
  binds: number;
  /** Called per submit: true answers ESME_RTHROTTLED instead of accepting it. */
  throttle: (s: Omit<Submitted, "messageId" | "status">) => boolean;
  bound(): boolean;
  receipt(messageId: string, stat: string, err?: string): Promise<number>;
  mo(from: string, to: string, text: string): Promise<number>;
  /** An MO in concatenated parts (UDH 00 03 ref total seq), part i over bound session i mod the number bound. */
  moParts(from: string, to: string, parts: string[], ref: number): Promise<number[]>;
  /** How many sessions are bound now. */
  sessions(): number;
  /** Drops every connection (an SMSC restart or a network cut). */
  kick(): void;
  close(): Promise<void>;
};

export async function startSmsc(creds: { systemId: string; password: string }): Promise<Smsc> {
  const sessions = new Set<Session>();
  const smsc: Smsc = {
    port: 0,
    submits: [],
    binds: 0,
    throttle: () => false,
    bound: () => sessions.size > 0,
    receipt: (messageId, stat, err = "000") =>
      deliver({
        esm_class: 0x04,
        source_addr: "5500000000000",
        destination_addr: "29094",
        short_message: receiptText({ id: messageId, stat, err, submitted: new Date(), done: new Date() }),
      }),
    mo: (from, to, text) => deliver({ esm_class: 0, source_addr: from.replace(/^\+/, ""), source_addr_ton: 1, destination_addr: to, short_message: text }),
    moParts: async (from, to, parts, ref) => {
      const out: number[] = [];
      for (const [i, message] of parts.entries()) {
        const params = {
          esm_class: 0x40,
          source_addr: from.replace(/^\+/, ""),
          source_addr_ton: 1,
          destination_addr: to,
          short_message: { udh: concatUdh(ref, parts.length, i + 1), message },
        };
        out.push(await deliver(params, i));
      }
      return out;
    },
    sessions: () => sessions.size,
    kick: () => {
      for (const s of sessions) s.destroy();
      sessions.clear();
    },
    close: () =>
      new Promise<void>((r) => {
        for (const s of sessions) s.destroy();
        server.close(() => r());
      }),
  };

  function deliver(params: Record<string, unknown>, n = 0): Promise<number> {
    const all = [...sessions];
    const s = all[n % Math.max(1, all.length)];
    if (!s) return Promise.reject(new Error("no bound session"));
    return new Promise((resolve) => s.deliver_sm(params, (pdu: PDU) => resolve(pdu.command_status)));
  }

  const server = smpp.createServer((session: Session) => {
    let bound = false;
    let bindNo = 0;
    const bind = (pdu: PDU) => {
      if (pdu.system_id !== creds.systemId) return session.send(pdu.response({ command_status: STATUS.ESME_RINVSYSID }));
      if (pdu.password !== creds.password) return session.send(pdu.response({ command_status: STATUS.ESME_RINVPASWD }));
      bound = true;
      bindNo = ++smsc.binds;
      sessions.add(session);
      session.send(pdu.response({ system_id: "TESTSMSC" }));
    };
    session.on("bind_transceiver", bind);
    session.on("bind_transmitter", bind);
    session.on("enquire_link", (pdu: PDU) => session.send(pdu.response()));
    session.on("unbind", (pdu: PDU) => {
      session.send(pdu.response());
      session.close();
    });
    session.on("submit_sm", (pdu: PDU) => {
      if (!bound) return session.send(pdu.response({ command_status: STATUS.ESME_RINVBNDSTS }));
      const { text, udh } = textOf(pdu);
      const s = {
        destination: String(pdu.destination_addr),
        source: String(pdu.source_addr),
        dataCoding: pdu.data_coding,
        esmClass: pdu.esm_class,
        registeredDelivery: pdu.registered_delivery,
        udh: udh ?? [],
        concat: concatOf(udh),
        text,
        at: new Date(),
        bind: bindNo,
      };
      if (smsc.throttle(s)) {
        smsc.submits.push({ ...s, messageId: null, status: STATUS.ESME_RTHROTTLED });
        return session.send(pdu.response({ command_status: STATUS.ESME_RTHROTTLED }));
      }
      const messageId = randomUUID().replace(/-/g, "").slice(0, 20);
      smsc.submits.push({ ...s, messageId, status: 0 });
      session.send(pdu.response({ message_id: messageId }));
    });
    session.on("close", () => sessions.delete(session));
    session.on("error", () => sessions.delete(session));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  smsc.port = (server.address() as { port: number }).port;
  return smsc;
}
