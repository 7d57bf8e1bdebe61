/**
 * Flows of an account (issue 20, ADR 053): create, list, read, edit the draft, publish a version,
 * enable or inactivate, restore a version into the draft. The people who reach /flows (policy:
 * owner, admin, sales; the omni plan) do all of it, always in the acting account.
 *
 * The draft is saved with its issues (work in progress) unless checkDraft refuses it (an unknown
 * node type, a repeated id, a malformed shape, a size limit). Publishing runs checkFlow: any issue
 * is 422 FLOW_HAS_ERRORS naming each node (`fields["nodes.<id>.<field>"]`); else the normalized
 * definition becomes the next row of flow_versions (immutable), the flow's published_version, and
 * the flow active — one transaction. One active flow per channel and trigger: the unique index
 * flows_one_active_idx, answered 409 FLOW_CHANNEL_TAKEN.
 */
import { UniqueConstraintError, type Transaction } from "sequelize";
import { sequelize } from "../../models/db";
import { recordAudit } from "../audit/record";
import type { SignedInCtx } from "../lib/context";
import { AppError, type FieldErrors } from "../lib/errors";
import { translate } from "../lib/i18n";
import { UUID } from "../lib/owned";
import { decodeCursor, keyset } from "../lib/page";
import { row, rows } from "../lib/sql";
import { validate } from "../lib/validate";
import { decide, refusal } from "../policy/policy";
import { checkDraft, checkFlow, EMPTY_DRAFT, type DraftDefinition, type FlowIssue } from "./definition";
import { createFlowSchema, flowStatusSchema, listFlowsSchema, updateFlowSchema } from "./schemas";
import type { FlowChannel, FlowStatus, FlowTrigger } from "./constants";

/** The caller's language for the issues' messages (the route passes Accept-Language's). */
export type FlowCtx = SignedInCtx & { locale?: string };

type FlowRow = {
  id: string;
  name: string;
  channel: FlowChannel;
  trigger: FlowTrigger;
  trigger_value: string | null;
  status: FlowStatus;
  draft: DraftDefinition;
  published_version: number | null;
  created_at: Date;
  updated_at: Date;
};
const COLUMNS = "f.id, f.name, f.channel, f.trigger, f.trigger_value, f.status, f.draft, f.published_version, f.created_at, f.updated_at";

/** The unique index behind 'This channel may already have a flow' (migration 0068). */
const ONE_ACTIVE = "flows_one_active_idx";

export function assertAllowed(ctx: SignedInCtx) {
  const d = decide(ctx.actor, "/flows");
  if (!d.allowed) throw refusal(d);
}

const iso = (d: Date) => new Date(d).toISOString();

/** A flow as lists show it (no definition). */
function flowOut(f: FlowRow) {
  return {
    id: f.id,
    name: f.name,
    channel: f.channel,
    trigger: f.trigger,
    trigger_value: f.trigger_value,
    status: f.status,
    published_version: f.published_version,
    created_at: iso(f.created_at),
    updated_at: iso(f.updated_at),
  };
}

/** Where an issue goes in an error's fields: `nodes.<id>[.<field>]` on a node, else `definition[.<field>]`. */
export function issueField(i: FlowIssue): string {
  return i.node !== null ? `nodes.${i.node}${i.field ? `.${i.field}` : ""}` : `definition${i.field ? `.${i.field}` : ""}`;
}

/** 422 FLOW_HAS_ERRORS with every issue on its node's field (the builder marks the nodes). */
export function flowHasErrors(issues: FlowIssue[]): AppError {
  const fields: FieldErrors = {};
  for (const i of issues) {
    const list = (fields[issueField(i)] ??= []);
    if (!list.includes(i.key)) list.push(i.key);
  }
  return new AppError("FLOW_HAS_ERRORS", { fields });
}

/** An issue's locale key read in `locale` ("validation.max::5" → "At most 5"). */
function issueMessage(locale: string | undefined, key: string) {
  const [name, arg] = key.split("::");
  const [ns, ...rest] = name.split(".");
  return translate(locale, `${ns}:${rest.join(".")}`, { 0: arg });
}

