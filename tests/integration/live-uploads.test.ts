/**
 * Live chat files (issue 5, spec section 5 "Live uploads", ADR 017) over the real API: the type is
 * decided by the file's bytes, each channel's byte limit is enforced with a translated error
 * naming it, stickers are checked for size and dimensions, and a stored file is served only to
 * the account's attendants, the room's visitor, or a signed URL's holder.
 */
import { createHmac } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inject } from "vitest";
import { api, giveOmni, login, registerPerson } from "../support/api";
import { query } from "../support/db";
import { connectAgent, type LiveClient } from "../support/live-client";
import { makeLiveSettings } from "../support/factories";

let token: string;
let accountId: string;
let widgetKey: string;
let socket: LiveClient | undefined;
let visitor: { visitor_id: string; visitor_token: string; room: { id: string } };

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from("IHDR-fake-png-body")]);
const pdf = (size = 200) => Buffer.concat([Buffer.from("%PDF-1.4\n"), Buffer.alloc(Math.max(0, size - 9), 0x20)]);
const mp4 = (codec: string) => Buffer.concat([Buffer.from([0, 0, 0, 24]), Buffer.from(`ftypisom\0\0\0\0isomiso2`), Buffer.from(`....moov....stsd....${codec}....`)]);
/** An extended (VP8X) WebP header of the given canvas, padded to `bytes`. */
function webp(width: number, height: number, bytes = 200) {
  const b = Buffer.alloc(bytes);
  b.write("RIFF", 0, "latin1");
  b.writeUInt32LE(bytes - 8, 4);
  b.write("WEBP", 8, "latin1");
  b.write("VP8X", 12, "latin1");
  b.writeUInt32LE(10, 16);
  b.writeUIntLE(width - 1, 24, 3);
  b.writeUIntLE(height - 1, 27, 3);
  return b;
}

async function post(path: string, fields: Record<string, string>, file: { bytes: Buffer; name: string; type?: string } | null, opts: { token?: string; lang?: string } = {}) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  if (file) form.set("file", new Blob([new Uint8Array(file.bytes)], { type: file.type ?? "application/octet-stream" }), file.name);
  const res = await fetch(new URL(path, inject("apiUrl")), {
    method: "POST",
    body: form,
    headers: { ...(opts.token ? { Authorization: `Bearer ${opts.token}` } : {}), "Accept-Language": opts.lang ?? "en" },
  });
  const text = await res.text();
  let body: any = text;
  try {
    body = JSON.parse(text);
  } catch {}
  return { status: res.status, body };
}

const visitorUpload = (file: { bytes: Buffer; name: string; type?: string }, lang = "en", message = "") =>
  post(`/api/widget/${widgetKey}/upload`, { visitor_id: visitor.visitor_id, visitor_token: visitor.visitor_token, message }, file, { lang });

async function download(path: string, headers: Record<string, string> = {}) {
  const res = await fetch(new URL(path, inject("apiUrl")), { headers });
  return { status: res.status, type: res.headers.get("Content-Type"), bytes: Buffer.from(await res.arrayBuffer()) };
}

beforeAll(async () => {
  const person = await registerPerson("live-files");
  accountId = person.accountId;
  await giveOmni(accountId);
  token = (await login(person.email, person.password)).token;
  widgetKey = await makeLiveSettings(accountId, { defaultCapacity: 50 });
  const first = await api(`/api/widget/${widgetKey}/messages`, { body: { name: "Visitante Arquivos", message: "Vou mandar um arquivo" } });
  expect(first.status).toBe(200);
  visitor = first.body;
});

