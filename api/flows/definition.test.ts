/** The check of a flow definition before publishing (issue 20, ADR 053): every rule, each issue on its node. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkDraft, checkFlow, EMPTY_DRAFT, FLOW_LIMITS } from "./definition";

/** A welcome flow like the demo's: greet, offer buttons, ask, branch, hand off or end. */
function welcome() {
  return {
    nodes: [
      { id: "start", type: "start", position: { x: 0, y: 0 } },
      { id: "hello", type: "message", data: { text: "Olá! Como podemos ajudar?", buttons: ["Horários", "Falar com alguém"] } },
      { id: "ask", type: "question", data: { text: "Escolha uma opção", check: "choice", choices: ["Horários", "Falar com alguém"], store: { kind: "variable", name: "choice" } } },
      { id: "branch", type: "condition", data: { rules: [{ id: "human", subject: "variable", name: "choice", op: "equals", value: "Falar com alguém" }] } },
      { id: "hours", type: "message", data: { text: "Atendemos de segunda a sexta, das 8h às 18h." } },
      { id: "agent", type: "handoff", data: { message: "Um momento, já vamos atender." } },
      { id: "bye", type: "end", data: {} },
    ],
    edges: [
      { id: "e1", source: "start", output: "next", target: "hello" },
      { id: "e2", source: "hello", output: "next", target: "ask" },
      { id: "e3", source: "ask", output: "answer", target: "branch" },
      { id: "e4", source: "ask", output: "invalid", target: "agent" },
      { id: "e5", source: "branch", output: "human", target: "agent" },
      { id: "e6", source: "branch", output: "else", target: "hours" },
      { id: "e7", source: "hours", output: "next", target: "bye" },
    ],
  };
}
const issues = (input: unknown) => {
  const r = checkFlow(input);
  return r.ok ? [] : r.issues;
};

