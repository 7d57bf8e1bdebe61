/**
 * The flow runtime (issue 20, ADR 054) on the run's real processes: a visitor writes through the
 * public widget endpoint, the api opens the room as BOT and writes the stream, the worker's
 * flow-runners consumer walks it (and its sweep wakes timers), and the effects are checked in
 * PostgreSQL: bot messages in the room, steps without gaps, the contact, tags and group, the room's
 * hand-off to the queue or its close. HTTP steps call a loopback peer.
 */
import type Redis from "ioredis";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { api, giveOmni, login, registerPerson } from "../support/api";
import { query } from "../support/db";
import { makeDepartments, makeLiveSettings } from "../support/factories";
import { startRecordingPeer, type RecordingPeer } from "../support/loopback-peer";
import { keysOf, openRedis } from "../support/redis";

type Node = { id: string; type: string; data?: Record<string, unknown> };
type Account = { token: string; accountId: string; widgetKey: string };

let redis: Redis;
let peer: RecordingPeer;
/** How the peer answers each path: a status and body, after an optional delay. */
const answers = new Map<string, { status: number; body: unknown; delayMs?: number }>();

function definition(nodes: Node[], edges: Array<[string, string, string]>) {
  return { nodes: nodes.map((n) => ({ data: {}, ...n })), edges: edges.map(([source, output, target], i) => ({ id: `e${i}`, source, output, target })) };
}

async function account(tag: string): Promise<Account> {
  const p = await registerPerson(tag);
  await giveOmni(p.accountId);
  const { token } = await login(p.email, p.password);
  return { token, accountId: p.accountId, widgetKey: await makeLiveSettings(p.accountId) };
}

