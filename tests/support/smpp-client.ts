/** A real SMPP client (smpp.connect) for tests against our SMPP server, with promises. */
import smpp, { type PDU, type Session } from "smpp";

export type TestClient = {
  session: Session;
  delivered: PDU[];
  bind(mode: "transceiver" | "transmitter" | "receiver", systemId: string, password: string): Promise<number>;
  submit(params: Record<string, unknown>): Promise<PDU>;
  waitDeliver(match: (pdu: PDU) => boolean, ms?: number): Promise<PDU>;
  close(): Promise<void>;
  /** Settles when the connection is closed (by either side). */
  closed: Promise<void>;
};

/** `localAddress`: the loopback address to connect from (127.x.y.z), for tests that count per client IP. */
export function smppClient(port: number, opts: { localAddress?: string } = {}): Promise<TestClient> {
  return new Promise((resolve, reject) => {
    const session = smpp.connect({ url: `smpp://127.0.0.1:${port}`, ...(opts.localAddress ? { localAddress: opts.localAddress } : {}) });
    const closed = new Promise<void>((res) => session.on("close", () => res()));
    const delivered: PDU[] = [];
    const listeners: Array<() => void> = [];
    session.on("deliver_sm", (pdu: PDU) => {
      delivered.push(pdu);
      session.send(pdu.response());
      for (const l of listeners) l();
    });
    session.on("enquire_link", (pdu: PDU) => session.send(pdu.response()));
    session.on("error", (e: Error) => reject(e));
    session.on("connect", () =>
      resolve({
        session,
        delivered,
        closed,
        bind: (mode, systemId, password) =>
          new Promise((res) => session[`bind_${mode}`]({ system_id: systemId, password }, (pdu: PDU) => res(pdu.command_status))),
        submit: (params) => new Promise((res) => session.submit_sm(params, (pdu: PDU) => res(pdu))),
        waitDeliver: (match, ms = 20_000) =>
          new Promise((res, rej) => {
            const check = () => {
              const found = delivered.find(match);
              if (found) {
                clearTimeout(t);
                res(found);
                return true;
              }
              return false;
            };
            const t = setTimeout(() => rej(new Error(`no matching deliver_sm in ${ms} ms; got ${delivered.length}`)), ms);
            if (!check()) listeners.push(() => void check());
          }),
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
