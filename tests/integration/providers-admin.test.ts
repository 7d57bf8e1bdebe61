/**
 * /api/admin/providers and /api/admin/sms/routes (platform staff only): create/list/update/delete
 * connections with credentials answered only as masked hints, the "test connection" action
 * against a loopback HTTP peer and a loopback SMSC, the route map's validation, and the refusal
 * to delete a connection a route uses. Also inbound routing by short code ownership.
 * Nothing here repoints a route of the shared run (the route-change test has its own stack).
 */
import { randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { api, login, registerPerson } from "../support/api";
import { query } from "../support/db";
import { freePort } from "../support/net";
import { startSmsc, type Smsc } from "../support/smsc";
import { DEMO_PASSWORD } from "../support/web";
import { makeMessage, makeShortCode, setAccount } from "../support/factories";

const KEY = "peer-api-key-0123456789";
const tag = Date.now().toString(36);
let staff: string;
let customer: string;
let peer: Server;
let peerUrl: string;
const peerHits: Array<{ url: string; auth: string | undefined }> = [];
let smsc: Smsc;

beforeAll(async () => {
  staff = (await login("staff@demo.example", DEMO_PASSWORD)).token;
  const p = await registerPerson("provcust");
  customer = (await login(p.email, p.password)).token;
  peer = createServer((req, res) => {
    peerHits.push({ url: req.url ?? "", auth: req.headers.authorization });
    if (req.headers.authorization !== `Bearer ${KEY}`) return res.writeHead(401).end();
    res.writeHead(404).end(); // a provider's base URL need not serve anything
  });
  await new Promise<void>((r) => peer.listen(0, "127.0.0.1", () => r()));
  peerUrl = `http://127.0.0.1:${(peer.address() as { port: number }).port}/v2`;
  smsc = await startSmsc({ systemId: "provtest", password: "s3cret" });
});

afterAll(async () => {
  await new Promise((r) => peer?.close(() => r(null)));
  await smsc?.close();
});

describe("provider connections API", () => {
  it("is for platform staff only", async () => {
    expect((await api("/api/admin/providers", { token: customer })).status).toBe(403);
    expect((await api("/api/admin/sms/routes", { token: customer })).status).toBe(403);
    expect((await api("/api/admin/providers", { token: customer, body: { name: `x${tag}`, kind: "simulator" } })).status).toBe(403);
    expect((await api("/api/admin/providers")).status).toBe(401);
  });

  it("creates an HTTP connection: the key is stored as the adapter reads it, answered only as a hint; a generated webhook secret is shown once", async () => {
    const name = `peer_${tag}`;
    const res = await api("/api/admin/providers", { token: staff, body: { name, kind: "http", url: peerUrl, api_key: KEY, tps: "50" } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const id = res.body.data.id;
    // 201 + Location: the URL answers the same connection (without the once-only generated secret).
    expect(res.headers.get("location")).toBe(`/api/admin/providers/${id}`);
    const got = await api(res.headers.get("location")!, { token: staff });
    expect(got.status).toBe(200);
    expect(got.body).toEqual({ data: res.body.data });
    expect(res.body.data).toMatchObject({ name, kind: "http", channel: "sms", enabled: true, settings: { url: peerUrl, tps: 50 }, secrets: { api_key: "••••6789" }, routes: [] });
    expect(res.body.generated.webhook_secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(JSON.stringify(res.body.data)).not.toContain(KEY);
    const [row] = await query<{ settings: Record<string, unknown> }>("SELECT settings FROM provider_connections WHERE id = $1", [id]);
    expect(row.settings).toEqual({ url: peerUrl, api_key: KEY, webhook_secret: res.body.generated.webhook_secret, tps: 50 });

    const list = await api("/api/admin/providers", { token: staff });
    expect(list.body.next_cursor).toBeNull(); // one page: the platform's connections
    const mine = list.body.data.find((c: { id: string }) => c.id === id);
    expect(mine.secrets).toEqual({ api_key: "••••6789", webhook_secret: expect.stringMatching(/^••••.{4}$/) });
    expect(JSON.stringify(list.body)).not.toContain(KEY);
    expect(JSON.stringify(list.body)).not.toContain(res.body.generated.webhook_secret);
    const sim = list.body.data.find((c: { name: string }) => c.name === "simulator");
    expect(sim.routes).toEqual(expect.arrayContaining(["T1"]));

    // Same name again: a field error; missing fields of the kind: field errors, translated.
    const dup = await api("/api/admin/providers", { token: staff, body: { name, kind: "simulator" }, lang: "en" });
    expect(dup.status).toBe(422);
    expect(dup.body.error.fields.name).toEqual(["A connection with this name already exists"]);
    const bad = await api("/api/admin/providers", { token: staff, body: { name: `bad_${tag}`, kind: "http", url: "ftp:nothing" } });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.error.fields).sort()).toEqual(["api_key", "url"]);
    const smppBad = await api("/api/admin/providers", { token: staff, body: { name: `bad_${tag}`, kind: "smpp", password: "longer-than-8" } });
    expect(Object.keys(smppBad.body.error.fields).sort()).toEqual(["host", "password", "system_id"]);

    // Update: blank credentials keep the stored ones; the row's stamp moves (the adapter is rebuilt).
    const before = (await query<{ updated_at: Date }>("SELECT updated_at FROM provider_connections WHERE id = $1", [id]))[0].updated_at;
    const put = await api(`/api/admin/providers/${id}`, { token: staff, method: "PUT", body: { kind: "http", url: `${peerUrl}/`, api_key: "", tps: "", enabled: true } });
    expect(put.status).toBe(200);
    expect(put.body.generated).toBeUndefined();
    const [after] = await query<{ settings: Record<string, unknown>; updated_at: Date }>("SELECT settings, updated_at FROM provider_connections WHERE id = $1", [id]);
    expect(after.settings).toEqual({ url: `${peerUrl}/`, api_key: KEY, webhook_secret: res.body.generated.webhook_secret });
    expect(after.updated_at.getTime()).toBeGreaterThan(before.getTime());
    expect((await query("SELECT 1 FROM audit_logs WHERE action = 'provider_connection.updated' AND meta->>'id' = $1", [id])).length).toBe(1);

    // Test: the peer answered with our key (a 404 of the base URL is still "reachable").
    const hits = peerHits.length;
    const ok = await api(`/api/admin/providers/${id}/test`, { token: staff, method: "POST", lang: "en" });
    expect(ok.body).toMatchObject({ ok: true, code: "httpOk", params: { status: 404 }, message: "The provider answered (HTTP 404)." });
    expect(peerHits.slice(hits)).toEqual([{ url: "/v2/", auth: `Bearer ${KEY}` }]);
    // A wrong key is refused; a closed port is unreachable.
    await api(`/api/admin/providers/${id}`, { token: staff, method: "PUT", body: { kind: "http", url: peerUrl, api_key: "wrong-key-000000", enabled: true } });
    expect((await api(`/api/admin/providers/${id}/test`, { token: staff, method: "POST" })).body).toMatchObject({ ok: false, code: "httpRefused", params: { status: 401 } });
    // The message is for a person: in the caller's language.
    const es = await api(`/api/admin/providers/${id}/test`, { token: staff, method: "POST", lang: "es" });
    expect(es.body.message).toBe("El proveedor rechazó las credenciales (HTTP 401).");
    await api(`/api/admin/providers/${id}`, { token: staff, method: "PUT", body: { kind: "http", url: `http://127.0.0.1:${await freePort()}/`, enabled: true } });
    expect((await api(`/api/admin/providers/${id}/test`, { token: staff, method: "POST" })).body).toMatchObject({ ok: false, code: "unreachable" });

    // Not used by any route: it can be deleted.
    expect((await api(`/api/admin/providers/${id}`, { token: staff, method: "DELETE" })).status).toBe(200);
    expect((await api(`/api/admin/providers/${id}`, { token: staff })).status).toBe(404);
  });

  it("tests an SMPP connection by binding and unbinding; a wrong password reports the SMSC's status", async () => {
    // Disabled, so the run's worker does not keep a bind open to this SMSC.
    const res = await api("/api/admin/providers", {
      token: staff,
      body: { name: `smsc_${tag}`, kind: "smpp", host: "127.0.0.1", port: String(smsc.port), system_id: "provtest", password: "s3cret", enabled: false },
    });
    expect(res.status).toBe(201);
    expect(res.body.data.secrets).toEqual({ password: "••••" });
    expect(res.body.data.settings).toEqual({ host: "127.0.0.1", port: smsc.port, system_id: "provtest" });
    const id = res.body.data.id;
    const binds = smsc.binds;
    const ok = await api(`/api/admin/providers/${id}/test`, { token: staff, method: "POST" });
    expect(ok.body).toMatchObject({ ok: true, code: "bound" });
    expect(smsc.binds).toBe(binds + 1);
    await api(`/api/admin/providers/${id}`, { token: staff, method: "PUT", body: { kind: "smpp", host: "127.0.0.1", port: smsc.port, system_id: "provtest", password: "wrong" } });
    const refused = await api(`/api/admin/providers/${id}/test`, { token: staff, method: "POST" });
    expect(refused.body).toMatchObject({ ok: false, code: "bindRefused", params: { status: "0x0000000e", name: "ESME_RINVPASWD" } });
    expect((await api(`/api/admin/providers/${id}`, { token: staff, method: "DELETE" })).status).toBe(200);
  });

  it("route map: four routes; unknown or disabled connections are refused and change nothing; a used connection cannot be deleted", async () => {
    const map = await api("/api/admin/sms/routes", { token: staff });
    expect(map.status).toBe(200);
    expect(map.body.data.map((r: { route: string }) => r.route)).toEqual(["T1", "T2", "T4", "T6"]);
    const before = await query("SELECT route, connection_id FROM sms_route_connections ORDER BY route");

    const off = await api("/api/admin/providers", { token: staff, body: { name: `off_${tag}`, kind: "simulator", enabled: false } });
    const unknown = await api("/api/admin/sms/routes", { token: staff, method: "PUT", body: { T2: randomUUID() }, lang: "en" });
    expect(unknown.status).toBe(422);
    expect(unknown.body.error.fields.T2).toEqual(["Choose one of the options"]);
    const disabled = await api("/api/admin/sms/routes", { token: staff, method: "PUT", body: { T6: off.body.data.id }, lang: "en" });
    expect(disabled.status).toBe(422);
    expect(disabled.body.error.fields.T6).toEqual(["This connection is disabled"]);
    expect((await api("/api/admin/sms/routes", { token: staff, method: "PUT", body: {} })).status).toBe(422);
    expect(await query("SELECT route, connection_id FROM sms_route_connections ORDER BY route")).toEqual(before);

    const simulator = map.body.data.find((r: { route: string }) => r.route === "T1").connection_id;
    const inUse = await api(`/api/admin/providers/${simulator}`, { token: staff, method: "DELETE", lang: "en" });
    expect(inUse.status).toBe(409);
    expect(inUse.body.error.code).toBe("PROVIDER_IN_USE");
    expect(inUse.body.error.message).toMatch(/route still goes out through this connection/);
    expect(inUse.body.error.params.routes).toContain("T1");
    const pt = await api(`/api/admin/providers/${simulator}`, { token: staff, method: "DELETE", lang: "pt-BR" });
    expect(pt.body.error.message).toMatch(/Uma rota ainda sai por esta conexão/);
    expect((await api(`/api/admin/providers/${simulator}`, { token: staff })).status).toBe(200);
    expect((await api(`/api/admin/providers/${off.body.data.id}`, { token: staff, method: "DELETE" })).status).toBe(200);
  });
});

describe("inbound SMS routing by short code", () => {
  const mo = (from: string, to: string, body: string) =>
    fetch(new URL("/v1/inbound", inject("simulatorUrl")), {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${inject("simulatorApiKey")}` },
      body: JSON.stringify({ from, to, body }),
    }).then(async (r) => (await r.json()) as { answer: { result: string; messageId?: string; accountId?: string } });

  it("an MO to a short code assigned to an account goes to that account, even when another account sent to the mobile from it", async () => {
    const owner = await registerPerson("scowner");
    const sender = await registerPerson("scsender");
    const senderToken = (await login(sender.email, sender.password)).token;
    await setAccount(sender.accountId, { balance: 100000 });
    const code = String(600000 + Math.floor(Math.random() * 399999));
    const free = String(600000 + ((Number(code) - 600000 + 1) % 399999));
    await makeShortCode(owner.accountId, { number: code });
    const mobile = `+55119${String(Math.floor(Math.random() * 1e8)).padStart(8, "0")}`;
    // The other account may not send from the owner's code nor from a code nobody owns (api/sms/senders.ts)…
    for (const from of [code, free]) {
      expect((await api("/api/sms/messages", { token: senderToken, body: { to: mobile, from, body: "Oferta" } })).status).toBe(422);
    }
    // …but it sent to this mobile (from its route's default) and, before senders were checked, from the owner's code.
    expect((await api("/api/sms/messages", { token: senderToken, body: { to: mobile, body: "Oferta" } })).status).toBe(200);
    await makeMessage(sender.accountId, { sender: code, recipient: mobile, body: "Oferta", status: "delivered" });

    const r = await mo(mobile, code, "Quero saber mais");
    expect(r.answer).toMatchObject({ result: "stored", accountId: owner.accountId });
    const [m] = await query<Record<string, unknown>>("SELECT account_id, direction, recipient, sender FROM messages WHERE id = $1", [r.answer.messageId]);
    expect(m).toEqual({ account_id: owner.accountId, direction: "inbound", recipient: code, sender: mobile });
    // The owner's keywords apply to the owner's account.
    const stop = await mo(mobile, code, "SAIR");
    expect(stop.answer.accountId).toBe(owner.accountId);
    expect(await query("SELECT account_id FROM optouts WHERE recipient = $1", [mobile])).toEqual([{ account_id: owner.accountId }]);

    // A code nobody owns keeps the last-sender rule.
    const other = await mo(mobile, free, "E este?");
    expect(other.answer).toMatchObject({ result: "stored", accountId: sender.accountId });
  });
});
