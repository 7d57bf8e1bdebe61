/**
 * Live chat room flow (issue 5, spec section 4) over the real API, PostgreSQL and Redis: visitors
 * write through the public widget endpoint, agents act through the JWT API, and every transition
 * is checked in the database and on the live event stream.
 */
import type Redis from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inject } from "vitest";
import { api, giveOmni, login, registerPerson, type Person } from "../support/api";
import { query } from "../support/db";
import { connectAgent, type LiveClient } from "../support/live-client";
import {
  addMember,
  ago,
  closeLiveRooms,
  makeDepartments,
  makeLiveRoom,
  makeLiveRooms,
  makeLiveSettings,
  makeTabulation,
  setLiveAgents,
  setLiveRoom,
  setLiveSettings,
  sql,
} from "../support/factories";
import { openRedis, keysOf } from "../support/redis";

type Agent = { person: Person; token: string; as: (path: string, opts?: Parameters<typeof api>[1]) => Promise<{ status: number; body: any }> };

let owner: Agent;
let ana: Agent;
let bruno: Agent;
let carla: Agent;
let accountId: string;
let widgetKey: string;
let supportDept: string;
let salesDept: string;
let redis: Redis;
const sockets: LiveClient[] = [];

async function agentOf(person: Person, account: string): Promise<Agent> {
  const { token } = await login(person.email, person.password);
  return { person, token, as: (path, opts = {}) => api(path, { ...opts, token, account }) };
}

async function addAgent(tag: string, departmentId: string | null = null): Promise<Agent> {
  const person = await registerPerson(tag);
  await addMember(accountId, person.userId, { role: "agent", isAgent: true, departmentId });
  return agentOf(person, accountId);
}

let visitorSeq = 0;
/** A new webchat visitor: their first message opens a room. */
async function visitor(message = "Olá, preciso de ajuda", extra: Record<string, unknown> = {}) {
  const res = await api(`/api/widget/${widgetKey}/messages`, { body: { name: `Visitante ${++visitorSeq}`, message, ...extra } });
  expect(res.status).toBe(200);
  return res.body as { visitor_id: string; visitor_token: string; room: { id: string; protocol: string; status: string }; position: number | null };
}

const room = async (id: string) => (await query<Record<string, any>>(`SELECT * FROM live_rooms WHERE id = $1`, [id]))[0];
const status = async (a: Agent, s: string) => expect((await a.as("/api/webchat/status", { method: "PUT", body: { status: s } })).status).toBe(200);

/** Live events of the account stream for one room, oldest first. */
async function events(roomId: string) {
  const entries = await redis.xrange(keysOf(inject("redisPrefix")).accountLiveStream(accountId), "-", "+");
  return entries.map(([, f]) => Object.fromEntries(Array.from({ length: f.length / 2 }, (_, i) => [f[2 * i], f[2 * i + 1]]))).filter((e) => e.room_id === roomId);
}

/** Closes every open room so each test starts with free agents. */
async function reset() {
  await closeLiveRooms(accountId);
  await setLiveAgents(accountId, null, { status: "OFFLINE", capacity: null });
  await setLiveSettings(accountId, { acceptanceOption: "automatic", tabulationRequired: false, defaultCapacity: 3, queuedEnabled: true });
}

beforeAll(async () => {
  redis = openRedis(inject("redisUrl"));
  const person = await registerPerson("live-owner");
  accountId = person.accountId;
  await giveOmni(accountId);
  owner = await agentOf(person, accountId);
  [supportDept, salesDept] = await makeDepartments(accountId, [{ name: "Suporte" }, { name: "Vendas" }]);
  ana = await addAgent("live-ana", supportDept);
  bruno = await addAgent("live-bruno", supportDept);
  carla = await addAgent("live-carla", salesDept);
  widgetKey = await makeLiveSettings(accountId);
  for (const a of [owner, ana, bruno, carla]) await status(a, "OFFLINE");
  // Everyone online (a live connection open), as at their desks: distribution then follows their status.
  for (const a of [owner, ana, bruno, carla]) sockets.push(await connectAgent(inject("realtimeUrl"), a.token, accountId));
});

afterAll(async () => {
  for (const s of sockets) await s.close().catch(() => undefined);
  await redis?.quit();
});

