/**
 * The generic HTTP provider against a loopback HTTP peer (route T4 -> an `http` connection):
 * submit with the API key, 429 retried without a second delivery, signed status webhooks on
 * /api/webhooks/providers/<connection name> (401 when unsigned), and inbound SMS (MO) through
 * the same signed endpoint — from the HTTP provider and from the simulator's /v1/inbound —
 * stored as inbound messages with keyword opt-outs. Also PUT /api/optouts/:id and /api/blacklist/:id.
 */
import { randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { signWebhook } from "../../api/channels/webhook-signature";
import { api, giveShortCode, login, registerPerson } from "../support/api";
import { query } from "../support/db";
import { makeProviderConnection, makeSmsPrice, routeSmsThrough, setAccount, setProviderConnection } from "../support/factories";

/** How long each process caches the provider connections (CACHE_MS in api/channels/connections.ts). */
const CONNECTION_CACHE_MS = 1000;

const ROUTE = "T4";
const NAME = `acme_${Date.now().toString(36)}`;
const API_KEY = "peer-api-key-0123456789";
const SECRET = "whsec_" + Buffer.from("loopback-provider-secret-32bytes").toString("base64");
type Submit = { auth: string | undefined; body: { to: string; from: string; body: string; reference: string }; answered: number; id: string | null };
const submits: Submit[] = [];
let tooMany = new Set<string>();
let peer: Server;
let token: string;
let accountId: string;
/** The account's own short code: the sender its sends use. */
let code: string;
let connectionId: string;
let previous: string;

async function until<T>(what: string, fn: () => Promise<T | null | undefined | false>, ms = 15_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v as T;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
const statusOf = async (id: string) => (await query<{ status: string }>("SELECT status FROM messages WHERE id = $1", [id]))[0]?.status;

function webhook(raw: string, secret = SECRET, provider = NAME) {
  return fetch(new URL(`/api/webhooks/providers/${provider}`, inject("apiUrl")), {
    method: "POST",
    headers: { "Content-Type": "application/json", ...signWebhook(secret, `wh_${randomUUID()}`, raw) },
    body: raw,
  }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));
}

beforeAll(async () => {
  peer = createServer((req, res) => {
    let data = "";
    req.on("data", (c) => (data += c));
    req.on("end", () => {
      const body = JSON.parse(data || "{}");
      if (req.url !== "/v2/messages" || req.method !== "POST") return res.writeHead(404).end();
      if (req.headers.authorization !== `Bearer ${API_KEY}`) return res.writeHead(401).end('{"error":{"code":"auth"}}');
      if (tooMany.has(body.to)) {
        tooMany.delete(body.to);
        submits.push({ auth: req.headers.authorization, body, answered: 429, id: null });
        return res.writeHead(429, { "Content-Type": "application/json" }).end('{"error":{"code":"rate","message":"slow down"}}');
      }
      const id = `acme-${randomUUID()}`;
      submits.push({ auth: req.headers.authorization, body, answered: 202, id });
      res.writeHead(202, { "Content-Type": "application/json" }).end(JSON.stringify({ id }));
    });
  });
  await new Promise<void>((r) => peer.listen(0, "127.0.0.1", () => r()));
  const port = (peer.address() as { port: number }).port;

  const p = await registerPerson("httpprov");
  accountId = p.accountId;
  token = (await login(p.email, p.password)).token;
  await setAccount(accountId, { balance: 100000 });
  code = await giveShortCode(accountId);
  await makeSmsPrice(accountId, { route: ROUTE, pricePerSegment: 6 });
  connectionId = await makeProviderConnection({
    name: NAME,
    channel: "sms",
    kind: "http",
    settings: { url: `http://127.0.0.1:${port}/v2`, api_key: API_KEY, webhook_secret: SECRET },
  });
  previous = await routeSmsThrough(ROUTE, connectionId);
  // Each process caches the route's connection for 1 s and nothing outside shows when it reloads:
  // outlast the cache on purpose (a known duration, not a wait for something observable).
  await new Promise((r) => setTimeout(r, CONNECTION_CACHE_MS + 200));
});

afterAll(async () => {
  if (previous) await routeSmsThrough(ROUTE, previous);
  if (connectionId) await setProviderConnection(connectionId, { enabled: false });
  await new Promise((r) => peer?.close(() => r(null)));
});

describe("HTTP provider", () => {
  it("submits with the API key and our message id as reference; a signed receipt delivers; unsigned gets 401", async () => {
    const res = await api("/api/sms/messages", { token, body: { to: "+5511977770001", from: code, body: "Pedido confirmado", route: ROUTE } });
    expect(res.status).toBe(200);
    const id = res.body.data[0].id;
    await until("sent", async () => (await statusOf(id)) === "sent");
    const mine = submits.filter((s) => s.body.reference === id);
    expect(mine).toHaveLength(1);
    expect(mine[0].body).toMatchObject({ to: "+5511977770001", from: code, body: "Pedido confirmado" });
    const [m] = await query<{ provider: string; provider_message_id: string }>("SELECT provider, provider_message_id FROM messages WHERE id = $1", [id]);
    expect(m).toEqual({ provider: NAME, provider_message_id: mine[0].id });

    const raw = JSON.stringify({ event_id: `e-${randomUUID()}`, message_id: mine[0].id, status: "DELIVRD", occurred_at: new Date().toISOString() });
    const bad = await webhook(raw, "whsec_" + Buffer.from("another-secret-of-32-bytes-long!").toString("base64"));
    expect(bad.status).toBe(401);
    expect(await statusOf(id)).toBe("sent");
    const ok = await webhook(raw);
    expect(ok.status).toBe(200);
    expect(ok.body.result).toBe("applied");
    expect(await statusOf(id)).toBe("delivered");
    expect((await webhook(raw)).body.result).toBe("duplicate");
    // An unknown provider name is 404, not a silent accept.
    expect((await webhook(raw, SECRET, "nobody_here")).status).toBe(404);
  });

  it("a 429 answer is retried later and the handset gets it once", async () => {
    tooMany = new Set(["+5511977770002"]);
    const res = await api("/api/sms/messages", { token, body: { to: "+5511977770002", body: "Tente de novo", route: ROUTE } });
    const id = res.body.data[0].id;
    await until("sent", async () => (await statusOf(id)) === "sent", 20_000);
    const mine = submits.filter((s) => s.body.reference === id);
    expect(mine.map((s) => s.answered)).toEqual([429, 202]);
  });

  it("an MO posted by the HTTP provider is stored inbound; PARAR opts the mobile out with the keyword", async () => {
    const raw = (body: string) =>
      JSON.stringify({ type: "inbound", event_id: `mo-${randomUUID()}`, from: "5511977770001", to: "29123", body, occurred_at: new Date().toISOString() });
    const first = raw("Oi, quando chega?");
    const r = await webhook(first);
    expect(r.status).toBe(200);
    expect(r.body.result).toBe("stored");
    expect((await webhook(first)).body.result).toBe("duplicate");
    const [m] = await query<Record<string, any>>("SELECT * FROM messages WHERE id = $1", [r.body.messageId]);
    expect(m).toMatchObject({
      account_id: accountId,
      direction: "inbound",
      status: "received",
      sender: "+5511977770001",
      recipient: "29123",
      body: "Oi, quando chega?",
      price: "0",
    });

    const stop = await webhook(raw(" parar "));
    expect(stop.body).toMatchObject({ result: "stored", keyword: { action: "optout", keyword: "PARAR" } });
    const [o] = await query<Record<string, any>>("SELECT * FROM optouts WHERE account_id = $1 AND recipient = '+5511977770001'", [accountId]);
    expect(o).toMatchObject({ source: "keyword", keyword: "PARAR", channel: "sms" });
    // A mobile nobody sent to belongs to no account: not stored.
    const lost = await webhook(JSON.stringify({ type: "inbound", from: "5599911112222", to: "29123", body: "quem?", occurred_at: new Date().toISOString() }));
    expect(lost.body.result).toBe("unrouted");
  });

  it("the simulator's /v1/inbound posts a signed MO to us: stored for the account that sent to that mobile; the account's own keywords apply", async () => {
    await api("/api/optouts/settings", { token, method: "PUT", body: { keywords: "CHEGA, SAIR", resume_keywords: "VOLTAR" } });
    const sent = await api("/api/sms/messages", { token, body: { to: "+5511977770003", body: "Oferta" } }); // T1 -> simulator
    expect(sent.status).toBe(200);
    const mo = (body: string) =>
      fetch(new URL("/v1/inbound", inject("simulatorUrl")), {
        method: "POST",
        headers: { "Content-Type": "application/json", Authorization: `Bearer ${inject("simulatorApiKey")}` },
        body: JSON.stringify({ from: "+5511977770003", to: "29123", body }),
      }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));
    const r = await mo("Chega!");
    expect(r.status).toBe(202);
    expect(r.body.webhook_status).toBe(200);
    expect(r.body.answer.result).toBe("stored");
    expect(r.body.answer.keyword).toBeNull(); // "Chega!" is not the single word CHEGA
    const r2 = await mo("chega");
    expect(r2.body.answer.keyword).toEqual({ action: "optout", keyword: "CHEGA" });
    const [m] = await query<Record<string, any>>("SELECT * FROM messages WHERE id = $1", [r2.body.answer.messageId]);
    expect(m).toMatchObject({ account_id: accountId, direction: "inbound", provider: "simulator", status: "received" });
    expect(await query("SELECT 1 FROM optouts WHERE account_id = $1 AND recipient = '+5511977770003' AND keyword = 'CHEGA'", [accountId])).toHaveLength(1);
    const r3 = await mo("Voltar");
    expect(r3.body.answer.keyword).toEqual({ action: "resume", keyword: "VOLTAR" });
    expect(await query("SELECT 1 FROM optouts WHERE account_id = $1 AND recipient = '+5511977770003'", [accountId])).toHaveLength(0);
  });
});

