import { describe, expect, it } from "vitest";
import { checkFlow, type FlowDefinition } from "./definition";
import { advance, checkAnswer, type EngineInput, type Facts, fill, FlowRunError, NEW_STATE, readPath, type StreamState } from "./engine";

const T0 = new Date("2026-11-30T12:00:00Z");
const facts = (over: Partial<Facts> = {}): Facts => ({ contact: { first_name: "Ana", name: "Ana Lima", email: "ana@x.com" }, roomTags: [], contactTags: [], open: true, ...over });

/** A checked definition from nodes and edges given as [source, output, target]. */
function flow(nodes: Array<{ id: string; type: string; data?: unknown }>, edges: Array<[string, string, string]>): FlowDefinition {
  const r = checkFlow({ nodes: nodes.map((n) => ({ data: {}, ...n })), edges: edges.map(([source, output, target], i) => ({ id: `e${i}`, source, output, target })) });
  if (!r.ok) throw new Error(JSON.stringify(r.issues));
  return r.flow;
}

/** Runs inputs one after another; answers the last result and every effect and step seen. */
function run(def: FlowDefinition, inputs: EngineInput[], f: Facts = facts(), now = T0) {
  let state: StreamState = NEW_STATE;
  const effects: unknown[] = [];
  const steps: Array<{ seq: number; node_id: string; output: string | null }> = [];
  let last = advance(def, state, inputs[0], f, now);
  for (let i = 0; ; ) {
    state = last.state;
    effects.push(...last.steps.flatMap((s) => s.effects));
    steps.push(...last.steps.map(({ seq, node_id, output }) => ({ seq, node_id, output })));
    if (++i >= inputs.length) break;
    last = advance(def, state, inputs[i], f, now);
  }
  return { state, effects, steps, pending: last.pending };
}
const texts = (effects: unknown[]) => effects.filter((e): e is { type: "send"; text: string } => (e as { type: string }).type === "send").map((e) => e.text);

const ask = (data: Record<string, unknown> = {}) => ({
  id: "ask",
  type: "question",
  data: { text: "Seu e-mail?", check: "email", store: { kind: "variable", name: "email" }, ...data },
});