describe("queue, protocol and automatic distribution", () => {
  it("a visitor's first message opens a queued room with a protocol; the next one waits behind it", async () => {
    await reset();
    const first = await visitor();
    const second = await visitor();
    expect(first.room.status).toBe("QUEUE");
    expect(first.room.protocol).toMatch(/^\d{8}\d{6}$/);
    expect(Number(second.room.protocol)).toBe(Number(first.room.protocol) + 1);
    expect([first.position, second.position]).toEqual([1, 2]);
    // The same visitor writing again continues the same room.
    const again = await api(`/api/widget/${widgetKey}/messages`, { body: { visitor_id: first.visitor_id, visitor_token: first.visitor_token, message: "Alô?" } });
    expect(again.body.room.id).toBe(first.room.id);
    expect((await room(first.room.id)).unread_count).toBe(2);
    // A wrong visitor token is refused and writes nothing.
    const forged = await api(`/api/widget/${widgetKey}/messages`, { body: { visitor_id: first.visitor_id, visitor_token: "x".repeat(43), message: "hijack" } });
    expect(forged.status).toBe(401);
    expect((await query(`SELECT 1 FROM live_messages WHERE body = 'hijack'`)).length).toBe(0);
    expect((await events(first.room.id)).map((e) => e.event)).toEqual(["queued", "send", "send"]);
  });

  it("an available agent gets queued rooms up to capacity, least-busy first; at capacity taking another is refused", async () => {
    await reset();
    await setLiveSettings(accountId, { defaultCapacity: 1 });
    const a = await visitor();
    const b = await visitor();
    const c = await visitor();
    await status(ana, "AVAILABLE");
    expect(await room(a.room.id)).toMatchObject({ status: "OPEN", agent_id: ana.person.userId });
    expect((await room(b.room.id)).status).toBe("QUEUE");
    await status(bruno, "AVAILABLE");
    expect(await room(b.room.id)).toMatchObject({ status: "OPEN", agent_id: bruno.person.userId });
    const refused = await ana.as(`/api/omni/rooms/${c.room.id}/take`, { method: "POST", lang: "en" });
    expect(refused.status).toBe(409);
    expect(JSON.stringify(refused.body)).toContain("Service limit reached, finish the current one to take the next");
    expect((await room(c.room.id)).status).toBe("QUEUE");
    expect((await events(a.room.id)).map((e) => e.event)).toContain("assigned");
  });

  it("concurrent takes never exceed an agent's capacity", async () => {
    await reset();
    await setLiveSettings(accountId, { acceptanceOption: "manual" });
    await setLiveAgents(accountId, ana.person.userId, { capacity: 2 });
    const rooms = await Promise.all(Array.from({ length: 6 }, () => visitor()));
    const answers = await Promise.all(rooms.map((r) => ana.as(`/api/omni/rooms/${r.room.id}/take`, { method: "POST" })));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(2);
    expect(answers.filter((a) => a.status === 409)).toHaveLength(4);
    const [{ n }] = await query<{ n: number }>(`SELECT count(*)::int AS n FROM live_rooms WHERE account_id = $1 AND agent_id = $2 AND status = 'OPEN'`, [
      accountId,
      ana.person.userId,
    ]);
    expect(n).toBe(2);
  });

  it("manual acceptance: nothing is assigned by itself; `next` takes the oldest room of my department", async () => {
    await reset();
    await setLiveSettings(accountId, { acceptanceOption: "manual" });
    const sales = await visitor("Quero comprar", { department_id: salesDept });
    const support = await visitor("Meu pedido atrasou", { department_id: supportDept });
    await status(ana, "AVAILABLE");
    expect((await room(support.room.id)).status).toBe("QUEUE");
    const next = await ana.as("/api/omni/rooms/next", { method: "POST" });
    expect(next.status).toBe(200);
    expect(next.body.id).toBe(support.room.id);
    expect((await room(sales.room.id)).status).toBe("QUEUE");
    const empty = await ana.as("/api/omni/rooms/next", { method: "POST" });
    expect(empty.status).toBe(404);
  });
});

