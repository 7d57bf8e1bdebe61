/**
 * Google Business Messages as a live chat channel (issue 5, ADR 017) on a private stack whose
 * GBM_API_URL and GBM_TOKEN_URL point at a loopback peer standing in for
 * Google: it issues OAuth2 tokens only for a JWT assertion signed with the key generated here
 * (checked with its public key), answers conversations.messages.create (409 ALREADY_EXISTS for a
 * messageId it already has, as Google does) and hosts the visitors' images. Covered: connecting,
 * the webhook verification post, signatures (good, bad, missing, replayed), rooms opened and
 * continued, images downloaded within the limit, the agent's replies (bearer token, messageId =
 * our id, the agent as HUMAN representative, files by signed URL), 409 counted as sent, 4xx
 * failing at once, and receipts moving messages forward only.
 */
import { createHmac, generateKeyPairSync, verify } from "node:crypto";
import type Redis from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { roomLiveEvents, startChannelStack, startRecordingPeer, waitUntil, type PeerCall, type RecordingPeer } from "../support/loopback-peer";
import type { Stack } from "../support/stack";

const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from("gbm-visitor-photo")]);
const AGENT = "brands/brand-0001/agents/agent-0001";
const CLIENT_TOKEN = "gbm-client-token-0123456789";
const CLIENT_EMAIL = "bm-sender@loja-demo.iam.gserviceaccount.com";
const { privateKey, publicKey } = generateKeyPairSync("rsa", {
  modulusLength: 2048,
  privateKeyEncoding: { type: "pkcs8", format: "pem" },
  publicKeyEncoding: { type: "spki", format: "pem" },
});

let stack: Stack;
let peer: RecordingPeer;
let redis: Redis;
let token: string;
let accountId: string;
let connectionId: string;
/** What Google's conversations.messages.create does next: answer normally, accept and then answer 500 (a lost answer), or refuse with 400. */
let mode: "ok" | "acceptThenFail" | "refuse" = "ok";
const issued = new Set<string>();
const accepted = new Map<string, any>();

/** The peer's OAuth token endpoint: the JWT bearer grant with an RS256 assertion of our key. */
function tokenEndpoint(call: PeerCall, send: (status: number, payload: unknown) => void) {
  const form = new URLSearchParams(call.body.toString("utf8"));
  const [h, c, s] = (form.get("assertion") ?? "").split(".");
  const valid = Boolean(h && c && s) && verify("RSA-SHA256", Buffer.from(`${h}.${c}`), publicKey, Buffer.from(s, "base64url"));
  const header = valid ? JSON.parse(Buffer.from(h, "base64url").toString()) : null;
  const claims = valid ? JSON.parse(Buffer.from(c, "base64url").toString()) : null;
  const now = Date.now() / 1000;
  const ok =
    form.get("grant_type") === "urn:ietf:params:oauth:grant-type:jwt-bearer" &&
    header?.alg === "RS256" &&
    claims?.iss === CLIENT_EMAIL &&
    claims?.scope === "https://www.googleapis.com/auth/businessmessages" &&
    claims?.aud === `${peer.url}/token` &&
    claims.iat <= now + 5 &&
    claims.exp > now;
  if (!ok) return send(400, { error: "invalid_grant", error_description: "Invalid JWT Signature." });
  const accessToken = `ya29.loopback-${issued.size + 1}`;
  issued.add(accessToken);
  return send(200, { access_token: accessToken, expires_in: 3599, token_type: "Bearer" });
}

