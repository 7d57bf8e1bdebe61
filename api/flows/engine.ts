/**
 * The flow engine (issue 20, ADR 054): pure. Given a published definition, a stream's state, one
 * input (its start, a visitor's message, a timer, an HTTP call's result) and the facts it may read
 * (contact fields, tags, opening hours), it walks the graph until the stream waits (a question, a
 * delay), ends, hands off, or needs an HTTP call made, and answers the steps taken (each with its
 * effects: messages to send, tags, fields, a group, a hand-off, the end) and the new state.
 * ./runtime.ts loads the facts, performs the effects and the HTTP calls, and writes it all in one
 * transaction. No I/O here, so every node type is unit-tested (engine.test.ts).
 */
import type { FlowDefinition, FlowNode, NodeData } from "./definition";

export type StreamStatus = "running" | "waiting" | "finished" | "handed_off" | "cancelled" | "dropped" | "failed";
export const LIVE_STREAM_STATUSES = ["running", "waiting"] as const;
export const STREAM_STATUSES = ["running", "waiting", "finished", "handed_off", "cancelled", "dropped", "failed"] as const;

/** Steps at most per wake: definitions cannot loop without waiting (checkFlow), this is the guard if one did. */
export const MAX_STEPS_PER_WAKE = 100;

export type StreamState = {
  status: StreamStatus;
  node_id: string | null;
  waiting: "answer" | "delay" | null;
  wake_at: Date | null;
  retries_left: number;
  vars: Record<string, string>;
  /** Steps taken so far (the last step's seq). */
  steps: number;
  reason?: string | null;
};

export type HttpResult = { ok: boolean; status: number | null; json: unknown; error: string | null };

export type EngineInput =
  | { kind: "start" }
  | { kind: "message"; body: string }
  | { kind: "timer" }
  /** The result of the HTTP call the engine asked for (`pending`), for the http node the state is on. */
  | { kind: "http"; result: HttpResult };

/** What the engine reads of the world. */
export type Facts = {
  /** The room's contact (and room) fields: first_name, last_name, name, email, phone, … */
  contact: Record<string, string | null | undefined>;
  roomTags: string[];
  contactTags: string[];
  /** Is the room's department open now (api/live/hours.ts)? */
  open: boolean;
};

export type Effect =
  | { type: "send"; text: string; media_url?: string; buttons?: string[] }
  | { type: "set_field"; name: string; value: string }
  | { type: "tag"; op: "add" | "remove"; name: string }
  | { type: "group"; name: string }
  | { type: "handoff"; department_id: string | null }
  | { type: "end" };

export type Step = { seq: number; node_id: string; node_type: string; output: string | null; detail: Record<string, unknown>; vars: Record<string, string>; effects: Effect[] };

export type EngineResult = {
  state: StreamState;
  steps: Step[];
  /** The HTTP call to make before going on (the state is on that node): call, then `advance` with {kind: "http"}. */
  pending: { node_id: string; method: "GET" | "POST"; url: string; body?: string; timeout_ms: number; seq: number } | null;
};

/** A definition error met while running (a node missing…): the stream fails with it. */
export class FlowRunError extends Error {}

const norm = (s: string) => s.trim().toLowerCase();

/** `{{name}}` in a text: the variable, else the contact's field (first_name, name, email, phone…), else empty. */
export function fill(text: string, vars: Record<string, string>, contact: Facts["contact"]): string {
  return text.replace(/\{\{\s*([\w.]+)\s*\}\}/g, (_, name: string) => vars[name] ?? contact[name] ?? "");
}

// ---- answer checks ------------------------------------------------------------------------------------

function cpfOk(d: string): boolean {
  if (!/^\d{11}$/.test(d) || /^(\d)\1{10}$/.test(d)) return false;
  for (const len of [9, 10]) {
    let sum = 0;
    for (let i = 0; i < len; i++) sum += Number(d[i]) * (len + 1 - i);
    const check = ((sum * 10) % 11) % 10;
    if (check !== Number(d[len])) return false;
  }
  return true;
}

function cnpjOk(d: string): boolean {
  if (!/^\d{14}$/.test(d) || /^(\d)\1{13}$/.test(d)) return false;
  const weights = [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];
  for (const len of [12, 13]) {
    let sum = 0;
    for (let i = 0; i < len; i++) sum += Number(d[i]) * weights[i + 13 - len];
    const r = sum % 11;
    if ((r < 2 ? 0 : 11 - r) !== Number(d[len])) return false;
  }
  return true;
}

