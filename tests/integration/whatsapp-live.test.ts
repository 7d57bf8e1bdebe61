/**
 * WhatsApp as a live chat channel (issue 16), on a private stack whose Cloud API is the
 * simulator's loopback Graph peer and whose webhook URLs reach its own api: a contact's message
 * (text, or a photo fetched through Graph's media API) opens a room in the queue, assigned to the
 * attending demo owner; the agent's reply is a WhatsApp message of the pipeline (priced, debited,
 * dispatched to Graph) whose statuses reach the room (delivered, read; failed with Meta's reason);
 * the agent reading the room marks the contact's message read at Meta; outside the 24-hour window
 * free text is refused (translated, nothing written) and an approved template goes, priced by its
 * category; an opted-out contact is refused; an agent's file goes by a signed link Meta fetches.
 */
import type Redis from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { simulatedAppSecret } from "../../api/simulator/whatsapp-cloud";
import { ONPREM_SIM_PASSWORD, ONPREM_SIM_USERNAME } from "../../api/simulator/whatsapp-onprem";
import { liveOwner, roomLiveEvents, waitUntil } from "../support/loopback-peer";
import { openRedis } from "../support/redis";
import { startStack, type Stack } from "../support/stack";

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from("IHDR-fake-png-body")]);
const digits = (n: number) => Array.from({ length: n }, () => Math.floor(Math.random() * 10)).join("");

let stack: Stack;
let redis: Redis;
let token: string;
let accountId: string;
let stopSocket: () => Promise<void>;
let numberId: string;
let phoneNumberId: string;
let wabaId: string;

