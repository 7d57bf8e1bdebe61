/**
 * The success answers of the flows routes (routes.ts), as TypeBox schemas for the OpenAPI
 * document; in tests every answer is checked against them.
 */
import { t } from "elysia";
import { Page } from "../lib/page-schema";
import { FLOW_CHANNELS, FLOW_STATUSES, FLOW_TRIGGERS, NODE_TYPES } from "./constants";

const DateTime = (description: string) => t.String({ format: "date-time", description });
const Nullable = <T extends Parameters<typeof t.Union>[0][number]>(s: T) => t.Union([s, t.Null()]);
const oneOf = (values: readonly string[], description?: string) =>
  t.Union(
    values.map((v) => t.Literal(v)),
    description ? { description } : {},
  );

export const Flow = t.Object({
  id: t.String({ format: "uuid" }),
  name: t.String(),
  channel: oneOf(FLOW_CHANNELS, "The channel it answers on"),
  trigger: oneOf(FLOW_TRIGGERS, "What starts it: any inbound message, a keyword, a reply to a campaign, an API call"),
  trigger_value: Nullable(t.String({ description: "The keyword (lower case) of a keyword trigger; null otherwise" })),
  status: oneOf(FLOW_STATUSES, "draft: never published; active: runs its published version; inactive: published, not running"),
  published_version: Nullable(t.Integer({ minimum: 1, description: "The version it runs (the last published); null before the first publish" })),
  created_at: DateTime("When it was created"),
  updated_at: DateTime("Last change"),
});

const Node = t.Object({
  id: t.String(),
  type: oneOf(NODE_TYPES),
  position: t.Optional(t.Object({ x: t.Number(), y: t.Number() })),
  data: t.Unknown({ description: "The step's settings (ADR 053); a draft's as sent, a version's checked and normalized" }),
});
const Edge = t.Object({ id: t.String(), source: t.String(), output: t.String({ description: "The source's named output (next, answer, a rule's id…)" }), target: t.String() });
export const Definition = t.Object({ nodes: t.Array(Node), edges: t.Array(Edge) }, { description: "A flow's graph (ADR 053)" });

const Issue = t.Object({
  node: Nullable(t.String({ description: "The step's id; null for the whole flow" })),
  field: Nullable(t.String({ description: "The step's field (data.text, outputs.answer…)" })),
  key: t.String({ description: "The message's locale key (validation.*, with ::parameters)" }),
  path: t.String({ description: "Where publishing's FLOW_HAS_ERRORS names it: nodes.<id>.<field>, or definition.<field>" }),
  message: t.String({ description: "In the caller's language" }),
});
const Version = t.Object({
  version: t.Integer({ minimum: 1 }),
  published_at: DateTime("When it was published"),
  published_by: Nullable(t.String({ format: "uuid", description: "Who published it; null once that person is deleted" })),
});

export const FlowDetail = t.Object({
  data: t.Object({
    ...Flow.properties,
    draft: Definition,
    issues: t.Array(Issue, { description: "What publishing the draft would refuse now (empty: it can be published)" }),
    versions: t.Array(Version, { description: "Its published versions, newest first; each immutable" }),
  }),
});
export const FlowPage = Page(Flow, "Flows, newest first, keyset paged");
export const FlowList = t.Object({ data: t.Array(Flow, { description: "The flows named, as they are now" }) });