describe("messages both ways, forward-only status", () => {
  it("agent and visitor exchange messages; delivered and read only move forward", async () => {
    await reset();
    const v = await visitor("Oi");
    await status(ana, "AVAILABLE");
    const sent = await ana.as("/api/omni/messages", { body: { room_id: v.room.id, message: "Olá! Como posso ajudar?", client_id: "c-1" } });
    expect(sent.status).toBe(200);
    // A retried send answers the stored message, not a second one.
    const retry = await ana.as("/api/omni/messages", { body: { room_id: v.room.id, message: "Olá! Como posso ajudar?", client_id: "c-1" } });
    expect(retry.body.id).toBe(sent.body.id);
    const conversation = await api(`/api/widget/${widgetKey}/conversation?visitor_id=${v.visitor_id}&visitor_token=${v.visitor_token}`);
    expect(conversation.body.messages.map((m: { author: string; body: string }) => `${m.author}:${m.body}`)).toEqual(["visitor:Oi", "agent:Olá! Como posso ajudar?"]);
    expect((await api(`/api/widget/${widgetKey}/read`, { body: { visitor_id: v.visitor_id, visitor_token: v.visitor_token } })).body.changed).toBe(1);
    expect((await query<{ status: string }>(`SELECT status FROM live_messages WHERE id = $1`, [sent.body.id]))[0].status).toBe("READ");

    const [{ id: incoming }] = await query<{ id: string }>(`SELECT id FROM live_messages WHERE room_id = $1 AND author = 'visitor'`, [v.room.id]);
    expect((await ana.as(`/api/omni/rooms/${v.room.id}/delivered`, { body: { ids: [incoming] } })).body.changed).toBe(1);
    expect((await ana.as(`/api/omni/rooms/${v.room.id}/read`, { method: "POST" })).body.changed).toBe(1);
    expect((await ana.as(`/api/omni/rooms/${v.room.id}/delivered`, { body: { ids: [incoming] } })).body.changed).toBe(0);
    expect((await query<{ status: string }>(`SELECT status FROM live_messages WHERE id = $1`, [incoming]))[0].status).toBe("READ");
    expect((await room(v.room.id)).unread_count).toBe(0);
    // Someone else's room: another agent cannot write in it.
    await status(bruno, "AVAILABLE");
    expect((await bruno.as("/api/omni/messages", { body: { room_id: v.room.id, message: "intruso" } })).status).toBe(403);
  });
});