/** A flow with its draft, the draft's issues (what publishing would refuse) and its versions, newest first. */
async function detail(ctx: FlowCtx, f: FlowRow, transaction?: Transaction) {
  const versions = await rows<{ version: number; published_at: Date; published_by: string | null }>(
    "SELECT version, published_at, published_by FROM flow_versions WHERE account_id = $1 AND flow_id = $2 ORDER BY version DESC",
    [ctx.actor.accountId, f.id],
    { transaction },
  );
  const checked = checkFlow(f.draft);
  const issues = checked.ok ? [] : checked.issues;
  return {
    data: {
      ...flowOut(f),
      draft: f.draft,
      issues: issues.map((i) => ({ ...i, path: issueField(i), message: issueMessage(ctx.locale, i.key) })),
      versions: versions.map((v) => ({ version: v.version, published_at: iso(v.published_at), published_by: v.published_by })),
    },
  };
}

/** One flow of the acting account (404 for another account's, an unknown id or a non-uuid); locked when asked. */
export async function flowOf(ctx: SignedInCtx, id: string, transaction?: Transaction, lock = false) {
  if (!UUID.test(id)) throw new AppError("NOT_FOUND");
  const f = await row<FlowRow>(`SELECT ${COLUMNS} FROM flows f WHERE f.account_id = $1 AND f.id = $2 ${lock ? "FOR UPDATE" : ""}`, [ctx.actor.accountId, id], { transaction });
  if (!f) throw new AppError("NOT_FOUND");
  return f;
}

/** A definition to keep as the draft: refused (422 FLOW_HAS_ERRORS naming the node) only for what checkDraft refuses. */
function draftFrom(input: unknown): DraftDefinition {
  const r = checkDraft(input);
  if (!r.ok) throw flowHasErrors(r.issues);
  return r.draft;
}

/** The unique index of one active flow per channel and trigger, as the API answers it. */
function channelTaken(e: unknown, fields: FieldErrors = { channel: ["errors.FLOW_CHANNEL_TAKEN"] }): AppError | null {
  if (!(e instanceof UniqueConstraintError)) return null;
  const constraint = (e.parent as { constraint?: string } | undefined)?.constraint;
  return constraint === ONE_ACTIVE ? new AppError("FLOW_CHANNEL_TAKEN", { fields }) : null;
}

/** The acting account's flows, newest first, keyset paged by (created_at, id); filters `status`, `channel`. */
export async function listFlows(ctx: SignedInCtx, input: unknown = {}) {
  assertAllowed(ctx);
  const q = validate(listFlowsSchema, input ?? {});
  const after = decodeCursor(q.cursor, ["string", "string"]);
  const found = await rows<FlowRow & { created_key: string }>(
    `SELECT ${COLUMNS}, to_char(f.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS created_key
       FROM flows f
      WHERE f.account_id = $1 AND ($2::text IS NULL OR f.status = $2) AND ($3::text IS NULL OR f.channel = $3)
        AND ($4::timestamptz IS NULL OR (f.created_at, f.id) < ($4::timestamptz, $5::uuid))
      ORDER BY f.created_at DESC, f.id DESC LIMIT $6`,
    [ctx.actor.accountId, q.status ?? null, q.channel ?? null, after?.[0] ?? null, after?.[1] ?? null, q.limit + 1],
  );
  return keyset(found, q.limit, (f) => [f.created_key, f.id], flowOut);
}

export async function getFlow(ctx: FlowCtx, id: string) {
  assertAllowed(ctx);
  return detail(ctx, await flowOf(ctx, id));
}

/** The account's active departments a hand-off step may name (the builder's select), by name. */
export async function flowDepartments(ctx: SignedInCtx): Promise<Array<{ id: string; name: string }>> {
  assertAllowed(ctx);
  return rows<{ id: string; name: string }>(`SELECT id, name FROM departments WHERE account_id = $1 AND status = 'active' ORDER BY lower(name)`, [ctx.actor.accountId]);
}