describe("a file as the first message", () => {
  it("without a visitor id, a file starts the conversation like a first text: new visitor, queued room, the file in it", async () => {
    const res = await post(`/api/widget/${widgetKey}/upload`, { name: "Rita Arquivo", email: "rita@example.com", message: "" }, { bytes: pdf(), name: "pedido.pdf" });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.visitor_id).toMatch(/^v_/);
    expect(res.body.visitor_token).toBeTruthy();
    expect(res.body.realtime_token).toBeTruthy();
    expect(res.body.room).toMatchObject({ status: "QUEUE" });
    expect(res.body.message.attachments[0]).toMatchObject({ type: "document", name: "pedido.pdf" });
    const [room] = await query<{ external_id: string; username: string; email: string; status: string }>(
      `SELECT external_id, username, email, status FROM live_rooms WHERE id = $1`,
      [res.body.room.id],
    );
    expect(room).toEqual({ external_id: res.body.visitor_id, username: "Rita Arquivo", email: "rita@example.com", status: "QUEUE" });
    const files = await query<{ room_id: string }>(`SELECT room_id FROM live_files WHERE account_id = $1 AND name = 'pedido.pdf'`, [accountId]);
    expect(files).toEqual([{ room_id: res.body.room.id }]);
    // The same visitor goes on with the id and token they were given: the same room.
    const next = await post(`/api/widget/${widgetKey}/upload`, { visitor_id: res.body.visitor_id, visitor_token: res.body.visitor_token }, { bytes: PNG, name: "foto.png" });
    expect(next.body.room.id).toBe(res.body.room.id);
  });

  it("a wrong visitor token is refused before anything is stored", async () => {
    const before = (await query<{ n: number }>(`SELECT count(*)::int AS n FROM live_files WHERE account_id = $1`, [accountId]))[0].n;
    const res = await post(`/api/widget/${widgetKey}/upload`, { visitor_id: visitor.visitor_id, visitor_token: "x".repeat(43) }, { bytes: PNG, name: "foto.png" });
    expect(res.status).toBe(401);
    expect((await query<{ n: number }>(`SELECT count(*)::int AS n FROM live_files WHERE account_id = $1`, [accountId]))[0].n).toBe(before);
  });
});

describe("types by magic bytes", () => {
  it("a visitor's PNG becomes an image attachment of a visitor message, whatever the name says", async () => {
    const res = await visitorUpload({ bytes: PNG, name: "foto.pdf", type: "application/pdf" }, "en", "segue a foto");
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.room.id).toBe(visitor.room.id);
    const [att] = res.body.message.attachments;
    expect(att).toMatchObject({ type: "image", media_type: "image/png", name: "foto.pdf", size: PNG.length });
    expect(att.uri).toMatch(/^\/api\/live\/files\/[0-9a-f-]{36}$/);
    const [row] = await query<{ author: string; body: string; attachments: unknown[] }>(`SELECT author, body, attachments FROM live_messages WHERE id = $1`, [res.body.message.id]);
    expect(row).toMatchObject({ author: "visitor", body: "segue a foto" });
    expect(row.attachments).toHaveLength(1);
  });

  it("PDF, doc, zip, ogg and H.264 mp4 are accepted with their real types", async () => {
    const cases: Array<[Buffer, string, string, string]> = [
      [pdf(), "a.bin", "document", "application/pdf"],
      [Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), Buffer.alloc(64)]), "contrato.doc", "document", "application/msword"],
      [Buffer.concat([Buffer.from("PK\x03\x04", "latin1"), Buffer.alloc(64)]), "pacote.zip", "document", "application/zip"],
      [Buffer.concat([Buffer.from("OggS"), Buffer.alloc(64)]), "voz.ogg", "audio", "audio/ogg"],
      [mp4("avc1"), "video.mp4", "video", "video/mp4"],
    ];
    for (const [bytes, name, type, mediaType] of cases) {
      const res = await visitorUpload({ bytes, name });
      expect(res.status, `${name}: ${JSON.stringify(res.body)}`).toBe(200);
      expect(res.body.message.attachments[0]).toMatchObject({ type, media_type: mediaType });
    }
  });

  it("refuses what is not an accepted type, even under an accepted name, with a translated error", async () => {
    const before = (await query(`SELECT 1 FROM live_messages WHERE room_id = $1`, [visitor.room.id])).length;
    const text = await visitorUpload({ bytes: Buffer.from("just text, not a picture"), name: "foto.jpg", type: "image/jpeg" });
    expect(text.status).toBe(415);
    expect(text.body.error.code).toBe("LIVE_FILE_TYPE");
    expect(text.body.error.message).toContain("Format not accepted");
    const gif = await visitorUpload({ bytes: Buffer.from("GIF89a........"), name: "a.gif" }, "pt-BR");
    expect(gif.status).toBe(415);
    expect(gif.body.error.message).toContain("Formato não aceito");
    // An mp4 that is not H.264 is refused too.
    expect((await visitorUpload({ bytes: mp4("hvc1"), name: "h265.mp4" })).status).toBe(415);
    expect((await query(`SELECT 1 FROM live_messages WHERE room_id = $1`, [visitor.room.id])).length).toBe(before);
  });

  it("a WebP is a sticker only up to 100 KB and 512x512", async () => {
    const ok = await visitorUpload({ bytes: webp(512, 512), name: "sticker.webp" });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.message.attachments[0]).toMatchObject({ type: "sticker", media_type: "image/webp" });
    const wide = await visitorUpload({ bytes: webp(513, 100), name: "wide.webp" });
    expect(wide.status).toBe(422);
    expect(wide.body.error.code).toBe("LIVE_FILE_STICKER");
    expect(wide.body.error.message).toContain("100 KB and 512x512");
    const heavy = await visitorUpload({ bytes: webp(100, 100, 100 * 1024 + 1), name: "heavy.webp" });
    expect(heavy.status).toBe(422);
  });
});

