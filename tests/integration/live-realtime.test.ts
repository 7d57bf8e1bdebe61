/**
 * Live chat end to end over the realtime service (issue 5): an agent's websocket (web session
 * ticket) and a widget visitor's websocket (the realtime token the widget gets) exchange messages
 * through the live commands, which run the same use-cases as the HTTP API; a visitor outside
 * opening hours leaves an offline contact.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { api, giveOmni, registerPerson } from "../support/api";
import { query } from "../support/db";
import { LiveClient, wsUrl } from "../support/live-client";
import { makeHoliday, makeLiveSettings, makeOpeningHours } from "../support/factories";

process.env.REDIS_URL = inject("redisUrl");
process.env.REDIS_PREFIX = inject("redisPrefix");
process.env.DATABASE_URL = inject("databaseUrl");
const { issueStreamTicket } = await import("../../api/realtime/tickets");
const { closeRedis } = await import("../../api/lib/redis");

let accountId: string;
let ownerId: string;
let widgetKey: string;
const clients: LiveClient[] = [];
const connect = (params: Record<string, string>) => {
  const c = new LiveClient(wsUrl(inject("realtimeUrl"), params));
  clients.push(c);
  return c;
};

/** The owner's agent socket, taking over one an earlier test left holding the presence. */
async function agentSocket() {
  const agent = connect({ ticket: await issueStreamTicket({ userId: ownerId, accountId }) });
  await agent.until((c) => c.frames.some((f) => f.type === "welcome" || f.type === "already_connected"), "welcome or already connected");
  if (!agent.frames.some((f) => f.type === "welcome")) agent.send({ type: "takeover" });
  await agent.welcome();
  return agent;
}

beforeAll(async () => {
  const owner = await registerPerson("live-rt");
  accountId = owner.accountId;
  ownerId = owner.userId;
  await giveOmni(accountId);
  widgetKey = await makeLiveSettings(accountId, { acceptanceOption: "manual" });
});

afterAll(async () => {
  for (const c of clients) await c.close().catch(() => undefined);
  await closeRedis();
});