describe("closing, transfers, returning", () => {
  it("closing without a required tabulation is refused; with one it closes and frees capacity for the next visitor", async () => {
    await reset();
    await setLiveSettings(accountId, { tabulationRequired: true, defaultCapacity: 1 });
    const a = await visitor();
    const b = await visitor();
    await status(ana, "AVAILABLE");
    const refused = await ana.as(`/api/omni/rooms/${a.room.id}/close`, { method: "POST", body: {}, lang: "pt-BR" });
    expect(refused.status).toBe(422);
    expect(JSON.stringify(refused.body)).toContain("Adicione uma tabulação antes de finalizar");
    expect((await room(a.room.id)).status).toBe("OPEN");
    const tab = await makeTabulation(accountId);
    const closed = await ana.as(`/api/omni/rooms/${a.room.id}/close`, { body: { tabulation_id: tab } });
    expect(closed.status).toBe(200);
    expect(await room(a.room.id)).toMatchObject({ status: "CLOSED", tabulation_id: tab });
    expect(await room(b.room.id)).toMatchObject({ status: "OPEN", agent_id: ana.person.userId });
    expect((await ana.as(`/api/omni/rooms/${a.room.id}/close`, { body: { tabulation_id: tab } })).status).toBe(409);
  });

  it("transfer to an agent locks the room until accepted; the new agent gets it", async () => {
    await reset();
    const v = await visitor();
    await status(ana, "AVAILABLE");
    await status(bruno, "AVAILABLE");
    const [{ agent_id: first }] = [await room(v.room.id)];
    const from = first === ana.person.userId ? ana : bruno;
    const to = first === ana.person.userId ? bruno : ana;
    expect((await from.as(`/api/omni/rooms/${v.room.id}/transfer`, { body: { agent_id: to.person.userId } })).status).toBe(200);
    expect(await room(v.room.id)).toMatchObject({ locked: true, transfer_type: "agent", transfer_to_user_id: to.person.userId, agent_id: from.person.userId });
    expect((await from.as("/api/omni/messages", { body: { room_id: v.room.id, message: "ainda aqui" } })).status).toBe(409);
    expect((await from.as(`/api/omni/rooms/${v.room.id}/transfer/accept`, { method: "POST" })).status).toBe(409);
    expect((await to.as(`/api/omni/rooms/${v.room.id}/transfer/accept`, { method: "POST" })).status).toBe(200);
    expect(await room(v.room.id)).toMatchObject({ locked: false, agent_id: to.person.userId, status: "OPEN" });
    expect((await to.as("/api/omni/messages", { body: { room_id: v.room.id, message: "Assumi seu atendimento" } })).status).toBe(200);
    const names = (await events(v.room.id)).map((e) => e.event);
    expect(names.indexOf("transfer_agent")).toBeLessThan(names.indexOf("transfer_accept"));
  });

  it("a refused transfer returns the room to the queue", async () => {
    await reset();
    await setLiveSettings(accountId, { acceptanceOption: "manual" });
    const v = await visitor();
    await status(ana, "AVAILABLE");
    await ana.as(`/api/omni/rooms/${v.room.id}/take`, { method: "POST" });
    await ana.as(`/api/omni/rooms/${v.room.id}/transfer`, { body: { agent_id: bruno.person.userId } });
    expect((await carla.as(`/api/omni/rooms/${v.room.id}/transfer/refuse`, { method: "POST" })).status).toBe(409);
    expect((await bruno.as(`/api/omni/rooms/${v.room.id}/transfer/refuse`, { method: "POST" })).status).toBe(200);
    expect(await room(v.room.id)).toMatchObject({ status: "QUEUE", agent_id: null, locked: false });
    expect((await events(v.room.id)).map((e) => e.event)).toContain("transfer_refused");
  });

  it("transfer to a department: queued there and locked until an agent of it takes it (transfer_finished)", async () => {
    await reset();
    const v = await visitor("Suporte", { department_id: supportDept });
    await status(ana, "AVAILABLE");
    expect((await room(v.room.id)).agent_id).toBe(ana.person.userId);
    const moved = await ana.as(`/api/omni/rooms/${v.room.id}/transfer`, { body: { department_id: salesDept } });
    expect(moved.status).toBe(200);
    // Ana serves only Suporte, so the room waits for Vendas.
    expect(await room(v.room.id)).toMatchObject({ status: "QUEUE", department_id: salesDept, locked: true, agent_id: null });
    await status(carla, "AVAILABLE");
    expect(await room(v.room.id)).toMatchObject({ status: "OPEN", agent_id: carla.person.userId, locked: false });
    expect((await events(v.room.id)).map((e) => e.event)).toContain("transfer_finished");
  });

  it("return to queue, and a refused room is not offered to the same agent again", async () => {
    await reset();
    const v = await visitor();
    await status(ana, "AVAILABLE");
    expect((await room(v.room.id)).agent_id).toBe(ana.person.userId);
    expect((await ana.as(`/api/omni/rooms/${v.room.id}/refuse`, { method: "POST" })).status).toBe(200);
    expect(await room(v.room.id)).toMatchObject({ status: "QUEUE", agent_id: null });
    await status(bruno, "AVAILABLE");
    expect((await room(v.room.id)).agent_id).toBe(bruno.person.userId);
    expect((await bruno.as(`/api/omni/rooms/${v.room.id}/return`, { method: "POST" })).status).toBe(200);
    // Back in the queue: Ana (who refused it) is skipped, Bruno takes it again as the least busy.
    expect((await room(v.room.id)).agent_id).toBe(bruno.person.userId);
  });
});

