/**
 * Live chat channels (issue 5, ADR 017) on a private stack whose TELEGRAM_API_URL and
 * GRAPH_API_URL point at a loopback peer that records every call: connecting a bot or a page,
 * the signed inbound webhooks (good, bad, missing, replayed), media fetched from the provider,
 * the agents' replies going out through the worker with the provider's payload, receipts moving
 * agent messages forward only, a provider that keeps failing turning the message FAIL, and
 * Messenger/Instagram rooms named from the visitor's Graph profile (best effort).
 */
import { createHmac } from "node:crypto";
import type Redis from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { roomLiveEvents, startChannelStack, startRecordingPeer, waitUntil as waitFor, type RecordingPeer } from "../support/loopback-peer";
import type { Stack } from "../support/stack";
import { jobsHandled } from "../support/wait";

const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from("fake-jpeg-bytes")]);
const BOT_TOKEN = "123456789:AAFakeTokenForLoopbackPeer_0123456789";
const BOT_ID = 987654321;
/** Graph profiles the peer knows (GET /{id}?fields=...); any other id answers 500 (the name stays empty). */
const PROFILES: Record<string, { fields: string; profile: Record<string, string> }> = {
  "messenger-psid-1": { fields: "first_name,last_name", profile: { first_name: "Ana", last_name: "Souza" } },
  "instagram-psid-1": { fields: "name,username", profile: { name: "Bia Lima", username: "bia.lima" } },
};

let stack: Stack;
let peer: RecordingPeer;
let graphFails: number | null = null;
let setWebhookFails = false;
let nextId = 1000;
let token: string;
let accountId: string;
let redis: Redis;

function startPeer() {
  return startRecordingPeer((call, { send, res }) => {
    const { path, json } = call;
    const tg = /^\/tg\/bot([^/]+)\/(\w+)$/.exec(path);
    if (tg) {
      if (tg[1] !== BOT_TOKEN) return send(401, { ok: false, error_code: 401, description: "Unauthorized" });
      const method = tg[2];
      if (method === "getMe") return send(200, { ok: true, result: { id: BOT_ID, is_bot: true, first_name: "Loja", username: "loja_bot" } });
      if (method === "setWebhook" && setWebhookFails) return send(400, { ok: false, error_code: 400, description: "Bad Request: bad webhook" });
      if (method === "setWebhook" || method === "deleteWebhook") return send(200, { ok: true, result: true });
      if (method === "getFile") return send(200, { ok: true, result: { file_id: json.file_id, file_size: JPEG.length, file_path: `photos/${json.file_id}.jpg` } });
      if (method.startsWith("send")) return send(200, { ok: true, result: { message_id: ++nextId, chat: { id: 1 } } });
      return send(404, { ok: false, description: "Not Found" });
    }
    if (path.startsWith(`/tg/file/bot${BOT_TOKEN}/photos/`) || path.startsWith("/cdn/")) {
      res.writeHead(200, { "Content-Type": "image/jpeg", "Content-Length": String(JPEG.length) });
      return res.end(JPEG);
    }
    if (path === "/graph/v19.0/me/messages") {
      if (graphFails) return send(graphFails, { error: { message: "Loopback peer failure", code: 2 } });
      return send(200, { recipient_id: "x", message_id: `m_out_${++nextId}` });
    }
    const profile = call.method === "GET" ? /^\/graph\/v19\.0\/([^/]+)$/.exec(path) : null;
    if (profile) {
      const known = PROFILES[decodeURIComponent(profile[1])];
      if (!call.query.get("access_token")?.startsWith("EAAB-")) return send(401, { error: { message: "Invalid OAuth access token", code: 190 } });
      if (!known || call.query.get("fields") !== known.fields) return send(500, { error: { message: "Loopback peer: no such profile", code: 2 } });
      return send(200, { id: profile[1], ...known.profile });
    }
    send(404, {});
  });
}

