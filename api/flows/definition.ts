/**
 * A flow's definition (issue 20, ADR 053): the graph the builder draws and the runtime walks, as
 * JSON — what the API takes to create, update and publish a flow, and what a published version
 * keeps unchanged. `checkFlow` is the one check before publishing (and of every definition the API
 * is given): the structure of each node of a known type, the edges between existing outputs and
 * nodes, one start, no node the start cannot reach, a question with a way out, no loop that never
 * waits for the visitor or a delay, and the size limits below. Each issue names its node (and
 * field) with a locale key (validation.flow*), so the builder marks the faulty node.
 * No model imports: the builder checks in the browser with the same code.
 */
import { z } from "../lib/zod";
import { FLOW_LIMITS, type NodeType, NODE_TYPES, QUESTION_CHECKS } from "./constants";

export { FLOW_LIMITS, NODE_TYPES, QUESTION_CHECKS };

const text = (max: number) => z.string().trim().min(1, "validation.required").max(max, `validation.maxLength::${max}`);
const optionalText = (max: number) => z.string().trim().max(max, `validation.maxLength::${max}`).optional();
const name = z
  .string()
  .trim()
  .min(1, "validation.required")
  .max(64, "validation.maxLength::64")
  .regex(/^[a-z_][a-z0-9_]*$/i, "validation.flowName");
const buttons = z
  .array(text(FLOW_LIMITS.buttonText))
  .max(FLOW_LIMITS.buttons, `validation.maxItems::${FLOW_LIMITS.buttons}`)
  .refine((b) => new Set(b.map((x) => x.toLowerCase())).size === b.length, "validation.flowButtonRepeat")
  .optional();