describe("macros and canned samples while attending", () => {
  it("a macro sends its message, adds its tags, sets its tabulation and closes; one that cannot close does nothing", async () => {
    await reset();
    const tab = await makeTabulation(accountId, `Troca ${Math.random().toString(36).slice(2)}`);
    const done = await owner.as("/api/chat/macros", {
      body: { name: `Encerrar troca ${Date.now()}`, message: "Troca registrada. Obrigado!", tags: ["troca"], tabulation_id: tab, close: true },
    });
    expect(done.status).toBe(201);
    const closeOnly = await owner.as("/api/chat/macros", { body: { name: `Só encerrar ${Date.now()}`, close: true } });
    const sample = await owner.as("/api/webchat/samples/create", { body: { for_all: true, key: `ola${Date.now() % 100000}`, message: "Olá! Em que posso ajudar?" } });
    expect(sample.status).toBe(201);

    const v = await visitor("Quero trocar");
    await status(ana, "AVAILABLE");
    const sent = await ana.as(`/api/omni/rooms/${v.room.id}/sample`, { body: { sample_id: sample.body.id } });
    expect(sent).toMatchObject({ status: 200, body: { author: "agent", body: "Olá! Em que posso ajudar?" } });

    await setLiveSettings(accountId, { tabulationRequired: true });
    const refused = await ana.as(`/api/omni/rooms/${v.room.id}/macro`, { body: { macro_id: closeOnly.body.id } });
    expect(refused.status).toBe(422);
    expect((await room(v.room.id)).status).toBe("OPEN");

    await ana.as(`/api/webchat/room-tags/${v.room.id}`, { method: "PUT", body: { tags: ["vip"] } });
    const applied = await ana.as(`/api/omni/rooms/${v.room.id}/macro`, { body: { macro_id: done.body.id } });
    expect(applied.status).toBe(200);
    expect(await room(v.room.id)).toMatchObject({ status: "CLOSED", tabulation_id: tab, tags: ["vip", "troca"] });
    const bodies = (await query<{ body: string }>(`SELECT body FROM live_messages WHERE room_id = $1 AND author = 'agent' ORDER BY created_at`, [v.room.id])).map((m) => m.body);
    expect(bodies).toEqual(["Olá! Em que posso ajudar?", "Troca registrada. Obrigado!"]);
    // Not my room any more (closed): nothing more can be applied.
    expect((await ana.as(`/api/omni/rooms/${v.room.id}/macro`, { body: { macro_id: done.body.id } })).status).toBe(409);
  });
});

describe("editing canned samples", () => {
  it("a writer edits any sample; an agent only their own; a bad shortcut is a field error and nothing changes", async () => {
    const shared = await owner.as("/api/webchat/samples/create", { body: { for_all: true, key: `frete${Date.now() % 100000}`, message: "O frete é grátis." } });
    const mine = await ana.as("/api/webchat/samples/create", { body: { key: `meu${Date.now() % 100000}`, message: "Já verifico." } });
    expect([shared.status, mine.status]).toEqual([201, 201]);
    const edited = await owner.as(`/api/live/samples/${shared.body.id}`, { method: "PUT", body: { key: "frete-gratis", message: "Frete grátis acima de R$ 99." } });
    expect(edited).toMatchObject({ status: 200, body: { key: "frete-gratis", message: "Frete grátis acima de R$ 99." } });
    expect((await ana.as(`/api/live/samples/${shared.body.id}`, { method: "PUT", body: { key: "x", message: "y" } })).status).toBe(404);
    expect((await ana.as(`/api/live/samples/${mine.body.id}`, { method: "PUT", body: { key: "meu-atalho", message: "Um instante, já verifico." } })).body.key).toBe("meu-atalho");
    const bad = await owner.as(`/api/live/samples/${shared.body.id}`, { method: "PUT", body: { key: "com espaço", message: "z" }, lang: "en" });
    expect(bad.status).toBe(422);
    expect(JSON.stringify(bad.body)).toContain("key");
    expect((await query<{ key: string }>(`SELECT key FROM live_samples WHERE id = $1`, [shared.body.id]))[0].key).toBe("frete-gratis");
  });
});