function startGoogle() {
  return startRecordingPeer((call, { send, res }) => {
    if (call.method === "POST" && call.path === "/token") return tokenEndpoint(call, send);
    const create = /^\/v1\/conversations\/([^/]+)\/messages$/.exec(call.path);
    if (create && call.method === "POST") {
      const bearer = String(call.headers.authorization ?? "").replace(/^Bearer /, "");
      if (!issued.has(bearer)) return send(401, { error: { code: 401, message: "Request had invalid authentication credentials.", status: "UNAUTHENTICATED" } });
      if (mode === "refuse") return send(400, { error: { code: 400, message: "Invalid message", status: "INVALID_ARGUMENT" } });
      const id = call.json?.messageId;
      if (accepted.has(id)) return send(409, { error: { code: 409, message: "Requested entity already exists", status: "ALREADY_EXISTS" } });
      accepted.set(id, call.json);
      if (mode === "acceptThenFail") return send(500, { error: { code: 500, message: "Internal error", status: "INTERNAL" } });
      return send(200, { name: `conversations/${create[1]}/messages/${id}`, ...call.json });
    }
    // conversations.events.create (typing): needs a bearer token and an eventId of its own.
    const events = /^\/v1\/conversations\/([^/]+)\/events$/.exec(call.path);
    if (events && call.method === "POST") {
      const bearer = String(call.headers.authorization ?? "").replace(/^Bearer /, "");
      if (!issued.has(bearer)) return send(401, { error: { code: 401, status: "UNAUTHENTICATED" } });
      if (!call.query.get("eventId")) return send(400, { error: { code: 400, message: "eventId is required", status: "INVALID_ARGUMENT" } });
      return send(200, { name: `conversations/${events[1]}/events/${call.query.get("eventId")}`, ...call.json });
    }
    // conversations.messages.updateReceipt (the agent read the user's message).
    const receipt = /^\/v1\/conversations\/([^/]+)\/messages\/([^/]+)\/receipt$/.exec(call.path);
    if (receipt && call.method === "PATCH") {
      if (!issued.has(String(call.headers.authorization ?? "").replace(/^Bearer /, ""))) return send(401, { error: { code: 401, status: "UNAUTHENTICATED" } });
      return send(200, { name: `conversations/${receipt[1]}/messages/${receipt[2]}/receipt`, receiptType: call.json?.receiptType });
    }
    if (call.path === "/media/photo.jpg") {
      res.writeHead(200, { "Content-Type": "image/jpeg", "Content-Length": String(JPEG.length) });
      return res.end(JPEG);
    }
    if (call.path === "/media/huge.jpg") {
      const huge = Buffer.alloc(5_000_001, 0x20);
      JPEG.copy(huge);
      res.writeHead(200, { "Content-Type": "image/jpeg", "Content-Length": String(huge.length) });
      return res.end(huge);
    }
    send(404, { error: { code: 404, status: "NOT_FOUND" } });
  });
}

const serviceAccountKey = (over: Record<string, unknown> = {}) =>
  JSON.stringify({
    type: "service_account",
    project_id: "loja-demo",
    private_key_id: "0123456789abcdef",
    private_key: privateKey,
    client_email: CLIENT_EMAIL,
    // As Google writes it; ignored: the token endpoint is the platform's (GBM_TOKEN_URL, the peer).
    token_uri: "https://oauth2.googleapis.com/token",
    ...over,
  });
