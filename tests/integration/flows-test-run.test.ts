/**
 * The builder's test panel over the API (issue 20): POST /api/flow/flows/{id}/test runs the saved
 * draft against a simulated visitor with the runtime's engine — message, a choice question, an
 * e-mail question with a retry, a condition, actions, an HTTP step against a loopback peer, a delay
 * skipped, a hand-off, an end — answering each turn's transcript and the state to send back, and
 * writing nothing (no live_messages, flow_streams/steps/inputs, contacts, rooms). A draft with
 * issues is 422 naming the step; another account's flow is 404; a forged state is 422.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, giveOmni, login, registerPerson, type Person } from "../support/api";
import { query } from "../support/db";
import { startRecordingPeer, type RecordingPeer } from "../support/loopback-peer";

let owner: Person;
let token: string;
let otherToken: string;
let peer: RecordingPeer;

const node = (id: string, type: string, data: Record<string, unknown> = {}) => ({ id, type, position: { x: 0, y: 0 }, data });
const edges = (list: Array<[string, string, string]>) => list.map(([source, output, target], i) => ({ id: `e${i}`, source, output, target }));

function fullDraft(url: string) {
  return {
    nodes: [
      node("start", "start"),
      node("hi", "message", { text: "Olá {{first_name}}!", buttons: ["Pedido", "Atendente"] }),
      node("menu", "question", { text: "Escolha", check: "choice", choices: ["Pedido", "Atendente"], store: { kind: "variable", name: "option" } }),
      node("branch", "condition", { rules: [{ id: "human", subject: "variable", name: "option", op: "equals", value: "Atendente" }] }),
      node("mail", "question", { text: "Seu e-mail?", check: "email", store: { kind: "field", name: "email" }, retries: 1, retry_message: "E-mail inválido, de novo" }),
      node("tag", "action", { kind: "add_tag", name: "lead" }),
      node("api", "http", { method: "POST", url: `${url}/orders/{{option}}`, body: '{"e":"{{email}}"}', timeout_ms: 2000, map: [{ path: "order.status", variable: "st" }] }),
      node("wait", "delay", { seconds: 3600 }),
      node("done", "end", { message: "Pedido {{st}}. Tchau!" }),
      node("ko", "end", { message: "Fora do ar" }),
      node("agent", "handoff", { message: "Um momento." }),
    ],
    edges: edges([
      ["start", "next", "hi"],
      ["hi", "next", "menu"],
      ["menu", "answer", "branch"],
      ["branch", "human", "agent"],
      ["branch", "else", "mail"],
      ["mail", "answer", "tag"],
      ["tag", "next", "api"],
      ["api", "success", "wait"],
      ["api", "error", "ko"],
      ["wait", "next", "done"],
    ]),
  };
}

async function createFlow(draft: unknown, t = token) {
  const res = await api("/api/flow/flows", { token: t, lang: "en", body: { name: `Teste ${Date.now()}`, channel: "webchat", trigger: "inbound", draft } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data.id as string;
}

const turn = (id: string, body: Record<string, unknown>, t = token) => api(`/api/flow/flows/${id}/test`, { token: t, lang: "en", body });

/** What the panel shows of a turn: "bot: text [buttons]", "visitor: text", "note: text". */
const lines = (entries: Array<Record<string, any>>) =>
  entries.map((e) => (e.kind === "bot" ? `bot: ${e.text}${e.buttons ? ` [${e.buttons.join("|")}]` : ""}` : e.kind === "visitor" ? `visitor: ${e.text}` : `note: ${e.text}`));

/** Everything a real run would write for the account. */
async function footprint(accountId: string) {
  const [r] = await query<Record<string, string>>(
    `SELECT (SELECT count(*) FROM live_messages WHERE account_id = $1)::text AS messages,
            (SELECT count(*) FROM live_rooms WHERE account_id = $1)::text AS rooms,
            (SELECT count(*) FROM flow_streams WHERE account_id = $1)::text AS streams,
            (SELECT count(*) FROM flow_steps WHERE account_id = $1)::text AS steps,
            (SELECT count(*) FROM flow_inputs WHERE account_id = $1)::text AS inputs,
            (SELECT count(*) || ':' || coalesce(max(updated_at)::text, '') FROM contacts WHERE account_id = $1) AS contacts`,
    [accountId],
  );
  return r;
}

beforeAll(async () => {
  owner = await registerPerson("flowtest");
  await giveOmni(owner.accountId);
  token = (await login(owner.email, owner.password)).token;
  const other = await registerPerson("flowtest-other");
  await giveOmni(other.accountId);
  otherToken = (await login(other.email, other.password)).token;
  peer = await startRecordingPeer((call, reply) => {
    if (call.path === "/orders/Pedido") reply.send(200, { order: { status: "enviado" } });
    else reply.send(500, { error: "boom" });
  });
});
afterAll(async () => {
  await peer?.close();
});