/** Creates and publishes a flow (or publishes a new version of `id`); answers its id. */
async function publish(a: Account, def: ReturnType<typeof definition>, opts: { id?: string; trigger?: string; trigger_value?: string } = {}) {
  let id = opts.id;
  if (!id) {
    const res = await api("/api/flow/flows", {
      token: a.token,
      body: { name: "Bot", channel: "webchat", trigger: opts.trigger ?? "inbound", trigger_value: opts.trigger_value, draft: def },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    id = res.body.data.id as string;
  } else expect((await api(`/api/flow/flows/${id}`, { token: a.token, method: "PUT", body: { draft: def } })).status).toBe(200);
  const pub = await api(`/api/flow/flows/${id}/publish`, { token: a.token, method: "POST" });
  expect(pub.status, JSON.stringify(pub.body)).toBe(200);
  return id!;
}

type Visitor = { visitor_id: string; visitor_token: string; room: { id: string; status: string } };
let seq = 0;
async function visitor(a: Account, message = "Oi", extra: Record<string, unknown> = {}): Promise<Visitor> {
  const res = await api(`/api/widget/${a.widgetKey}/messages`, { body: { name: `Maria Souza ${++seq}`, message, ...extra } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}
async function say(a: Account, v: Visitor, message: string) {
  const res = await api(`/api/widget/${a.widgetKey}/messages`, { body: { visitor_id: v.visitor_id, visitor_token: v.visitor_token, message } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

const botTexts = async (roomId: string) =>
  (await query<{ body: string }>(`SELECT body FROM live_messages WHERE room_id = $1 AND author = 'bot' ORDER BY created_at, id`, [roomId])).map((m) => m.body);
const streamOf = async (roomId: string) => (await query<Record<string, any>>(`SELECT * FROM flow_streams WHERE room_id = $1 ORDER BY started_at DESC LIMIT 1`, [roomId]))[0];
const roomOf = async (roomId: string) => (await query<Record<string, any>>(`SELECT * FROM live_rooms WHERE id = $1`, [roomId]))[0];
/** Waits until the room's bot has said `n` messages (and answers them). */
async function botSaid(roomId: string, n: number) {
  await expect.poll(async () => (await botTexts(roomId)).length, { timeout: 15_000, interval: 50 }).toBe(n);
  return botTexts(roomId);
}
async function streamSettled(roomId: string, status: string) {
  await expect.poll(async () => (await streamOf(roomId))?.status, { timeout: 15_000, interval: 50 }).toBe(status);
  return streamOf(roomId);
}
/** The stream's steps: 1..n with no gap and no repeat. */
async function assertPath(streamId: string) {
  const steps = await query<{ seq: number; node_id: string; output: string | null }>(`SELECT seq, node_id, output FROM flow_steps WHERE stream_id = $1 ORDER BY seq`, [streamId]);
  expect(steps.map((s) => s.seq)).toEqual(steps.map((_, i) => i + 1));
  return steps.map((s) => `${s.node_id}:${s.output ?? "-"}`);
}

beforeAll(async () => {
  redis = openRedis(inject("redisUrl"));
  peer = await startRecordingPeer(async (call, reply) => {
    const a = answers.get(call.path) ?? { status: 404, body: {} };
    if (a.delayMs) await new Promise((r) => setTimeout(r, a.delayMs));
    reply.send(a.status, a.body);
  });
});
afterAll(async () => {
  await peer?.close();
  await redis?.quit();
});

describe("flow runtime", () => {
  it("walks message, question (retry), condition, actions and a delay to the end: room closed by the flow, contact, tags and group written", async () => {
    const a = await account("flowrt-all");
    await publish(
      a,
      definition(
        [
          { id: "start", type: "start" },
          { id: "hi", type: "message", data: { text: "Olá {{first_name}}!", buttons: ["Sim", "Não"] } },
          {
            id: "ask",
            type: "question",
            data: { text: "Seu CPF?", check: "cpf", store: { kind: "variable", name: "cpf" }, retries: 1, retry_message: "CPF inválido, tente de novo" },
          },
          { id: "mail", type: "question", data: { text: "Seu e-mail?", check: "email", store: { kind: "field", name: "email" } } },
          { id: "cond", type: "condition", data: { rules: [{ id: "x", subject: "field", name: "email", op: "contains", value: "@empresa.com" }] } },
          { id: "tag", type: "action", data: { kind: "add_tag", name: "cliente" } },
          { id: "field", type: "action", data: { kind: "set_field", name: "company", value: "Empresa de {{first_name}}" } },
          { id: "group", type: "action", data: { kind: "add_to_group", name: "Leads do bot" } },
          { id: "wait", type: "delay", data: { seconds: 1 } },
          { id: "bye", type: "end", data: { message: "Obrigado, CPF {{cpf}}" } },
          { id: "other", type: "end", data: { message: "Outro domínio" } },
        ],
        [
          ["start", "next", "hi"],
          ["hi", "next", "ask"],
          ["ask", "answer", "mail"],
          ["mail", "answer", "cond"],
          ["cond", "x", "tag"],
          ["cond", "else", "other"],
          ["tag", "next", "field"],
          ["field", "next", "group"],
          ["group", "next", "wait"],
          ["wait", "next", "bye"],
        ],
      ),
    );
    const v = await visitor(a, "Oi", { email: "maria@antigo.com" });
    expect(v.room.status).toBe("BOT");
    expect(await botSaid(v.room.id, 2)).toEqual([`Olá Maria!`, "Seu CPF?"]);
    // The room is the bot's: not in the queue, no agent.
    expect(await roomOf(v.room.id)).toMatchObject({ status: "BOT", agent_id: null, queued_at: null });
    const suggestions = await query<{ suggestions: string[] }>(`SELECT suggestions FROM live_messages WHERE room_id = $1 AND body = 'Olá Maria!'`, [v.room.id]);
    expect(suggestions[0].suggestions).toEqual(["Sim", "Não"]);
    await say(a, v, "123.456.789-00");
    expect((await botSaid(v.room.id, 3))[2]).toBe("CPF inválido, tente de novo");
    await say(a, v, "529.982.247-25");
    expect((await botSaid(v.room.id, 4))[3]).toBe("Seu e-mail?");
    await say(a, v, "Maria@Empresa.com");
    const s = await streamSettled(v.room.id, "finished");
    expect(await botTexts(v.room.id)).toEqual(["Olá Maria!", "Seu CPF?", "CPF inválido, tente de novo", "Seu e-mail?", "Obrigado, CPF 52998224725"]);
    expect(await assertPath(s.id)).toEqual([
      "start:next",
      "hi:next",
      "ask:-",
      "ask:-",
      "ask:answer",
      "mail:-",
      "mail:answer",
      "cond:x",
      "tag:next",
      "field:next",
      "group:next",
      "wait:-",
      "wait:next",
      "bye:-",
    ]);
    const room = await roomOf(v.room.id);
    expect(room).toMatchObject({ status: "CLOSED", close_reason: "flow", tags: ["cliente"], email: "maria@empresa.com" });
    const [contact] = await query<Record<string, any>>(`SELECT * FROM contacts WHERE id = $1 AND account_id = $2`, [room.contact_id, a.accountId]);
    expect(contact).toMatchObject({ email: "maria@empresa.com", company: "Empresa de Maria", tags: ["cliente"] });
    const member = await query(
      `SELECT 1 FROM contact_group_members m JOIN contact_groups g ON g.id = m.group_id WHERE g.account_id = $1 AND g.name = 'Leads do bot' AND m.contact_id = $2`,
      [a.accountId, room.contact_id],
    );
    expect(member).toHaveLength(1);
    expect(await query(`SELECT 1 FROM flow_inputs WHERE stream_id = $1 AND consumed_at IS NULL`, [s.id])).toHaveLength(0);
  });

  it("a keyword flow wins over the inbound one; invalid answers leave by 'invalid' to a hand-off: the room joins the queue and an agent reads the whole conversation", async () => {
    const a = await account("flowrt-handoff");
    const [dept] = await makeDepartments(a.accountId, [{ name: "Vendas" }]);
    await publish(
      a,
      definition(
        [
          { id: "start", type: "start" },
          { id: "m", type: "end", data: { message: "fluxo geral" } },
        ],
        [["start", "next", "m"]],
      ),
    );
    await publish(
      a,
      definition(
        [
          { id: "start", type: "start" },
          { id: "ask", type: "question", data: { text: "Data do pedido?", check: "date", store: { kind: "variable", name: "d" }, retries: 0 } },
          { id: "agent", type: "handoff", data: { department_id: dept, message: "Vou chamar um atendente" } },
          { id: "ok", type: "end" },
        ],
        [
          ["start", "next", "ask"],
          ["ask", "answer", "ok"],
          ["ask", "invalid", "agent"],
        ],
      ),
      { trigger: "keyword", trigger_value: "pedido" },
    );
    const v = await visitor(a, "  PEDIDO ");
    expect(await botSaid(v.room.id, 1)).toEqual(["Data do pedido?"]);
    await say(a, v, "31/02/2026");
    const s = await streamSettled(v.room.id, "handed_off");
    expect(await assertPath(s.id)).toEqual(["start:next", "ask:-", "ask:invalid", "agent:-"]);
    const room = await roomOf(v.room.id);
    expect(room).toMatchObject({ status: "QUEUE", department_id: dept, agent_id: null });
    expect(room.queued_at).not.toBeNull();
    const thread = await api(`/api/omni/rooms/${v.room.id}/messages`, { token: a.token, account: a.accountId });
    expect(thread.status).toBe(200);
    const said = (thread.body.data as Array<{ author: string; body: string }>).map((m) => `${m.author}:${m.body}`);
    expect(said).toEqual(expect.arrayContaining(["visitor:PEDIDO", "bot:Data do pedido?", "visitor:31/02/2026", "bot:Vou chamar um atendente"]));
    // The queue now holds it: the visitor's next message is an agent's business, not the bot's.
    await say(a, v, "alô?");
    expect((await query(`SELECT 1 FROM flow_inputs WHERE stream_id = $1`, [s.id])).length).toBe(2);
    // Another visitor without the keyword gets the inbound flow.
    const other = await visitor(a, "bom dia");
    expect(await botSaid(other.room.id, 1)).toEqual(["fluxo geral"]);
  });

  it("a question's timeout fires from the sweep (durable timer): 'timeout' output, or dropped without one", async () => {
    const a = await account("flowrt-timeout");
    const flowId = await publish(
      a,
      definition(
        [
          { id: "start", type: "start" },
          { id: "ask", type: "question", data: { text: "Ainda está aí?", check: "text", store: { kind: "variable", name: "x" }, timeout_seconds: 60 } },
          { id: "late", type: "end", data: { message: "Encerrando por inatividade" } },
          { id: "ok", type: "end" },
        ],
        [
          ["start", "next", "ask"],
          ["ask", "answer", "ok"],
          ["ask", "timeout", "late"],
        ],
      ),
    );
    const v = await visitor(a);
    await botSaid(v.room.id, 1);
    const waiting = await streamSettled(v.room.id, "waiting");
    expect(new Date(waiting.wake_at).getTime()).toBeGreaterThan(Date.now() + 50_000);
    // Not due: nothing happens. Then the clock "passes" the timeout.
    await query(`UPDATE flow_streams SET wake_at = now() - interval '1 second' WHERE id = $1`, [waiting.id]);
    const s = await streamSettled(v.room.id, "finished");
    expect(await botTexts(v.room.id)).toEqual(["Ainda está aí?", "Encerrando por inatividade"]);
    expect(await assertPath(s.id)).toEqual(["start:next", "ask:-", "ask:timeout", "late:-"]);
    expect((await roomOf(v.room.id)).status).toBe("CLOSED");

    // Without a timeout edge the stream is dropped (and the room closed by the flow).
    await publish(
      a,
      definition(
        [
          { id: "start", type: "start" },
          { id: "ask", type: "question", data: { text: "Ainda está aí?", check: "text", store: { kind: "variable", name: "x" }, timeout_seconds: 60 } },
          { id: "ok", type: "end" },
        ],
        [
          ["start", "next", "ask"],
          ["ask", "answer", "ok"],
        ],
      ),
      { id: flowId },
    );
    const w = await visitor(a);
    const second = await streamSettled(w.room.id, "waiting");
    await query(`UPDATE flow_streams SET wake_at = now() - interval '1 second' WHERE id = $1`, [second.id]);
    expect(await streamSettled(w.room.id, "dropped")).toMatchObject({ reason: "no answer" });
    expect(await roomOf(w.room.id)).toMatchObject({ status: "CLOSED", close_reason: "flow" });
  });

  it("a stream started on v1 finishes on v1 after v2 is published; new streams run v2", async () => {
    const a = await account("flowrt-versions");
    const def = (word: string) =>
      definition(
        [
          { id: "start", type: "start" },
          { id: "ask", type: "question", data: { text: "Nome?", check: "text", store: { kind: "variable", name: "n" } } },
          { id: "bye", type: "end", data: { message: `${word} {{n}}` } },
        ],
        [
          ["start", "next", "ask"],
          ["ask", "answer", "bye"],
        ],
      );
    const id = await publish(a, def("Versão 1:"));
    const v = await visitor(a);
    await botSaid(v.room.id, 1);
    await publish(a, def("Versão 2:"), { id });
    await say(a, v, "Ana");
    expect((await streamSettled(v.room.id, "finished")).version).toBe(1);
    expect((await botTexts(v.room.id))[1]).toBe("Versão 1: Ana");
    const w = await visitor(a);
    await botSaid(w.room.id, 1);
    await say(a, w, "Bia");
    expect((await streamSettled(w.room.id, "finished")).version).toBe(2);
    expect((await botTexts(w.room.id))[1]).toBe("Versão 2: Bia");
  });

  it("HTTP step against a loopback peer: success maps JSON paths (Idempotency-Key sent), 500 and a timeout leave by 'error'", async () => {
    const a = await account("flowrt-http");
    answers.set("/ok/42", { status: 200, body: { order: { status: "enviado", items: [{ sku: "A1" }] } } });
    answers.set("/fail/42", { status: 500, body: { error: "boom" } });
    answers.set("/slow/42", { status: 200, body: {}, delayMs: 1500 });
    const id = await publish(
      a,
      definition(
        [
          { id: "start", type: "start" },
          { id: "e", type: "end" },
        ],
        [["start", "next", "e"]],
      ),
    );
    const httpFlow = (path: string) =>
      definition(
        [
          { id: "start", type: "start" },
          { id: "ask", type: "question", data: { text: "Pedido?", check: "number", store: { kind: "variable", name: "order" } } },
          {
            id: "api",
            type: "http",
            data: {
              method: "POST",
              url: `${peer.url}/${path}/{{order}}`,
              body: '{"order":"{{order}}"}',
              timeout_ms: 300,
              map: [
                { path: "order.status", variable: "st" },
                { path: "$.order.items[0].sku", variable: "sku" },
              ],
            },
          },
          { id: "ok", type: "end", data: { message: "Pedido {{order}}: {{st}} ({{sku}})" } },
          { id: "ko", type: "end", data: { message: "Sistema fora do ar" } },
        ],
        [
          ["start", "next", "ask"],
          ["ask", "answer", "api"],
          ["api", "success", "ok"],
          ["api", "error", "ko"],
        ],
      );
    for (const [path, expected] of [
      ["ok", "Pedido 42: enviado (A1)"],
      ["fail", "Sistema fora do ar"],
      ["slow", "Sistema fora do ar"],
    ] as const) {
      await publish(a, httpFlow(path), { id });
      peer.reset();
      const v = await visitor(a);
      await botSaid(v.room.id, 1);
      await say(a, v, "42");
      const s = await streamSettled(v.room.id, "finished");
      expect((await botTexts(v.room.id))[1]).toBe(expected);
      const call = peer.calls.find((c) => c.path === `/${path}/42`);
      expect(call?.method).toBe("POST");
      expect(call?.json).toEqual({ order: "42" });
      expect(call?.headers["idempotency-key"]).toBe(`${s.id}:4`);
      const [step] = await query<{ detail: Record<string, unknown> }>(`SELECT detail FROM flow_steps WHERE stream_id = $1 AND node_id = 'api'`, [s.id]);
      if (path === "ok") expect(step.detail).toMatchObject({ status: 200, mapped: { st: "enviado", sku: "A1" } });
      if (path === "fail") expect(step.detail).toMatchObject({ status: 500, error: "HTTP 500" });
      if (path === "slow") expect(step.detail).toMatchObject({ status: null, error: "timed out" });
    }
  });

  it("the same stream entry delivered twice (and an entry with nothing to do) sends once", async () => {
    const a = await account("flowrt-idem");
    await publish(
      a,
      definition(
        [
          { id: "start", type: "start" },
          { id: "ask", type: "question", data: { text: "Pergunta", check: "text", store: { kind: "variable", name: "x" } } },
          { id: "again", type: "question", data: { text: "Outra", check: "text", store: { kind: "variable", name: "y" } } },
          { id: "e", type: "end" },
        ],
        [
          ["start", "next", "ask"],
          ["ask", "answer", "again"],
          ["again", "answer", "e"],
        ],
      ),
    );
    const v = await visitor(a);
    await botSaid(v.room.id, 1);
    const s = await streamOf(v.room.id);
    const shard = keysOf(inject("redisPrefix")).jobStreamFor("flows:events", s.id);
    // An answer written without its wake-up, then announced three times at once.
    await query(`INSERT INTO flow_inputs (account_id, stream_id, kind, body) VALUES ($1, $2, 'message', 'resposta')`, [a.accountId, s.id]);
    await Promise.all([1, 2, 3].map(() => redis.xadd(shard, "*", "stream_id", s.id)));
    await botSaid(v.room.id, 2);
    await redis.xadd(shard, "*", "stream_id", s.id);
    await expect.poll(async () => (await query(`SELECT 1 FROM flow_inputs WHERE stream_id = $1 AND consumed_at IS NULL`, [s.id])).length).toBe(0);
    // Give a straggler entry every chance: the count stays.
    await expect.poll(async () => (await redis.xlen(shard)) === 0 || (await botTexts(v.room.id)).length !== 2, { timeout: 5000 }).toBe(true);
    expect(await botTexts(v.room.id)).toEqual(["Pergunta", "Outra"]);
    expect(await assertPath(s.id)).toEqual(["start:next", "ask:-", "ask:answer", "again:-"]);
  });

  it("an answer whose wake-up Redis lost is found by the sweep (PostgreSQL is the truth)", async () => {
    const a = await account("flowrt-lost");
    await publish(
      a,
      definition(
        [
          { id: "start", type: "start" },
          { id: "ask", type: "question", data: { text: "Pergunta", check: "text", store: { kind: "variable", name: "x" } } },
          { id: "e", type: "end", data: { message: "fim {{x}}" } },
        ],
        [
          ["start", "next", "ask"],
          ["ask", "answer", "e"],
        ],
      ),
    );
    const v = await visitor(a);
    await botSaid(v.room.id, 1);
    const s = await streamOf(v.room.id);
    await query(`INSERT INTO flow_inputs (account_id, stream_id, kind, body) VALUES ($1, $2, 'message', 'perdida')`, [a.accountId, s.id]);
    expect(await botSaid(v.room.id, 2)).toEqual(["Pergunta", "fim perdida"]);
  });

  it("API: start a flow on a queued room (409 when it has a live stream), list, read with its path, cancel (room to the queue), insights", async () => {
    const a = await account("flowrt-api");
    const other = await account("flowrt-api-other");
    const v = await visitor(a, "sem fluxo");
    expect(v.room.status).toBe("QUEUE");
    const id = await publish(
      a,
      definition(
        [
          { id: "start", type: "start" },
          { id: "ask", type: "question", data: { text: "Nota de 1 a 5?", check: "number", store: { kind: "variable", name: "nota" } } },
          { id: "e", type: "end" },
        ],
        [
          ["start", "next", "ask"],
          ["ask", "answer", "e"],
        ],
      ),
      { trigger: "api" },
    );
    const started = await api(`/api/flow/flows/${id}/streams`, { token: a.token, body: { room_id: v.room.id } });
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    expect(started.headers.get("location")).toBe(`/api/flow/streams/${started.body.data.id}`);
    expect((await roomOf(v.room.id)).status).toBe("BOT");
    expect(await botSaid(v.room.id, 1)).toEqual(["Nota de 1 a 5?"]);
    const again = await api(`/api/flow/flows/${id}/streams`, { token: a.token, body: { room_id: v.room.id } });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe("FLOW_STREAM_LIVE");
    expect((await api(`/api/flow/flows/${id}/streams`, { token: other.token, body: { room_id: v.room.id } })).status).toBe(404);

    const list = await api(`/api/flow/streams?flow_id=${id}&status=waiting`, { token: a.token });
    expect(list.status).toBe(200);
    expect(list.body.data.map((s: { id: string }) => s.id)).toEqual([started.body.data.id]);
    const one = await api(`/api/flow/streams/${started.body.data.id}`, { token: a.token });
    expect(one.body.data).toMatchObject({ status: "waiting", waiting: "answer", node_id: "ask", version: 1 });
    expect(one.body.data.path.map((p: { node_id: string }) => p.node_id)).toEqual(["start", "ask"]);
    expect((await api(`/api/flow/streams/${started.body.data.id}`, { token: other.token })).status).toBe(404);

    const cancelled = await api(`/api/flow/streams/${started.body.data.id}`, { token: a.token, method: "PUT", body: { status: "cancelled" } });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.data.status).toBe("cancelled");
    expect(await roomOf(v.room.id)).toMatchObject({ status: "QUEUE" });
    expect((await api(`/api/flow/streams/${started.body.data.id}`, { token: a.token, method: "PUT", body: { status: "cancelled" } })).status).toBe(409);
    // The visitor's next message is no longer the bot's.
    await say(a, v, "5");
    expect(await botTexts(v.room.id)).toHaveLength(1);

    const insights = await api("/api/flow/streams/insights", { token: a.token, body: { flow_id: id } });
    expect(insights.status).toBe(200);
    expect(insights.body.data).toEqual([
      expect.objectContaining({ flow_id: id, entered: 1, cancelled: 1, finished: 0, nodes: expect.arrayContaining([expect.objectContaining({ node_id: "ask", entered: 1 })]) }),
    ]);
  });
});