const raw = (path: string, init: RequestInit) => fetch(new URL(path, stack.apiUrl), init);
const as = (path: string, o: { method?: string; body?: unknown } = {}) => stack.api(path, { ...o, token });
const sign = (body: string | Buffer, key = CLIENT_TOKEN) => createHmac("sha512", key).update(body).digest("base64");
const post = (body: string | Buffer, signature?: string) =>
  raw(`/api/channels/google_business/${connectionId}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...(signature ? { "X-Goog-Signature": signature } : {}) },
    body: typeof body === "string" ? body : new Uint8Array(body),
  });
const signedPost = (payload: unknown) => {
  const body = JSON.stringify(payload);
  return post(body, sign(body));
};
/** A visitor's message as Business Messages posts it. */
const userMessage = (conversationId: string, messageId: string, message: Record<string, unknown>, displayName = "Carla Dias") => ({
  agent: AGENT,
  conversationId,
  customAgentId: "",
  requestId: `req-${messageId}`,
  message: { messageId, name: `conversations/${conversationId}/messages/${messageId}`, createTime: new Date().toISOString(), ...message },
  context: { entryPoint: "PLACESHEET", placeId: "ChIJ-loopback", resolvedLocale: "pt", userInfo: { displayName, userDeviceLocale: "pt-BR" } },
  sendTime: new Date().toISOString(),
});
const receipt = (conversationId: string, receiptType: string, ...ids: string[]) => ({
  agent: AGENT,
  conversationId,
  receipts: { receipts: ids.map((id) => ({ message: `conversations/${conversationId}/messages/${id}`, receiptType })), createTime: new Date().toISOString() },
  sendTime: new Date().toISOString(),
});
const visitorMessages = (conversationId: string) =>
  stack.query<{ id: string; body: string; room_id: string; attachments: any[] }>(
    `SELECT m.id, m.body, m.room_id, m.attachments FROM live_messages m JOIN live_rooms r ON r.id = m.room_id
     WHERE r.account_id = $1 AND r.channel = 'google_business' AND r.external_id = $2 AND m.author = 'visitor' ORDER BY m.created_at`,
    [accountId, conversationId],
  );
const creates = (conversationId: string) => peer.calls.filter((c) => c.method === "POST" && c.path === `/v1/conversations/${conversationId}/messages`);
const messageRow = async (id: string) =>
  (await stack.query<{ status: string; external_id: string | null; error: string | null }>(`SELECT status, external_id, error FROM live_messages WHERE id = $1`, [id]))[0];

let stop: () => Promise<void>;
beforeAll(async () => {
  peer = await startGoogle();
  ({ stack, redis, token, accountId, stop } = await startChannelStack(peer, { GBM_API_URL: peer.url, GBM_TOKEN_URL: `${peer.url}/token`, APP_URL: "https://app.loja.test" }));
}, 120_000);

afterAll(() => stop?.());

describe("Google Business Messages", () => {
  it("connecting validates the agent id and the service account key naming the field; secrets are sealed and never answered", async () => {
    const bad = async (body: Record<string, unknown>) => {
      const res = await as("/api/live/channels", {
        body: { channel: "google_business", agent_id: AGENT, client_token: CLIENT_TOKEN, service_account_key: serviceAccountKey(), ...body },
      });
      expect(res.status).toBe(422);
      return res.body.error.fields;
    };
    // Translated (pt-BR by default), naming what is wrong.
    expect(await bad({ agent_id: "agent-0001" })).toEqual({ agent_id: ["Use o formato brands/ID_DA_MARCA/agents/ID_DO_AGENTE"] });
    expect(await bad({ service_account_key: "{not json" })).toEqual({ service_account_key: [expect.stringContaining("não é um JSON válido")] });
    expect(await bad({ service_account_key: serviceAccountKey({ client_email: undefined }) })).toEqual({
      service_account_key: ["A chave da conta de serviço não tem um campo client_email válido"],
    });
    // The right shape, but not a key: refused by the server's key parser.
    const fake = "-----BEGIN PRIVATE KEY-----\nbm90IGEga2V5\n-----END PRIVATE KEY-----";
    expect(await bad({ service_account_key: serviceAccountKey({ private_key: fake }) })).toEqual({
      service_account_key: ["A chave da conta de serviço não tem um campo private_key válido"],
    });

    const res = await as("/api/live/channels", { body: { channel: "google_business", agent_id: AGENT, client_token: CLIENT_TOKEN, service_account_key: serviceAccountKey() } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    connectionId = res.body.data.id;
    expect(res.body.data).toMatchObject({ channel: "google_business", external_id: AGENT });
    expect(res.body.data.webhook_url).toBe(`https://app.loja.test/api/channels/google_business/${connectionId}`);
    const keyLine = privateKey.split("\n")[5];
    const [row] = await stack.query<{ secrets_sealed: string }>(`SELECT secrets_sealed FROM live_channel_connections WHERE id = $1`, [connectionId]);
    for (const secret of [CLIENT_TOKEN, keyLine, CLIENT_EMAIL]) expect(row.secrets_sealed).not.toContain(secret);
    const list = JSON.stringify((await as("/api/live/channels")).body);
    expect(list).toContain(AGENT);
    for (const secret of [CLIENT_TOKEN, keyLine, CLIENT_EMAIL]) expect(list).not.toContain(secret);
  });

  it("the webhook verification post is answered with the secret only for the connection's client token", async () => {
    const ok = await post(JSON.stringify({ secret: "1234567890abcdef", clientToken: CLIENT_TOKEN }));
    expect(ok.status).toBe(200);
    expect(ok.headers.get("content-type")).toMatch(/^text\/plain/);
    expect(await ok.text()).toBe("1234567890abcdef");
    expect((await post(JSON.stringify({ secret: "1234567890abcdef", clientToken: "another-client-token" }))).status).toBe(403);
    expect(
      (await raw(`/api/channels/google_business/00000000-0000-0000-0000-000000000000`, { method: "POST", body: JSON.stringify({ secret: "x", clientToken: CLIENT_TOKEN }) }))
        .status,
    ).toBe(404);
  });

  it("events are verified over the raw body (X-Goog-Signature); missing or wrong is 401 and stores nothing; a replay is one message", async () => {
    const conversation = "conv-signature";
    // Spacing and non-ASCII text: only the exact bytes verify.
    const body = Buffer.from(JSON.stringify(userMessage(conversation, "msg-sig-1", { text: "Olá, ação!" })).replace(/":/g, '": '), "utf8");
    expect((await post(body)).status).toBe(401);
    expect((await post(body, sign(body, "another-client-token"))).status).toBe(401);
    expect((await post(body, sign(Buffer.from(JSON.stringify(JSON.parse(body.toString("utf8"))))))).status).toBe(401);
    expect((await post(body, createHmac("sha256", CLIENT_TOKEN).update(body).digest("base64"))).status).toBe(401);
    expect((await post(body, "")).status).toBe(401);
    expect((await post("{not json", "x")).status).toBe(401);
    expect(await visitorMessages(conversation)).toHaveLength(0);

    const good = await post(body, sign(body));
    expect(good.status, await good.clone().text()).toBe(200);
    const replay = await post(body, sign(body));
    expect(replay.status).toBe(200);
    const msgs = await visitorMessages(conversation);
    expect(msgs).toHaveLength(1);
    expect(msgs[0].body).toBe("Olá, ação!");
  });

  it("a message opens a room named after the user; the next one continues it", async () => {
    const conversation = "conv-carla";
    expect((await signedPost(userMessage(conversation, "msg-1", { text: "Oi, vocês abrem domingo?" }))).status).toBe(200);
    expect((await signedPost(userMessage(conversation, "msg-2", { text: "E feriado?" }))).status).toBe(200);
    const msgs = await visitorMessages(conversation);
    expect(msgs.map((m) => m.body)).toEqual(["Oi, vocês abrem domingo?", "E feriado?"]);
    expect(msgs[1].room_id).toBe(msgs[0].room_id);
    const [room] = await stack.query<Record<string, any>>(`SELECT * FROM live_rooms WHERE id = $1`, [msgs[0].room_id]);
    expect(room).toMatchObject({ channel: "google_business", external_id: conversation, username: "Carla Dias", status: "OPEN" });
  });

  it("an image is downloaded from Google's URL into the file store; one over 5,000,000 bytes is left out and named", async () => {
    const conversation = "conv-carla";
    peer.reset();
    expect((await signedPost(userMessage(conversation, "msg-img", { image: { contentUrl: `${peer.url}/media/photo.jpg` } }))).status).toBe(200);
    expect(peer.calls.some((c) => c.path === "/media/photo.jpg")).toBe(true);
    const img = (await visitorMessages(conversation)).at(-1)!;
    expect(img.attachments[0]).toMatchObject({ type: "image", media_type: "image/jpeg", size: JPEG.length });
    const file = await raw(img.attachments[0].uri, { headers: { Authorization: `Bearer ${token}` } });
    expect(Buffer.from(await file.arrayBuffer()).equals(JPEG)).toBe(true);

    expect((await signedPost(userMessage(conversation, "msg-huge", { image: { contentUrl: `${peer.url}/media/huge.jpg` } }))).status).toBe(200);
    const huge = (await visitorMessages(conversation)).at(-1)!;
    expect(huge.attachments).toEqual([]);
    expect(huge.body).toBe("[image]");
  });

  it("typing and other events, and another agent's events, are acknowledged and ignored", async () => {
    const before = (await visitorMessages("conv-carla")).length;
    expect((await signedPost({ agent: AGENT, conversationId: "conv-carla", userStatus: { isTyping: true, createTime: new Date().toISOString() } })).status).toBe(200);
    expect((await signedPost({ ...userMessage("conv-carla", "msg-other-agent", { text: "não é daqui" }), agent: "brands/x/agents/y" })).status).toBe(200);
    expect(await visitorMessages("conv-carla")).toHaveLength(before);
  });

  it("the agent's reply goes out with a service-account bearer token, messageId = our id and the agent as HUMAN representative", async () => {
    const [{ room_id }] = await visitorMessages("conv-carla");
    peer.reset();
    const sent = await as("/api/omni/messages", { body: { room_id, message: "Oi Carla! Abrimos domingo das 9h às 13h." } });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const call = await waitUntil("messages.create", async () => creates("conv-carla")[0]);
    const tokenCall = peer.calls.find((c) => c.path === "/token")!;
    expect(tokenCall).toBeDefined();
    expect(call.headers.authorization).toBe(`Bearer ${[...issued].at(-1)}`);
    const [owner] = await stack.query<{ name: string }>(`SELECT trim(first_name || ' ' || last_name) AS name FROM users WHERE email = 'owner@demo.example'`);
    expect(call.json).toEqual({
      messageId: sent.body.id,
      representative: { representativeType: "HUMAN", displayName: owner.name },
      text: "Oi Carla! Abrimos domingo das 9h às 13h.",
    });
    expect(await waitUntil("external id", async () => (await messageRow(sent.body.id)).external_id)).toBe(sent.body.id);

    // The token is cached: the next reply asks for none.
    const again = await as("/api/omni/messages", { body: { room_id, message: "Algo mais?" } });
    await waitUntil("second create", async () => creates("conv-carla").find((c) => c.json?.messageId === again.body.id));
    expect(peer.calls.filter((c) => c.path === "/token")).toHaveLength(1);
  });

  it("suggestion buttons go out as suggested replies; a tapped one (suggestionResponse) is the visitor's next message, once", async () => {
    const [{ room_id }] = await visitorMessages("conv-carla");
    peer.reset();
    const sent = await as("/api/omni/messages", { body: { room_id, message: "Quer agendar?", suggestions: ["Sim, amanhã", "Não, obrigada"] } });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const call = await waitUntil("messages.create", async () => creates("conv-carla").find((c) => c.json?.messageId === sent.body.id));
    expect(call.json.suggestions).toEqual([{ reply: { text: "Sim, amanhã", postbackData: "Sim, amanhã" } }, { reply: { text: "Não, obrigada", postbackData: "Não, obrigada" } }]);
    const tap = {
      agent: AGENT,
      conversationId: "conv-carla",
      requestId: "req-tap-1",
      context: { userInfo: { displayName: "Carla Dias" } },
      suggestionResponse: { message: "conversations/conv-carla/messages/tap-1", postbackData: "Sim, amanhã", text: "Sim, amanhã", suggestionType: "REPLY" },
    };
    expect((await signedPost(tap)).status).toBe(200);
    expect((await signedPost(tap)).status).toBe(200);
    const mine = (await visitorMessages("conv-carla")).filter((m) => m.body === "Sim, amanhã");
    expect(mine).toHaveLength(1);
    expect(mine[0].room_id).toBe(room_id);
  });

  it("the agent typing shows as a TYPING_STARTED event (at most one per 2.5 s); reading sends a READ receipt", async () => {
    const [{ room_id }] = await visitorMessages("conv-carla");
    peer.reset();
    expect((await as(`/api/omni/rooms/${room_id}/typing`, { method: "POST" })).body).toEqual({ sent: true });
    expect((await as(`/api/omni/rooms/${room_id}/typing`, { method: "POST" })).body).toEqual({ sent: false });
    const call = await waitUntil("events.create", async () => peer.calls.find((c) => c.path === "/v1/conversations/conv-carla/events"));
    expect(call.json).toEqual({ eventType: "TYPING_STARTED", representative: { representativeType: "HUMAN" } });
    expect(call.query.get("eventId")).toMatch(/^[0-9a-f-]{36}$/);
    // No wait needed: the second request answered sent:false, i.e. it never started a signal
    // (api/live/typing.ts), and the one it did start has arrived.
    expect(peer.calls.filter((c) => c.path.endsWith("/events"))).toHaveLength(1);

    // Reading the room sends Google a READ receipt for the newest message read (the tapped suggestion, tap-1).
    expect((await as(`/api/omni/rooms/${room_id}/read`, { method: "POST" })).body.changed).toBeGreaterThan(0);
    const read = await waitUntil("updateReceipt", async () => peer.calls.find((c) => c.method === "PATCH" && c.path.endsWith("/receipt")));
    expect(read.path).toBe("/v1/conversations/conv-carla/messages/tap-1/receipt");
    expect(read.json).toEqual({ receiptType: "READ" });
    // Nothing new to read: nothing more is sent.
    // No wait needed: with nothing changed the read never starts a receipt (channelSeen is
    // called only for changed messages, api/live/rooms.ts), and the first one has arrived.
    expect((await as(`/api/omni/rooms/${room_id}/read`, { method: "POST" })).body.changed).toBe(0);
    expect(peer.calls.filter((c) => c.method === "PATCH")).toHaveLength(1);
  });

  it("the agent's image goes out by a signed URL Google can fetch; the text first, each a message of its own", async () => {
    const [{ room_id }] = await visitorMessages("conv-carla");
    peer.reset();
    const form = new FormData();
    form.set("id_room", room_id);
    form.set("message", "o cardápio");
    form.set("file", new Blob([new Uint8Array(JPEG)], { type: "image/jpeg" }), "cardapio.jpg");
    const up = await raw("/api/webchat/upload", { method: "POST", headers: { Authorization: `Bearer ${token}` }, body: form });
    expect(up.status, await up.clone().text()).toBe(200);
    const id = (await up.json()).id as string;
    const [text, image] = await waitUntil("two creates", async () => (creates("conv-carla").length >= 2 ? creates("conv-carla") : null));
    expect(text.json).toMatchObject({ messageId: id, text: "o cardápio" });
    expect(image.json.messageId).toBe(`${id}-1`);
    const fileUrl = new URL(image.json.image.contentInfo.fileUrl);
    expect(fileUrl.origin).toBe("https://app.loja.test");
    expect(fileUrl.pathname).toMatch(/^\/api\/live\/files\/[0-9a-f-]{36}$/);
    // The signed URL works without any credential (the web process proxies /api to this API).
    const fetched = await raw(`${fileUrl.pathname}${fileUrl.search}`, {});
    expect(fetched.status).toBe(200);
    expect(Buffer.from(await fetched.arrayBuffer()).equals(JPEG)).toBe(true);
  });

  it("an answer lost after Google accepted: the retry gets 409 ALREADY_EXISTS and the message counts as sent, once", async () => {
    const [{ room_id }] = await visitorMessages("conv-carla");
    peer.reset();
    mode = "acceptThenFail";
    try {
      const sent = await as("/api/omni/messages", { body: { room_id, message: "Chegou?" } });
      await waitUntil("first attempt", async () => creates("conv-carla").length >= 1);
      mode = "ok";
      expect(await waitUntil("external id", async () => (await messageRow(sent.body.id)).external_id, 30_000)).toBe(sent.body.id);
      expect((await messageRow(sent.body.id)).status).toBe("SENT");
      const attempts = creates("conv-carla").filter((c) => c.json?.messageId === sent.body.id);
      expect(attempts).toHaveLength(2);
      expect(accepted.get(sent.body.id)?.text).toBe("Chegou?");
    } finally {
      mode = "ok";
    }
  }, 45_000);

  it("a refusal (4xx) fails the message at once, and the agent is told", async () => {
    const [{ room_id }] = await visitorMessages("conv-carla");
    peer.reset();
    mode = "refuse";
    try {
      const sent = await as("/api/omni/messages", { body: { room_id, message: "Recusada" } });
      const row = await waitUntil("FAIL", async () => ((await messageRow(sent.body.id)).status === "FAIL" ? messageRow(sent.body.id) : null));
      expect(row.error).toContain("400");
      expect(creates("conv-carla")).toHaveLength(1);
      // Published right after the FAIL is committed: wait for it.
      const failed = await waitUntil("failed event", async () =>
        (await roomLiveEvents(redis, stack, accountId, room_id)).find((e) => e.event === "failed" && JSON.parse(e.data).ids.includes(sent.body.id)),
      );
      expect(failed).toBeDefined();
    } finally {
      mode = "ok";
    }
  });

  it("DELIVERED and READ receipts move the agent's message forward only, with live events", async () => {
    const [{ room_id }] = await visitorMessages("conv-carla");
    const sent = await as("/api/omni/messages", { body: { room_id, message: "Confirma o recebimento?" } });
    await waitUntil("sent", async () => (await messageRow(sent.body.id)).external_id);
    const status = async () => (await messageRow(sent.body.id)).status;
    // A receipt for another conversation's path does not touch it.
    expect((await signedPost(receipt("conv-signature", "READ", sent.body.id))).status).toBe(200);
    expect(await status()).toBe("SENT");
    expect((await signedPost(receipt("conv-carla", "DELIVERED", sent.body.id))).status).toBe(200);
    expect(await status()).toBe("DELIVERED");
    expect((await signedPost(receipt("conv-carla", "READ", sent.body.id))).status).toBe(200);
    expect(await status()).toBe("READ");
    // A late DELIVERED never moves it back; an unsigned receipt is refused.
    expect((await signedPost(receipt("conv-carla", "DELIVERED", sent.body.id))).status).toBe(200);
    expect(await status()).toBe("READ");
    expect((await post(JSON.stringify(receipt("conv-carla", "DELIVERED", sent.body.id)))).status).toBe(401);
    const events = (await roomLiveEvents(redis, stack, accountId, room_id)).filter((e) => JSON.parse(e.data).ids?.includes(sent.body.id)).map((e) => e.event);
    expect(events).toContain("delivered");
    expect(events).toContain("read");
  });
});