describe("PUT /api/optouts/:id and /api/blacklist/:id", () => {
  it("change the number (and channel / reason); a number already listed is a field error; other accounts get 404", async () => {
    const a = await api("/api/optouts", { token, body: { recipient: "11 96666-0001" } });
    const b = await api("/api/optouts", { token, body: { recipient: "11 96666-0002" } });
    const put = await api(`/api/optouts/${a.body.data.id}`, { token, method: "PUT", body: { recipient: "11 96666-0003", channel: "whatsapp" } });
    expect(put.status).toBe(200);
    expect(put.body.data).toMatchObject({ recipient: "+5511966660003", channel: "whatsapp" });
    const clash = await api(`/api/optouts/${b.body.data.id}`, { token, method: "PUT", body: { recipient: "11 96666-0003", channel: "whatsapp" } });
    expect(clash.status).toBe(422);
    expect(clash.body.error.fields.recipient).toBeTruthy();
    expect((await api(`/api/optouts/${b.body.data.id}`, { token, method: "PUT", body: { recipient: "x" } })).status).toBe(422);

    const d = await api("/api/blacklist", { token, body: { recipient: "11 95555-0001", reason: "fraude" } });
    const dput = await api(`/api/blacklist/${d.body.data.id}`, { token, method: "PUT", body: { recipient: "11 95555-0002", reason: "pedido do cliente" } });
    expect(dput.status).toBe(200);
    expect(dput.body.data).toMatchObject({ recipient: "+5511955550002", reason: "pedido do cliente" });

    const other = await registerPerson("putother");
    const otherToken = (await login(other.email, other.password)).token;
    expect((await api(`/api/optouts/${a.body.data.id}`, { token: otherToken, method: "PUT", body: { recipient: "11 96666-0009" } })).status).toBe(404);
    expect((await api(`/api/blacklist/${d.body.data.id}`, { token: otherToken, method: "PUT", body: { recipient: "11 95555-0009" } })).status).toBe(404);
  });
});
