/**
 * Customer webhooks over the real processes: a loopback HTTP receiver in this test registers as
 * an endpoint; sends go through accept → dispatcher → simulator → signed receipt, and every
 * recorded status change reaches the receiver signed (Standard Webhooks) exactly as recorded.
 * Retries, the failed state, disabled endpoints, tenancy, validation and permission are checked
 * by what the receiver and the database see.
 */
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifyWebhook } from "../../api/channels/webhook-signature";
import { MAX_ATTEMPTS } from "../../api/webhooks/backoff";
import { api, login, registerPerson, type Person } from "../support/api";
import { query } from "../support/db";
import { webhooksSettled } from "../support/wait";
import { translate } from "../../api/lib/i18n";
import { makeMessage, setAccount, setMember } from "../support/factories";

type Hit = { path: string; headers: IncomingHttpHeaders; raw: string; at: number };
const hits: Hit[] = [];
const failuresLeft = new Map<string, number>(); // webhook-id -> failures still to answer on /flaky
let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const raw = Buffer.concat(chunks).toString("utf8");
      const path = (req.url ?? "/").split("?")[0];
      hits.push({ path, headers: req.headers, raw, at: Date.now() });
      if (path === "/down") return res.writeHead(503).end("maintenance " + "x".repeat(3000));
      if (path === "/long") return res.writeHead(200).end("received " + "y".repeat(3000));
      if (path === "/flaky") {
        const id = String(req.headers["webhook-id"]);
        const left = failuresLeft.has(id) ? failuresLeft.get(id)! : 2;
        if (left > 0) {
          failuresLeft.set(id, left - 1);
          return res.writeHead(500).end("try later");
        }
      }
      res.writeHead(200, { "Content-Type": "text/plain" }).end("ok");
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

async function person(tag: string, balance = 10_000) {
  const p = await registerPerson(tag);
  await setAccount(p.accountId, { balance });
  return { ...p, token: (await login(p.email, p.password)).token };
}
type P = Person & { token: string };

