/**
 * A flow on WhatsApp (issue 20, ADR 054), on a private stack whose Cloud API is the simulator's
 * loopback Graph peer: a contact's message through the peer's signed webhook opens a BOT room; the
 * bot's messages are WhatsApp messages of the pipeline, as an agent's are (a `messages` row, priced
 * and debited, sent to Graph once; no live:outbound row), the choices numbered in the text; the
 * contact answers "1" and the flow goes on by the answer to the hand-off (QUEUE); a duplicate wake
 * sends nothing twice; without balance the bot's message is FAIL with the reason and the room goes
 * to the team; an opted-out contact's bot message is FAIL and the flow goes on.
 */
import type Redis from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { simulatedAppSecret } from "../../api/simulator/whatsapp-cloud";
import { makeLiveSettings } from "../support/factories/live";
import { waitUntil } from "../support/loopback-peer";
import { keysOf, openRedis } from "../support/redis";
import { startStack, type Stack } from "../support/stack";

const digits = (n: number) => Array.from({ length: n }, () => Math.floor(Math.random() * 10)).join("");
/** The account's price of a service message (in the window): the bot's text is priced as the agent's. */
const SERVICE_PRICE = 7;

let stack: Stack;
let redis: Redis;
let token: string;
let accountId: string;
let numberId: string;
let phoneNumberId: string;
let wabaId: string;

