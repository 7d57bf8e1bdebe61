/**
 * Our SMPP 3.4 client provider against a real SMSC on loopback (tests/support/smsc.ts): route T6
 * is pointed at an `smpp` provider connection; the worker binds to the SMSC, submits long
 * UCS-2 messages as UDH-concatenated parts, applies deliver_sm receipts (every part delivered
 * -> delivered; a part undelivered -> failed), retries a throttled part without resending the
 * accepted ones, and stores deliver_sm MO as inbound messages with opt-out keywords applied.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, giveShortCode, login, registerPerson } from "../support/api";
import { query } from "../support/db";
import { startSmsc, type Smsc } from "../support/smsc";
import { makeProviderConnection, makeSmsPrice, routeSmsThrough, setAccount, setProviderConnection } from "../support/factories";

const ROUTE = "T6";
let smsc: Smsc;
let token: string;
let accountId: string;
/** The account's own short code: the sender its sends use. */
let code: string;
let connectionId: string;
let previousConnection: string;
const NAME = `smsc_${Date.now().toString(36)}`;

async function until<T>(what: string, fn: () => Promise<T | null | undefined | false> | T | null | undefined | false, ms = 15_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v as T;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function send(to: string, body: string, from = code) {
  const res = await api("/api/sms/messages", { token, body: { to, from, body, route: ROUTE } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data[0] as { id: string; segments: number; coding: string };
}

const messageRow = async (id: string) => (await query<Record<string, any>>("SELECT * FROM messages WHERE id = $1", [id]))[0];
const partsOf = (id: string) =>
  query<{ part: number; total: number; provider_message_id: string; status: string }>("SELECT * FROM message_parts WHERE message_id = $1 ORDER BY part", [id]);
const accepted = (to: string) => smsc.submits.filter((s) => s.destination === to.replace("+", "") && s.status === 0);

beforeAll(async () => {
  smsc = await startSmsc({ systemId: "mensag", password: "s3cret" });
  const p = await registerPerson("smppcli");
  accountId = p.accountId;
  token = (await login(p.email, p.password)).token;
  await setAccount(accountId, { balance: 100000 });
  code = await giveShortCode(accountId);
  await makeSmsPrice(accountId, { route: ROUTE, pricePerSegment: 5 });
  connectionId = await makeProviderConnection({
    name: NAME,
    channel: "sms",
    kind: "smpp",
    settings: { host: "127.0.0.1", port: smsc.port, system_id: "mensag", password: "s3cret", tps: 50 },
  });
  previousConnection = await routeSmsThrough(ROUTE, connectionId);
  // The worker keeps a bind open for every enabled SMPP connection.
  await until("the worker's bind", () => smsc.bound());
});

afterAll(async () => {
  if (previousConnection) await routeSmsThrough(ROUTE, previousConnection);
  if (connectionId) await setProviderConnection(connectionId, { enabled: false });
  await smsc?.close();
});

describe("SMPP client provider", () => {
  it("binds with bind_transceiver using the connection's credentials", () => {
    expect(smsc.binds).toBeGreaterThanOrEqual(1);
  });

  it("a long UCS-2 message arrives as N parts with a correct UDH; receipts of every part make it delivered", async () => {
    const body = "Olá, seu pedido 你好 foi enviado! ".repeat(5).trim(); // UCS-2, > 134 units
    const to = "+5511991110001";
    const m = await send(to, body);
    expect(m.coding).toBe("UCS2");
    expect(m.segments).toBe(3);
    const parts = await until("3 parts at the SMSC", () => (accepted(to).length === 3 ? accepted(to) : null));
    const seqs = parts.map((p) => p.concat?.seq).sort();
    expect(seqs).toEqual([1, 2, 3]);
    for (const p of parts) {
      expect(p.dataCoding).toBe(8);
      expect(p.registeredDelivery).toBe(1);
      expect(p.esmClass & 0x40).toBe(0x40);
      expect(p.concat).toMatchObject({ ref: parts[0].concat!.ref, total: 3 });
      expect(p.udh[0].subarray(0, 2)).toEqual(Buffer.from([0x00, 0x03]));
      expect(p.text.length).toBeLessThanOrEqual(67);
    }
    const ordered = [...parts].sort((a, b) => a.concat!.seq - b.concat!.seq);
    expect(ordered.map((p) => p.text).join("")).toBe(body);

    const sent = await until("sent", async () => {
      const r = await messageRow(m.id);
      return r.status === "sent" ? r : null;
    });
    expect(sent.provider).toBe(NAME);
    expect(sent.provider_message_id).toBe(ordered[0].messageId);
    const stored = await partsOf(m.id);
    expect(stored.map((p) => p.provider_message_id)).toEqual(ordered.map((p) => p.messageId));

    // Two of three parts delivered: the message is not delivered yet.
    expect(await smsc.receipt(ordered[0].messageId!, "DELIVRD")).toBe(0);
    expect(await smsc.receipt(ordered[1].messageId!, "DELIVRD")).toBe(0);
    expect(await smsc.receipt(ordered[1].messageId!, "DELIVRD")).toBe(0); // a repeat
    expect((await messageRow(m.id)).status).toBe("sent");
    expect(await smsc.receipt(ordered[2].messageId!, "DELIVRD")).toBe(0);
    const delivered = await until("delivered", async () => {
      const r = await messageRow(m.id);
      return r.status === "delivered" ? r : null;
    });
    expect(delivered.delivered_at).not.toBeNull();
    const events = await query<{ status: string }>("SELECT status FROM message_events WHERE message_id = $1 AND source = 'provider'", [m.id]);
    expect(events.map((e) => e.status)).toEqual(["delivered"]);
  });

  it("a short GSM-7 message is one submit with data_coding 0; an UNDELIV receipt fails it", async () => {
    const to = "+5511991110002";
    const m = await send(to, "Seu codigo e 1234 {ok}");
    expect(m.coding).toBe("GSM7");
    const [p] = await until("1 submit", () => (accepted(to).length === 1 ? accepted(to) : null));
    expect(p.dataCoding).toBe(0);
    expect(p.concat).toBeNull();
    expect(p.text).toBe("Seu codigo e 1234 {ok}");
    await until("sent", async () => (await messageRow(m.id)).status === "sent");
    expect(await smsc.receipt(p.messageId!, "UNDELIV", "001")).toBe(0);
    const failed = await until("failed", async () => {
      const r = await messageRow(m.id);
      return r.status === "failed" ? r : null;
    });
    expect(failed.error_code).toBe("001");
    // A late DELIVRD after the failure changes nothing.
    await smsc.receipt(p.messageId!, "DELIVRD");
    expect((await messageRow(m.id)).status).toBe("failed");
  });

  it("a throttled part (ESME_RTHROTTLED) is retried later; accepted parts are never submitted twice", async () => {
    const to = "+5511991110003";
    let throttled = 0;
    smsc.throttle = (s) => {
      if (s.destination === to.slice(1) && s.concat?.seq === 2 && throttled < 1) {
        throttled++;
        return true;
      }
      return false;
    };
    const body = "Promoção: ".padEnd(200, "x"); // 'ç' and 'ã' are not GSM-7 -> UCS-2, 3 parts
    const m = await send(to, body);
    await until("sent", async () => (await messageRow(m.id)).status === "sent", 20_000);
    smsc.throttle = () => false;
    const all = smsc.submits.filter((s) => s.destination === to.slice(1));
    expect(all.filter((s) => s.status !== 0).map((s) => s.concat?.seq)).toEqual([2]);
    const ok = all
      .filter((s) => s.status === 0)
      .map((s) => s.concat?.seq)
      .sort();
    expect(ok).toEqual([1, 2, 3]); // each part accepted exactly once
    expect(await partsOf(m.id)).toHaveLength(3);
  });

  it("after the SMSC drops the connection the worker binds again and sends", async () => {
    const before = smsc.binds;
    smsc.kick();
    await until("a new bind", () => smsc.binds > before && smsc.bound(), 20_000);
    const to = "+5511991110004";
    const m = await send(to, "De volta");
    await until("sent after the reconnect", async () => (await messageRow(m.id)).status === "sent");
    expect(accepted(to)).toHaveLength(1);
  });

  it("deliver_sm MO is stored as an inbound message of the account that sent to that mobile; SAIR opts out, VOLTAR resumes", async () => {
    const mobile = "+5511991110002"; // sent to above
    expect(await smsc.mo(mobile, "29123", "Obrigado!")).toBe(0);
    const inbound = await until("inbound", async () => {
      const rows = await query<Record<string, any>>("SELECT * FROM messages WHERE account_id = $1 AND direction = 'inbound' AND sender = $2 ORDER BY created_at", [
        accountId,
        mobile,
      ]);
      return rows.length ? rows : null;
    });
    expect(inbound[0]).toMatchObject({ status: "received", recipient: "29123", body: "Obrigado!", provider: NAME });

    expect(await smsc.mo(mobile, "29123", "  Sáir ")).toBe(0);
    const [optout] = await until("opt-out", () =>
      query<Record<string, any>>("SELECT * FROM optouts WHERE account_id = $1 AND recipient = $2", [accountId, mobile]).then((r) => r[0] && [r[0]]),
    );
    expect(optout).toMatchObject({ channel: "sms", source: "keyword", keyword: "SAIR" });
    // A send to the opted-out mobile now ends `optout`.
    const blocked = await api("/api/sms/messages", { token, body: { to: mobile, body: "Oi", route: ROUTE } });
    expect(blocked.body.data[0].status).toBe("optout");

    expect(await smsc.mo(mobile, "29123", "voltar")).toBe(0);
    await until("opt-out removed", async () => (await query("SELECT 1 FROM optouts WHERE account_id = $1 AND recipient = $2", [accountId, mobile])).length === 0);
  });
});