/**
 * Checks an answer; answers the value to store (normalized: digits of a document or phone, the
 * choice as the button reads — given by its text or its 1-based number —, a number with a dot) or null when it fails the check.
 */
export function checkAnswer(check: NodeData["question"]["check"], raw: string, choices: string[] = []): string | null {
  const s = raw.trim();
  if (!s) return null;
  const digits = s.replace(/\D/g, "");
  switch (check) {
    case "text":
      return s;
    case "email":
      return /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/.test(s) ? s.toLowerCase() : null;
    case "phone":
      return /^\+?[\d\s().-]+$/.test(s) && digits.length >= 10 && digits.length <= 13 ? digits : null;
    case "cpf":
      return cpfOk(digits) && /^[\d.\s-]+$/.test(s) ? digits : null;
    case "cnpj":
      return cnpjOk(digits) && /^[\d./\s-]+$/.test(s) ? digits : null;
    case "cpf_cnpj":
      return /^[\d./\s-]+$/.test(s) && (cpfOk(digits) || cnpjOk(digits)) ? digits : null;
    case "number": {
      const t = s.replace(/\s/g, "");
      // 1.234,56 and 1234,56 (Brazilian) or 1234.56
      const n = /^-?\d{1,3}(\.\d{3})+(,\d+)?$/.test(t) || /^-?\d+,\d+$/.test(t) ? Number(t.replace(/\./g, "").replace(",", ".")) : /^-?\d+(\.\d+)?$/.test(t) ? Number(t) : NaN;
      return Number.isFinite(n) ? String(n) : null;
    }
    case "date": {
      const m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(s);
      if (!m) return null;
      const [d, mo, y] = [Number(m[1]), Number(m[2]), Number(m[3])];
      const date = new Date(Date.UTC(y, mo - 1, d));
      if (date.getUTCFullYear() !== y || date.getUTCMonth() !== mo - 1 || date.getUTCDate() !== d) return null;
      return `${String(d).padStart(2, "0")}/${String(mo).padStart(2, "0")}/${y}`;
    }
    case "choice": {
      // The button's text, else its 1-based number (channels without buttons list them numbered: runtime.ts `numbered`).
      const found = choices.find((c) => norm(c) === norm(s));
      if (found) return found;
      const n = /^(\d{1,2})[.)]?$/.exec(s);
      return n ? (choices[Number(n[1]) - 1] ?? null) : null;
    }
  }
}

// ---- conditions ---------------------------------------------------------------------------------------

type Rule = NodeData["condition"]["rules"][number];

function ruleMatches(rule: Rule, vars: Record<string, string>, facts: Facts): boolean {
  if (rule.subject === "opening_hours") return rule.op === "open" ? facts.open : !facts.open;
  if (rule.subject === "tag") {
    const name = norm(rule.name ?? "");
    const has = [...facts.roomTags, ...facts.contactTags].some((t) => norm(t) === name);
    return rule.op === "not_equals" ? !has : has;
  }
  const raw = rule.subject === "variable" ? vars[rule.name ?? ""] : facts.contact[rule.name ?? ""];
  const value = raw ?? "";
  const want = rule.value ?? "";
  switch (rule.op) {
    case "exists":
      return value.trim() !== "";
    case "equals":
      return norm(value) === norm(want);
    case "not_equals":
      return norm(value) !== norm(want);
    case "contains":
      return norm(value).includes(norm(want));
    case "greater":
    case "less": {
      const a = Number(value.replace(",", "."));
      const b = Number(want.replace(",", "."));
      if (!value.trim() || !Number.isFinite(a) || !Number.isFinite(b)) return false;
      return rule.op === "greater" ? a > b : a < b;
    }
    default:
      return false;
  }
}

/** A JSON path as the builder takes it: `a.b[0].c`, with or without a leading `$.`. */
export function readPath(json: unknown, path: string): unknown {
  const parts = path
    .replace(/^\$\.?/, "")
    .replace(/\[(\d+)\]/g, ".$1")
    .split(".")
    .filter(Boolean);
  let at: unknown = json;
  for (const p of parts) {
    if (at === null || typeof at !== "object") return undefined;
    at = (at as Record<string, unknown>)[p];
  }
  return at;
}

