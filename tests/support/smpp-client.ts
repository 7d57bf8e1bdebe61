/** A real SMPP client (smpp.connect) for tests against our SMPP server, with promises. */
import smpp, { type PDU, type Session } from "smpp";

export type TestClient = {
  session: Session;
  delivered: PDU[];
  /** bind_*; rejects when no answer comes within 30 s. */
  bind(mode: "transceiver" | "transmitter" | "receiver", systemId: string, password: string): Promise<number>;
  /** submit_sm; rejects when no answer comes within 30 s. */
  submit(params: Record<string, unknown>): Promise<PDU>;
  /** Any request (query_sm, data_sm…); rejects when no answer comes within `ms` (30 s: the whole suite shares two cores). */
  request(command: string, params: Record<string, unknown>, ms?: number): Promise<PDU>;
  /** Writes raw octets (a PDU the library cannot build, e.g. an unknown command id). */
  write(octets: Buffer): void;
  /** Every PDU received, in order. */
  received: PDU[];
  /** The first received PDU matching, waiting up to `ms`. */
  waitPdu(match: (pdu: PDU) => boolean, ms?: number): Promise<PDU>;
  waitDeliver(match: (pdu: PDU) => boolean, ms?: number): Promise<PDU>;
  close(): Promise<void>;
  /** Settles when the connection is closed (by either side). */
  closed: Promise<void>;
};

/** `localAddress`: the loopback address to connect from (127.x.y.z), for tests that count per client IP. */
export function smppClient(port: number, opts: { localAddress?: string } = {}): Promise<TestClient> {
  return new Promise((resolve, reject) => {
    const session = smpp.connect({ url: `smpp://127.0.0.1:${port}`, ...(opts.localAddress ? { localAddress: opts.localAddress } : {}) });
    let closedAt: string | null = null;
    const errors: string[] = [];
    const closed = new Promise<void>((res) =>
      session.on("close", () => {
        closedAt = new Date().toISOString();
        res();
      }),
    );
    /** The session's state, for the message of an answer that did not come. */
    const state = () => `(connection ${closedAt ? `closed at ${closedAt}` : "open"}${errors.length ? `; session errors: ${errors.join("; ")}` : ""})`;
    const delivered: PDU[] = [];
    const received: PDU[] = [];
    const listeners: Array<() => void> = [];
    /** Resolves with the first item of `list` matching, as items arrive, or rejects after `ms`. */
    const waitIn = (list: PDU[], what: string, match: (pdu: PDU) => boolean, ms: number) =>
      new Promise<PDU>((res, rej) => {
        const check = () => {
          const found = list.find(match);
          if (found) {
            clearTimeout(t);
            res(found);
            return true;
          }
          return false;
        };
        // The connection's state too: a session the server closed meanwhile explains a missing receipt.
        const t = setTimeout(() => rej(new Error(`no matching ${what} in ${ms} ms; got ${list.length} ${state()}`)), ms);
        if (!check()) listeners.push(() => void check());
      });
    session.on("pdu", (pdu: PDU) => {
      received.push(pdu);
      for (const l of listeners) l();
    });
    session.on("deliver_sm", (pdu: PDU) => {
      delivered.push(pdu);
      session.send(pdu.response());
      for (const l of listeners) l();
    });
    session.on("enquire_link", (pdu: PDU) => session.send(pdu.response()));
    session.on("error", (e: Error) => {
      errors.push(String(e));
      reject(e);
    });
    session.on("connect", () =>
      resolve({
        session,
        delivered,
        closed,
        bind: (mode, systemId, password) =>
          new Promise((res, rej) => {
            // Bounded like submit: a lost bind answer fails this step by name, not the test's timeout.
            const t = setTimeout(() => rej(new Error(`no answer to bind_${mode} as ${systemId} in 30000 ms ${state()}`)), 30_000);
            session[`bind_${mode}`]({ system_id: systemId, password }, (pdu: PDU) => {
              clearTimeout(t);
              res(pdu.command_status);
            });
          }),
        submit: (params) =>
          new Promise((res, rej) => {
            // Bounded, so a lost answer fails its own step by name instead of the whole test's timeout.
            const t = setTimeout(() => rej(new Error(`no answer to submit_sm to ${String(params.destination_addr)} in 30000 ms ${state()}`)), 30_000);
            session.submit_sm(params, (pdu: PDU) => {
              clearTimeout(t);
              res(pdu);
            });
          }),
        request: (command, params, ms = 30_000) =>
          new Promise((res, rej) => {
            const t = setTimeout(() => rej(new Error(`no answer to ${command} in ${ms} ms ${state()}`)), ms);
            session[command](params, (pdu: PDU) => {
              clearTimeout(t);
              res(pdu);
            });
          }),
        write: (octets) => void session.socket.write(octets),
        received,
        waitPdu: (match, ms = 10_000) => waitIn(received, "PDU", match, ms),
        waitDeliver: (match, ms = 60_000) => waitIn(delivered, "deliver_sm", match, ms),
        close: () =>
          new Promise<void>((res) => {
            if (session.socket.destroyed) return res();
            session.socket.once("close", () => res());
            session.destroy();
          }),
      }),
    );
  });
}