/** A new flow, a draft: its draft as given (checkDraft) or a start step alone. */
export async function createFlow(ctx: FlowCtx, input: unknown) {
  assertAllowed(ctx);
  const f = validate(createFlowSchema, input);
  const draft = draftFrom(f.draft ?? EMPTY_DRAFT);
  return sequelize().transaction(async (transaction) => {
    const created = await row<FlowRow>(
      `INSERT INTO flows AS f (account_id, name, channel, trigger, trigger_value, draft, created_by) VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7) RETURNING ${COLUMNS}`,
      [ctx.actor.accountId, f.name, f.channel, f.trigger, f.trigger === "keyword" ? f.trigger_value : null, JSON.stringify(draft), ctx.actor.userId],
      { transaction },
    );
    await recordAudit({ ...ctx, transaction }, "flows.created", { meta: { id: created!.id, name: f.name, channel: f.channel, trigger: f.trigger } });
    return detail(ctx, created!, transaction);
  });
}

/**
 * Edits a flow: its name, channel, trigger (and keyword) and its draft; what is absent stays. A
 * new channel or trigger applies at once to an active flow (409 FLOW_CHANNEL_TAKEN when another
 * active flow has it). The published version is untouched: the draft runs only once published.
 */
export async function updateFlow(ctx: FlowCtx, id: string, input: unknown) {
  assertAllowed(ctx);
  const u = validate(updateFlowSchema, input);
  const draft = u.draft === undefined ? undefined : draftFrom(u.draft);
  return sequelize().transaction(async (transaction) => {
    const f = await flowOf(ctx, id, transaction, true);
    const trigger = u.trigger ?? f.trigger;
    const value = trigger !== "keyword" ? null : u.trigger_value !== undefined ? u.trigger_value || null : f.trigger === "keyword" ? f.trigger_value : null;
    if (trigger === "keyword" && !value) throw new AppError("VALIDATION", { fields: { trigger_value: ["validation.required"] } });
    let updated: FlowRow | null;
    try {
      updated = await row<FlowRow>(
        `UPDATE flows f SET name = $3, channel = $4, trigger = $5, trigger_value = $6, draft = COALESCE($7::jsonb, f.draft), updated_at = now()
          WHERE f.account_id = $1 AND f.id = $2 RETURNING ${COLUMNS}`,
        [ctx.actor.accountId, f.id, u.name ?? f.name, u.channel ?? f.channel, trigger, value, draft === undefined ? null : JSON.stringify(draft)],
        { transaction },
      );
    } catch (e) {
      throw channelTaken(e) ?? e;
    }
    await recordAudit({ ...ctx, transaction }, "flows.updated", {
      meta: { id: f.id, fields: Object.keys(u).filter((k) => u[k as keyof typeof u] !== undefined) },
    });
    return detail(ctx, updated!, transaction);
  });
}

/**
 * Publishes the draft: checkFlow, then the next version (max + 1) with the normalized definition,
 * the flow's published_version and status active, in one transaction (the flow's row locked, so
 * two publishes of one flow queue). 422 FLOW_HAS_ERRORS with each node's issues; 409
 * FLOW_CHANNEL_TAKEN when another flow is active on the channel and trigger (nothing written).
 */
export async function publishFlow(ctx: FlowCtx, id: string) {
  assertAllowed(ctx);
  return sequelize().transaction(async (transaction) => {
    const f = await flowOf(ctx, id, transaction, true);
    const checked = checkFlow(f.draft);
    if (!checked.ok) throw flowHasErrors(checked.issues);
    const v = await row<{ version: number }>(
      `INSERT INTO flow_versions (flow_id, account_id, version, definition, published_by)
       SELECT $2, $1, COALESCE(max(version), 0) + 1, $3::jsonb, $4 FROM flow_versions WHERE account_id = $1 AND flow_id = $2
       RETURNING version`,
      [ctx.actor.accountId, f.id, JSON.stringify(checked.flow), ctx.actor.userId],
      { transaction },
    );
    let published: FlowRow | null;
    try {
      published = await row<FlowRow>(
        `UPDATE flows f SET published_version = $3, status = 'active', updated_at = now() WHERE f.account_id = $1 AND f.id = $2 RETURNING ${COLUMNS}`,
        [ctx.actor.accountId, f.id, v!.version],
        { transaction },
      );
    } catch (e) {
      throw channelTaken(e) ?? e;
    }
    await recordAudit({ ...ctx, transaction }, "flows.published", { meta: { id: f.id, version: v!.version } });
    return detail(ctx, published!, transaction);
  });
}