afterAll(async () => {
  await socket?.close();
});

describe("byte limits per channel", () => {
  it("webchat: 14,680,064 bytes pass, one more is refused with the limit in the message", async () => {
    const max = await visitorUpload({ bytes: pdf(14_680_064), name: "max.pdf" });
    expect(max.status, JSON.stringify(max.body).slice(0, 300)).toBe(200);
    const over = await visitorUpload({ bytes: pdf(14_680_065), name: "over.pdf" });
    expect(over.status).toBe(413);
    expect(over.body.error.code).toBe("LIVE_FILE_TOO_LARGE");
    expect(over.body.error.message).toContain("14,680,064");
    const overPt = await visitorUpload({ bytes: pdf(14_680_065), name: "over.pdf" }, "pt-BR");
    expect(overPt.body.error.message).toContain("14.680.064");
  });

  it("an agent's file to a Messenger room may reach 23,068,672 bytes; to a webchat room only 14,680,064", async () => {
    // Online (a live connection) and available: automatic distribution gives the agent the rooms.
    socket = await connectAgent(inject("realtimeUrl"), token, accountId);
    await api("/api/webchat/status", { method: "PUT", body: { status: "AVAILABLE" }, token, account: accountId });
    // A Messenger conversation, as the Graph webhook opens one.
    const appSecret = "files-app-secret-0123456789";
    const conn = await api("/api/live/channels", {
      token,
      account: accountId,
      body: { channel: "messenger", page_id: String(Date.now()), access_token: "EAAB-files-token-0123456789", app_secret: appSecret, verify_token: "verify-files" },
    });
    expect(conn.status, JSON.stringify(conn.body)).toBe(201);
    const raw = JSON.stringify({
      object: "page",
      entry: [
        {
          id: conn.body.data.external_id,
          messaging: [{ sender: { id: "psid-files-1" }, recipient: { id: conn.body.data.external_id }, message: { mid: "m_files_1", text: "oi" } }],
        },
      ],
    });
    const signed = await fetch(new URL(`/api/channels/messenger/${conn.body.data.id}`, inject("apiUrl")), {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Hub-Signature-256": `sha256=${createHmac("sha256", appSecret).update(raw).digest("hex")}` },
      body: raw,
    });
    expect(signed.status).toBe(200);
    const [room] = await query<{ id: string; agent_id: string }>(
      `SELECT id, agent_id FROM live_rooms WHERE account_id = $1 AND channel = 'messenger' AND external_id = 'psid-files-1'`,
      [accountId],
    );
    expect(room.agent_id).toBeTruthy();
    const big = await post("/api/webchat/upload", { id_room: room.id, message: "o contrato" }, { bytes: pdf(20_000_000), name: "contrato.pdf" }, { token });
    expect(big.status, JSON.stringify(big.body).slice(0, 300)).toBe(200);
    expect(big.body).toMatchObject({ author: "agent", body: "o contrato" });
    expect(big.body.attachments[0]).toMatchObject({ type: "document", media_type: "application/pdf", size: 20_000_000 });
    const over = await post(`/api/webchat/upload?id_room=${room.id}`, { id_room: room.id }, { bytes: pdf(23_068_673), name: "grande.pdf" }, { token });
    expect(over.status).toBe(413);
    expect(over.body.error.message).toContain("23,068,672");
    // The visitor's webchat room is attended by the same agent: there the webchat limit applies.
    const [web] = await query<{ agent_id: string }>(`SELECT agent_id FROM live_rooms WHERE id = $1`, [visitor.room.id]);
    expect(web.agent_id).toBeTruthy();
    const webOver = await post("/api/webchat/upload", { id_room: visitor.room.id }, { bytes: pdf(20_000_000), name: "grande.pdf" }, { token });
    expect(webOver.status).toBe(413);
    expect(webOver.body.error.message).toContain("14,680,064");
    // Without the file: a validation error, not a crash.
    expect((await post("/api/webchat/upload", { id_room: visitor.room.id }, null, { token })).status).toBe(422);
  });
});