describe("POST /api/flow/flows/{id}/test", () => {
  it("walks message, choice and e-mail questions (retry), condition, action, HTTP (really called), a skipped delay and the end; writes nothing", async () => {
    const id = await createFlow(fullDraft(peer.url));
    const before = await footprint(owner.accountId);

    const t1 = await turn(id, { contact: { first_name: "Ana" } });
    expect(t1.status, JSON.stringify(t1.body)).toBe(200);
    expect(lines(t1.body.data.entries)).toEqual(["bot: Olá Ana! [Pedido|Atendente]", "bot: Escolha [Pedido|Atendente]"]);
    expect(t1.body.data).toMatchObject({ status: "waiting", waiting: "answer", can_skip: false, vars: {} });

    // A button's text as the answer; the else branch asks the e-mail.
    const t2 = await turn(id, { state: t1.body.data.state, message: "pedido" });
    expect(lines(t2.body.data.entries)).toEqual(["visitor: pedido", "bot: Seu e-mail?"]);
    expect(t2.body.data.vars).toEqual({ option: "Pedido" });

    const t3 = await turn(id, { state: t2.body.data.state, message: "not-an-email" });
    expect(lines(t3.body.data.entries)).toEqual(["visitor: not-an-email", "note: Validation failed, retry (0 left)", "bot: E-mail inválido, de novo"]);

    const t4 = await turn(id, { state: t3.body.data.state, message: "Ana@Example.com" });
    expect(t4.status, JSON.stringify(t4.body)).toBe(200);
    expect(lines(t4.body.data.entries)).toEqual([
      "visitor: Ana@Example.com",
      'note: Would set field email = "ana@example.com"',
      'note: Would add tag "lead"',
      "note: HTTP call answered 200 (success)",
      "note: Waiting 3600 seconds",
    ]);
    expect(t4.body.data).toMatchObject({ status: "waiting", waiting: "delay", can_skip: true, vars: { option: "Pedido", st: "enviado" } });
    expect(t4.body.data.state.tags).toEqual(["lead"]);
    // The peer was really called, with the filled body.
    expect(peer.calls.map((c) => [c.method, c.path, c.json])).toEqual([["POST", "/orders/Pedido", { e: "ana@example.com" }]]);

    const t5 = await turn(id, { state: t4.body.data.state, skip: true });
    expect(lines(t5.body.data.entries)).toEqual(["bot: Pedido enviado. Tchau!", "note: Ended"]);
    expect(t5.body.data).toMatchObject({ status: "finished", can_skip: false });

    // A message to a finished run, or skip without a wait: 422.
    expect((await turn(id, { state: t5.body.data.state, message: "oi" })).status).toBe(422);
    expect((await turn(id, { state: t5.body.data.state, skip: true })).status).toBe(422);

    // Restart, the other branch: the hand-off is described, not done.
    const r1 = await turn(id, { state: t5.body.data.state, reset: true });
    expect(lines(r1.body.data.entries)).toEqual(["bot: Olá ! [Pedido|Atendente]", "bot: Escolha [Pedido|Atendente]"]);
    const r2 = await turn(id, { state: r1.body.data.state, message: "Atendente" });
    expect(lines(r2.body.data.entries)).toEqual(["visitor: Atendente", "bot: Um momento.", "note: Would hand off to the queue"]);
    expect(r2.body.data.status).toBe("handed_off");

    expect(await footprint(owner.accountId)).toEqual(before);
    expect(before).toMatchObject({ messages: "0", rooms: "0", streams: "0", steps: "0", inputs: "0" });
  });

  it("answers in the caller's language; an HTTP failure leaves by 'error'", async () => {
    const draft = fullDraft(peer.url);
    const id = await createFlow(draft);
    const t1 = await turn(id, {});
    const t2 = await turn(id, { state: t1.body.data.state, message: "Pedido" });
    peer.reset();
    // Another option in the URL: the peer answers 500.
    const state = { ...t2.body.data.state, vars: { option: "Outro" } };
    const t3 = await api(`/api/flow/flows/${id}/test`, { token, lang: "pt-BR", body: { state, message: "a@b.com" } });
    expect(lines(t3.body.data.entries)).toEqual([
      "visitor: a@b.com",
      'note: Definiria o campo email = "a@b.com"',
      'note: Adicionaria a etiqueta "lead"',
      "note: Chamada HTTP respondeu 500 (error)",
      "bot: Fora do ar",
      "note: Encerrado",
    ]);
    expect(peer.calls.map((c) => c.path)).toEqual(["/orders/Outro"]);
  });

  it("a draft with issues is 422 FLOW_HAS_ERRORS naming the step; a forged state or a long message 422; another account's flow 404", async () => {
    const id = await createFlow({
      nodes: [node("start", "start"), node("q", "question", { text: "Sem saída?", check: "text", store: { kind: "variable", name: "x" } })],
      edges: edges([["start", "next", "q"]]),
    });
    const bad = await turn(id, {});
    expect(bad.status).toBe(422);
    expect(bad.body.error.code).toBe("FLOW_HAS_ERRORS");
    expect(Object.keys(bad.body.error.fields).some((k) => k.startsWith("nodes.q"))).toBe(true);

    const good = await createFlow(fullDraft(peer.url));
    const t1 = await turn(good, {});
    expect((await turn(good, { state: { ...t1.body.data.state, extra: 1 }, message: "Pedido" })).status).toBe(422);
    expect((await turn(good, { state: { ...t1.body.data.state, vars: { "bad key!": "x".repeat(5000) } }, message: "Pedido" })).status).toBe(422);
    expect((await turn(good, { state: t1.body.data.state, message: "x".repeat(4097) })).status).toBe(422);

    const theirs = await turn(good, {}, otherToken);
    expect(theirs.status).toBe(404);
  });
});