describe("checkFlow", () => {
  it("takes a well-formed flow and applies each node's defaults", () => {
    const r = checkFlow(welcome());
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const ask = r.flow.nodes.find((n) => n.id === "ask");
    expect(ask?.type === "question" && ask.data.retries).toBe(2);
    expect(r.flow.edges).toHaveLength(7);
  });

  it("names an unknown node type, a repeated id, and bad data on its node and field", () => {
    const f = welcome();
    f.nodes.push({ id: "weird", type: "teleport", data: {} } as never, { id: "bye", type: "end", data: {} });
    f.nodes[1] = { id: "hello", type: "message", data: {} } as never;
    f.nodes[2] = { id: "ask", type: "question", data: { text: "?", check: "choice", store: { kind: "variable", name: "choice" } } } as never;
    f.nodes.push({ id: "api", type: "http", data: { method: "GET", url: "ftp://example.com/x" } } as never);
    f.nodes.push({ id: "cond", type: "condition", data: { rules: [{ id: "r", subject: "opening_hours", op: "equals" }] } } as never);
    expect(issues(f)).toEqual(
      expect.arrayContaining([
        { node: "weird", field: "type", key: "validation.flowNodeType" },
        { node: "bye", field: "id", key: "validation.flowNodeRepeat" },
        { node: "hello", field: "data.text", key: "validation.required" },
        { node: "ask", field: "data.choices", key: "validation.required" },
        { node: "api", field: "data.url", key: "validation.httpUrl" },
        { node: "cond", field: "data.rules.0.op", key: "validation.option" },
      ]),
    );
  });

  it("needs exactly one start, reachable nodes, and a way out of every question", () => {
    const none = welcome();
    none.nodes = none.nodes.filter((n) => n.id !== "start");
    none.edges = none.edges.filter((e) => e.source !== "start");
    expect(issues(none)).toContainEqual({ node: null, field: null, key: "validation.flowStart" });

    const two = welcome();
    two.nodes.push({ id: "start2", type: "start" } as never);
    expect(issues(two)).toContainEqual({ node: "start2", field: null, key: "validation.flowStartRepeat" });

    const island = welcome();
    island.nodes.push({ id: "lost", type: "message", data: { text: "ninguém chega aqui" } });
    expect(issues(island)).toEqual([{ node: "lost", field: null, key: "validation.flowUnreachable" }]);

    const stuck = welcome();
    stuck.edges = stuck.edges.filter((e) => e.id !== "e3");
    expect(issues(stuck)).toContainEqual({ node: "ask", field: "outputs.answer", key: "validation.flowNoWayOut" });
  });

  it("refuses edges from an output the node does not have, to a missing node, or twice from one output", () => {
    const f = welcome();
    f.edges.push({ id: "x1", source: "hours", output: "maybe", target: "bye" });
    f.edges.push({ id: "x2", source: "bye", output: "next", target: "hello" });
    f.edges.push({ id: "x3", source: "ask", output: "timeout", target: "ghost" });
    f.edges.push({ id: "x4", source: "hours", output: "next", target: "agent" });
    expect(issues(f)).toEqual([
      { node: "hours", field: "outputs.maybe", key: "validation.flowOutput" },
      { node: "bye", field: "outputs.next", key: "validation.flowOutput" },
      { node: "ask", field: "outputs.timeout", key: "validation.flowEdgeNode" },
      { node: "hours", field: "outputs.next", key: "validation.flowOutputRepeat" },
    ]);
  });

  it("refuses a loop that never waits, and takes one through a question or a delay", () => {
    const busy = welcome();
    busy.nodes.push({ id: "tag", type: "action", data: { kind: "add_tag", name: "visto" } } as never);
    busy.nodes = busy.nodes.filter((n) => n.id !== "bye");
    busy.edges = busy.edges.filter((e) => e.id !== "e7");
    busy.edges.push({ id: "l1", source: "hours", output: "next", target: "tag" }, { id: "l2", source: "tag", output: "next", target: "hours" });
    const found = issues(busy);
    expect(found).toHaveLength(1);
    expect(found[0].key).toBe("validation.flowLoop");
    expect(["hours", "tag"]).toContain(found[0].node);

    const patient = welcome();
    patient.nodes = patient.nodes.filter((n) => n.id !== "bye");
    patient.edges = patient.edges.filter((e) => e.id !== "e7");
    patient.edges.push({ id: "back", source: "hours", output: "next", target: "ask" });
    expect(issues(patient)).toEqual([]);

    const waiting = welcome();
    waiting.nodes.push({ id: "pause", type: "delay", data: { seconds: 60 } } as never);
    waiting.nodes = waiting.nodes.filter((n) => n.id !== "bye");
    waiting.edges = waiting.edges.filter((e) => e.id !== "e7");
    waiting.edges.push({ id: "d1", source: "hours", output: "next", target: "pause" }, { id: "d2", source: "pause", output: "next", target: "hello" });
    expect(issues(waiting)).toEqual([]);
  });

  it("refuses a definition over its limits, naming the limit", () => {
    const many = { nodes: Array.from({ length: FLOW_LIMITS.nodes + 1 }, (_, i) => ({ id: `n${i}`, type: "end" })), edges: [] };
    expect(issues(many)).toEqual([{ node: null, field: "nodes", key: `validation.flowTooManyNodes::${FLOW_LIMITS.nodes}` }]);
    const big = welcome();
    big.nodes.push({ id: "huge", type: "message", data: { text: "x".repeat(FLOW_LIMITS.bytes) } });
    expect(issues(big)).toEqual([{ node: null, field: null, key: `validation.flowTooLarge::${FLOW_LIMITS.bytes / 1024}` }]);
    expect(issues("not a flow")).toEqual([{ node: null, field: null, key: "validation.invalid" }]);
  });

  it("every key it can answer is translated in the four languages", () => {
    const source = readFileSync(join(import.meta.dirname, "definition.ts"), "utf8");
    const keys = [...new Set([...source.matchAll(/"validation\.(flow\w+)/g)].map((m) => m[1]))];
    expect(keys.length).toBeGreaterThan(10);
    for (const lng of ["pt-BR", "en", "es", "zh"]) {
      const validation = JSON.parse(readFileSync(join(import.meta.dirname, "..", "..", "public", "locales", lng, "validation.json"), "utf8"));
      for (const k of keys) expect(typeof validation[k], `${lng} validation.${k}`).toBe("string");
    }
  });
});

describe("checkDraft (what PUT of a flow's draft keeps)", () => {
  it("keeps work in progress with its issues, each node and edge reduced to its own keys", () => {
    const f = welcome();
    f.nodes[1] = { id: "hello", type: "message", data: {}, selected: true, measured: { width: 10 } } as never;
    f.edges.push({ id: "x", source: "ghost", output: "next", target: "bye", animated: true } as never);
    f.nodes.push({ id: "lost", type: "delay", data: { seconds: 10 * 86_400 } } as never);
    const r = checkDraft(f);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.draft.nodes[1]).toEqual({ id: "hello", type: "message", data: {} });
    expect(r.draft.nodes[0]).toEqual({ id: "start", type: "start", position: { x: 0, y: 0 }, data: {} });
    expect(r.draft.edges.at(-1)).toEqual({ id: "x", source: "ghost", output: "next", target: "bye" });
    expect(r.draft.nodes.at(-1)).toEqual({ id: "lost", type: "delay", data: { seconds: 10 * 86_400 } });
    expect(r.issues).toEqual(
      expect.arrayContaining([
        { node: "hello", field: "data.text", key: "validation.required" },
        { node: null, field: `edges.${f.edges.length - 1}.source`, key: "validation.flowEdgeNode" },
        { node: "lost", field: "data.seconds", key: `validation.max::${FLOW_LIMITS.waitSeconds}` },
      ]),
    );
    expect(checkDraft(EMPTY_DRAFT)).toEqual({ ok: true, draft: EMPTY_DRAFT, issues: [{ node: "start", field: "outputs.next", key: "validation.required" }] });
  });

  it("refuses an unknown node type, a repeated id, a malformed node, and anything over a size limit, naming the node", () => {
    const typed = welcome();
    typed.nodes.push({ id: "weird", type: "teleport", data: {} } as never);
    typed.nodes[1] = { id: "hello", type: "message", data: {} } as never;
    expect(checkDraft(typed)).toEqual({ ok: false, issues: [{ node: "weird", field: "type", key: "validation.flowNodeType" }] });
    const twice = welcome();
    twice.nodes.push({ id: "bye", type: "end", data: {} });
    expect(checkDraft(twice)).toEqual({ ok: false, issues: [{ node: "bye", field: "id", key: "validation.flowNodeRepeat" }] });
    const long = welcome();
    long.nodes[1] = { id: "hello", type: "message", data: { text: "x".repeat(FLOW_LIMITS.text + 1) } } as never;
    expect(checkDraft(long)).toEqual({ ok: false, issues: [{ node: "hello", field: "data.text", key: `validation.maxLength::${FLOW_LIMITS.text}` }] });
    const many = { nodes: Array.from({ length: FLOW_LIMITS.nodes + 1 }, (_, i) => ({ id: `n${i}`, type: "end" })), edges: [] };
    expect(checkDraft(many).ok).toBe(false);
    expect(checkDraft({ nodes: [{ id: "a b", type: "end" }], edges: [] })).toEqual({ ok: false, issues: [{ node: null, field: "nodes.0.id", key: "validation.invalid" }] });
    expect(checkDraft({ nodes: [] }).ok).toBe(false);
    expect(checkDraft(null).ok).toBe(false);
  });
});
