/**
 * RCS through Google's RBM (issue 21, ADR 055), against the simulator's loopback RBM peer
 * (api/simulator/rbm.ts) and the run's real processes: the RBM adapter (api/channels/rcs/rbm.ts)
 * asks a number's capability once and keeps it, sends each content as RBM's contentMessages
 * (cards, carousels, media with a caption as two agent messages), fails a number that is not
 * RCS-capable with RCS_NOT_CAPABLE (refunded) and, when the account falls back to SMS, writes one
 * SMS leg of its plain text; the peer's signed DELIVERED and READ move the message forward only;
 * a post with a wrong X-Goog-Signature changes nothing; a user's text and tapped suggestion are
 * recorded as inbound RCS messages, sent to the customer's webhook, and an opt-out keyword opts
 * the number out of RCS.
 */
import { createHmac, randomUUID } from "node:crypto";
import { spawnSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { simulatedRbmClientToken } from "../../api/channels/rcs/rbm-config";
import { rcsContentSchema, toRbm, type RcsContent } from "../../api/rcs/content";
import { api, login, registerPerson } from "../support/api";
import { query } from "../support/db";
import { startRecordingPeer, type RecordingPeer } from "../support/loopback-peer";
import { giveOmni, makeRcsAgent } from "../support/factories";
import { mobileNumber } from "../support/factories/messages";

const key = () => inject("simulatorApiKey");
const sim = async <T = any>(path: string, body?: unknown): Promise<{ status: number; body: T }> => {
  const res = await fetch(new URL(path, inject("simulatorUrl")), {
    method: body === undefined ? "GET" : "POST",
    headers: { Authorization: `Bearer ${key()}`, ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as T };
};

/** A content as the accept stores it (validated: defaults filled). */
const rc = (v: Record<string, unknown>): RcsContent => rcsContentSchema.parse(v);

let accountId: string;
let token: string;
let agent: { id: string; rbm: string };
let hooks: RecordingPeer;

/** An RCS message through the accept (POST /api/rcs/messages): queued for the dispatcher, priced by class. */
async function sendRcs(to: string, content: Record<string, unknown>, extra: Record<string, unknown> = {}): Promise<string> {
  const res = await api("/api/rcs/messages", { token, body: { agent_id: agent.id, to, content, ...extra } });
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  return res.body.data.id;
}

const messageRow = async (id: string) =>
  (
    await query<{ status: string; error_code: string | null; delivered_at: Date | null; read_at: Date | null }>(
      "SELECT status, error_code, delivered_at, read_at FROM messages WHERE id = $1",
      [id],
    )
  )[0];
const statusOf = async (id: string) => (await messageRow(id))?.status;
const peerMessages = async (to: string) =>
  (await sim<{ data: Array<{ messageId: string; agentId: string; contentMessage: Record<string, unknown> }> }>(`/rbm/_sim/messages?to=${encodeURIComponent(to)}`)).body.data;

/** An RBM webhook post as Google makes it (push envelope, X-Goog-Signature over the event JSON). */
async function postRbm(event: Record<string, unknown>, signWith: string | null = simulatedRbmClientToken(key())) {
  const data = Buffer.from(JSON.stringify(event));
  const raw = JSON.stringify({ message: { data: data.toString("base64"), messageId: "1", publishTime: new Date().toISOString(), attributes: {} }, subscription: "s" });
  const headers: Record<string, string> = { "Content-Type": "application/json" };
  if (signWith) headers["X-Goog-Signature"] = createHmac("sha512", signWith).update(data).digest("base64");
  const res = await fetch(new URL("/api/webhooks/rbm", inject("apiUrl")), { method: "POST", headers, body: raw });
  return { status: res.status, body: await res.json().catch(() => null) };
}

beforeAll(async () => {
  const p = await registerPerson("rcs");
  accountId = p.accountId;
  token = (await login(p.email, p.password)).token;
  await giveOmni(accountId);
  const made = await makeRcsAgent(accountId);
  agent = { id: made.id, rbm: made.rbmAgentId! };
  await query("UPDATE account_balances SET balance = 100000 WHERE account_id = $1", [accountId]);
  hooks = await startRecordingPeer((_call, reply) => reply.send(200, { ok: true }));
  const endpoint = await api("/api/webhooks", { token, body: { url: `${hooks.url}/hooks`, events: ["message.received"], description: "rcs" } });
  expect(endpoint.status, JSON.stringify(endpoint.body)).toBe(201);
});
afterAll(async () => hooks?.close());

describe("RBM adapter and peer", () => {
  it("sends a card, a carousel and a media with a caption in RBM's shape, asking the capability once; DELIVERED then READ apply", async () => {
    const to = mobileNumber();
    const card = rc({
      type: "card",
      messageText: "Oferta",
      messageDescription: "Só hoje",
      imageUrl: "https://loja.example/oferta.png",
      suggestions: [{ type: "url", text: "Comprar", url: "https://loja.example/comprar" }],
    });
    const carousel = rc({
      type: "card-carousel",
      images: [
        { title: "Um", uri: "https://loja.example/1.jpg", suggestions: [{ type: "reply", text: "Quero", postbackData: "um" }] },
        { title: "Dois", description: "Outro", uri: "https://loja.example/2.jpg" },
      ],
    });
    const midia = rc({ type: "midia", fileUrl: "https://loja.example/catalogo.pdf", messageText: "Nosso catálogo" });
    // The first message asks the capability; the next two find it in Redis.
    const ids = [await sendRcs(to, card)];
    await expect.poll(async () => (await peerMessages(to)).length, { timeout: 20_000 }).toBe(1);
    ids.push(await sendRcs(to, carousel), await sendRcs(to, midia));
    await expect.poll(async () => (await peerMessages(to)).length, { timeout: 20_000 }).toBe(4);
    const got = await peerMessages(to);
    const byId = new Map(got.map((m) => [m.messageId, m]));
    expect(got.every((m) => m.agentId === agent.rbm)).toBe(true);
    expect(byId.get(ids[0])?.contentMessage).toEqual(toRbm(card)[0]);
    const standalone = byId.get(ids[0])?.contentMessage.richCard as { standaloneCard: { cardContent: { media: { contentInfo: { fileUrl: string } } } } };
    expect(standalone.standaloneCard.cardContent.media.contentInfo.fileUrl).toBe("https://loja.example/oferta.png");
    expect(byId.get(ids[1])?.contentMessage).toEqual(toRbm(carousel)[0]);
    const carouselCard = byId.get(ids[1])?.contentMessage.richCard as { carouselCard: { cardContents: unknown[] } };
    expect(carouselCard.carouselCard.cardContents).toHaveLength(2);
    // A media with a caption: two agent messages, the second under `<id>-1`.
    expect(byId.get(ids[2])?.contentMessage).toEqual({ contentInfo: { fileUrl: "https://loja.example/catalogo.pdf", forceRefresh: false } });
    expect(byId.get(`${ids[2]}-1`)?.contentMessage).toEqual({ text: "Nosso catálogo" });
    // One capability question for three messages to the number (kept in Redis, RCS_CAPABILITY_TTL_S).
    expect((await sim(`/rbm/_sim/capabilities?msisdn=${encodeURIComponent(to)}`)).body.questions).toBe(1);
    for (const id of ids) await expect.poll(() => statusOf(id), { timeout: 20_000 }).toBe("read");
    const row = await messageRow(ids[0]);
    expect(row.delivered_at).not.toBeNull();
    expect(row.read_at).not.toBeNull();
    const events = await query<{ status: string }>("SELECT status FROM message_events WHERE message_id = $1 AND source = 'provider' ORDER BY id", [ids[0]]);
    expect(events.map((e) => e.status)).toEqual(["delivered", "read"]);
  });

  it("moves forward only: a late DELIVERED after READ and a repeated READ change nothing", async () => {
    const to = mobileNumber();
    const id = await sendRcs(to, { type: "text", messageText: "Olá" });
    await expect.poll(() => statusOf(id), { timeout: 20_000 }).toBe("read");
    const late = await postRbm({ agentId: agent.rbm, senderPhoneNumber: to, eventType: "DELIVERED", eventId: randomUUID(), messageId: id, sendTime: new Date().toISOString() });
    expect(late.status).toBe(200);
    expect(late.body.result).toMatch(/unchanged|duplicate/);
    const again = await postRbm({ agentId: agent.rbm, senderPhoneNumber: to, eventType: "READ", eventId: randomUUID(), messageId: id, sendTime: new Date().toISOString() });
    expect(again.body.result).toBe("duplicate");
    expect(await statusOf(id)).toBe("read");
  });

  it("refuses a post whose X-Goog-Signature is wrong or missing, applying nothing", async () => {
    const to = mobileNumber();
    const [row] = await query<{ id: string }>(
      `INSERT INTO messages (account_id, channel, direction, sender, recipient, body, segments, status, provider, provider_message_id, price, currency, type, content, sent_at)
       VALUES ($1, 'rcs', 'outbound', $2, $3, 'x', 1, 'sent', 'rbm', NULL, 0, 'BRL', 'text', '{"type":"text","messageText":"x"}', now()) RETURNING id`,
      [accountId, agent.rbm, to],
    );
    const event = { agentId: agent.rbm, senderPhoneNumber: to, eventType: "DELIVERED", eventId: randomUUID(), messageId: row.id, sendTime: new Date().toISOString() };
    expect((await postRbm(event, "not-the-client-token")).status).toBe(401);
    expect((await postRbm(event, null)).status).toBe(401);
    const text = { agentId: agent.rbm, senderPhoneNumber: to, messageId: randomUUID(), sendTime: new Date().toISOString(), text: "oi" };
    expect((await postRbm(text, "wrong")).status).toBe(401);
    expect(await statusOf(row.id)).toBe("sent");
    expect(await query("SELECT 1 FROM messages WHERE account_id = $1 AND direction = 'inbound' AND sender = $2", [accountId, to])).toHaveLength(0);
  });

  it("fails a number that is not RCS-capable with RCS_NOT_CAPABLE (refunded) and, with the fallback off, writes no SMS", async () => {
    await query("UPDATE accounts SET rcs_fallback_sms = false WHERE id = $1", [accountId]);
    const to = `+55119${String(Math.floor(Math.random() * 1000)).padStart(4, "0")}0000`;
    const id = await sendRcs(to, { type: "text", messageText: "Sem RCS" });
    await expect.poll(() => statusOf(id), { timeout: 20_000 }).toBe("failed");
    expect((await messageRow(id)).error_code).toBe("RCS_NOT_CAPABLE");
    const refunds = await query("SELECT 1 FROM message_events WHERE message_id = $1 AND status = 'refund'", [id]);
    expect(refunds).toHaveLength(1);
    expect(await peerMessages(to)).toHaveLength(0);
    // The dispatcher is done with it (afterFailure ran): no SMS leg.
    await expect.poll(async () => (await query("SELECT 1 FROM outbox WHERE payload->>'message_id' = $1 AND published_at IS NULL", [id])).length).toBe(0);
    expect(await query("SELECT 1 FROM messages WHERE fallback_of = $1", [id])).toHaveLength(0);
  });

  it("with the fallback on (the request's fallback_sms over the account's setting), writes ONE SMS of the plain text, priced as SMS, even when the fallback runs again", async () => {
    const to = `+55219${String(Math.floor(Math.random() * 10000)).padStart(4, "0")}0000`;
    const content = rc({ type: "link", messageText: "Veja a oferta", suggestions: [{ type: "url", text: "Abrir", url: "https://loja.example/o" }] });
    const id = await sendRcs(to, content, { fallback_sms: true });
    await expect.poll(() => statusOf(id), { timeout: 20_000 }).toBe("failed");
    expect((await messageRow(id)).error_code).toBe("RCS_NOT_CAPABLE");
    await expect.poll(async () => (await query("SELECT id FROM messages WHERE fallback_of = $1", [id])).length, { timeout: 20_000 }).toBe(1);
    const [sms] = await query<{ id: string; channel: string; recipient: string; body: string; price: string; sender: string }>(
      "SELECT id, channel, recipient, body, price, sender FROM messages WHERE fallback_of = $1",
      [id],
    );
    expect(sms).toMatchObject({ channel: "sms", recipient: to, body: "Veja a oferta\nhttps://loja.example/o", sender: "" });
    expect(Number(sms.price)).toBeGreaterThan(0);
    // The fallback again (a redelivered entry, a retried afterFailure), with the message as stored: still one leg.
    const [stored] = await query<{ content: unknown }>("SELECT content FROM messages WHERE id = $1", [id]);
    const again = spawnSync(
      "bun",
      [
        "-e",
        `const { sendSmsFallback } = await import("./api/rcs/fallback.ts"); console.log(await sendSmsFallback(${JSON.stringify({ id, accountId, recipient: to, body: "", content: stored.content })})); process.exit(0);`,
      ],
      { cwd: process.cwd(), env: { ...process.env, DATABASE_URL: inject("databaseUrl"), REDIS_PREFIX: inject("redisPrefix") }, encoding: "utf8" },
    );
    expect(again.status, again.stderr).toBe(0);
    expect(again.stdout.trim().split("\n").pop()).toBe(sms.id);
    expect(await query("SELECT 1 FROM messages WHERE fallback_of = $1", [id])).toHaveLength(1);
  });
});

describe("a user writing to the agent", () => {
  it("records a text as an inbound RCS message and sends it to the customer's webhook", async () => {
    const from = mobileNumber();
    const res = await sim(`/rbm/users/${encodeURIComponent(from)}/messages`, { agentId: agent.rbm, text: "Qual o horário?" });
    expect(res.status).toBe(202);
    await expect
      .poll(async () => (await query("SELECT 1 FROM messages WHERE account_id = $1 AND direction = 'inbound' AND channel = 'rcs' AND sender = $2", [accountId, from])).length, {
        timeout: 20_000,
      })
      .toBe(1);
    const [m] = await query<{ recipient: string; body: string; status: string; provider: string }>(
      "SELECT recipient, body, status, provider FROM messages WHERE account_id = $1 AND direction = 'inbound' AND sender = $2",
      [accountId, from],
    );
    expect(m).toMatchObject({ recipient: agent.rbm, body: "Qual o horário?", status: "received", provider: "rbm" });
    await expect.poll(() => hooks.calls.filter((c) => c.json?.data?.from === from).length, { timeout: 20_000 }).toBe(1);
    expect(hooks.calls.find((c) => c.json?.data?.from === from)?.json).toMatchObject({
      type: "message.received",
      data: { channel: "rcs", from, to: agent.rbm, body: "Qual o horário?" },
    });
    // And it is a conversation of the live queue: the room of the agent and the handset, with the text.
    await expect
      .poll(
        async () =>
          (
            await query<{ body: string }>(
              `SELECT l.body FROM live_messages l JOIN live_rooms r ON r.id = l.room_id WHERE r.account_id = $1 AND r.channel = 'rcs' AND r.external_id = $2`,
              [accountId, `${agent.id}:${from}`],
            )
          ).map((r) => r.body),
        { timeout: 20_000 },
      )
      .toEqual(["Qual o horário?"]);
  });

  it("records a tapped suggestion with its postbackData (stored and in the webhook), once even when redelivered", async () => {
    const from = mobileNumber();
    const messageId = randomUUID();
    const event = {
      agentId: agent.rbm,
      senderPhoneNumber: from,
      messageId,
      sendTime: new Date().toISOString(),
      suggestionResponse: { postbackData: "pedido:42", text: "Ver pedido", type: "REPLY" },
    };
    expect((await postRbm(event)).body.result).toBe("received");
    expect((await postRbm(event)).body.result).toBe("duplicate");
    const rows = await query<{ body: string; content: any }>("SELECT body, content FROM messages WHERE account_id = $1 AND direction = 'inbound' AND sender = $2", [
      accountId,
      from,
    ]);
    expect(rows).toHaveLength(1);
    expect(rows[0].body).toBe("Ver pedido");
    expect(rows[0].content.suggestionResponse.postbackData).toBe("pedido:42");
    await expect.poll(() => hooks.calls.filter((c) => c.json?.data?.from === from).length, { timeout: 20_000 }).toBe(1);
    expect(hooks.calls.find((c) => c.json?.data?.from === from)?.json.data).toMatchObject({ channel: "rcs", body: "Ver pedido", postback_data: "pedido:42" });
  });

  it("honours an opt-out keyword: the number is opted out of RCS", async () => {
    const from = mobileNumber();
    expect((await sim(`/rbm/users/${encodeURIComponent(from)}/messages`, { agentId: agent.rbm, text: "sair" })).status).toBe(202);
    await expect
      .poll(async () => (await query("SELECT source, keyword FROM optouts WHERE account_id = $1 AND channel = 'rcs' AND recipient = $2", [accountId, from])).length, {
        timeout: 20_000,
      })
      .toBe(1);
    expect(await query("SELECT 1 FROM optouts WHERE account_id = $1 AND channel = 'sms' AND recipient = $2", [accountId, from])).toHaveLength(0);
  });

  it("answers a text equal to one of the agent's active keywords (any case) with the keyword's answer, as an RCS message through the pipeline", async () => {
    await query("INSERT INTO rcs_keywords (account_id, agent_id, keyword, answer) VALUES ($1, $2, 'Horario', 'Abrimos às 9h'), ($1, $2, 'inativo', 'Nunca')", [
      accountId,
      agent.id,
    ]);
    await query("UPDATE rcs_keywords SET active = false WHERE agent_id = $1 AND keyword = 'inativo'", [agent.id]);
    const from = mobileNumber();
    expect((await sim(`/rbm/users/${encodeURIComponent(from)}/messages`, { agentId: agent.rbm, text: "HORARIO" })).status).toBe(202);
    await expect.poll(async () => (await peerMessages(from)).map((m) => m.contentMessage), { timeout: 20_000 }).toEqual([{ text: "Abrimos às 9h" }]);
    const [answer] = await query<{ id: string; sender: string; channel: string; content: { messageText: string } }>(
      "SELECT id, sender, channel, content FROM messages WHERE account_id = $1 AND direction = 'outbound' AND recipient = $2",
      [accountId, from],
    );
    expect(answer).toMatchObject({ sender: agent.rbm, channel: "rcs", content: { messageText: "Abrimos às 9h" } });
    await expect.poll(() => statusOf(answer.id), { timeout: 20_000 }).toBe("read");
    // The user's message is recorded too; an inactive keyword is not answered.
    expect(await query("SELECT 1 FROM messages WHERE account_id = $1 AND direction = 'inbound' AND sender = $2", [accountId, from])).toHaveLength(1);
    const other = mobileNumber();
    // Posted here: the answer comes after everything the post did.
    const inactive = await postRbm({ agentId: agent.rbm, senderPhoneNumber: other, messageId: randomUUID(), sendTime: new Date().toISOString(), text: "inativo" });
    expect(inactive.body.result).toBe("received");
    expect(await query("SELECT 1 FROM messages WHERE direction = 'outbound' AND recipient = $1", [other])).toHaveLength(0);
  });

  it("ignores an event of an agent nobody has", async () => {
    const res = await postRbm({ agentId: "nobody@rbm.goog", senderPhoneNumber: mobileNumber(), messageId: randomUUID(), sendTime: new Date().toISOString(), text: "oi" });
    expect(res).toMatchObject({ status: 200, body: { result: "ignored" } });
  });
});