const raw = (path: string, init: RequestInit) => fetch(new URL(path, stack.apiUrl), init);
const as = (path: string, o: { method?: string; body?: unknown } = {}) => stack.api(path, { ...o, token });
const liveEvents = (roomId: string) => roomLiveEvents(redis, stack, accountId, roomId);

let stop: () => Promise<void>;
beforeAll(async () => {
  peer = await startPeer();
  ({ stack, redis, token, accountId, stop } = await startChannelStack(peer, { TELEGRAM_API_URL: `${peer.url}/tg`, GRAPH_API_URL: `${peer.url}/graph/v19.0` }));
}, 120_000);

afterAll(() => stop?.());

describe("Telegram", () => {
  let connectionId: string;
  let secret: string;
  const update = (messageId: number, message: Record<string, unknown> = { text: "Olá, quero ajuda" }) => ({
    update_id: messageId,
    message: {
      message_id: messageId,
      date: 1_700_000_000,
      chat: { id: 55501, type: "private" },
      from: { id: 55501, is_bot: false, first_name: "Maria", last_name: "Silva" },
      ...message,
    },
  });
  const postUpdate = (body: unknown, headers: Record<string, string>) =>
    raw(`/api/channels/telegram/${connectionId}`, { method: "POST", headers: { "Content-Type": "application/json", ...headers }, body: JSON.stringify(body) });
  const telegramMessages = () =>
    stack.query<{ id: string; body: string; attachments: any[]; room_id: string }>(
      `SELECT m.id, m.body, m.attachments, m.room_id FROM live_messages m JOIN live_rooms r ON r.id = m.room_id WHERE r.account_id = $1 AND r.channel = 'telegram' AND m.author = 'visitor' ORDER BY m.created_at`,
      [accountId],
    );

  it("connecting checks the token and registers the webhook with a secret; secrets are sealed and never answered", async () => {
    const bad = await as("/api/live/channels", { body: { channel: "telegram", bot_token: "not-a-token" } });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.error.fields)).toEqual(["bot_token"]);
    peer.reset();
    const res = await as("/api/live/channels", { body: { channel: "telegram", bot_token: BOT_TOKEN } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    connectionId = res.body.data.id;
    // Location names the connection: a GET of it answers the same one.
    expect(res.headers.get("location")).toBe(`/api/live/channels/${connectionId}`);
    const again = await as(res.headers.get("location")!);
    expect(again).toMatchObject({ status: 200, body: { data: { id: connectionId, channel: "telegram", webhook_url: res.body.data.webhook_url } } });
    expect(res.body.data).toMatchObject({ channel: "telegram", external_id: String(BOT_ID), name: "@loja_bot" });
    expect(res.body.data.webhook_url).toMatch(new RegExp(`/api/channels/telegram/${connectionId}$`));
    const set = peer.calls.find((c) => c.path.endsWith("/setWebhook"))!;
    expect(set.json.url).toBe(res.body.data.webhook_url);
    secret = set.json.secret_token;
    expect(secret.length).toBeGreaterThanOrEqual(32);
    const [row] = await stack.query<{ secrets_sealed: string }>(`SELECT secrets_sealed FROM live_channel_connections WHERE id = $1`, [connectionId]);
    expect(row.secrets_sealed).not.toContain(BOT_TOKEN.split(":")[1]);
    expect(row.secrets_sealed).not.toContain(secret);
    const list = await as("/api/live/channels");
    expect(list.body.data.map((c: { id: string }) => c.id)).toEqual([connectionId]);
    expect(list.body.next_cursor).toBeNull();
    expect(JSON.stringify(list.body)).not.toContain(BOT_TOKEN.split(":")[1]);
  });

  it("refuses updates with a missing or wrong secret and stores nothing", async () => {
    expect((await postUpdate(update(1), {})).status).toBe(401);
    expect((await postUpdate(update(1), { "X-Telegram-Bot-Api-Secret-Token": secret.slice(0, -1) + (secret.endsWith("a") ? "b" : "a") })).status).toBe(401);
    expect(
      (await raw(`/api/channels/telegram/00000000-0000-0000-0000-000000000000`, { method: "POST", headers: { "X-Telegram-Bot-Api-Secret-Token": secret }, body: "{}" })).status,
    ).toBe(404);
    expect(await telegramMessages()).toHaveLength(0);
  });

  it("a message opens a room for the chat; the same update delivered twice is one message", async () => {
    const first = await postUpdate(update(10), { "X-Telegram-Bot-Api-Secret-Token": secret });
    expect(first.status, await first.clone().text()).toBe(200);
    expect((await postUpdate(update(10), { "X-Telegram-Bot-Api-Secret-Token": secret })).status).toBe(200);
    const msgs = await telegramMessages();
    expect(msgs).toHaveLength(1);
    expect(msgs[0].body).toBe("Olá, quero ajuda");
    const [room] = await stack.query<Record<string, any>>(`SELECT * FROM live_rooms WHERE id = $1`, [msgs[0].room_id]);
    expect(room).toMatchObject({ channel: "telegram", external_id: "55501", username: "Maria Silva", status: "OPEN" });
  });

  it("a photo is fetched through getFile and kept as an image attachment", async () => {
    peer.reset();
    const res = await postUpdate(
      update(11, {
        caption: "olha isso",
        photo: [
          { file_id: "small", width: 90, height: 90 },
          { file_id: "big", width: 800, height: 800 },
        ],
      }),
      {
        "X-Telegram-Bot-Api-Secret-Token": secret,
      },
    );
    expect(res.status).toBe(200);
    expect(peer.calls.find((c) => c.path.endsWith("/getFile"))?.json).toEqual({ file_id: "big" });
    expect(peer.calls.some((c) => c.path === `/tg/file/bot${BOT_TOKEN}/photos/big.jpg`)).toBe(true);
    const last = (await telegramMessages()).at(-1)!;
    expect(last.body).toBe("olha isso");
    expect(last.attachments[0]).toMatchObject({ type: "image", media_type: "image/jpeg", size: JPEG.length });
    const file = await raw(last.attachments[0].uri, { headers: { Authorization: `Bearer ${token}` } });
    expect(file.status).toBe(200);
    expect(Buffer.from(await file.arrayBuffer()).equals(JPEG)).toBe(true);
  });

  it("the agent's reply goes out with sendMessage to the chat, once, and keeps Telegram's message id", async () => {
    const [{ room_id }] = await telegramMessages();
    peer.reset();
    const sent = await as("/api/omni/messages", { body: { room_id, message: "Oi Maria, como posso ajudar?" } });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const call = await waitFor("sendMessage", async () => peer.calls.find((c) => c.path.endsWith("/sendMessage")));
    expect(call.json).toEqual({ chat_id: "55501", text: "Oi Maria, como posso ajudar?" });
    const row = await waitFor(
      "external id",
      async () => (await stack.query<{ external_id: string | null }>(`SELECT external_id FROM live_messages WHERE id = $1`, [sent.body.id]))[0]?.external_id,
    );
    expect(row).toMatch(/^\d+$/);
    // Signal: the live senders acked every outbound entry so far (this message's included), so
    // no redelivery of it is left to send it again.
    await jobsHandled("live:outbound", "live-senders", { prefix: stack.redisPrefix, r: redis });
    expect(peer.calls.filter((c) => c.path.endsWith("/sendMessage"))).toHaveLength(1);
  });

  it("suggestion buttons go out as a one-time reply keyboard (two per row); a tap comes back as the visitor's text", async () => {
    const [{ room_id }] = await telegramMessages();
    peer.reset();
    const sent = await as("/api/omni/messages", { body: { room_id, message: "Posso ajudar em algo mais?", suggestions: ["Sim", "Não", "Falar com atendente"] } });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    expect(sent.body.suggestions).toEqual(["Sim", "Não", "Falar com atendente"]);
    const call = await waitFor("sendMessage", async () => peer.calls.find((c) => c.path.endsWith("/sendMessage")));
    expect(call.json).toEqual({
      chat_id: "55501",
      text: "Posso ajudar em algo mais?",
      reply_markup: { keyboard: [[{ text: "Sim" }, { text: "Não" }], [{ text: "Falar com atendente" }]], one_time_keyboard: true, resize_keyboard: true },
    });
    expect((await postUpdate(update(40, { text: "Falar com atendente" }), { "X-Telegram-Bot-Api-Secret-Token": secret })).status).toBe(200);
    expect((await telegramMessages()).at(-1)).toMatchObject({ room_id, body: "Falar com atendente" });
  });

  it("a flow on Telegram (ADR 054): a new chat opens a BOT room; the bot's question goes out with its buttons as the keyboard, the answer comes back in, the bot's reply goes out once", async () => {
    const draft = {
      nodes: [
        { id: "start", type: "start", data: {} },
        { id: "ask", type: "question", data: { text: "Qual seu nome?", check: "text", store: { kind: "variable", name: "nome" }, choices: ["Prefiro não dizer"] } },
        { id: "bye", type: "end", data: { message: "Prazer, {{nome}}!" } },
      ],
      edges: [
        { id: "e1", source: "start", output: "next", target: "ask" },
        { id: "e2", source: "ask", output: "answer", target: "bye" },
      ],
    };
    const flow = await as("/api/flow/flows", { body: { name: "Telegram bot", channel: "telegram", trigger: "inbound", draft } });
    expect(flow.status, JSON.stringify(flow.body)).toBe(201);
    expect((await as(`/api/flow/flows/${flow.body.data.id}/publish`, { method: "POST" })).status).toBe(200);
    peer.reset();
    const chat = { chat: { id: 55599, type: "private" }, from: { id: 55599, is_bot: false, first_name: "Joana" } };
    expect((await postUpdate({ update_id: 60, message: { ...update(60).message, ...chat, text: "oi" } }, { "X-Telegram-Bot-Api-Secret-Token": secret })).status).toBe(200);
    const asked = await waitFor("the bot's question", async () => peer.calls.find((c) => c.path.endsWith("/sendMessage") && c.json?.chat_id === "55599"));
    expect(asked.json).toEqual({
      chat_id: "55599",
      text: "Qual seu nome?",
      reply_markup: { keyboard: [[{ text: "Prefiro não dizer" }]], one_time_keyboard: true, resize_keyboard: true },
    });
    const [room] = await stack.query<{ id: string; status: string }>(`SELECT id, status FROM live_rooms WHERE account_id = $1 AND channel = 'telegram' AND external_id = '55599'`, [
      accountId,
    ]);
    expect(room.status).toBe("BOT");
    expect((await postUpdate({ update_id: 61, message: { ...update(61).message, ...chat, text: "Joana" } }, { "X-Telegram-Bot-Api-Secret-Token": secret })).status).toBe(200);
    await waitFor("the bot's reply", async () => peer.calls.find((c) => c.path.endsWith("/sendMessage") && c.json?.text === "Prazer, Joana!"));
    // Each bot message went out once and keeps Telegram's id.
    await waitFor("both sent", async () => {
      const bot = await stack.query<{ external_id: string | null }>(`SELECT external_id FROM live_messages WHERE room_id = $1 AND author = 'bot'`, [room.id]);
      return bot.length === 2 && bot.every((m) => m.external_id) ? bot : null;
    });
    expect(peer.calls.filter((c) => c.path.endsWith("/sendMessage") && c.json?.chat_id === "55599")).toHaveLength(2);
    const [closed] = await stack.query<{ status: string; close_reason: string }>(`SELECT status, close_reason FROM live_rooms WHERE id = $1`, [room.id]);
    expect(closed).toEqual({ status: "CLOSED", close_reason: "flow" });
    expect((await as("/api/flow/flows/status", { body: { ids: [flow.body.data.id], status: "inactive" } })).status).toBe(200);
  });

  it("the agent typing shows as sendChatAction typing (at most one per 2.5 s)", async () => {
    const [{ room_id }] = await telegramMessages();
    peer.reset();
    expect((await as(`/api/omni/rooms/${room_id}/typing`, { method: "POST" })).body).toEqual({ sent: true });
    expect((await as(`/api/omni/rooms/${room_id}/typing`, { method: "POST" })).body).toEqual({ sent: false });
    const call = await waitFor("sendChatAction", async () => peer.calls.find((c) => c.path.endsWith("/sendChatAction")));
    expect(call.json).toEqual({ chat_id: "55501", action: "typing" });
    // No wait needed: the second request answered sent:false, i.e. it never started a signal
    // (api/live/typing.ts), and the one it did start has arrived.
    expect(peer.calls.filter((c) => c.path.endsWith("/sendChatAction"))).toHaveLength(1);
  });

  it("the agent's file goes out with sendPhoto (multipart, the caption with it)", async () => {
    const [{ room_id }] = await telegramMessages();
    peer.reset();
    const form = new FormData();
    form.set("id_room", room_id);
    form.set("message", "o comprovante");
    form.set("file", new Blob([new Uint8Array(JPEG)], { type: "image/jpeg" }), "comprovante.jpg");
    const up = await raw("/api/webchat/upload", { method: "POST", headers: { Authorization: `Bearer ${token}` }, body: form });
    expect(up.status, await up.clone().text()).toBe(200);
    const call = await waitFor("sendPhoto", async () => peer.calls.find((c) => c.path.endsWith("/sendPhoto")));
    expect(String(call.headers["content-type"])).toMatch(/^multipart\/form-data/);
    const text = call.body.toString("latin1");
    expect(text).toContain('name="chat_id"');
    expect(text).toContain("55501");
    expect(text).toContain("o comprovante");
    expect(call.body.includes(JPEG)).toBe(true);
  });

  it("disconnecting removes the webhook (deleteWebhook); a webhook Telegram refuses leaves no connection, naming the token", async () => {
    peer.reset();
    expect((await as(`/api/live/channels/${connectionId}`, { method: "DELETE" })).status).toBe(200);
    expect(peer.calls.filter((c) => c.path.endsWith("/deleteWebhook"))).toHaveLength(1);
    expect((await postUpdate(update(50), { "X-Telegram-Bot-Api-Secret-Token": secret })).status).toBe(404);
    setWebhookFails = true;
    try {
      const refused = await as("/api/live/channels", { body: { channel: "telegram", bot_token: BOT_TOKEN } });
      expect(refused.status).toBe(422);
      expect(refused.body.error.fields).toEqual({ bot_token: ["O Telegram não aceitou o registro do webhook; tente novamente"] });
      expect(peer.calls.filter((c) => c.path.endsWith("/setWebhook"))).toHaveLength(1);
      expect(await stack.query(`SELECT id FROM live_channel_connections WHERE account_id = $1 AND channel = 'telegram'`, [accountId])).toEqual([]);
    } finally {
      setWebhookFails = false;
    }
  });
});