const STREAM_STATUSES = ["running", "waiting", "finished", "handed_off", "cancelled", "dropped", "failed"] as const;
export const Stream = t.Object({
  id: t.String({ format: "uuid" }),
  flow_id: t.String({ format: "uuid" }),
  flow_name: t.String(),
  version: t.Integer({ minimum: 1, description: "The version it runs (the one it started on, even after a newer publish)" }),
  room_id: t.String({ format: "uuid", description: "The live room it attends" }),
  contact_id: Nullable(t.String({ format: "uuid" })),
  channel: t.String(),
  status: oneOf(STREAM_STATUSES, "running or waiting (live); finished, handed_off, cancelled, dropped (the visitor stopped answering), failed"),
  node_id: Nullable(t.String({ description: "The step it is on (or ended at)" })),
  waiting: Nullable(oneOf(["answer", "delay"], "What it waits for")),
  wake_at: Nullable(DateTime("When its delay ends or its question times out")),
  vars: t.Record(t.String(), t.String(), { description: "Its variables" }),
  steps: t.Integer({ minimum: 0, description: "Steps taken" }),
  reason: Nullable(t.String({ description: "Why it failed, was dropped or cancelled" })),
  started_at: DateTime("When it started"),
  ended_at: Nullable(DateTime("When it ended")),
  updated_at: DateTime("Last change"),
});
const PathStep = t.Object({
  seq: t.Integer({ minimum: 1 }),
  node_id: t.String(),
  node_type: oneOf(NODE_TYPES),
  output: Nullable(t.String({ description: "The output it left by; null when it stopped there (waiting, ended)" })),
  detail: t.Record(t.String(), t.Unknown(), { description: "What was sent, the answer, the HTTP status…" }),
  vars: t.Record(t.String(), t.String(), { description: "The variables after the step" }),
  created_at: DateTime("When"),
});
export const StreamDetail = t.Object({ data: t.Object({ ...Stream.properties, path: t.Array(PathStep, { description: "Every step, in order" }) }) });
export const StreamPage = Page(Stream, "Streams, newest first, keyset paged");
const Funnel = {
  entered: t.Integer({ minimum: 0 }),
  finished: t.Integer({ minimum: 0 }),
  dropped: t.Integer({ minimum: 0 }),
  handed_off: t.Integer({ minimum: 0 }),
};
export const StreamInsights = t.Object({
  data: t.Array(
    t.Object({
      flow_id: t.String({ format: "uuid" }),
      name: t.String(),
      ...Funnel,
      cancelled: t.Integer({ minimum: 0 }),
      failed: t.Integer({ minimum: 0 }),
      live: t.Integer({ minimum: 0, description: "Still running or waiting" }),
      nodes: t.Array(
        t.Object(
          { node_id: t.String(), node_type: oneOf(NODE_TYPES), ...Funnel },
          { description: "entered: streams that reached the step; the others: streams that ended there, by how" },
        ),
      ),
    }),
  ),
});

const Strings = t.Record(t.String(), t.String());
const TestStatus = oneOf(["running", "waiting", "finished", "handed_off", "cancelled", "dropped", "failed"]);

/** One turn of the test panel (./test-run.ts). */
const TestTurn = t.Object({
  entries: t.Array(
    t.Union([
      t.Object({ kind: t.Literal("bot"), text: t.String(), media_url: t.Optional(t.String()), buttons: t.Optional(t.Array(t.String())) }),
      t.Object({ kind: t.Literal("visitor"), text: t.String() }),
      t.Object({
        kind: t.Literal("note"),
        note: t.String({ description: "retry, tag_add, tag_remove, set_field, group, handoff, handoff_any, http, ended, dropped, waiting, waiting_answer, failed" }),
        params: t.Record(t.String(), t.Union([t.String(), t.Number()])),
        text: t.String({ description: "The note in the caller's language" }),
      }),
    ]),
    { description: "This turn's transcript: the visitor's answer, the bot's messages, what the runtime would do" },
  ),
  state: t.Object(
    {
      status: TestStatus,
      node_id: Nullable(t.String()),
      waiting: Nullable(oneOf(["answer", "delay"])),
      wake_at: Nullable(DateTime("When the wait ends")),
      retries_left: t.Integer(),
      vars: Strings,
      steps: t.Integer(),
      reason: t.Optional(Nullable(t.String())),
      contact: Strings,
      tags: t.Array(t.String()),
    },
    { description: "The simulated stream: send it back with the next turn" },
  ),
  status: TestStatus,
  waiting: Nullable(oneOf(["answer", "delay"])),
  wake_at: Nullable(DateTime("When the wait ends")),
  can_skip: t.Boolean({ description: "Waiting on a timer: skip: true jumps to it" }),
  vars: Strings,
});
export const FlowTestTurn = t.Object({ data: TestTurn });