const as = (path: string, o: { method?: string; body?: unknown; lang?: string } = {}) => stack.api(path, { ...o, token });
const sim = async (path: string, body?: unknown) => {
  const res = await fetch(new URL(path, stack.simulatorUrl), {
    method: body === undefined ? "GET" : "POST",
    headers: { Authorization: `Bearer ${stack.env.SIMULATOR_API_KEY}`, "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
};
/** A contact writes to the number through the peer (Meta's signed `messages` webhook to our URL). */
const contactWrites = (from: string, text: string, extra: Record<string, unknown> = {}) =>
  sim("/whatsapp/_sim/inbound", { waba_id: wabaId, phone_number_id: phoneNumberId, from, text, ...extra });
const roomOf = async (contact: string, number = numberId) =>
  (await stack.query<Record<string, any>>(`SELECT * FROM live_rooms WHERE account_id = $1 AND channel = 'whatsapp' AND external_id = $2`, [accountId, `${number}:${contact}`]))[0];
/** The room of a contact on a number, once it is open and assigned to the owner. */
const assignedRoom = (from: string, number = numberId) =>
  waitUntil("room opened and assigned", async () => {
    const room = await roomOf(from, number);
    return room?.status === "OPEN" && room.agent_id ? room : undefined;
  });
const liveMessages = (roomId: string) => stack.query<Record<string, any>>(`SELECT * FROM live_messages WHERE room_id = $1 ORDER BY created_at, id`, [roomId]);
const balance = async () => Number((await stack.query<{ balance: string }>(`SELECT balance FROM account_balances WHERE account_id = $1`, [accountId]))[0].balance);
const peerSent = async (to: string) => (await sim(`/whatsapp/_sim/messages?to=${encodeURIComponent(to)}`)).body.data as Array<{ id: string; type: string; content: any }>;
const contact = () => `+5511${digits(9).replace(/0001$/, "0002")}`;

/** A contact who wrote, in a room the owner attends: its id. */
async function openRoom(from: string, text = "Oi, quero saber do meu pedido", extra: Record<string, unknown> = {}) {
  expect((await contactWrites(from, text, extra)).status).toBe(202);
  return assignedRoom(from);
}

beforeAll(async () => {
  stack = await startStack({ realtime: true, apiAsAppUrl: true, env: { OUTBOX_POLL_MS: "50", SIMULATOR_DELAY_MS: "50" } });
  redis = openRedis(stack.redisUrl);
  const owner = await liveOwner(stack);
  ({ token, accountId } = owner);
  stopSocket = async () => {
    await owner.socket.close();
  };
  phoneNumberId = `1${digits(14)}`;
  wabaId = `2${digits(14)}`;
  const res = await as("/api/whatsapp/numbers", {
    body: { phone_number_id: phoneNumberId, waba_id: wabaId, access_token: `EAAG${digits(20)}`, app_secret: simulatedAppSecret(stack.env.SIMULATOR_API_KEY ?? "") },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  numberId = res.body.data.id;
}, 120_000);

afterAll(async () => {
  await stopSocket?.().catch(() => undefined);
  await redis?.quit();
  await stack?.stop();
});

describe("WhatsApp rooms", () => {
  it("a contact's message opens a room in the queue, named by the number and the contact, with their WhatsApp name; the window opens", async () => {
    const from = contact();
    const room = await openRoom(from, "Oi, quero saber do meu pedido", { name: "Joana Prado" });
    expect(room).toMatchObject({ channel: "whatsapp", external_id: `${numberId}:${from}`, username: "Joana Prado", phone: from });
    const [m] = await liveMessages(room.id);
    expect(m).toMatchObject({ author: "visitor", body: "Oi, quero saber do meu pedido" });
    expect(m.external_id).toMatch(/^wamid\./);
    // Also the inbound WhatsApp message of the history, and the contact's window.
    const inbound = await stack.query(`SELECT 1 FROM messages WHERE account_id = $1 AND channel = 'whatsapp' AND direction = 'inbound' AND sender = $2`, [accountId, from]);
    expect(inbound).toHaveLength(1);
    const w = await as(`/api/whatsapp/window?number_id=${numberId}&to=${encodeURIComponent(from)}`);
    expect(w.body.data.open).toBe(true);
    expect((await as(`/api/whatsapp/rooms/${room.id}/composer`)).body.data.window.open).toBe(true);
    // Not a WhatsApp room, or not one of the account's: 404.
    expect((await as(`/api/whatsapp/rooms/00000000-0000-4000-8000-000000000000/composer`)).status).toBe(404);
  });

  it("a photo is fetched through Graph's media API and kept as the message's image; its caption is the text", async () => {
    const from = contact();
    const room = await openRoom(from, "a nota fiscal", { media: { type: "image", data: PNG.toString("base64"), mime_type: "image/png" } });
    const [m] = await liveMessages(room.id);
    expect(m.body).toBe("a nota fiscal");
    expect(m.attachments[0]).toMatchObject({ type: "image", media_type: "image/png", size: PNG.length });
    const file = await fetch(new URL(m.attachments[0].uri, stack.apiUrl), { headers: { Authorization: `Bearer ${token}` } });
    expect(file.status).toBe(200);
    expect(Buffer.from(await file.arrayBuffer()).equals(PNG)).toBe(true);
  });

  it("the agent's reply in the window is a WhatsApp message of the pipeline: sent to Graph once, priced as service, and its delivered and read statuses reach the room", async () => {
    const from = contact();
    const room = await openRoom(from);
    const sent = await as("/api/omni/messages", { body: { room_id: room.id, message: "Olá Joana! Seu pedido sai hoje.", client_id: "reply-1" } });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const [live] = await stack.query<{ message_id: string }>(`SELECT message_id FROM live_messages WHERE id = $1`, [sent.body.id]);
    expect(live.message_id).toBeTruthy();
    const [msg] = await stack.query<Record<string, any>>(`SELECT * FROM messages WHERE id = $1`, [live.message_id]);
    expect(msg).toMatchObject({ channel: "whatsapp", direction: "outbound", sender: phoneNumberId, recipient: from, type: "text", body: "Olá Joana! Seu pedido sai hoje." });
    expect(Number(msg.price)).toBe(0);
    // The same client id again answers the same message: nothing written twice.
    const again = await as("/api/omni/messages", { body: { room_id: room.id, message: "Olá Joana! Seu pedido sai hoje.", client_id: "reply-1" } });
    expect(again.body.id).toBe(sent.body.id);
    const read = await waitUntil("read in the room", async () => {
      const [m] = await stack.query<{ status: string; delivered_at: Date | null; read_at: Date | null }>(`SELECT status, delivered_at, read_at FROM live_messages WHERE id = $1`, [
        sent.body.id,
      ]);
      return m.status === "READ" ? m : undefined;
    });
    expect(read.delivered_at).toBeTruthy();
    expect(read.read_at).toBeTruthy();
    const out = await peerSent(from);
    expect(out).toHaveLength(1);
    expect(out[0]).toMatchObject({ type: "text", content: { type: "text", text: { body: "Olá Joana! Seu pedido sai hoje." } } });
    // The room hears the newest status: "read" always; "delivered" too unless both receipts came in
    // one flush, where only the last is announced (read implies delivered: delivered_at is set above).
    // Announced once the receipt's transaction committed (api/live/pipeline.ts): just after the row moved.
    const events = await waitUntil("the read event", async () => {
      const all = (await roomLiveEvents(redis, stack, accountId, room.id)).map((e) => e.event);
      return all.includes("read") ? all : undefined;
    });
    expect(events.indexOf("delivered") === -1 || events.indexOf("delivered") < events.indexOf("read")).toBe(true);
    const [final] = await stack.query<{ status: string }>(`SELECT status FROM messages WHERE id = $1`, [live.message_id]);
    expect(final.status).toBe("read");
  });

  it("the agent reading the room marks the contact's message read at Meta (the blue ticks)", async () => {
    const from = contact();
    const room = await openRoom(from, "Alguém aí?");
    const [m] = await liveMessages(room.id);
    const res = await as(`/api/omni/rooms/${room.id}/read`, { method: "POST" });
    expect(res.status).toBe(200);
    await waitUntil("read at the peer", async () => ((await sim("/whatsapp/_sim/reads")).body.data as Array<{ message_id: string }>).find((r) => r.message_id === m.external_id));
  });

  it("outside the 24-hour window free text is refused with the reason, nothing written; an approved template goes, priced by its category and debited", async () => {
    const from = contact();
    const room = await openRoom(from);
    await stack.query(`UPDATE whatsapp_windows SET last_inbound_at = now() - interval '25 hours' WHERE number_id = $1 AND contact = $2`, [numberId, from]);
    const before = await stack.query(`SELECT 1 FROM messages WHERE account_id = $1 AND recipient = $2`, [accountId, from]);
    const refused = await as("/api/omni/messages", { body: { room_id: room.id, message: "Ainda está aí?" }, lang: "pt-BR" });
    expect(refused.status).toBe(422);
    expect(refused.body.error.fields.template[0]).toBe("Informe um template antes de enviar (a janela de 24 horas do contato está fechada)");
    expect(await stack.query(`SELECT 1 FROM messages WHERE account_id = $1 AND recipient = $2`, [accountId, from])).toHaveLength(before.length);
    expect(await liveMessages(room.id)).toHaveLength(1);

    const created = await as("/api/whatsapp/templates", {
      body: {
        number_id: numberId,
        name: `retorno_${digits(6)}`,
        category: "utility",
        language: "pt_BR",
        body: "Olá {{1}}, podemos continuar seu atendimento?",
        body_examples: ["Ana"],
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const templateId = created.body.data.id;
    await waitUntil("template approved", async () => (await as(`/api/whatsapp/templates/${templateId}`)).body.data.status === "approved" || undefined);
    // The composer is told the window is closed and which templates it can send.
    const composer = await as(`/api/whatsapp/rooms/${room.id}/composer`);
    expect(composer.status).toBe(200);
    expect(composer.body.data).toMatchObject({ number: { id: numberId }, contact: from, window: { open: false } });
    expect(composer.body.data.templates).toContainEqual(
      expect.objectContaining({ id: templateId, category: "utility", body: "Olá {{1}}, podemos continuar seu atendimento?", variables: 1 }),
    );
    const wallet = await balance();
    const sent = await as("/api/omni/messages", { body: { room_id: room.id, template: { id: templateId, variables: ["Joana"] } } });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    expect(sent.body.body).toBe("Olá Joana, podemos continuar seu atendimento?");
    const [msg] = await stack.query<Record<string, any>>(`SELECT m.* FROM messages m JOIN live_messages l ON l.message_id = m.id WHERE l.id = $1`, [sent.body.id]);
    expect(msg).toMatchObject({ type: "template", recipient: from });
    expect(Number(msg.price)).toBeGreaterThan(0);
    expect(await balance()).toBe(wallet - Number(msg.price));
    const out = await waitUntil("template at the peer", async () => (await peerSent(from)).find((s) => s.type === "template"));
    expect(out.content.template).toMatchObject({
      name: created.body.data.name,
      language: { code: "pt_BR" },
      components: [{ type: "body", parameters: [{ type: "text", text: "Joana" }] }],
    });
    // A template with a variable missing names it.
    const missing = await as("/api/omni/messages", { body: { room_id: room.id, template: { id: templateId, variables: [] } } });
    expect(missing.status).toBe(422);
    expect(Object.keys(missing.body.error.fields)).toEqual(["template.variables"]);
  });

  it("a message Meta fails turns FAIL in the room with Meta's reason; the agent is told", async () => {
    const from = `+5511${digits(5)}0001`;
    const room = await openRoom(from);
    const sent = await as("/api/omni/messages", { body: { room_id: room.id, message: "Vai falhar" } });
    expect(sent.status).toBe(200);
    const failed = await waitUntil("failed in the room", async () => {
      const [m] = await stack.query<{ status: string; error: string | null }>(`SELECT status, error FROM live_messages WHERE id = $1`, [sent.body.id]);
      return m.status === "FAIL" ? m : undefined;
    });
    expect(failed.error).toBe("Message undeliverable");
    // The agents are told once the receipt's transaction committed (api/live/pipeline.ts): just after the row moved.
    await waitUntil("the failed event", async () => (await roomLiveEvents(redis, stack, accountId, room.id)).some((e) => e.event === "failed"));
  });

  it("a contact who opted out (SAIR) is not written to: the agent's message is refused and the keyword opens no conversation", async () => {
    const from = contact();
    const room = await openRoom(from);
    expect((await contactWrites(from, "SAIR")).status).toBe(202);
    await waitUntil("opted out", async () => (await stack.query(`SELECT 1 FROM optouts WHERE account_id = $1 AND recipient = $2 AND channel = 'whatsapp'`, [accountId, from]))[0]);
    expect((await liveMessages(room.id)).map((m) => m.body)).toEqual(["Oi, quero saber do meu pedido"]);
    const refused = await as("/api/omni/messages", { body: { room_id: room.id, message: "Tem certeza?" }, lang: "en" });
    expect(refused.status).toBe(422);
    expect(refused.body.error.fields.body[0]).toBe("This contact opted out of WhatsApp messages (or is on the deny list)");
  });

  it("an agent's file goes as Graph's media object by a signed link of ours, with the text as its caption", async () => {
    const from = contact();
    const room = await openRoom(from);
    const form = new FormData();
    form.set("id_room", room.id);
    form.set("message", "segue a foto");
    form.set("file", new Blob([PNG], { type: "image/png" }), "foto.png");
    const res = await fetch(new URL("/api/webchat/upload", stack.apiUrl), { method: "POST", headers: { Authorization: `Bearer ${token}` }, body: form });
    expect(res.status, await res.clone().text()).toBe(200);
    const out = await waitUntil("image at the peer", async () => (await peerSent(from)).find((s) => s.type === "image"));
    expect(out.content.image.caption).toBe("segue a foto");
    // The link is ours, signed: it answers the very bytes without a session.
    const link = new URL(out.content.image.link);
    const file = await fetch(new URL(`${link.pathname}${link.search}`, stack.apiUrl));
    expect(file.status).toBe(200);
    expect(Buffer.from(await file.arrayBuffer()).equals(PNG)).toBe(true);
  });
});

describe("WhatsApp rooms of the older integration (an On-Premises client)", () => {
  let client: string;
  let onpremId: string;
  beforeAll(async () => {
    client = `5511${digits(9)}`;
    const res = await as("/api/whatsapp/numbers", {
      body: {
        integration: "onprem",
        base_url: `${stack.simulatorUrl}/whatsapp-onprem/${client}`,
        username: ONPREM_SIM_USERNAME,
        password: ONPREM_SIM_PASSWORD,
        phone_number: `+${client}`,
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    onpremId = res.body.data.id;
  });

  it("a contact's photo is fetched from the client's media API into the room; reading the room marks it read at the client", async () => {
    const from = contact();
    const posted = await sim(`/whatsapp-onprem/_sim/${client}/inbound`, {
      from,
      text: "o comprovante",
      media: { type: "image", data: PNG.toString("base64"), mime_type: "image/png" },
    });
    expect(posted.status, JSON.stringify(posted.body)).toBe(202);
    const room = await assignedRoom(from, onpremId);
    const [m] = await liveMessages(room.id);
    expect(m).toMatchObject({ author: "visitor", body: "o comprovante", external_id: posted.body.id });
    expect(m.attachments[0]).toMatchObject({ type: "image", media_type: "image/png", size: PNG.length });
    const file = await fetch(new URL(m.attachments[0].uri, stack.apiUrl), { headers: { Authorization: `Bearer ${token}` } });
    expect(Buffer.from(await file.arrayBuffer()).equals(PNG)).toBe(true);

    expect((await as(`/api/omni/rooms/${room.id}/read`, { method: "POST" })).status).toBe(200);
    await waitUntil("read at the client", async () =>
      ((await sim(`/whatsapp-onprem/_sim/${client}/reads`)).body.data as Array<{ id: string }>).find((r) => r.id === posted.body.id),
    );
  });
});