// ---- the walk -----------------------------------------------------------------------------------------

const CONTACT_FIELD_ALIASES: Record<string, string> = { nome: "name", telefone: "phone" };

/**
 * Applies `input` to `state` and walks on. `now` is the time of this wake (timers, wake_at).
 * Never throws for a visitor's input; throws FlowRunError for a definition it cannot walk.
 */
export function advance(def: FlowDefinition, prev: StreamState, input: EngineInput, facts: Facts, now: Date): EngineResult {
  const state: StreamState = { ...prev, vars: { ...prev.vars } };
  const contact = { ...facts.contact };
  const live = facts;
  const steps: Step[] = [];
  const byId = new Map(def.nodes.map((n) => [n.id, n]));
  const edgeOf = (source: string, output: string) => def.edges.find((e) => e.source === source && e.output === output)?.target ?? null;
  const node = (id: string | null): FlowNode => {
    const n = id ? byId.get(id) : undefined;
    if (!n) throw new FlowRunError(`node ${id ?? "(none)"} is not in the version`);
    return n;
  };
  const step = (n: FlowNode, output: string | null, detail: Record<string, unknown>, effects: Effect[] = []) => {
    state.steps += 1;
    steps.push({ seq: state.steps, node_id: n.id, node_type: n.type, output, detail, vars: { ...state.vars }, effects });
  };
  const text = (t: string) => fill(t, state.vars, contact);
  const finish = (status: StreamStatus) => {
    state.status = status;
    state.waiting = null;
    state.wake_at = null;
  };
  const result = (pending: EngineResult["pending"] = null): EngineResult => ({ state, steps, pending });

  if (state.status !== "running" && state.status !== "waiting") return result();

  /** Where to go from `n` by `output`: the next node's id, or null (the conversation ends there). */
  let next: string | null = null;

  if (input.kind === "start") {
    if (state.node_id !== null || state.steps > 0) return result();
    const start = def.nodes.find((n) => n.type === "start");
    if (!start) throw new FlowRunError("the version has no start");
    step(start, "next", {});
    next = edgeOf(start.id, "next");
  } else if (input.kind === "message") {
    if (state.status !== "waiting" || state.waiting !== "answer") return result();
    const q = node(state.node_id);
    if (q.type !== "question") throw new FlowRunError(`waiting for an answer on ${q.type} ${q.id}`);
    const value = checkAnswer(q.data.check, input.body, q.data.choices ?? []);
    if (value !== null) {
      if (q.data.store.kind === "variable") state.vars[q.data.store.name] = value;
      const effects: Effect[] = [];
      if (q.data.store.kind === "field") {
        const field = CONTACT_FIELD_ALIASES[q.data.store.name] ?? q.data.store.name;
        contact[field] = value;
        effects.push({ type: "set_field", name: field, value });
      }
      step(q, "answer", { answer: input.body, value }, effects);
      next = edgeOf(q.id, "answer");
    } else if (state.retries_left > 0) {
      state.retries_left -= 1;
      const again = text(q.data.retry_message ?? q.data.text);
      step(q, null, { answer: input.body, valid: false, retries_left: state.retries_left, sent: again }, [
        { type: "send", text: again, ...(q.data.choices?.length ? { buttons: q.data.choices } : {}) },
      ]);
      return result();
    } else {
      step(q, "invalid", { answer: input.body, valid: false });
      next = edgeOf(q.id, "invalid");
      if (!next) {
        finish("dropped");
        state.reason = "invalid answers";
        return result();
      }
    }
  } else if (input.kind === "timer") {
    if (state.status !== "waiting" || !state.wake_at || state.wake_at.getTime() > now.getTime()) return result();
    const n = node(state.node_id);
    if (state.waiting === "delay") {
      step(n, "next", { waited_until: state.wake_at.toISOString() });
      next = edgeOf(n.id, "next");
    } else {
      step(n, "timeout", { timed_out_at: state.wake_at.toISOString() });
      next = edgeOf(n.id, "timeout");
      if (!next) {
        finish("dropped");
        state.reason = "no answer";
        return result();
      }
    }
  } else {
    const n = node(state.node_id);
    if (n.type !== "http" || state.status !== "running") return result();
    const r = input.result;
    const mapped: Record<string, string> = {};
    if (r.ok)
      for (const m of n.data.map) {
        const v = readPath(r.json, m.path);
        if (v !== undefined && v !== null) state.vars[m.variable] = mapped[m.variable] = typeof v === "object" ? JSON.stringify(v) : String(v);
      }
    const output = r.ok ? "success" : "error";
    step(n, output, { status: r.status, error: r.error, mapped });
    next = edgeOf(n.id, output);
  }

  state.status = "running";
  state.waiting = null;
  state.wake_at = null;

  // Walk from `next` until something waits, ends or needs the network.
  for (;;) {
    if (next === null) {
      // An output with no edge ends the conversation there (ADR 053).
      finish("finished");
      return result();
    }
    if (steps.length >= MAX_STEPS_PER_WAKE) throw new FlowRunError(`more than ${MAX_STEPS_PER_WAKE} steps in one wake`);
    const n = node(next);
    state.node_id = n.id;
    next = null;
    switch (n.type) {
      case "start":
        step(n, "next", {});
        next = edgeOf(n.id, "next");
        break;
      case "message": {
        const t = n.data.text ? text(n.data.text) : "";
        step(n, "next", { sent: t, ...(n.data.media_url ? { media_url: n.data.media_url } : {}) }, [
          { type: "send", text: t, ...(n.data.media_url ? { media_url: n.data.media_url } : {}), ...(n.data.buttons?.length ? { buttons: n.data.buttons } : {}) },
        ]);
        next = edgeOf(n.id, "next");
        break;
      }
      case "question": {
        const t = text(n.data.text);
        state.status = "waiting";
        state.waiting = "answer";
        state.retries_left = n.data.retries;
        state.wake_at = n.data.timeout_seconds ? new Date(now.getTime() + n.data.timeout_seconds * 1000) : null;
        step(n, null, { sent: t }, [{ type: "send", text: t, ...(n.data.choices?.length ? { buttons: n.data.choices } : {}) }]);
        return result();
      }
      case "condition": {
        const hit = n.data.rules.find((r) => ruleMatches(r, state.vars, { ...live, contact }));
        const output = hit ? hit.id : "else";
        step(n, output, {});
        next = edgeOf(n.id, output);
        break;
      }
      case "delay":
        state.status = "waiting";
        state.waiting = "delay";
        state.wake_at = new Date(now.getTime() + n.data.seconds * 1000);
        step(n, null, { until: state.wake_at.toISOString() });
        return result();
      case "http": {
        // The call happens outside the engine; it resumes with {kind: "http"} on this node.
        const url = text(n.data.url);
        return result({
          node_id: n.id,
          method: n.data.method,
          url,
          ...(n.data.body !== undefined ? { body: text(n.data.body) } : {}),
          timeout_ms: n.data.timeout_ms,
          seq: state.steps + 1,
        });
      }
      case "action": {
        const d = n.data;
        const value = d.value !== undefined ? text(d.value) : undefined;
        const effect: Effect =
          d.kind === "add_tag"
            ? { type: "tag", op: "add", name: d.name }
            : d.kind === "remove_tag"
              ? { type: "tag", op: "remove", name: d.name }
              : d.kind === "set_field"
                ? { type: "set_field", name: CONTACT_FIELD_ALIASES[d.name] ?? d.name, value: value ?? "" }
                : { type: "group", name: d.name };
        if (effect.type === "set_field") contact[effect.name] = effect.value;
        step(n, "next", { kind: d.kind, name: d.name, ...(value !== undefined ? { value } : {}) }, [effect]);
        next = edgeOf(n.id, "next");
        break;
      }
      case "handoff": {
        const effects: Effect[] = [];
        const sent = n.data.message ? text(n.data.message) : null;
        if (sent) effects.push({ type: "send", text: sent });
        effects.push({ type: "handoff", department_id: n.data.department_id ?? null });
        step(n, null, { department_id: n.data.department_id ?? null, ...(sent ? { sent } : {}) }, effects);
        finish("handed_off");
        return result();
      }
      case "end": {
        const effects: Effect[] = [];
        const sent = n.data.message ? text(n.data.message) : null;
        if (sent) effects.push({ type: "send", text: sent });
        effects.push({ type: "end" });
        step(n, null, sent ? { sent } : {}, effects);
        finish("finished");
        return result();
      }
    }
  }
}

/** A new stream's state, before its start input. */
export const NEW_STATE: StreamState = { status: "running", node_id: null, waiting: null, wake_at: null, retries_left: 0, vars: {}, steps: 0 };