const as = (path: string, o: { method?: string; body?: unknown } = {}) => stack.api(path, { ...o, token });
const sim = async (path: string, body?: unknown) => {
  const res = await fetch(new URL(path, stack.simulatorUrl), {
    method: body === undefined ? "GET" : "POST",
    headers: { Authorization: `Bearer ${stack.env.SIMULATOR_API_KEY}`, "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
};
const contactWrites = async (from: string, text: string) =>
  expect((await sim("/whatsapp/_sim/inbound", { waba_id: wabaId, phone_number_id: phoneNumberId, from, text })).status).toBe(202);
const contact = () => `+5511${digits(9).replace(/0001$/, "0002")}`;
const roomOf = async (from: string) =>
  (await stack.query<Record<string, any>>(`SELECT * FROM live_rooms WHERE account_id = $1 AND channel = 'whatsapp' AND external_id = $2`, [accountId, `${numberId}:${from}`]))[0];
const botMessages = (roomId: string) => stack.query<Record<string, any>>(`SELECT * FROM live_messages WHERE room_id = $1 AND author = 'bot' ORDER BY created_at, id`, [roomId]);
const botSaid = (roomId: string, n: number) =>
  waitUntil(`${n} bot messages`, async () => {
    const list = await botMessages(roomId);
    return list.length >= n ? list : undefined;
  });
const streamOf = async (roomId: string) => (await stack.query<Record<string, any>>(`SELECT * FROM flow_streams WHERE room_id = $1 ORDER BY started_at DESC LIMIT 1`, [roomId]))[0];
const peerSent = async (to: string) => (await sim(`/whatsapp/_sim/messages?to=${encodeURIComponent(to)}`)).body.data as Array<{ id: string; type: string; content: any }>;
const balance = async () => Number((await stack.query<{ balance: string }>(`SELECT balance FROM account_balances WHERE account_id = $1`, [accountId]))[0].balance);

beforeAll(async () => {
  stack = await startStack({ apiAsAppUrl: true, env: { OUTBOX_POLL_MS: "50", SIMULATOR_DELAY_MS: "50" } });
  redis = openRedis(stack.redisUrl);
  const login = await stack.api("/api/auth/login", { body: { email: "owner@demo.example", password: "Demo!Mensa#2026" } });
  expect(login.status).toBe(200);
  token = login.body.token;
  [{ accountId }] = await stack.query<{ accountId: string }>(
    `SELECT m.account_id AS "accountId" FROM memberships m JOIN users u ON u.id = m.user_id WHERE u.email = 'owner@demo.example' LIMIT 1`,
  );
  // Nobody attends: a handed-off room stays in the queue.
  await makeLiveSettings(accountId, { defaultCapacity: 50 }, stack.query);
  phoneNumberId = `1${digits(14)}`;
  wabaId = `2${digits(14)}`;
  const res = await as("/api/whatsapp/numbers", {
    body: { phone_number_id: phoneNumberId, waba_id: wabaId, access_token: `EAAG${digits(20)}`, app_secret: simulatedAppSecret(stack.env.SIMULATOR_API_KEY ?? "") },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  numberId = res.body.data.id;
  await stack.query(
    `INSERT INTO whatsapp_prices (account_id, route, price_per_segment, currency) VALUES ($1, 'service', $2, 'BRL')
     ON CONFLICT (account_id, route) DO UPDATE SET price_per_segment = EXCLUDED.price_per_segment`,
    [accountId, SERVICE_PRICE],
  );
  await stack.query(`UPDATE customer_products SET status = 'cancelled' WHERE account_id = $1 AND channel = 'whatsapp'`, [accountId]).catch(() => undefined);
  const flow = await as("/api/flow/flows", {
    body: {
      name: "Bot do WhatsApp",
      channel: "whatsapp",
      trigger: "inbound",
      draft: {
        nodes: [
          { id: "start", type: "start", data: {} },
          { id: "ask", type: "question", data: { text: "Quer falar com uma pessoa?", check: "choice", choices: ["Sim", "Não"], store: { kind: "variable", name: "quer" } } },
          { id: "cond", type: "condition", data: { rules: [{ id: "sim", subject: "variable", name: "quer", op: "equals", value: "Sim" }] } },
          { id: "hand", type: "handoff", data: { message: "Um momento, {{quer}} é com a equipe" } },
          { id: "bye", type: "end", data: { message: "Até logo" } },
        ],
        edges: [
          { id: "e1", source: "start", output: "next", target: "ask" },
          { id: "e2", source: "ask", output: "answer", target: "cond" },
          { id: "e3", source: "cond", output: "sim", target: "hand" },
          { id: "e4", source: "cond", output: "else", target: "bye" },
        ],
      },
    },
  });
  expect(flow.status, JSON.stringify(flow.body)).toBe(201);
  const pub = await as(`/api/flow/flows/${flow.body.data.id}/publish`, { method: "POST" });
  expect(pub.status, JSON.stringify(pub.body)).toBe(200);
}, 120_000);

afterAll(async () => {
  await redis?.quit();
  await stack?.stop();
});

describe("a flow on WhatsApp", () => {
  it("opens a BOT room; the bot's question is a priced WhatsApp message sent once; '1' answers it; the hand-off queues the room; a duplicate wake sends nothing", async () => {
    const from = contact();
    await stack.query(`UPDATE account_balances SET balance = 10000 WHERE account_id = $1`, [accountId]);
    const wallet = await balance();
    await contactWrites(from, "Oi");
    const room = await waitUntil("BOT room", async () => {
      const r = await roomOf(from);
      return r?.status === "BOT" ? r : undefined;
    });
    const [question] = await botSaid(room.id, 1);
    expect(question).toMatchObject({ status: "SENT", body: "Quer falar com uma pessoa?\n\n1. Sim\n2. Não", suggestions: ["Sim", "Não"] });
    expect(question.message_id).toBeTruthy();
    const [msg] = await stack.query<Record<string, any>>(`SELECT * FROM messages WHERE id = $1`, [question.message_id]);
    expect(msg).toMatchObject({ channel: "whatsapp", direction: "outbound", sender: phoneNumberId, recipient: from, type: "text", body: question.body });
    expect(Number(msg.price)).toBe(SERVICE_PRICE);
    expect(await balance()).toBe(wallet - SERVICE_PRICE);
    // Not through the live outbound worker (it has no WhatsApp send).
    expect(await stack.query(`SELECT 1 FROM outbox WHERE topic = 'live:outbound' AND payload->>'message_id' = $1`, [question.id])).toHaveLength(0);
    // The bot's audit entry names no user.
    const [audit] = await stack.query<{ user_id: string | null }>(`SELECT user_id FROM audit_logs WHERE action = 'whatsapp.accepted' AND meta->>'id' = $1`, [msg.id]);
    expect(audit).toEqual({ user_id: null });
    const out = await waitUntil("question at the peer", async () => {
      const list = await peerSent(from);
      return list.length ? list : undefined;
    });
    expect(out[0]).toMatchObject({ type: "text", content: { text: { body: "Quer falar com uma pessoa?\n\n1. Sim\n2. Não" } } });

    // The same wake announced again changes nothing.
    const stream = await streamOf(room.id);
    const shard = keysOf(stack.redisPrefix).jobStreamFor("flows:events", stream.id);
    await redis.xadd(shard, "*", "stream_id", stream.id);
    await redis.xadd(shard, "*", "stream_id", stream.id);
    await expect.poll(async () => redis.xlen(shard), { timeout: 10_000 }).toBe(0);

    await contactWrites(from, "1");
    const handed = await waitUntil("handed off", async () => {
      const r = await roomOf(from);
      return r?.status === "QUEUE" ? r : undefined;
    });
    expect(handed.queued_at).toBeTruthy();
    const said = await botSaid(room.id, 2);
    expect(said.map((m) => m.body)).toEqual(["Quer falar com uma pessoa?\n\n1. Sim\n2. Não", "Um momento, Sim é com a equipe"]);
    // Sent (the first may be delivered or read by now), each as its pipeline message.
    expect(said.every((m) => m.status !== "FAIL" && m.message_id)).toBe(true);
    expect(await streamOf(room.id)).toMatchObject({ status: "handed_off" });
    const sent = await waitUntil("both at the peer", async () => {
      const list = await peerSent(from);
      return list.length >= 2 ? list : undefined;
    });
    expect(sent.map((s) => s.content.text.body)).toEqual(["Quer falar com uma pessoa?\n\n1. Sim\n2. Não", "Um momento, Sim é com a equipe"]);
    expect(await stack.query(`SELECT 1 FROM messages WHERE account_id = $1 AND recipient = $2 AND direction = 'outbound'`, [accountId, from])).toHaveLength(2);
    expect(await balance()).toBe(wallet - 2 * SERVICE_PRICE);
  });

  it("without balance the bot's message is FAIL with the reason, nothing is sent, and the room goes to the team", async () => {
    const from = contact();
    await stack.query(`UPDATE account_balances SET balance = 0 WHERE account_id = $1`, [accountId]);
    await stack.query(`UPDATE accounts SET credit_limit = 0 WHERE id = $1`, [accountId]);
    await contactWrites(from, "Oi");
    const room = await waitUntil("queued", async () => {
      const r = await roomOf(from);
      return r?.status === "QUEUE" ? r : undefined;
    });
    const [m] = await botSaid(room.id, 1);
    expect(m).toMatchObject({ status: "FAIL", error: "errors:INSUFFICIENT_BALANCE", message_id: null });
    expect(await streamOf(room.id)).toMatchObject({ status: "failed", reason: "errors:INSUFFICIENT_BALANCE" });
    expect(await stack.query(`SELECT 1 FROM messages WHERE account_id = $1 AND recipient = $2 AND direction = 'outbound'`, [accountId, from])).toHaveLength(0);
    expect(await balance()).toBe(0);
    expect(await peerSent(from)).toHaveLength(0);
  });

  it("an opted-out contact's bot message is FAIL with the reason and the flow goes on", async () => {
    const from = contact();
    await stack.query(`UPDATE account_balances SET balance = 10000 WHERE account_id = $1`, [accountId]);
    await stack.query(`INSERT INTO optouts (account_id, recipient, channel, source) VALUES ($1, $2, 'whatsapp', 'manual')`, [accountId, from]);
    await contactWrites(from, "Oi");
    const room = await waitUntil("BOT room", async () => {
      const r = await roomOf(from);
      return r?.status === "BOT" ? r : undefined;
    });
    const [m] = await botSaid(room.id, 1);
    expect(m).toMatchObject({ status: "FAIL", error: "validation.waContactBlocked", message_id: null });
    // The stream waits for the answer: the wake committed.
    await expect.poll(async () => (await streamOf(room.id))?.status, { timeout: 10_000 }).toBe("waiting");
    await contactWrites(from, "Não");
    await waitUntil("closed by the flow", async () => ((await roomOf(from))?.status === "CLOSED" ? true : undefined));
    expect((await botMessages(room.id)).map((x) => [x.body, x.status])).toEqual([
      ["Quer falar com uma pessoa?\n\n1. Sim\n2. Não", "FAIL"],
      ["Até logo", "FAIL"],
    ]);
    expect(await peerSent(from)).toHaveLength(0);
  });

  it("a contact answering a campaign of the last 72 hours starts the campaign-reply flow; after an older campaign, the inbound flow answers", async () => {
    await stack.query(`UPDATE account_balances SET balance = 10000 WHERE account_id = $1`, [accountId]);
    const reply = await as("/api/flow/flows", {
      body: {
        name: "Resposta à campanha",
        channel: "whatsapp",
        trigger: "campaign_reply",
        draft: {
          nodes: [
            { id: "start", type: "start", data: {} },
            { id: "thanks", type: "message", data: { text: "Obrigado por responder à nossa oferta!" } },
          ],
          edges: [{ id: "e1", source: "start", output: "next", target: "thanks" }],
        },
      },
    });
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    expect((await as(`/api/flow/flows/${reply.body.data.id}/publish`, { method: "POST" })).status).toBe(200);
    // What a WhatsApp campaign leaves behind: the campaign and its message to the contact, `hours` ago.
    const campaignTo = async (to: string, hours: number) => {
      const [c] = await stack.query<{ id: string }>(`INSERT INTO campaigns (account_id, channel, name, status) VALUES ($1, 'whatsapp', 'Oferta', 'completed') RETURNING id`, [
        accountId,
      ]);
      await stack.query(
        `INSERT INTO messages (account_id, channel, direction, sender, recipient, body, segments, status, provider, price, currency, type, campaign_id, created_at)
         VALUES ($1, 'whatsapp', 'outbound', $2, $3, 'Oferta da semana', 1, 'delivered', 'simulator', 0, 'BRL', 'template', $4, now() - make_interval(hours => $5))`,
        [accountId, phoneNumberId, to, c.id, hours],
      );
    };
    const recent = contact();
    await campaignTo(recent, 2);
    await contactWrites(recent, "Quero!");
    const room = await waitUntil("BOT room", async () => {
      const r = await roomOf(recent);
      return r?.status === "BOT" || r?.status === "CLOSED" ? r : undefined;
    });
    expect((await botSaid(room.id, 1))[0].body).toBe("Obrigado por responder à nossa oferta!");
    expect((await streamOf(room.id)).flow_id).toBe(reply.body.data.id);

    // A campaign older than the window: the inbound flow asks its question.
    const old = contact();
    await campaignTo(old, 80);
    await contactWrites(old, "Oi");
    const oldRoom = await waitUntil("BOT room", async () => {
      const r = await roomOf(old);
      return r?.status === "BOT" ? r : undefined;
    });
    expect((await botSaid(oldRoom.id, 1))[0].body).toBe("Quer falar com uma pessoa?\n\n1. Sim\n2. Não");
    expect((await streamOf(oldRoom.id)).flow_id).not.toBe(reply.body.data.id);
    await as("/api/flow/flows/status", { body: { ids: [reply.body.data.id], status: "inactive" } });
  });

  it("a flow's media message goes to WhatsApp as the public link Meta fetches, the text its caption", async () => {
    await stack.query(`UPDATE account_balances SET balance = 10000 WHERE account_id = $1`, [accountId]);
    const menu = await as("/api/flow/flows", {
      body: {
        name: "Cardápio",
        channel: "whatsapp",
        trigger: "keyword",
        trigger_value: "cardapio",
        draft: {
          nodes: [
            { id: "start", type: "start", data: {} },
            { id: "pic", type: "message", data: { text: "Nosso cardápio de hoje", media_url: "https://cdn.lojademo.com.br/cardapio-hoje.jpg" } },
          ],
          edges: [{ id: "e1", source: "start", output: "next", target: "pic" }],
        },
      },
    });
    expect(menu.status, JSON.stringify(menu.body)).toBe(201);
    expect((await as(`/api/flow/flows/${menu.body.data.id}/publish`, { method: "POST" })).status).toBe(200);
    const from = contact();
    await contactWrites(from, "Cardapio");
    const room = await waitUntil("a room", async () => roomOf(from));
    const [pic] = await botSaid(room.id, 1);
    expect(pic).toMatchObject({ status: expect.not.stringMatching(/^FAIL$/), error: null, attachments: [{ type: "image", uri: "https://cdn.lojademo.com.br/cardapio-hoje.jpg" }] });
    const [msg] = await stack.query<Record<string, any>>(`SELECT type, content FROM messages WHERE id = $1`, [pic.message_id]);
    expect(msg).toMatchObject({ type: "image", content: { image: { link: "https://cdn.lojademo.com.br/cardapio-hoje.jpg", caption: "Nosso cardápio de hoje" } } });
    const out = await waitUntil("the image at the peer", async () => {
      const list = await peerSent(from);
      return list.length ? list : undefined;
    });
    expect(out[0]).toMatchObject({ type: "image", content: { image: { link: "https://cdn.lojademo.com.br/cardapio-hoje.jpg", caption: "Nosso cardápio de hoje" } } });
    await as("/api/flow/flows/status", { body: { ids: [menu.body.data.id], status: "inactive" } });
  });
});