describe("agent and visitor over websockets", () => {
  it("the visitor's message reaches the agent live; the agent takes the room and replies; the visitor sees it and reads it", async () => {
    const agent = connect({ ticket: await issueStreamTicket({ userId: ownerId, accountId }) });
    await agent.welcome();
    expect((await agent.command("s1", "status", { status: "AVAILABLE" })).ok).toBe(true);

    const first = await api(`/api/widget/${widgetKey}/messages`, { body: { name: "Maria Souza", email: "maria@example.com", message: "Boa tarde!" } });
    expect(first.status).toBe(200);
    const roomId = first.body.room.id as string;
    await agent.until((c) => c.events().some((e) => e.event === "send" && e.room_id === roomId), "the visitor's message on the agent's socket");

    const visitor = connect({ visitor: first.body.realtime_token });
    await visitor.welcome();
    const next = await agent.command("n1", "next", {});
    expect(next).toMatchObject({ ok: true, data: { id: roomId, status: "OPEN", agent_id: ownerId } });
    await visitor.until((c) => c.events().some((e) => e.event === "assigned"), "assigned on the visitor's socket");
    // The visitor's stream carries only what a visitor may see of the room (no tags, tabulation, contact).
    const assigned = visitor.events().find((e) => e.event === "assigned")!;
    expect(Object.keys(assigned.data.room).sort()).toEqual(["agent_id", "channel", "closed_at", "id", "protocol", "status"]);
    expect(agent.events().find((e) => e.event === "assigned")!.data.room).toHaveProperty("tags");

    const reply = await agent.command("m1", "send", { room_id: roomId, message: "Olá Maria, em que posso ajudar?", client_id: "rt-1" });
    expect(reply.ok).toBe(true);
    await visitor.until((c) => c.events().some((e) => e.event === "send" && e.data?.message?.body === "Olá Maria, em que posso ajudar?"), "the reply on the visitor's socket");

    // The visitor writes back over its socket and reads the reply.
    const back = await visitor.command("v1", "send", { message: "Meu pedido não chegou", client_id: "v-1" });
    expect(back).toMatchObject({ ok: true, data: { author: "visitor", body: "Meu pedido não chegou" } });
    await agent.until((c) => c.events().some((e) => e.event === "send" && e.data?.message?.body === "Meu pedido não chegou"), "the visitor's second message");
    expect((await visitor.command("v2", "read", {})).data).toEqual({ changed: 1 });
    await agent.until((c) => c.events().some((e) => e.event === "read" && e.data?.by === "visitor"), "read receipt on the agent's socket");

    // History through the socket: both sides' messages, oldest first.
    const history = await agent.command("h1", "send-historic", { room_id: roomId });
    expect(history.data.data.map((m: { body: string }) => m.body)).toEqual(["Boa tarde!", "Olá Maria, em que posso ajudar?", "Meu pedido não chegou"]);
    // The visitor edits and deletes their own message over the socket; the agent sees both live.
    const edited = await visitor.command("e1", "edit", { id: back.data.id, message: "Meu pedido chegou, obrigada" });
    expect(edited).toMatchObject({ ok: true, data: { id: back.data.id, body: "Meu pedido chegou, obrigada", edited: true } });
    await agent.until((c) => c.events().some((e) => e.event === "edited" && e.data?.message?.body === "Meu pedido chegou, obrigada"), "edited on the agent's socket");
    expect(await visitor.command("e2", "edit", { id: back.data.id, message: "   " })).toMatchObject({ ok: false, error: { code: "VALIDATION" } });
    // Someone else's message (the agent's reply) is not theirs: not found, unchanged.
    const agentMessage = history.data.data.find((m: { author: string }) => m.author === "agent");
    expect(await visitor.command("e3", "delete", { id: agentMessage.id })).toMatchObject({ ok: false, error: { code: "NOT_FOUND" } });
    expect((await query<{ status: string }>(`SELECT status FROM live_messages WHERE id = $1`, [agentMessage.id]))[0].status).not.toBe("DELETED");
    expect(await visitor.command("e4", "delete", { id: back.data.id })).toMatchObject({ ok: true, data: { status: "DELETED" } });
    await agent.until((c) => c.events().some((e) => e.event === "deleted" && e.data?.message?.id === back.data.id), "deleted on the agent's socket");
    // Agents have no such command.
    expect((await agent.command("e5", "delete", { id: back.data.id })).ok).toBe(false);
    // A visitor cannot run an agent's command; an agent's errors come back translated.
    expect((await visitor.command("v3", "close", { room_id: roomId })).ok).toBe(false);
    const closed = await agent.command("c1", "close", { room_id: roomId });
    expect(closed).toMatchObject({ ok: true, data: { status: "CLOSED" } });
    await visitor.until((c) => c.events().some((e) => e.event === "close"), "close on the visitor's socket");
    const again = await agent.command("c2", "close", { room_id: roomId });
    expect(again).toMatchObject({ ok: false, error: { code: "LIVE_ROOM_STATE" } });
    // The visitor's contact was created from the widget's e-mail.
    const [room] = await query<{ contact_id: string | null }>(`SELECT contact_id FROM live_rooms WHERE id = $1`, [roomId]);
    expect(room.contact_id).not.toBeNull();
  });

  it("a visitor's socket opened late from the reply's resume_from misses nothing written in between (first message and conversation)", async () => {
    const first = await api(`/api/widget/${widgetKey}/messages`, { body: { name: "Lenta", message: "Oi" } });
    expect(first.body.resume_from).toMatch(/^\d+-\d+$/);
    const roomId = first.body.room.id as string;
    // The agent takes the room and answers before the widget's socket is up.
    const agent = await agentSocket();
    expect((await agent.command("l1", "next", {})).ok).toBe(true);
    expect((await agent.command("l2", "send", { room_id: roomId, message: "Resposta rápida", client_id: "late-1" })).ok).toBe(true);
    const late = connect({ visitor: first.body.realtime_token, last: `room:${first.body.resume_from}` });
    await late.until((c) => c.events().some((e) => e.event === "send" && e.data?.message?.body === "Resposta rápida"), "the reply written before the socket");
    expect(late.events().some((e) => e.event === "assigned")).toBe(true);
    // Without a resume point the same socket starts at its own connection and sees none of it.
    const fresh = connect({ visitor: first.body.realtime_token });
    await fresh.welcome();

    // The conversation (a reloaded widget) hands out its own resume point, read before its data.
    const q = new URLSearchParams({ visitor_id: first.body.visitor_id, visitor_token: first.body.visitor_token });
    const conv = await api(`/api/widget/${widgetKey}/conversation?${q}`);
    expect(conv.status).toBe(200);
    expect(conv.body.resume_from).toMatch(/^\d+-\d+$/);
    expect((await agent.command("l3", "send", { room_id: roomId, message: "Depois da conversa", client_id: "late-2" })).ok).toBe(true);
    const reloaded = connect({ visitor: conv.body.realtime_token, last: `room:${conv.body.resume_from}` });
    await reloaded.until((c) => c.events().some((e) => e.data?.message?.body === "Depois da conversa"), "the message after the conversation's read");
    expect(reloaded.events().some((e) => e.data?.message?.body === "Resposta rápida")).toBe(false);
    // Signal for the socket without a resume point: this later message reached it, so whatever
    // came before would have too; it saw none of what was written before it connected.
    await fresh.until((c) => c.events().some((e) => e.data?.message?.body === "Depois da conversa"), "the later message on the fresh socket");
    expect(fresh.events().filter((e) => e.event === "assigned" || e.data?.message?.body === "Resposta rápida")).toEqual([]);
    expect((await agent.command("l4", "close", { room_id: roomId })).ok).toBe(true);
  });

  it("suggestion buttons: the agent offers up to 11 of up to 25 characters; the visitor gets them with the message; a tap is their answer", async () => {
    const first = await api(`/api/widget/${widgetKey}/messages`, { body: { name: "Botões", message: "Quero trocar um produto" } });
    const roomId = first.body.room.id as string;
    const agent = await agentSocket();
    expect((await agent.command("b0", "next", {})).ok).toBe(true);
    const visitor = connect({ visitor: first.body.realtime_token, last: `room:${first.body.resume_from}` });
    await visitor.welcome();

    // Too many, too long, or not a list: refused naming the field, translated, and nothing stored.
    const many = await agent.command("b1", "send", { room_id: roomId, message: "Escolha", suggestions: Array.from({ length: 12 }, (_, i) => `Opção ${i + 1}`) });
    expect(many).toMatchObject({ ok: false, error: { code: "VALIDATION", fields: { suggestions: ["No máximo 11 itens"] } } });
    const tooLong = await agent.command("b2", "send", { room_id: roomId, message: "Escolha", suggestions: ["x".repeat(26)] });
    expect(tooLong).toMatchObject({ ok: false, error: { code: "VALIDATION", fields: { suggestions: ["Cada item com até 25 caracteres"] } } });
    expect(await query(`SELECT 1 FROM live_messages WHERE room_id = $1 AND author = 'agent'`, [roomId])).toHaveLength(0);

    // Eleven of exactly 25 characters (blanks and repeats dropped) are fine.
    const eleven = Array.from({ length: 11 }, (_, i) => `Opção número ${String(i + 1).padStart(2, "0")} ok ok ok`.slice(0, 25));
    const sent = await agent.command("b3", "send", { room_id: roomId, message: "Qual destas?", suggestions: [...eleven, " ", eleven[0]], client_id: "sug-1" });
    expect(sent).toMatchObject({ ok: true, data: { suggestions: eleven } });
    await visitor.until((c) => c.events().some((e) => e.event === "send" && e.data?.message?.suggestions?.length === 11), "the suggestions on the visitor's socket");
    const q = new URLSearchParams({ visitor_id: first.body.visitor_id, visitor_token: first.body.visitor_token });
    const conv = await api(`/api/widget/${widgetKey}/conversation?${q}`);
    expect(conv.body.messages.at(-1)).toMatchObject({ author: "agent", suggestions: eleven });
    // The tap is the visitor's next message, with the suggestion's text.
    const tap = await visitor.command("b4", "send", { message: eleven[3], client_id: "tap-1" });
    expect(tap).toMatchObject({ ok: true, data: { author: "visitor", body: eleven[3], suggestions: [] } });
    await agent.until((c) => c.events().some((e) => e.event === "send" && e.data?.message?.body === eleven[3]), "the tapped suggestion on the agent's socket");
    expect((await agent.command("b5", "close", { room_id: roomId })).ok).toBe(true);
  });

  it("typing goes to the other side only, once per 2.5 s per side, and is never stored", async () => {
    const first = await api(`/api/widget/${widgetKey}/messages`, { body: { name: "Digita", message: "Oi" } });
    const roomId = first.body.room.id as string;
    const agent = await agentSocket();
    expect((await agent.command("t0", "next", {})).ok).toBe(true);
    const visitor = connect({ visitor: first.body.realtime_token, last: `room:${first.body.resume_from}` });
    await visitor.welcome();

    expect(await visitor.command("t1", "typing", {})).toMatchObject({ ok: true, data: { sent: true } });
    await agent.until((c) => c.events().some((e) => e.event === "typing" && e.room_id === roomId && e.data.by === "visitor"), "the visitor typing on the agent's socket");
    // Again at once: held back (the server keeps one per 2.5 s).
    expect(await visitor.command("t2", "typing", {})).toMatchObject({ ok: true, data: { sent: false } });

    expect(await agent.command("t3", "typing", { room_id: roomId })).toMatchObject({ ok: true, data: { sent: true } });
    await visitor.until((c) => c.events().some((e) => e.event === "typing" && e.data.by === "agent"), "the agent typing on the visitor's socket");
    const [{ first_name }] = await query<{ first_name: string }>(`SELECT first_name FROM users WHERE id = $1`, [ownerId]);
    expect(visitor.events().find((e) => e.event === "typing")!.data).toEqual({ room_id: roomId, by: "agent", name: first_name });
    // Nothing is stored.
    expect(await query(`SELECT 1 FROM live_messages WHERE room_id = $1`, [roomId])).toHaveLength(1);
    // Another account's room, or no room id: refused.
    expect((await agent.command("t4", "typing", { room_id: "00000000-0000-0000-0000-000000000000" })).error.code).toBe("NOT_FOUND");
    expect((await agent.command("t5", "typing", {})).error.code).toBe("VALIDATION");
    expect((await agent.command("t6", "close", { room_id: roomId })).ok).toBe(true);
    // Neither side hears its own typing. Signal: the close (published later, to the agents and
    // the visitor) reached both sockets, so any typing published before it would have too.
    for (const c of [agent, visitor]) await c.until((x) => x.events().some((e) => e.event === "close" && e.room_id === roomId), "the close on both sockets");
    expect(
      agent
        .events()
        .filter((e) => e.event === "typing" && e.room_id === roomId)
        .map((e) => e.data.by),
    ).toEqual(["visitor"]);
    expect(
      visitor
        .events()
        .filter((e) => e.event === "typing")
        .map((e) => e.data.by),
    ).toEqual(["agent"]);
  });

  it("outside opening hours the visitor's message is an offline contact, not a queued room", async () => {
    // Closed every day: hours only on a weekday that can never match (a holiday today).
    await makeHoliday(accountId);
    await makeOpeningHours(accountId, { weekday: 1, opens: "08:00", closes: "18:00" });
    const res = await api(`/api/widget/${widgetKey}/messages`, { body: { name: "Fora de hora", message: "Alguém aí?" } });
    expect(res.status).toBe(200);
    expect(res.body.room.status).toBe("CLOSED");
    const [room] = await query<{ offline: boolean; status: string }>(`SELECT offline, status FROM live_rooms WHERE id = $1`, [res.body.room.id]);
    expect(room).toEqual({ offline: true, status: "CLOSED" });
    const bad = await api(`/api/widget/${widgetKey}/messages`, { body: { message: "x", department_id: "00000000-0000-0000-0000-000000000000" } });
    expect(bad.status).toBe(422);
  });
});