describe("Messenger and Instagram", () => {
  const APP_SECRET = "graph-app-secret-0123456789abcdef";
  const conns: Record<string, { id: string; page: string }> = {};
  const sign = (body: string | Buffer, secret = APP_SECRET) => `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;
  const event = (channel: string, messaging: Record<string, unknown>) =>
    JSON.stringify({
      object: channel === "messenger" ? "page" : "instagram",
      entry: [{ id: conns[channel].page, time: Date.now(), messaging: [{ recipient: { id: conns[channel].page }, timestamp: Date.now(), ...messaging }] }],
    });
  const post = (channel: string, body: string | Buffer, signature?: string) =>
    raw(`/api/channels/${channel}/${conns[channel].id}`, {
      method: "POST",
      headers: { "Content-Type": "application/json", ...(signature ? { "X-Hub-Signature-256": signature } : {}) },
      body: typeof body === "string" ? body : new Uint8Array(body),
    });
  const visitorMessages = (channel: string, psid: string) =>
    stack.query<{ id: string; body: string; room_id: string; attachments: any[] }>(
      `SELECT m.id, m.body, m.room_id, m.attachments FROM live_messages m JOIN live_rooms r ON r.id = m.room_id WHERE r.account_id = $1 AND r.channel = $2 AND r.external_id = $3 AND m.author = 'visitor' ORDER BY m.created_at`,
      [accountId, channel, psid],
    );

  beforeAll(async () => {
    for (const [channel, page] of [
      ["messenger", "1122334455"],
      ["instagram", "17841400000000001"],
    ]) {
      const res = await as("/api/live/channels", {
        body: { channel, page_id: page, access_token: `EAAB-${channel}-page-token-0123456789`, app_secret: APP_SECRET, verify_token: `verify-${channel}-123` },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      conns[channel] = { id: res.body.data.id, page };
    }
  });

  for (const channel of ["messenger", "instagram"]) {
    it(`${channel}: the verify handshake echoes the challenge only for the right token`, async () => {
      const ok = await raw(`/api/channels/${channel}/${conns[channel].id}?hub.mode=subscribe&hub.verify_token=verify-${channel}-123&hub.challenge=1158201444`, {});
      expect(ok.status).toBe(200);
      expect(await ok.text()).toBe("1158201444");
      expect((await raw(`/api/channels/${channel}/${conns[channel].id}?hub.mode=subscribe&hub.verify_token=wrong&hub.challenge=1`, {})).status).toBe(403);
      expect((await raw(`/api/channels/${channel}/${conns[channel].id}?hub.challenge=1`, {})).status).toBe(403);
    });

    it(`${channel}: the signature is checked over the raw body; missing or wrong is 401; a replay is one message`, async () => {
      const psid = `${channel}-psid-1`;
      // Spacing and non-ASCII text: only the exact bytes verify.
      const body = Buffer.from(event(channel, { sender: { id: psid }, message: { mid: `m_${channel}_1`, text: "Olá, ação!" } }).replace(/":/g, '": '), "utf8");
      expect((await post(channel, body)).status).toBe(401);
      expect((await post(channel, body, sign(body, "another-secret-0000000000"))).status).toBe(401);
      expect((await post(channel, body, sign(Buffer.from(JSON.stringify(JSON.parse(body.toString("utf8"))))))).status).toBe(401);
      expect((await post(channel, body, "sha256=")).status).toBe(401);
      expect(await visitorMessages(channel, psid)).toHaveLength(0);
      expect(peer.calls.filter((c) => c.path === `/graph/v19.0/${psid}`)).toHaveLength(0);
      const good = await post(channel, body, sign(body));
      expect(good.status, await good.clone().text()).toBe(200);
      expect((await post(channel, body, sign(body))).status).toBe(200);
      const msgs = await visitorMessages(channel, psid);
      expect(msgs).toHaveLength(1);
      expect(msgs[0].body).toBe("Olá, ação!");
      const [room] = await stack.query<Record<string, any>>(`SELECT channel, status, agent_id, username FROM live_rooms WHERE id = $1`, [msgs[0].room_id]);
      // The room is named from the visitor's Graph profile, asked once, with the page token.
      expect(room).toMatchObject({ channel, status: "OPEN", username: channel === "messenger" ? "Ana Souza" : "Bia Lima" });
      const profileCalls = peer.calls.filter((c) => c.path === `/graph/v19.0/${psid}`);
      expect(profileCalls).toHaveLength(1);
      expect(profileCalls[0].query.get("access_token")).toBe(`EAAB-${channel}-page-token-0123456789`);
      // A second message in the open room does not ask again.
      const next = event(channel, { sender: { id: psid }, message: { mid: `m_${channel}_2`, text: "mais uma" } });
      expect((await post(channel, next, sign(next))).status).toBe(200);
      expect(await visitorMessages(channel, psid)).toHaveLength(2);
      expect(peer.calls.filter((c) => c.path === `/graph/v19.0/${psid}`)).toHaveLength(1);
    });
  }

  it("an attachment by URL is downloaded into the file store; echoes of the page's own messages are ignored", async () => {
    const psid = "messenger-psid-media";
    const body = event("messenger", {
      sender: { id: psid },
      message: { mid: "m_media_1", attachments: [{ type: "image", payload: { url: `${stack.env.GRAPH_API_URL!.replace("/graph/v19.0", "")}/cdn/img.jpg` } }] },
    });
    expect((await post("messenger", body, sign(body))).status).toBe(200);
    const [m] = await visitorMessages("messenger", psid);
    expect(m.attachments[0]).toMatchObject({ type: "image", media_type: "image/jpeg", size: JPEG.length });
    // The profile lookup failed (the peer answers 500): the room opens without a name, the webhook still succeeds.
    expect((await stack.query<{ username: string }>(`SELECT username FROM live_rooms WHERE id = $1`, [m.room_id]))[0].username).toBe("");
    const echo = event("messenger", { sender: { id: conns.messenger.page }, message: { mid: "m_echo", text: "eco", is_echo: true } });
    expect((await post("messenger", echo, sign(echo))).status).toBe(200);
    expect((await stack.query(`SELECT 1 FROM live_messages WHERE client_id = 'ext:m_echo'`)).length).toBe(0);
  });

  it("the agent's reply goes to /me/messages with the page token; delivery and read receipts move it forward only", async () => {
    const psid = "messenger-psid-1";
    const [{ room_id }] = await visitorMessages("messenger", psid);
    peer.reset();
    const sent = await as("/api/omni/messages", { body: { room_id, message: "Olá! Em que posso ajudar?" } });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const call = await waitFor("graph send", async () => peer.calls.find((c) => c.path === "/graph/v19.0/me/messages"));
    expect(call.query.get("access_token")).toBe("EAAB-messenger-page-token-0123456789");
    expect(call.json).toEqual({ recipient: { id: psid }, messaging_type: "RESPONSE", message: { text: "Olá! Em que posso ajudar?" } });
    const mid = await waitFor(
      "external id",
      async () => (await stack.query<{ external_id: string | null }>(`SELECT external_id FROM live_messages WHERE id = $1`, [sent.body.id]))[0]?.external_id,
    );
    expect(mid).toMatch(/^m_out_\d+$/);
    const status = async () => (await stack.query<{ status: string }>(`SELECT status FROM live_messages WHERE id = $1`, [sent.body.id]))[0].status;

    const delivered = event("messenger", { sender: { id: psid }, delivery: { mids: [mid], watermark: Date.now() } });
    expect((await post("messenger", delivered, sign(delivered))).status).toBe(200);
    expect(await status()).toBe("DELIVERED");
    const read = event("messenger", { sender: { id: psid }, read: { watermark: Date.now() + 1000 } });
    expect((await post("messenger", read, sign(read))).status).toBe(200);
    expect(await status()).toBe("READ");
    // A late delivery receipt never moves it back.
    expect((await post("messenger", delivered, sign(delivered))).status).toBe(200);
    expect(await status()).toBe("READ");
    const events = (await liveEvents(room_id)).map((e) => e.event);
    expect(events).toContain("delivered");
    expect(events).toContain("read");
  });

  it("suggestion buttons go out as quick replies (titles cut at 20, payload whole); a tapped one arrives as the whole suggestion", async () => {
    const psid = "messenger-psid-1";
    const [{ room_id }] = await visitorMessages("messenger", psid);
    peer.reset();
    const sent = await as("/api/omni/messages", { body: { room_id, message: "Qual horário prefere?", suggestions: ["Manhã", "Tarde, depois das 14h ok"] } });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const call = await waitFor("graph send", async () => peer.calls.find((c) => c.path === "/graph/v19.0/me/messages"));
    expect(call.json.message).toEqual({
      text: "Qual horário prefere?",
      quick_replies: [
        { content_type: "text", title: "Manhã", payload: "Manhã" },
        { content_type: "text", title: "Tarde, depois das 14", payload: "Tarde, depois das 14h ok" },
      ],
    });
    const tap = event("messenger", { sender: { id: psid }, message: { mid: "m_quick_1", text: "Tarde, depois das 14", quick_reply: { payload: "Tarde, depois das 14h ok" } } });
    expect((await post("messenger", tap, sign(tap))).status).toBe(200);
    expect((await visitorMessages("messenger", psid)).at(-1)).toMatchObject({ body: "Tarde, depois das 14h ok" });
  });

  it("the agent typing shows as the typing_on sender action; reading the room sends mark_seen", async () => {
    const [{ room_id }] = await visitorMessages("messenger", "messenger-psid-1");
    peer.reset();
    expect((await as(`/api/omni/rooms/${room_id}/typing`, { method: "POST" })).body).toEqual({ sent: true });
    const call = await waitFor("sender action", async () => peer.calls.find((c) => c.path === "/graph/v19.0/me/messages" && c.json?.sender_action));
    expect(call.json).toEqual({ recipient: { id: "messenger-psid-1" }, sender_action: "typing_on" });
    expect(call.query.get("access_token")).toBe("EAAB-messenger-page-token-0123456789");
    // Reading the room's new messages marks them seen on Messenger too.
    expect((await as(`/api/omni/rooms/${room_id}/read`, { method: "POST" })).body.changed).toBeGreaterThan(0);
    const seen = await waitFor("mark_seen", async () => peer.calls.find((c) => c.json?.sender_action === "mark_seen"));
    expect(seen.json).toEqual({ recipient: { id: "messenger-psid-1" }, sender_action: "mark_seen" });
  });

  it("a provider that keeps failing: retried, then FAIL with the error, and the agent is told", async () => {
    const psid = "instagram-psid-1";
    const [{ room_id }] = await visitorMessages("instagram", psid);
    graphFails = 500;
    peer.reset();
    try {
      const sent = await as("/api/omni/messages", { body: { room_id, message: "Vai falhar" } });
      expect(sent.status).toBe(200);
      const row = await waitFor(
        "FAIL",
        async () =>
          (
            await stack.query<{ status: string; error: string | null; external_id: string | null }>(
              `SELECT status, error, external_id FROM live_messages WHERE id = $1 AND status = 'FAIL'`,
              [sent.body.id],
            )
          )[0],
        60_000,
      );
      expect(row.error).toContain("500");
      expect(row.external_id).toBeNull();
      // DISPATCH_MAX_ATTEMPTS (3 on the private stack) attempts, no more.
      expect(peer.calls.filter((c) => c.path === "/graph/v19.0/me/messages").length).toBe(3);
      // Published right after the FAIL is committed: wait for it.
      const failed = await waitFor("failed event", async () => (await liveEvents(room_id)).find((e) => e.event === "failed"));
      expect(JSON.parse(failed.data).ids).toEqual([sent.body.id]);
    } finally {
      graphFails = null;
    }
  }, 90_000);

  it("a provider's permanent refusal (4xx) fails the message at once", async () => {
    const psid = "instagram-psid-1";
    const [{ room_id }] = await visitorMessages("instagram", psid);
    graphFails = 400;
    peer.reset();
    try {
      const sent = await as("/api/omni/messages", { body: { room_id, message: "Recusada" } });
      const row = await waitFor("FAIL", async () => (await stack.query<{ error: string }>(`SELECT error FROM live_messages WHERE id = $1 AND status = 'FAIL'`, [sent.body.id]))[0]);
      expect(row.error).toContain("400");
      expect(peer.calls.filter((c) => c.path === "/graph/v19.0/me/messages").length).toBe(1);
    } finally {
      graphFails = null;
    }
  });

  it("disconnecting stops the webhook: the connection is gone", async () => {
    const del = await as(`/api/live/channels/${conns.instagram.id}`, { method: "DELETE" });
    expect(del.status).toBe(200);
    const body = event("instagram", { sender: { id: "x" }, message: { mid: "m_after", text: "oi" } });
    expect((await post("instagram", body, sign(body))).status).toBe(404);
  });
});