async function createEndpoint(p: P, path: string, extra: Record<string, unknown> = {}) {
  const res = await api("/api/webhooks", { token: p.token, body: { url: `${base}${path}`, events: ["message.status_changed"], description: path, ...extra } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data as { id: string; secret: string; url: string; events: string[]; enabled: boolean };
}

const isEvent = (b: { data?: { message_id?: string; status?: string } }, id: string, status: string) => b.data?.message_id === id && b.data?.status === status;

async function until<T>(what: string, fn: () => Promise<T | undefined | false>, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function sendSms(p: P, to: string) {
  const res = await api("/api/sms/messages", { token: p.token, body: { to, body: "Pedido 77 saiu para entrega" } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data[0].id as string;
}

const FINAL = ["delivered", "failed", "unavailable"];
async function finalStatus(p: P, id: string) {
  return until(`message ${id} final`, async () => {
    const r = await api(`/api/sms/messages/${id}`, { token: p.token });
    return FINAL.includes(r.body?.data?.status) ? (r.body.data.status as string) : undefined;
  });
}

let seq = Math.floor(Math.random() * 9_000_000);
const nextNumber = () => `11 9${String(60000000 + seq++)}`;

describe("customer webhooks", () => {
  it("delivers every recorded status change of a sent message, signed over the raw body, exactly as recorded, under random event ids", async () => {
    const p = await person("whsend");
    const ep = await createEndpoint(p, "/ok");
    expect(ep.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    const id = await sendSms(p, nextNumber());
    const final = await finalStatus(p, id);

    const events = await query<{ id: string; public_id: string; status: string; source: string }>(
      "SELECT id::text, public_id::text, status, source FROM message_events WHERE message_id = $1 ORDER BY id",
      [id],
    );
    expect(events.map((e) => e.status)).toEqual(["queued", "sent", final]);
    const mine = () => hits.filter((h) => h.path === "/ok" && JSON.parse(h.raw).data?.message_id === id);
    await until("3 webhooks", async () => mine().length >= 3);
    // Signal: every event batch fanned out and no delivery pending, so no other POST is coming.
    await webhooksSettled(p.accountId);
    const got = mine();
    expect(got).toHaveLength(3); // each event exactly once

    for (const h of got) {
      const verified = verifyWebhook(ep.secret, h.headers as Record<string, string>, h.raw);
      expect(verified, h.raw).toMatchObject({ ok: true });
      // A wrong secret and a changed body do not verify.
      expect(verifyWebhook("whsec_" + Buffer.from("not the secret, not at all").toString("base64"), h.headers as Record<string, string>, h.raw)).toEqual({
        ok: false,
        reason: "bad_signature",
      });
      expect(
        verifyWebhook(
          ep.secret,
          h.headers as Record<string, string>,
          h.raw.replace(
            id,
            id.replace(/.$/, (c) => (c === "0" ? "1" : "0")),
          ),
        ),
      ).toMatchObject({ ok: false });
      expect(h.headers["content-type"]).toBe("application/json");
    }
    const byId = new Map(got.map((h) => [String(h.headers["webhook-id"]), JSON.parse(h.raw)]));
    // Event ids reveal no counter: random uuids, not the serial of consecutive events (n, n+1, ...).
    const ids = got.map((h) => String(h.headers["webhook-id"]));
    for (const eventId of ids) expect(eventId).toMatch(/^evt_ms_[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(ids.filter((eventId) => events.some((e) => eventId.endsWith(`_${e.id}`)))).toEqual([]);
    expect(new Set(ids).size).toBe(3);
    for (const e of events) {
      const body = byId.get(`evt_ms_${e.public_id}`);
      expect(body, `event ${e.id}`).toBeDefined();
      expect(body).toMatchObject({
        type: "message.status_changed",
        data: { message_id: id, status: e.status, source: e.source, channel: "sms", to: expect.stringMatching(/^\+55/) },
      });
    }
    expect(byId.get(`evt_ms_${events[1].public_id}`).data.previous_status).toBe("sending");

    // The deliveries API shows them, each succeeded with one 200 attempt.
    const list = await api(`/api/webhooks/${ep.id}/deliveries`, { token: p.token });
    expect(list.status).toBe(200);
    const deliveries = list.body.data.filter((d: { payload: { data: { message_id: string } } }) => d.payload.data.message_id === id);
    expect(deliveries).toHaveLength(3);
    for (const d of deliveries) {
      expect(d).toMatchObject({ status: "succeeded", attempts: 1, last_status_code: 200 });
      expect(d.attempt_log).toEqual([expect.objectContaining({ status_code: 200, error: null, response_excerpt: "ok", duration_ms: expect.any(Number) })]);
    }
  });

  it("keeps the first KB of a successful answer", async () => {
    const p = await person("whlong");
    const ep = await createEndpoint(p, "/long");
    const { delivery_id } = (await api(`/api/webhooks/${ep.id}/test`, { token: p.token, method: "POST" })).body.data;
    const [attempt] = await until("answered attempt", async () => {
      const rows = await query<{ status_code: number; response_excerpt: string }>("SELECT status_code, response_excerpt FROM webhook_attempts WHERE delivery_id = $1", [
        delivery_id,
      ]);
      return rows.length ? rows : undefined;
    });
    expect(attempt.status_code).toBe(200);
    expect(attempt.response_excerpt.startsWith("received yyy")).toBe(true);
    expect(Buffer.byteLength(attempt.response_excerpt)).toBe(1024); // the answer is cut to 1 KB
  });

  it("a receiver failing twice then answering 200 shows 3 attempts of the same signed event", async () => {
    const p = await person("whflaky");
    const ep = await createEndpoint(p, "/flaky");
    const test = await api(`/api/webhooks/${ep.id}/test`, { token: p.token, method: "POST" });
    expect(test.status, JSON.stringify(test.body)).toBe(200);
    const { event_id, delivery_id } = test.body.data;
    const delivery = await until("succeeded delivery", async () => {
      const [d] = await query<{ status: string; attempts: number; last_status_code: number }>("SELECT status, attempts, last_status_code FROM webhook_deliveries WHERE id = $1", [
        delivery_id,
      ]);
      return d.status === "succeeded" ? d : undefined;
    });
    expect(delivery).toMatchObject({ attempts: 3, last_status_code: 200 });
    const attempts = await query<{ status_code: number; error: string | null; response_excerpt: string }>(
      "SELECT status_code, error, response_excerpt FROM webhook_attempts WHERE delivery_id = $1 ORDER BY id",
      [delivery_id],
    );
    expect(attempts).toEqual([
      // The body of a failed attempt is never kept (issue 11): only its status.
      { status_code: 500, error: "HTTP 500", response_excerpt: "" },
      { status_code: 500, error: "HTTP 500", response_excerpt: "" },
      { status_code: 200, error: null, response_excerpt: "ok" },
    ]);
    const got = hits.filter((h) => h.headers["webhook-id"] === event_id);
    expect(got).toHaveLength(3);
    expect(new Set(got.map((h) => h.raw)).size).toBe(1); // the same body on every retry
    for (const h of got) expect(verifyWebhook(ep.secret, h.headers as Record<string, string>, h.raw).ok).toBe(true);
    expect(JSON.parse(got[0].raw)).toMatchObject({ type: "webhook.test", data: { endpoint_id: ep.id } });
  });

  it("an endpoint that never answers 2xx is retried on the whole schedule, then failed; a manual retry tries once more", async () => {
    const p = await person("whdown");
    const ep = await createEndpoint(p, "/down");
    const { delivery_id } = (await api(`/api/webhooks/${ep.id}/test`, { token: p.token, method: "POST" })).body.data;
    const failed = await until(
      "failed delivery",
      async () => {
        const [d] = await query<{ status: string; attempts: number; next_attempt_at: Date | null; last_status_code: number }>(
          "SELECT status, attempts, next_attempt_at, last_status_code FROM webhook_deliveries WHERE id = $1",
          [delivery_id],
        );
        return d.status === "failed" ? d : undefined;
      },
      40_000,
    );
    expect(failed).toMatchObject({ attempts: MAX_ATTEMPTS, next_attempt_at: null, last_status_code: 503 });
    const attempts = await query<{ response_excerpt: string; started_at: Date }>("SELECT response_excerpt, started_at FROM webhook_attempts WHERE delivery_id = $1 ORDER BY id", [
      delivery_id,
    ]);
    expect(attempts).toHaveLength(MAX_ATTEMPTS);
    expect(attempts.every((a) => a.response_excerpt === "")).toBe(true); // a failure's body is never kept
    // Gaps grow (the schedule, scaled 10,000× down in tests: 0.5 ms, 30 ms, 180 ms, 720 ms, 1.8 s, 3.6 s, 3.6 s).
    const gaps = attempts.slice(1).map((a, i) => a.started_at.getTime() - attempts[i].started_at.getTime());
    expect(gaps[4]).toBeGreaterThan(1500);
    expect(gaps[6]).toBeGreaterThan(3000);

    const retry = await api(`/api/webhooks/deliveries/${delivery_id}/retry`, { token: p.token, method: "POST" });
    expect(retry.status).toBe(200);
    await until("one more attempt", async () => (await query("SELECT 1 FROM webhook_attempts WHERE delivery_id = $1", [delivery_id])).length === MAX_ATTEMPTS + 1);
    const [after] = await until("failed again", async () => {
      const r = await query<{ status: string }>("SELECT status FROM webhook_deliveries WHERE id = $1", [delivery_id]);
      return r[0].status === "failed" ? r : undefined;
    });
    expect(after.status).toBe("failed");
  }, 60_000);

  it("a disabled endpoint and another account's endpoint get nothing", async () => {
    const a = await person("whdisabled");
    const b = await person("whother");
    const disabled = await createEndpoint(a, "/a-disabled", { enabled: false, events: ["*"] });
    expect(disabled.enabled).toBe(false);
    await createEndpoint(b, "/b-other", { events: ["*"] });
    const id = await sendSms(a, nextNumber());
    await finalStatus(a, id);
    // Without an enabled endpoint not even an outbox row is written for the account's events (in
    // the transactions of its status changes, all committed by now): nothing can ever be sent,
    // so the checks below need no waiting.
    expect(await query("SELECT 1 FROM outbox WHERE topic = 'webhooks:events' AND payload->>'account_id' = $1", [a.accountId])).toEqual([]);
    expect(await query("SELECT 1 FROM webhook_deliveries WHERE account_id IN ($1, $2)", [a.accountId, b.accountId])).toEqual([]);
    expect(hits.filter((h) => h.path === "/a-disabled" || h.path === "/b-other")).toEqual([]);
  });

  it("only subscribed event types are delivered; a rotated secret signs from then on (with the previous one during the overlap)", async () => {
    const p = await person("whrotate");
    const ep = await createEndpoint(p, "/rotate", { events: ["message.received"] });
    const id = await sendSms(p, nextNumber());
    await finalStatus(p, id);
    // Signal: the status changes' event batches were fanned out (into no delivery) by now.
    await webhooksSettled(p.accountId);
    expect(hits.filter((h) => h.path === "/rotate")).toEqual([]); // status changes are not subscribed

    const rotated = await api(`/api/webhooks/${ep.id}/rotate-secret`, { token: p.token, method: "POST" });
    expect(rotated.status).toBe(200);
    expect(rotated.body.data.secret).not.toBe(ep.secret);
    const revealed = await api(`/api/webhooks/${ep.id}/secret`, { token: p.token });
    expect(revealed.body.data.secret).toBe(rotated.body.data.secret);
    const { event_id } = (await api(`/api/webhooks/${ep.id}/test`, { token: p.token, method: "POST" })).body.data;
    const hit = await until("test event", async () => hits.find((h) => h.headers["webhook-id"] === event_id));
    expect(verifyWebhook(rotated.body.data.secret, hit.headers as Record<string, string>, hit.raw).ok).toBe(true);
    // The replaced secret still signs during the overlap window (webhooks-rotation.test.ts covers its end).
    expect(verifyWebhook(ep.secret, hit.headers as Record<string, string>, hit.raw).ok).toBe(true);
  });

  it("inbound messages reach message.received subscribers", async () => {
    const p = await person("whinbound");
    await createEndpoint(p, "/inbound", { events: ["message.received"] });
    const m = { id: await makeMessage(p.accountId, { direction: "inbound", sender: "+5511988887777", recipient: "29094", body: "Quero saber do pedido", status: "received" }) };
    const hit = await until("message.received", async () => hits.find((h) => h.path === "/inbound" && JSON.parse(h.raw).data.message_id === m.id));
    expect(JSON.parse(hit.raw)).toMatchObject({ type: "message.received", data: { from: "+5511988887777", to: "29094", body: "Quero saber do pedido", channel: "sms" } });
    expect(hit.headers["webhook-id"]).toBe(`evt_mr_${m.id}`);
  });

  it("a held message's event carries the stable error_code and its reason as text (pt-BR, the platform's language), never a locale key", async () => {
    const p = await person("whheld");
    const ep = await createEndpoint(p, "/ok");
    const staff = (await login("staff@demo.example", "Demo!Mensa#2026")).token;
    const word = `brindezq${Date.now().toString(36)}`;
    expect((await api("/api/words", { token: staff, body: { value: word, note: "teste de webhook" } })).status).toBe(201);
    const sent = await api("/api/sms/messages", { token: p.token, body: { to: "+5511987650001", body: `Ganhe um ${word} hoje` } });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const id = sent.body.data[0].id as string;
    expect(sent.body.data[0].status).toBe("pending");
    const held = await until("the pending event", async () => hits.map((h) => JSON.parse(h.raw)).find((b) => isEvent(b, id, "pending")));
    expect(held.data.error_code).toBe("moderation");
    expect(held.data.error_message).toBe(translate("pt-BR", "moderation:held"));
    expect(held.data.error_message).not.toBe("moderation.held");
    expect(ep.id).toBeTruthy();
  });

  it("validates, scopes by account and needs the /webhooks permission", async () => {
    const p = await person("whapi");
    const other = await person("whapi2");
    const bad = await api("/api/webhooks", { token: p.token, body: { url: "ftp://x.example/hook", events: ["nope"] }, lang: "en" });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.error.fields).sort()).toEqual(["events", "url"]);
    const none = await api("/api/webhooks", { token: p.token, body: { url: "https://hooks.example.com/x", events: [] } });
    expect(none.status).toBe(422);
    expect(Object.keys(none.body.error.fields)).toEqual(["events"]);

    const ep = await createEndpoint(p, "/scoped", { events: ["*"] });
    expect(ep.events).toEqual(["*"]);
    const put = await api(`/api/webhooks/${ep.id}`, {
      token: p.token,
      method: "PUT",
      body: { url: `${base}/scoped2`, events: ["message.received", "message.status_changed"], enabled: false, description: "d" },
    });
    expect(put.status).toBe(200);
    expect(put.body.data).toMatchObject({ url: `${base}/scoped2`, events: ["message.received", "message.status_changed"], enabled: false, description: "d" });
    expect((await api("/api/webhooks", { token: p.token })).body.data.map((e: { id: string }) => e.id)).toEqual([ep.id]);

    for (const [method, path] of [
      ["GET", `/api/webhooks/${ep.id}`],
      ["PUT", `/api/webhooks/${ep.id}`],
      ["DELETE", `/api/webhooks/${ep.id}`],
      ["GET", `/api/webhooks/${ep.id}/secret`],
      ["POST", `/api/webhooks/${ep.id}/test`],
      ["GET", `/api/webhooks/${ep.id}/deliveries`],
      ["GET", "/api/webhooks/not-a-uuid"],
    ] as const) {
      const r = await api(path, { token: other.token, method, body: method === "PUT" ? { url: "https://x.example", events: ["*"] } : undefined });
      expect(r.status, `${method} ${path}`).toBe(404);
    }
    expect((await api("/api/webhooks", { token: other.token })).body.data).toEqual([]);

    await setMember(p.accountId, p.userId, { role: "agent" });
    expect((await api("/api/webhooks", { token: p.token })).status).toBe(403);
    await setMember(p.accountId, p.userId, { role: "developer" });
    expect((await api("/api/webhooks", { token: p.token })).status).toBe(200);

    const del = await api(`/api/webhooks/${ep.id}`, { token: p.token, method: "DELETE" });
    expect(del.status).toBe(200);
    expect((await api(`/api/webhooks/${ep.id}`, { token: p.token })).status).toBe(404);
  });
});