describe("who may download a file", () => {
  it("the account's attendants, the room's visitor and a signed URL; nobody else", async () => {
    const up = await visitorUpload({ bytes: PNG, name: "privada.png" });
    expect(up.status).toBe(200);
    const uri: string = up.body.message.attachments[0].uri;
    const id = uri.split("/").pop()!;

    expect((await download(uri)).status).toBe(401);
    const mine = await download(uri, { Authorization: `Bearer ${token}` });
    expect(mine.status).toBe(200);
    expect(mine.type).toBe("image/png");
    expect(mine.bytes.equals(PNG)).toBe(true);

    // The visitor of the room, with their token; another visitor of the same account is not.
    const asVisitor = `${uri}?${new URLSearchParams({ key: widgetKey, visitor_id: visitor.visitor_id, visitor_token: visitor.visitor_token })}`;
    expect((await download(asVisitor)).status).toBe(200);
    const other = (await api(`/api/widget/${widgetKey}/messages`, { body: { name: "Outro", message: "oi" } })).body;
    expect((await download(`${uri}?${new URLSearchParams({ key: widgetKey, visitor_id: other.visitor_id, visitor_token: other.visitor_token })}`)).status).toBe(404);
    expect((await download(`${uri}?${new URLSearchParams({ key: widgetKey, visitor_id: visitor.visitor_id, visitor_token: "x".repeat(43) })}`)).status).toBe(401);

    // A user of another account does not find it.
    const stranger = await registerPerson("live-files-other");
    await giveOmni(stranger.accountId);
    const strangerToken = (await login(stranger.email, stranger.password)).token;
    expect((await download(uri, { Authorization: `Bearer ${strangerToken}` })).status).toBe(404);

    // A signed URL works without credentials until it expires; a forged or expired one does not.
    const signed = await api(`/api/live/files/${id}/url`, { token, account: accountId });
    expect(signed.status).toBe(200);
    expect((await download(signed.body.url)).status).toBe(200);
    expect((await download(signed.body.url.replace(/sig=[^&]+/, "sig=forged"))).status).toBe(404);
    const exp = Math.floor(Date.now() / 1000) - 10;
    const sig = createHmac("sha256", inject("sessionSecret")).update(`live-file:${id}:${exp}`).digest("base64url");
    expect((await download(`${uri}?exp=${exp}&sig=${sig}`)).status).toBe(404);
    expect((await api(`/api/live/files/${id}/url`, { token: strangerToken })).status).toBe(404);
  });
});