describe("the live-chat API's reads (spec section 7)", () => {
  it("sync, agents, account tags, departments on, transcripts, and disconnect", async () => {
    await reset();
    const v = await visitor("Quero trocar o produto", { department_id: supportDept });
    await status(ana, "AVAILABLE");
    await ana.as(`/api/webchat/room-tags/${v.room.id}`, { method: "PUT", body: { tags: ["garantia"] } });
    const sync = await ana.as("/api/webchat/sync");
    expect(sync.body).toMatchObject({ user_id: ana.person.userId, status: "AVAILABLE", load: { open: 1 }, counts: { me: 1 }, settings: { acceptance_option: "automatic" } });
    expect((await ana.as("/api/webchat/agents")).body.data.map((a: { id: string }) => a.id)).toEqual(expect.arrayContaining([bruno.person.userId, carla.person.userId]));
    expect((await ana.as("/api/webchat/account-tags")).body.data).toContainEqual({ tag: "garantia", rooms: 1 });
    const on = (await ana.as("/api/webchat/departments/on")).body.data;
    expect(on.map((d: { id: string }) => d.id)).toContain(supportDept);
    expect(on.map((d: { id: string }) => d.id)).not.toContain(salesDept);
    const found = await ana.as(`/api/webchat/transcripts?search=${encodeURIComponent(v.room.protocol)}`);
    expect(found.body.data.map((r: { id: string }) => r.id)).toEqual([v.room.id]);
    expect((await carla.as(`/api/webchat/transcripts?search=${encodeURIComponent(v.room.protocol)}`)).body.data).toEqual([]);
    expect((await ana.as("/api/webchat/disconnect", { method: "POST" })).body).toEqual({ status: "OFFLINE" });
    expect((await ana.as("/api/webchat/departments/on")).body.data.map((d: { id: string }) => d.id)).not.toContain(supportDept);
  });
});

