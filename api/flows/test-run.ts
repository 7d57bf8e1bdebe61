/**
 * The builder's test panel (issue 20): runs a flow's saved DRAFT against a simulated visitor with
 * the runtime's pure engine (./engine.ts), before publishing. Nothing is written: no room, stream,
 * step, input, live message or contact. The simulated stream's state travels with the caller (it
 * sends back the `state` it was answered, checked strictly here) and so do the simulated contact
 * fields and tags the flow set. A turn is the start (no state, or `reset`), the visitor's
 * `message`, or `skip` (the simulated clock jumps to the delay's or the question's `wake_at`); it
 * walks until the engine waits or ends and answers the turn's transcript: the bot's messages (text,
 * media, buttons), the visitor's answer and notes for what the runtime would do (tag, field, group,
 * hand-off, end, a wait). HTTP steps really call their URL through the guarded client
 * (`callHttp`, the runtime's) with the node's timeout: that is what the author tests.
 *
 * Who: the people who edit flows (policy "/flows"), in the acting account (404 for another's).
 * A draft with issues is 422 FLOW_HAS_ERRORS naming its nodes, as publishing. Each turn counts on
 * the rate limiter (60 a minute per person): a turn may call external URLs.
 */
import { AppError } from "../lib/errors";
import { translate } from "../lib/i18n";
import { hit } from "../lib/rate-limit";
import { row } from "../lib/sql";
import { validate } from "../lib/validate";
import { z } from "../lib/zod";
import { isOpen } from "../live/hours";
import { checkFlow, type FlowDefinition } from "./definition";
import { advance, type EngineInput, type EngineResult, type Facts, FlowRunError, MAX_STEPS_PER_WAKE, NEW_STATE, STREAM_STATUSES, type StreamState } from "./engine";
import { assertAllowed, type FlowCtx, flowHasErrors, flowOf } from "./flows";
import { callHttp } from "./runtime";

export const TEST_RUN_RATE = { name: "flow-test", limit: 60, windowSeconds: 60 };
export const TEST_MESSAGE_MAX = 4096;
const VALUE_MAX = 4096;
const KEYS_MAX = 100;
/** HTTP calls at most in one turn (the engine cannot loop without waiting; this bounds a turn anyway). */
const HTTP_PER_TURN = 10;

const key = z.string().min(1).max(64);
const value = z.string().max(VALUE_MAX);
const bounded = (max: number) => z.record(key, value).refine((r) => Object.keys(r).length <= max, "validation.invalid");

/** The simulated stream as answered by the last turn; strict, so nothing else rides along. */
export const testStateSchema = z
  .object({
    status: z.enum(STREAM_STATUSES),
    node_id: z.string().max(64).nullable(),
    waiting: z.enum(["answer", "delay"]).nullable(),
    wake_at: z.string().datetime().nullable(),
    retries_left: z.number().int().min(0).max(100),
    vars: bounded(KEYS_MAX),
    steps: z.number().int().min(0).max(100_000),
    reason: z.string().max(200).nullable().optional(),
    contact: bounded(KEYS_MAX),
    tags: z.array(z.string().max(120)).max(KEYS_MAX),
  })
  .strict();
export type TestState = z.infer<typeof testStateSchema>;

export const testInputSchema = z
  .object({
    state: testStateSchema.nullable().optional(),
    message: z.string().max(TEST_MESSAGE_MAX, `validation.max::${TEST_MESSAGE_MAX}`).optional(),
    reset: z.boolean().optional(),
    skip: z.boolean().optional(),
    contact: bounded(50).optional(),
  })
  .strict();

export type TestEntry =
  | { kind: "bot"; text: string; media_url?: string; buttons?: string[] }
  | { kind: "visitor"; text: string }
  | { kind: "note"; note: TestNote; params: Record<string, string | number>; text: string };
export type TestNote =
  | "retry"
  | "tag_add"
  | "tag_remove"
  | "set_field"
  | "group"
  | "handoff"
  | "handoff_any"
  | "http"
  | "ended"
  | "dropped"
  | "waiting"
  | "waiting_answer"
  | "failed";

const toEngine = (s: TestState): StreamState => ({
  status: s.status,
  node_id: s.node_id,
  waiting: s.waiting,
  wake_at: s.wake_at ? new Date(s.wake_at) : null,
  retries_left: s.retries_left,
  vars: s.vars,
  steps: s.steps,
  reason: s.reason ?? null,
});