describe("flow engine", () => {
  it("start → message (variables filled, buttons, media) → end: finished, one step per node, seq 1..n", () => {
    const def = flow(
      [
        { id: "start", type: "start" },
        { id: "hi", type: "message", data: { text: "Olá {{first_name}}, {{missing}}!", buttons: ["Sim", "Não"], media_url: "https://x.com/a.png" } },
        { id: "bye", type: "end", data: { message: "Até logo, {{ name }}" } },
      ],
      [
        ["start", "next", "hi"],
        ["hi", "next", "bye"],
      ],
    );
    const r = run(def, [{ kind: "start" }]);
    expect(r.state).toMatchObject({ status: "finished", node_id: "bye", steps: 3, waiting: null });
    expect(r.effects).toEqual([
      { type: "send", text: "Olá Ana, !", media_url: "https://x.com/a.png", buttons: ["Sim", "Não"] },
      { type: "send", text: "Até logo, Ana Lima" },
      { type: "end" },
    ]);
    expect(r.steps.map((s) => s.seq)).toEqual([1, 2, 3]);
    // A second start changes nothing (a redelivered start input).
    expect(advance(def, r.state, { kind: "start" }, facts(), T0).steps).toEqual([]);
  });

  it("question: waits with its timeout; a valid answer is stored and leaves by 'answer'; variables reach later texts", () => {
    const def = flow(
      [{ id: "start", type: "start" }, ask({ timeout_seconds: 120 }), { id: "ok", type: "message", data: { text: "Anotado: {{email}}" } }],
      [
        ["start", "next", "ask"],
        ["ask", "answer", "ok"],
      ],
    );
    const waiting = run(def, [{ kind: "start" }]);
    expect(waiting.state).toMatchObject({ status: "waiting", waiting: "answer", node_id: "ask", retries_left: 2 });
    expect(waiting.state.wake_at?.toISOString()).toBe("2026-11-30T12:02:00.000Z");
    const done = run(def, [{ kind: "start" }, { kind: "message", body: " Ana@X.com " }]);
    expect(done.state).toMatchObject({ status: "finished", vars: { email: "ana@x.com" }, wake_at: null });
    expect(texts(done.effects)).toEqual(["Seu e-mail?", "Anotado: ana@x.com"]);
  });

  it("invalid answers: retry_message and stay; after `retries` re-asks leave by 'invalid', or drop with no edge", () => {
    const nodes = [{ id: "start", type: "start" }, ask({ retries: 1, retry_message: "Inválido, de novo" }), { id: "sorry", type: "message", data: { text: "Desisto" } }];
    const withEdge = flow(nodes, [
      ["start", "next", "ask"],
      ["ask", "answer", "sorry"],
      ["ask", "invalid", "sorry"],
    ]);
    const once = run(withEdge, [{ kind: "start" }, { kind: "message", body: "nope" }]);
    expect(once.state).toMatchObject({ status: "waiting", retries_left: 0 });
    expect(texts(once.effects)).toEqual(["Seu e-mail?", "Inválido, de novo"]);
    const twice = run(withEdge, [{ kind: "start" }, { kind: "message", body: "nope" }, { kind: "message", body: "still no" }]);
    expect(twice.state.status).toBe("finished");
    expect(twice.steps.map((s) => s.output)).toEqual(["next", null, null, "invalid", "next"]);
    const noEdge = flow(nodes, [
      ["start", "next", "ask"],
      ["ask", "answer", "sorry"],
    ]);
    const dropped = run(noEdge, [{ kind: "start" }, { kind: "message", body: "nope" }, { kind: "message", body: "still no" }]);
    expect(dropped.state).toMatchObject({ status: "dropped", reason: "invalid answers" });
  });

  it("question timeout: a due timer leaves by 'timeout' or drops; an early or stale timer does nothing", () => {
    const nodes = [{ id: "start", type: "start" }, ask({ timeout_seconds: 60 }), { id: "late", type: "message", data: { text: "Tempo esgotado" } }];
    const def = flow(nodes, [
      ["start", "next", "ask"],
      ["ask", "answer", "late"],
      ["ask", "timeout", "late"],
    ]);
    const started = run(def, [{ kind: "start" }]).state;
    expect(advance(def, started, { kind: "timer" }, facts(), new Date(T0.getTime() + 59_000)).steps).toEqual([]);
    const due = advance(def, started, { kind: "timer" }, facts(), new Date(T0.getTime() + 60_000));
    expect(due.steps.map((s) => s.output)).toEqual(["timeout", "next"]);
    expect(due.state.status).toBe("finished");
    const noEdge = flow(nodes, [
      ["start", "next", "ask"],
      ["ask", "answer", "late"],
    ]);
    const dropped = advance(noEdge, run(noEdge, [{ kind: "start" }]).state, { kind: "timer" }, facts(), new Date(T0.getTime() + 61_000));
    expect(dropped.state).toMatchObject({ status: "dropped", reason: "no answer" });
  });

  it("condition: first matching rule's output, else 'else'; variables, fields, tags, opening hours", () => {
    const def = flow(
      [
        { id: "start", type: "start" },
        {
          id: "c",
          type: "condition",
          data: {
            rules: [
              { id: "closed", subject: "opening_hours", op: "closed" },
              { id: "vip", subject: "tag", name: "vip", op: "exists" },
              { id: "big", subject: "variable", name: "total", op: "greater", value: "100" },
              { id: "mail", subject: "field", name: "email", op: "contains", value: "@x.com" },
            ],
          },
        },
        { id: "a", type: "end" },
        { id: "b", type: "end" },
        { id: "d", type: "end" },
        { id: "e", type: "end" },
        { id: "z", type: "end" },
      ],
      [
        ["start", "next", "c"],
        ["c", "closed", "a"],
        ["c", "vip", "b"],
        ["c", "big", "d"],
        ["c", "mail", "e"],
        ["c", "else", "z"],
      ],
    );
    const at = (f: Facts, vars: Record<string, string> = {}) => advance(def, { ...NEW_STATE, vars }, { kind: "start" }, f, T0).state.node_id;
    expect(at(facts({ open: false, roomTags: ["VIP"] }))).toBe("a");
    expect(at(facts({ contactTags: ["vip"] }))).toBe("b");
    expect(at(facts(), { total: "150,5" })).toBe("d");
    expect(at(facts())).toBe("e");
    expect(at(facts({ contact: {} }))).toBe("z");
  });

  it("delay: waits until now + seconds, then 'next' on a due timer", () => {
    const def = flow(
      [
        { id: "start", type: "start" },
        { id: "wait", type: "delay", data: { seconds: 30 } },
        { id: "after", type: "message", data: { text: "Voltei" } },
      ],
      [
        ["start", "next", "wait"],
        ["wait", "next", "after"],
      ],
    );
    const s = run(def, [{ kind: "start" }]).state;
    expect(s).toMatchObject({ status: "waiting", waiting: "delay", node_id: "wait" });
    // A visitor's message during a delay is no answer: nothing happens.
    expect(advance(def, s, { kind: "message", body: "oi" }, facts(), T0).steps).toEqual([]);
    const r = advance(def, s, { kind: "timer" }, facts(), new Date(T0.getTime() + 30_000));
    expect(r.steps.map((x) => [x.node_id, x.output])).toEqual([
      ["wait", "next"],
      ["after", "next"],
    ]);
  });

  it("http: asks the runtime for the call (url filled, seq for the idempotency key), maps JSON paths on success, 'error' otherwise", () => {
    const def = flow(
      [
        { id: "start", type: "start" },
        {
          id: "api",
          type: "http",
          data: { method: "POST", url: "http://127.0.0.1:9/o/{{order}}", body: '{"e":"{{email}}"}', map: [{ path: "$.data.items[1].name", variable: "item" }] },
        },
        { id: "ok", type: "message", data: { text: "Item {{item}}" } },
        { id: "ko", type: "message", data: { text: "Falhou" } },
      ],
      [
        ["start", "next", "api"],
        ["api", "success", "ok"],
        ["api", "error", "ko"],
      ],
    );
    const first = advance(def, { ...NEW_STATE, vars: { order: "42", email: "a@b.co" } }, { kind: "start" }, facts(), T0);
    expect(first.pending).toEqual({ node_id: "api", method: "POST", url: "http://127.0.0.1:9/o/42", body: '{"e":"a@b.co"}', timeout_ms: 5000, seq: 2 });
    expect(first.state).toMatchObject({ status: "running", node_id: "api", steps: 1 });
    const ok = advance(
      def,
      first.state,
      { kind: "http", result: { ok: true, status: 200, json: { data: { items: [{ name: "x" }, { name: "Caneca" }] } }, error: null } },
      facts(),
      T0,
    );
    expect(texts(ok.steps.flatMap((s) => s.effects))).toEqual(["Item Caneca"]);
    expect(ok.steps[0]).toMatchObject({ seq: 2, node_id: "api", output: "success", detail: { status: 200, mapped: { item: "Caneca" } } });
    const ko = advance(def, first.state, { kind: "http", result: { ok: false, status: 500, json: null, error: "HTTP 500" } }, facts(), T0);
    expect(ko.steps.map((s) => s.output)).toEqual(["error", "next"]);
  });

  it("action: tag, field (contact facts follow), group; handoff: its message then the hand-off", () => {
    const def = flow(
      [
        { id: "start", type: "start" },
        { id: "t", type: "action", data: { kind: "add_tag", name: "lead" } },
        { id: "u", type: "action", data: { kind: "remove_tag", name: "old" } },
        { id: "f", type: "action", data: { kind: "set_field", name: "company", value: "ACME {{first_name}}" } },
        { id: "g", type: "action", data: { kind: "add_to_group", name: "Leads" } },
        { id: "m", type: "message", data: { text: "{{company}}" } },
        { id: "h", type: "handoff", data: { department_id: "d1", message: "Um momento" } },
      ],
      [
        ["start", "next", "t"],
        ["t", "next", "u"],
        ["u", "next", "f"],
        ["f", "next", "g"],
        ["g", "next", "m"],
        ["m", "next", "h"],
      ],
    );
    const r = run(def, [{ kind: "start" }]);
    expect(r.state.status).toBe("handed_off");
    expect(r.effects).toEqual([
      { type: "tag", op: "add", name: "lead" },
      { type: "tag", op: "remove", name: "old" },
      { type: "set_field", name: "company", value: "ACME Ana" },
      { type: "group", name: "Leads" },
      { type: "send", text: "ACME Ana" },
      { type: "send", text: "Um momento" },
      { type: "handoff", department_id: "d1" },
    ]);
  });

  it("an output with no edge ends the conversation; a missing node is a FlowRunError", () => {
    const def = flow(
      [
        { id: "start", type: "start" },
        { id: "m", type: "message", data: { text: "só isso" } },
      ],
      [["start", "next", "m"]],
    );
    expect(run(def, [{ kind: "start" }]).state.status).toBe("finished");
    expect(() => advance(def, { ...NEW_STATE, status: "waiting", waiting: "answer", node_id: "gone", steps: 2 }, { kind: "message", body: "x" }, facts(), T0)).toThrow(
      FlowRunError,
    );
  });

  it("checks answers: e-mail, phone, CPF and CNPJ check digits, number, date, choice", () => {
    expect(checkAnswer("email", "a@b")).toBeNull();
    expect(checkAnswer("phone", "(11) 98765-4321")).toBe("11987654321");
    expect(checkAnswer("phone", "123")).toBeNull();
    expect(checkAnswer("cpf", "529.982.247-25")).toBe("52998224725");
    expect(checkAnswer("cpf", "529.982.247-24")).toBeNull();
    expect(checkAnswer("cpf", "111.111.111-11")).toBeNull();
    expect(checkAnswer("cnpj", "11.222.333/0001-81")).toBe("11222333000181");
    expect(checkAnswer("cnpj", "11.222.333/0001-82")).toBeNull();
    expect(checkAnswer("cpf_cnpj", "11222333000181")).toBe("11222333000181");
    expect(checkAnswer("cpf_cnpj", "52998224725")).toBe("52998224725");
    expect(checkAnswer("number", "1.234,5")).toBe("1234.5");
    expect(checkAnswer("number", "12a")).toBeNull();
    expect(checkAnswer("date", "31/12/2026")).toBe("31/12/2026");
    expect(checkAnswer("date", "31/02/2026")).toBeNull();
    expect(checkAnswer("choice", " atendente ", ["Horários", "Atendente"])).toBe("Atendente");
    expect(checkAnswer("choice", "outro", ["Horários"])).toBeNull();
    // By its 1-based number too (WhatsApp lists the buttons numbered), on every channel.
    expect(checkAnswer("choice", "1", ["Sim", "Não"])).toBe("Sim");
    expect(checkAnswer("choice", " 2. ", ["Sim", "Não"])).toBe("Não");
    expect(checkAnswer("choice", "2)", ["Sim", "Não"])).toBe("Não");
    expect(checkAnswer("choice", "3", ["Sim", "Não"])).toBeNull();
    expect(checkAnswer("choice", "0", ["Sim", "Não"])).toBeNull();
    // A button whose text is a number is taken by its text first.
    expect(checkAnswer("choice", "2", ["2", "1"])).toBe("2");
    expect(fill("{{a}}-{{b}}", { a: "1" }, { b: "2" })).toBe("1-2");
    expect(readPath({ a: [{ b: 1 }] }, "a[0].b")).toBe(1);
  });
});