describe("offline and idle contacts, tags, visibility", () => {
  it("an offline contact is resumed with the agent or marked solved; idle is resumed", async () => {
    await reset();
    const off = { id: await makeLiveRoom(accountId, { username: "Fora do horário", offline: true }) };
    const list = await ana.as("/api/webchat/offlines");
    expect(list.body.data.map((r: { id: string }) => r.id)).toContain(off.id);
    expect((await ana.as(`/api/webchat/resume/now/${off.id}`, { method: "POST" })).status).toBe(200);
    expect(await room(off.id)).toMatchObject({ status: "OPEN", agent_id: ana.person.userId, offline: false });

    const other = { id: await makeLiveRoom(accountId, { offline: true }) };
    expect((await ana.as(`/api/webchat/solve/${other.id}`, { method: "POST" })).status).toBe(200);
    expect((await room(other.id)).solved).toBe(true);
    expect((await ana.as("/api/webchat/offlines")).body.data.map((r: { id: string }) => r.id)).not.toContain(other.id);

    await setLiveRoom(off.id, { idle: true });
    expect((await ana.as("/api/webchat/idle")).body.data.map((r: { id: string }) => r.id)).toContain(off.id);
    expect((await ana.as(`/api/webchat/resume/idle/${off.id}`, { method: "POST" })).status).toBe(200);
    expect((await room(off.id)).idle).toBe(false);
  });

  it("the worker marks a room idle when the visitor has not answered the agent for idle_minutes; the visitor writing clears it", async () => {
    await reset();
    await setLiveSettings(accountId, { idleMinutes: 1 });
    const v = await visitor("Oi");
    await status(ana, "AVAILABLE");
    await ana.as("/api/omni/messages", { body: { room_id: v.room.id, message: "Pode me passar o número do pedido?" } });
    // The agent's question is 2 minutes old and unanswered.
    await setLiveRoom(v.room.id, { lastMessageAt: ago("2 minutes") });
    // One statement ages the agent's messages and the visitor's differently: one-off SQL, not a factory.
    await query(`UPDATE live_messages SET created_at = now() - CASE author WHEN 'agent' THEN interval '2 minutes' ELSE interval '3 minutes' END WHERE room_id = $1`, [v.room.id]);
    const deadline = Date.now() + 10_000;
    while (!(await room(v.room.id)).idle && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect((await room(v.room.id)).idle).toBe(true);
    expect((await ana.as("/api/webchat/idle")).body.data.map((r: { id: string }) => r.id)).toContain(v.room.id);
    await api(`/api/widget/${widgetKey}/messages`, { body: { visitor_id: v.visitor_id, visitor_token: v.visitor_token, message: "12345" } });
    expect((await room(v.room.id)).idle).toBe(false);
  });

  it("tags and tabulation are set on the room; other accounts never see it", async () => {
    await reset();
    const v = await visitor();
    await status(ana, "AVAILABLE");
    const tagged = await ana.as(`/api/webchat/room-tags/${v.room.id}`, { method: "PUT", body: { tags: ["vip", "entrega", "vip"] } });
    expect(tagged.body.tags).toEqual(["vip", "entrega"]);
    const stranger = await registerPerson("live-stranger");
    await giveOmni(stranger.accountId);
    const s = await agentOf(stranger, stranger.accountId);
    expect((await s.as(`/api/omni/rooms/${v.room.id}`)).status).toBe(404);
    expect((await s.as(`/api/omni/rooms/${v.room.id}/close`, { body: {} })).status).toBe(404);
    // The supervisor (owner) sees every agent's rooms.
    expect((await owner.as("/api/omni/rooms?type=all")).body.data.map((r: { id: string }) => r.id)).toContain(v.room.id);
    expect((await bruno.as(`/api/omni/rooms/${v.room.id}`)).status).toBe(403);
  });

  it("the attending agent corrects the visitor's name, e-mail and phone: validated per field, linked to the account's contact, others refused", async () => {
    await reset();
    const v = await visitor("Oi, sem dados ainda");
    await status(ana, "AVAILABLE");
    expect((await room(v.room.id)).agent_id).toBe(ana.person.userId);
    expect((await room(v.room.id)).contact_id).toBeNull();
    const put = (a: Agent, field: string, value: string | null) => a.as(`/api/webchat/contact/${v.room.id}`, { method: "PUT", body: { field, value } });

    // Bad values name their field (translated) and change nothing.
    const badEmail = await put(ana, "email", "maria@");
    expect(badEmail.status).toBe(422);
    expect(badEmail.body.error.fields).toEqual({ email: ["E-mail inválido"] });
    expect((await put(ana, "phone", "123")).body.error.fields).toEqual({ phone: ["Número de telefone inválido"] });
    expect((await put(ana, "tags", "x")).body.error.fields).toEqual({ field: ["Escolha uma das opções"] });
    expect((await room(v.room.id)).email).toBeNull();

    // Another agent (not attending, not supervising) cannot; another account does not even see it.
    expect((await put(bruno, "username", "Intruso")).status).toBe(403);

    // The name, then a Brazilian mobile typed with a mask: stored E.164 and the room gets a new contact.
    const named = await put(ana, "username", "  Maria   Souza ");
    expect(named.status).toBe(200);
    expect(named.body.username).toBe("Maria Souza");
    const phoned = await put(ana, "phone", "(11) 98888-7766");
    expect(phoned.body).toMatchObject({ phone: "+5511988887766" });
    const linked = await room(v.room.id);
    expect(linked.contact_id).not.toBeNull();
    const [contact] = await query<Record<string, any>>(`SELECT first_name, last_name, mobile_number, email FROM contacts WHERE id = $1`, [linked.contact_id]);
    expect(contact).toEqual({ first_name: "Maria", last_name: "Souza", mobile_number: "+5511988887766", email: null });
    // Later fields fill the contact's empty ones only.
    expect((await put(ana, "email", "Maria@Example.com")).body.email).toBe("maria@example.com");
    expect((await query(`SELECT email FROM contacts WHERE id = $1`, [linked.contact_id]))[0]).toEqual({ email: "maria@example.com" });
    expect((await put(ana, "username", "Maria S.")).status).toBe(200);
    expect((await query(`SELECT first_name, last_name FROM contacts WHERE id = $1`, [linked.contact_id]))[0]).toEqual({ first_name: "Maria", last_name: "Souza" });
    // The agents' stream carries the change; the transition log keeps who did it.
    expect((await events(v.room.id)).some((e) => e.event === "room_updated" && JSON.parse(e.data).room.email === "maria@example.com")).toBe(true);
    expect(await query(`SELECT actor_id FROM live_room_events WHERE room_id = $1 AND type = 'contact'`, [v.room.id])).toHaveLength(4);

    // A second visitor with that same mobile is linked to the same contact, not a new one.
    const w = await visitor("Sou eu de novo");
    await status(ana, "AVAILABLE");
    const again = await ana.as(`/api/webchat/contact/${w.room.id}`, { method: "PUT", body: { field: "phone", value: "+55 11 98888-7766" } });
    expect(again.status).toBe(200);
    expect((await room(w.room.id)).contact_id).toBe(linked.contact_id);
  });
});

describe("one list style: keyset pages (issue 12 item 14)", () => {
  it("room lists and transcripts page by cursor and limit: every row once, next_cursor null at the end, a bad cursor is 422 on cursor", async () => {
    // An account of its own, so its lists hold exactly these rooms; all with one timestamp (the id breaks the tie).
    const person = await registerPerson("live-keyset");
    await giveOmni(person.accountId);
    const boss = await agentOf(person, person.accountId);
    const made = await makeLiveRooms(person.accountId, 5, { username: "Cliente", status: "CLOSED", closedAt: sql("now()"), createdAt: "2026-03-01T12:00:00.123456Z" });
    const expected = made.sort().reverse();

    for (const path of ["/api/omni/rooms?type=closed&", "/api/webchat/transcripts?"]) {
      const seen: string[] = [];
      let cursor: string | null = null;
      const sizes: number[] = [];
      do {
        const res: { status: number; body: any } = await boss.as(`${path}limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        expect(Object.keys(res.body)).toEqual(expect.arrayContaining(["data", "next_cursor"]));
        expect(res.body.page).toBeUndefined();
        sizes.push(res.body.data.length);
        seen.push(...res.body.data.map((r: { id: string }) => r.id));
        cursor = res.body.next_cursor;
      } while (cursor && sizes.length < 10);
      expect(sizes, path).toEqual([2, 2, 1]);
      expect(seen, path).toEqual(expected);

      const bad = await boss.as(`${path}cursor=not-a-cursor`, { lang: "en" });
      expect(bad.status).toBe(422);
      expect(Object.keys(bad.body.error.fields)).toEqual(["cursor"]);
      const forged = await boss.as(`${path}cursor=${Buffer.from(JSON.stringify(["2026-03-01T12:00:00.123456Z", "1 OR 1=1"])).toString("base64url")}`);
      expect(forged.status).toBe(422);
    }
    // The deprecated page still numbers its pages, and carries next_cursor too.
    const numbered = await boss.as("/api/omni/rooms?type=closed&page=2&limit=2");
    expect(numbered.body).toMatchObject({ page: 2, last_page: 3, total: 5 });
    expect(numbered.body.data.map((r: { id: string }) => r.id)).toEqual(expected.slice(2, 4));
    expect(typeof numbered.body.next_cursor).toBe("string");
  });

  it("a room's thread pages to older messages with next_cursor; bounded lists answer one page", async () => {
    await reset();
    const v = await visitor("primeira");
    for (const m of ["segunda", "terceira"]) {
      await api(`/api/widget/${widgetKey}/messages`, { body: { visitor_id: v.visitor_id, visitor_token: v.visitor_token, message: m } });
    }
    const first = await owner.as(`/api/omni/rooms/${v.room.id}/messages?limit=2`);
    expect(first.body.data.map((m: { body: string }) => m.body)).toEqual(["segunda", "terceira"]);
    expect(typeof first.body.next_cursor).toBe("string");
    const older = await owner.as(`/api/omni/rooms/${v.room.id}/messages?limit=2&cursor=${first.body.next_cursor}`);
    expect(older.body.data.map((m: { body: string }) => m.body)).toEqual(["primeira"]);
    expect(older.body.next_cursor).toBeNull();
    expect((await owner.as(`/api/omni/rooms/${v.room.id}/messages?cursor=xyz`)).status).toBe(422);
    // The visitor's conversation and the transcript carry the same cursor (all three fit one page here).
    const conv = await api(`/api/widget/${widgetKey}/conversation?visitor_id=${v.visitor_id}&visitor_token=${v.visitor_token}`);
    expect(conv.body).toMatchObject({ more: false, next_cursor: null });
    expect(conv.body.messages).toHaveLength(3);
    const tr = await owner.as(`/api/webchat/transcripts/${v.room.id}/messages?cursor=${first.body.next_cursor}`);
    expect(tr.body.messages.map((m: { body: string }) => m.body)).toEqual(["primeira"]);
    expect(tr.body.next_cursor).toBeNull();
    for (const path of [
      "/api/omni/tags",
      "/api/webchat/account-tags",
      "/api/webchat/agents",
      "/api/webchat/departments/on",
      "/api/omni/agents",
      `/api/widget/${widgetKey}/departments`,
    ]) {
      const res = await owner.as(path);
      expect(res.status, path).toBe(200);
      expect(res.body, path).toMatchObject({ data: expect.any(Array), next_cursor: null });
    }
  });
});