/** Each node type's own data, and the outputs an edge may leave from. */
const DATA = {
  start: z.object({}).strict(),
  message: z
    .object({ text: optionalText(FLOW_LIMITS.text), media_url: z.string().trim().url("validation.httpsUrl").startsWith("https://", "validation.httpsUrl").optional(), buttons })
    .strict()
    .refine((d) => Boolean(d.text || d.media_url), { message: "validation.required", path: ["text"] }),
  question: z
    .object({
      text: text(FLOW_LIMITS.text),
      check: z.enum(QUESTION_CHECKS, "validation.option"),
      choices: buttons,
      store: z.object({ kind: z.enum(["variable", "field"], "validation.option"), name }).strict(),
      retry_message: optionalText(FLOW_LIMITS.text),
      retries: z.number().int("validation.integer").min(0, "validation.min::0").max(FLOW_LIMITS.retries, `validation.max::${FLOW_LIMITS.retries}`).default(2),
      timeout_seconds: z.number().int("validation.integer").min(60, "validation.min::60").max(FLOW_LIMITS.waitSeconds, `validation.max::${FLOW_LIMITS.waitSeconds}`).optional(),
    })
    .strict()
    .refine((d) => d.check !== "choice" || (d.choices?.length ?? 0) > 0, { message: "validation.required", path: ["choices"] }),
  condition: z
    .object({
      rules: z
        .array(
          z
            .object({
              id: z
                .string()
                .trim()
                .regex(/^[\w-]{1,40}$/, "validation.invalid"),
              subject: z.enum(["variable", "field", "tag", "opening_hours"], "validation.option"),
              name: name.optional(),
              op: z.enum(["equals", "not_equals", "contains", "exists", "greater", "less", "open", "closed"], "validation.option"),
              value: optionalText(500),
            })
            .strict()
            .refine((r) => r.subject === "opening_hours" || r.name, { message: "validation.required", path: ["name"] })
            .refine((r) => (r.subject === "opening_hours") === (r.op === "open" || r.op === "closed"), { message: "validation.option", path: ["op"] }),
        )
        .min(1, "validation.required")
        .max(FLOW_LIMITS.rules, `validation.maxItems::${FLOW_LIMITS.rules}`)
        .refine((rules) => new Set(rules.map((r) => r.id)).size === rules.length, "validation.flowRuleRepeat"),
    })
    .strict(),
  delay: z
    .object({ seconds: z.number().int("validation.integer").min(1, "validation.min::1").max(FLOW_LIMITS.waitSeconds, `validation.max::${FLOW_LIMITS.waitSeconds}`) })
    .strict(),
  http: z
    .object({
      method: z.enum(["GET", "POST"], "validation.option"),
      // http too (ADR 054): the guarded client (api/lib/outbound.ts) refuses plain http and private addresses while its guard is on (always in production).
      url: z
        .string()
        .trim()
        .url("validation.httpUrl")
        .regex(/^https?:\/\//i, "validation.httpUrl")
        .max(2000, "validation.maxLength::2000"),
      body: optionalText(FLOW_LIMITS.text),
      timeout_ms: z.number().int("validation.integer").min(100, "validation.min::100").max(FLOW_LIMITS.httpTimeoutMs, `validation.max::${FLOW_LIMITS.httpTimeoutMs}`).default(5000),
      map: z
        .array(z.object({ path: text(200), variable: name }).strict())
        .max(FLOW_LIMITS.rules, `validation.maxItems::${FLOW_LIMITS.rules}`)
        .default([]),
    })
    .strict(),
  action: z
    .object({ kind: z.enum(["add_tag", "remove_tag", "set_field", "add_to_group"], "validation.option"), name: text(100), value: optionalText(500) })
    .strict()
    .refine((d) => d.kind !== "set_field" || d.value !== undefined, { message: "validation.required", path: ["value"] }),
  handoff: z.object({ department_id: z.string().trim().min(1).max(64).optional(), message: optionalText(FLOW_LIMITS.text) }).strict(),
  end: z.object({ message: optionalText(FLOW_LIMITS.text) }).strict(),
} satisfies Record<NodeType, z.ZodType>;

export type NodeData = { [T in NodeType]: z.output<(typeof DATA)[T]> };
export type FlowNode = { [T in NodeType]: { id: string; type: T; position?: { x: number; y: number }; data: NodeData[T] } }[NodeType];
export type FlowEdge = { id: string; source: string; output: string; target: string };
export type FlowDefinition = { nodes: FlowNode[]; edges: FlowEdge[] };
/** One problem, on a node (and field) or on the whole flow (node null). `key` is a locale key, with `::` parameters as elsewhere. */
export type FlowIssue = { node: string | null; field: string | null; key: string };

/** The outputs a node of this type may leave from; a missing edge ends the conversation there, except the `required` ones. */
export function outputsOf(node: FlowNode): { all: string[]; required: string[] } {
  switch (node.type) {
    case "start":
      return { all: ["next"], required: ["next"] };
    case "message":
    case "delay":
    case "action":
      return { all: ["next"], required: [] };
    case "question":
      // A question always needs somewhere to go with the answer; after its retries, "invalid"; past its timeout, "timeout".
      return { all: ["answer", "invalid", "timeout"], required: ["answer"] };
    case "condition":
      return { all: [...node.data.rules.map((r) => r.id), "else"], required: [] };
    case "http":
      return { all: ["success", "error"], required: [] };
    case "handoff":
    case "end":
      return { all: [], required: [] };
  }
}

/** Nodes at which a conversation stops to wait (for the visitor, or for time): a loop must pass one. */
const WAITS: ReadonlySet<NodeType> = new Set(["question", "delay"]);

const nodeShape = z.object({
  id: z.string().regex(/^[\w-]{1,64}$/, "validation.invalid"),
  type: z.string(),
  position: z.object({ x: z.number().finite(), y: z.number().finite() }).strict().optional(),
  data: z.unknown().optional(),
});
const edgeShape = z.object({
  id: z.string().regex(/^[\w-]{1,64}$/, "validation.invalid"),
  source: z.string().min(1, "validation.required"),
  output: z.string().min(1, "validation.required"),
  target: z.string().min(1, "validation.required"),
});
const shape = z.object({
  nodes: z.array(z.unknown()).max(FLOW_LIMITS.nodes, `validation.flowTooManyNodes::${FLOW_LIMITS.nodes}`),
  edges: z.array(z.unknown()).max(FLOW_LIMITS.nodes * 4, `validation.flowTooManyEdges::${FLOW_LIMITS.nodes * 4}`),
});

const issueOf = (node: string | null, issue: z.core.$ZodIssue, prefix = ""): FlowIssue => ({
  node,
  field: [prefix, ...issue.path.map(String)].filter(Boolean).join(".") || null,
  key: issue.message.startsWith("validation.") ? issue.message : "validation.invalid",
});

/**
 * Checks a definition as posted. Answers the definition with each node's data normalized
 * (defaults applied), or every issue found — never only the first, so the builder marks them all.
 */
export function checkFlow(input: unknown): { ok: true; flow: FlowDefinition } | { ok: false; issues: FlowIssue[] } {
  const issues: FlowIssue[] = [];
  let bytes = 0;
  try {
    bytes = new TextEncoder().encode(JSON.stringify(input) ?? "").length;
  } catch {
    return { ok: false, issues: [{ node: null, field: null, key: "validation.invalid" }] };
  }
  if (bytes > FLOW_LIMITS.bytes) return { ok: false, issues: [{ node: null, field: null, key: `validation.flowTooLarge::${FLOW_LIMITS.bytes / 1024}` }] };
  const outer = shape.safeParse(input);
  if (!outer.success) return { ok: false, issues: outer.error.issues.map((i) => issueOf(null, i)) };

  const nodes: FlowNode[] = [];
  const ids = new Set<string>();
  for (const [index, raw] of outer.data.nodes.entries()) {
    const n = nodeShape.safeParse(raw);
    if (!n.success) {
      issues.push(...n.error.issues.map((i) => issueOf(null, i, `nodes.${index}`)));
      continue;
    }
    const { id, type, position } = n.data;
    if (ids.has(id)) {
      issues.push({ node: id, field: "id", key: "validation.flowNodeRepeat" });
      continue;
    }
    ids.add(id);
    if (!(NODE_TYPES as readonly string[]).includes(type)) {
      issues.push({ node: id, field: "type", key: "validation.flowNodeType" });
      continue;
    }
    const data = DATA[type as NodeType].safeParse(n.data.data ?? {});
    if (!data.success) {
      issues.push(...data.error.issues.map((i) => issueOf(id, i, "data")));
      continue;
    }
    nodes.push({ id, type, position, data: data.data } as FlowNode);
  }

  const byId = new Map(nodes.map((n) => [n.id, n]));
  const edges: FlowEdge[] = [];
  const taken = new Set<string>();
  for (const [index, raw] of outer.data.edges.entries()) {
    const e = edgeShape.safeParse(raw);
    if (!e.success) {
      issues.push(...e.error.issues.map((i) => issueOf(null, i, `edges.${index}`)));
      continue;
    }
    const { source, output, target } = e.data;
    const from = byId.get(source);
    if (!from) {
      // A source that failed its own checks is reported there already.
      if (!ids.has(source)) issues.push({ node: null, field: `edges.${index}.source`, key: "validation.flowEdgeNode" });
      continue;
    }
    if (!outputsOf(from).all.includes(output)) {
      issues.push({ node: source, field: `outputs.${output}`, key: "validation.flowOutput" });
      continue;
    }
    if (!ids.has(target)) {
      issues.push({ node: source, field: `outputs.${output}`, key: "validation.flowEdgeNode" });
      continue;
    }
    if (taken.has(`${source}\u0000${output}`)) {
      issues.push({ node: source, field: `outputs.${output}`, key: "validation.flowOutputRepeat" });
      continue;
    }
    taken.add(`${source}\u0000${output}`);
    edges.push(e.data);
  }

  const starts = nodes.filter((n) => n.type === "start");
  if (starts.length !== 1) issues.push({ node: starts[1]?.id ?? null, field: null, key: starts.length === 0 ? "validation.flowStart" : "validation.flowStartRepeat" });

  for (const n of nodes) {
    for (const output of outputsOf(n).required) {
      if (!taken.has(`${n.id}\u0000${output}`))
        issues.push({ node: n.id, field: `outputs.${output}`, key: n.type === "question" ? "validation.flowNoWayOut" : "validation.required" });
    }
  }

  const next = new Map<string, string[]>();
  for (const e of edges) next.set(e.source, [...(next.get(e.source) ?? []), e.target]);
  if (starts.length === 1) {
    const seen = new Set<string>([starts[0].id]);
    const frontier = [starts[0].id];
    while (frontier.length) for (const t of next.get(frontier.pop()!) ?? []) if (!seen.has(t) && (seen.add(t), true)) frontier.push(t);
    for (const n of nodes) if (!seen.has(n.id)) issues.push({ node: n.id, field: null, key: "validation.flowUnreachable" });
  }

  // A loop through nodes that never wait would run forever within one step: reported on one node of each.
  const state = new Map<string, 1 | 2>();
  const looped = new Set<string>();
  const visit = (id: string, path: string[]) => {
    state.set(id, 1);
    for (const t of next.get(id) ?? []) {
      const target = byId.get(t);
      if (!target || WAITS.has(target.type)) continue;
      if (state.get(t) === 1) {
        const cycle = path.slice(path.indexOf(t));
        if (!cycle.some((c) => looped.has(c))) {
          looped.add(t);
          issues.push({ node: t, field: null, key: "validation.flowLoop" });
        }
      } else if (!state.has(t)) visit(t, [...path, t]);
    }
    state.set(id, 2);
  };
  for (const n of nodes) if (!WAITS.has(n.type) && !state.has(n.id)) visit(n.id, [n.id]);

  return issues.length ? { ok: false, issues } : { ok: true, flow: { nodes, edges } };
}

/** A draft as kept: each node's and edge's own keys only; a node's data as the builder sent it (checked at publish). */
export type DraftNode = { id: string; type: NodeType; position?: { x: number; y: number }; data: unknown };
export type DraftDefinition = { nodes: DraftNode[]; edges: FlowEdge[] };

/** Size limits: the definition's bytes, nodes, edges, a text's length, a list's items. */
const OVER_LIMIT = /^validation\.(flowTooLarge|flowTooManyNodes|flowTooManyEdges|maxLength|maxItems)::/;

/**
 * Issues that keep a draft from being saved at all (ADR 053, storage): a shape that is not a
 * definition (not an object of nodes and edges, a node or edge that is not one), an unknown node
 * type, a repeated node id, anything over a size limit. The others (a node's data, dangling edges,
 * no start, unreachable nodes, loops…) are work in progress: saved, answered beside the draft,
 * refused only at publish.
 */
function blocksDraft(i: FlowIssue): boolean {
  if (OVER_LIMIT.test(i.key) || i.key === "validation.flowNodeType" || i.key === "validation.flowNodeRepeat") return true;
  return i.node === null && i.key !== "validation.flowEdgeNode" && i.key !== "validation.flowStart";
}

/**
 * Checks a definition to be saved as a draft: refused only for what `blocksDraft` names; else the
 * draft (each node and edge reduced to its own keys, a node's data as sent) and every issue
 * `checkFlow` finds in it, so the builder marks them before publishing.
 */
export function checkDraft(input: unknown): { ok: true; draft: DraftDefinition; issues: FlowIssue[] } | { ok: false; issues: FlowIssue[] } {
  const r = checkFlow(input);
  const issues = r.ok ? [] : r.issues;
  const blocking = issues.filter(blocksDraft);
  if (blocking.length) return { ok: false, issues: blocking };
  const outer = shape.parse(input);
  const nodes = outer.nodes.map((n) => {
    const { id, type, position, data } = nodeShape.parse(n);
    return { id, type: type as NodeType, ...(position ? { position } : {}), data: data ?? {} };
  });
  const edges = outer.edges.map((e) => {
    const { id, source, output, target } = edgeShape.parse(e);
    return { id, source, output, target };
  });
  return { ok: true, draft: { nodes, edges }, issues };
}

/** A new flow's draft: its start, nothing after it yet. */
export const EMPTY_DRAFT: DraftDefinition = { nodes: [{ id: "start", type: "start", position: { x: 0, y: 0 }, data: {} }], edges: [] };