/** One turn of the simulated visitor on the flow's saved draft (see the file's comment). */
export async function testDraft(ctx: FlowCtx, flowId: string, input: unknown) {
  assertAllowed(ctx);
  const q = validate(testInputSchema, input ?? {});
  const f = await flowOf(ctx, flowId);
  const checked = checkFlow(f.draft);
  if (!checked.ok) throw flowHasErrors(checked.issues);
  await hit(TEST_RUN_RATE, ctx.actor.userId);
  const def = checked.flow;

  const fresh = q.reset || !q.state;
  const sim: TestState = fresh
    ? { ...NEW_STATE, wake_at: null, reason: null, contact: { ...(q.contact ?? {}) }, tags: [] }
    : { ...q.state!, contact: { ...q.state!.contact, ...(q.contact ?? {}) } };
  let state = toEngine(sim);
  const contact = sim.contact;
  const tags = [...sim.tags];
  const entries: TestEntry[] = [];
  const note = (n: TestNote, params: Record<string, string | number> = {}) =>
    entries.push({ kind: "note", note: n, params, text: translate(ctx.locale, `flows:test.notes.${n}`, params) });

  let now = new Date();
  let engineInput: EngineInput;
  if (fresh) engineInput = { kind: "start" };
  else if (q.skip) {
    if (state.status !== "waiting" || !state.wake_at) throw new AppError("VALIDATION", { fields: { skip: ["validation.invalid"] } });
    now = new Date(Math.max(now.getTime(), state.wake_at.getTime()));
    engineInput = { kind: "timer" };
  } else {
    const body = (q.message ?? "").trim();
    if (!body) throw new AppError("VALIDATION", { fields: { message: ["validation.required"] } });
    if (state.status !== "waiting" || state.waiting !== "answer") throw new AppError("VALIDATION", { fields: { message: ["validation.invalid"] } });
    entries.push({ kind: "visitor", text: q.message! });
    engineInput = { kind: "message", body: q.message! };
  }

  const needsHours = def.nodes.some((n) => n.type === "condition" && n.data.rules.some((r) => r.subject === "opening_hours"));
  const open = needsHours ? await isOpen(ctx.actor.accountId, now, null) : true;
  const departments = new Map<string, string>();
  const departmentName = async (id: string) => {
    if (!departments.has(id))
      departments.set(id, (await row<{ name: string }>(`SELECT name FROM departments WHERE id = $1 AND account_id = $2`, [id, ctx.actor.accountId]))?.name ?? id);
    return departments.get(id)!;
  };

  let calls = 0;
  try {
    for (let wake = 0; wake < MAX_STEPS_PER_WAKE; wake++) {
      const facts: Facts = { contact, roomTags: [], contactTags: tags, open };
      const r: EngineResult = advance(def as FlowDefinition, state, engineInput, facts, now);
      state = r.state;
      for (const s of r.steps) {
        if (s.node_type === "question" && s.detail.valid === false && s.output === null) note("retry", { retries: Number(s.detail.retries_left ?? 0) });
        if (s.node_type === "http") note("http", { status: s.detail.status === null ? "—" : String(s.detail.status), output: String(s.output) });
        for (const e of s.effects) {
          if (e.type === "send")
            entries.push({ kind: "bot", text: e.text, ...(e.media_url ? { media_url: e.media_url } : {}), ...(e.buttons?.length ? { buttons: e.buttons } : {}) });
          else if (e.type === "set_field") {
            contact[e.name] = e.value;
            note("set_field", { name: e.name, value: e.value });
          } else if (e.type === "tag") {
            const i = tags.findIndex((t) => t.toLowerCase() === e.name.toLowerCase());
            if (e.op === "add" && i < 0) tags.push(e.name);
            if (e.op === "remove" && i >= 0) tags.splice(i, 1);
            note(e.op === "add" ? "tag_add" : "tag_remove", { name: e.name });
          } else if (e.type === "group") note("group", { name: e.name });
          else if (e.type === "handoff") {
            if (e.department_id) note("handoff", { department: await departmentName(e.department_id) });
            else note("handoff_any");
          }
        }
      }
      if (!r.pending) break;
      if (++calls > HTTP_PER_TURN) throw new FlowRunError("too many HTTP calls in one turn");
      const result = await callHttp(r.pending, `test:${f.id}`);
      engineInput = { kind: "http", result };
    }
  } catch (e) {
    if (!(e instanceof FlowRunError)) throw e;
    state = { ...state, status: "failed", waiting: null, wake_at: null, reason: e.message.slice(0, 200) };
    note("failed", { reason: e.message.slice(0, 200) });
  }

  if (state.status === "finished") note("ended");
  else if (state.status === "dropped") note("dropped", { reason: state.reason ?? "" });
  else if (state.status === "waiting" && state.waiting === "delay" && state.wake_at)
    note("waiting", { seconds: Math.max(0, Math.round((state.wake_at.getTime() - now.getTime()) / 1000)) });
  else if (state.status === "waiting" && state.wake_at) note("waiting_answer", { seconds: Math.max(0, Math.round((state.wake_at.getTime() - now.getTime()) / 1000)) });

  const out: TestState = {
    status: state.status,
    node_id: state.node_id,
    waiting: state.waiting,
    wake_at: state.wake_at ? state.wake_at.toISOString() : null,
    retries_left: state.retries_left,
    vars: state.vars,
    steps: state.steps,
    reason: state.reason ?? null,
    contact: Object.fromEntries(
      Object.entries(contact)
        .filter((kv): kv is [string, string] => typeof kv[1] === "string")
        .map(([k, v]) => [k, v.slice(0, VALUE_MAX)]),
    ),
    tags,
  };
  return {
    data: {
      entries,
      state: out,
      status: state.status,
      waiting: state.waiting,
      wake_at: out.wake_at,
      /** Skip the wait: a delay, or a question with a timeout. */
      can_skip: state.status === "waiting" && state.wake_at !== null,
      vars: state.vars,
    },
  };
}

export type TestTurn = Awaited<ReturnType<typeof testDraft>>["data"];

/** The test panel's transcript as the web form carries it between turns (hidden field): the last TRANSCRIPT_MAX entries. */
export const TRANSCRIPT_MAX = 60;
export const transcriptSchema = z
  .array(
    z.union([
      z
        .object({ kind: z.literal("bot"), text: z.string().max(VALUE_MAX), media_url: z.string().max(2000).optional(), buttons: z.array(z.string().max(200)).max(20).optional() })
        .strict(),
      z.object({ kind: z.literal("visitor"), text: z.string().max(TEST_MESSAGE_MAX) }).strict(),
      z
        .object({
          kind: z.literal("note"),
          note: z.string().max(40) as z.ZodType<TestNote>,
          params: z.record(z.string().max(40), z.union([z.string().max(VALUE_MAX), z.number()])),
          text: z.string().max(VALUE_MAX),
        })
        .strict(),
    ]),
  )
  .max(TRANSCRIPT_MAX * 2);