/**
 * Enables or inactivates flows of the account at once (all or none). Enabling needs a published
 * version (422 on `ids.<i>`: validation.flowNotPublished) and a channel and trigger no other
 * active flow — nor another of the same request — has (409 FLOW_CHANNEL_TAKEN on `ids.<i>`).
 * A draft (never published) stays a draft when inactivated. An id that is not the account's: 404,
 * nothing changed.
 */
export async function setFlowStatus(ctx: SignedInCtx, input: unknown) {
  assertAllowed(ctx);
  const { ids: given, status } = validate(flowStatusSchema, input);
  const ids = [...new Set(given.map((i) => i.toLowerCase()))];
  const at = (id: string) => `ids.${given.findIndex((g) => g.toLowerCase() === id)}`;
  return sequelize().transaction(async (transaction) => {
    const found = await rows<FlowRow>(`SELECT ${COLUMNS} FROM flows f WHERE f.account_id = $1 AND f.id = ANY($2::uuid[]) ORDER BY f.id FOR UPDATE`, [ctx.actor.accountId, ids], {
      transaction,
    });
    if (found.length !== ids.length) throw new AppError("NOT_FOUND");
    if (status === "active") {
      const unpublished = found.filter((f) => f.published_version === null);
      if (unpublished.length) throw new AppError("VALIDATION", { fields: Object.fromEntries(unpublished.map((f) => [at(f.id), ["validation.flowNotPublished"]])) });
      const taken = await rows<{ id: string }>(
        `SELECT f.id FROM flows f
          WHERE f.account_id = $1 AND f.id = ANY($2::uuid[])
            AND EXISTS (SELECT 1 FROM flows o WHERE o.account_id = f.account_id AND o.id <> f.id AND o.channel = f.channel AND o.trigger = f.trigger
                          AND coalesce(o.trigger_value, '') = coalesce(f.trigger_value, '') AND (o.status = 'active' OR o.id = ANY($2::uuid[])))`,
        [ctx.actor.accountId, ids],
        { transaction },
      );
      if (taken.length) throw new AppError("FLOW_CHANNEL_TAKEN", { fields: Object.fromEntries(taken.map((f) => [at(f.id), ["errors.FLOW_CHANNEL_TAKEN"]])) });
    }
    let changed: FlowRow[];
    try {
      changed = await rows<FlowRow>(
        `UPDATE flows f SET status = $3, updated_at = now() WHERE f.account_id = $1 AND f.id = ANY($2::uuid[]) AND f.status NOT IN ($3, 'draft') RETURNING ${COLUMNS}`,
        [ctx.actor.accountId, ids, status],
        { transaction },
      );
    } catch (e) {
      throw channelTaken(e, { ids: ["errors.FLOW_CHANNEL_TAKEN"] }) ?? e;
    }
    if (changed.length) await recordAudit({ ...ctx, transaction }, "flows.status_changed", { meta: { ids: changed.map((f) => f.id), status } });
    const byId = new Map([...found, ...changed].map((f) => [f.id, f]));
    return { data: ids.map((id) => flowOut(byId.get(id)!)) };
  });
}

/** Copies a published version's definition into the draft (the running version stays until the next publish). 404 for a version the flow lacks. */
export async function restoreFlowVersion(ctx: FlowCtx, id: string, version: string | number) {
  assertAllowed(ctx);
  const n = Number(version);
  return sequelize().transaction(async (transaction) => {
    const f = await flowOf(ctx, id, transaction, true);
    if (!Number.isSafeInteger(n) || n < 1) throw new AppError("NOT_FOUND");
    const restored = await row<FlowRow>(
      `UPDATE flows f SET draft = v.definition, updated_at = now() FROM flow_versions v
        WHERE f.account_id = $1 AND f.id = $2 AND v.account_id = f.account_id AND v.flow_id = f.id AND v.version = $3 RETURNING ${COLUMNS}`,
      [ctx.actor.accountId, f.id, n],
      { transaction },
    );
    if (!restored) throw new AppError("NOT_FOUND");
    await recordAudit({ ...ctx, transaction }, "flows.restored", { meta: { id: f.id, version: n } });
    return detail(ctx, restored, transaction);
  });
}
