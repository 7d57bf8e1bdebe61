/**
 * RCS agents (issue 21, ADR 055; spec section 2 /rcs/request, /rcs/agents, /rcs/agents/{id}): the
 * branded sender an account asks for (name, logo, banner, color, description, phone, website,
 * e-mail, privacy and terms pages), written `requested` with every Brazilian carrier pending. The
 * account lists and reads its agents and edits one while it is not live (requested, in review,
 * rejected — an edit of a rejected agent asks again: back to requested). Platform staff
 * (/admin/rcs/agents) move it through Google's launch: requested -> in_review -> launched (Google's
 * agent id, `<slug>@rbm.goog` when not given) | rejected; launched <-> suspended; and set each
 * carrier's launch state. Every change is audited in the agent's account. The account's fallback
 * setting (accounts.rcs_fallback_sms) is here too.
 * Roles: reading needs /rcs/agents; asking and editing /rcs/request; the fallback setting the
 * account's writers (owner, admin). Every customer query is scoped by the acting account; the
 * staff's are cross-tenant by design, behind assertStaff.
 */
import { recordAudit } from "../audit/record";
import type { SignedInCtx } from "../lib/context";
import { AppError } from "../lib/errors";
import { assertId } from "../lib/owned";
import { onePage } from "../lib/page";
import { exec, row, rows } from "../lib/sql";
import { validate } from "../lib/validate";
import { assertStaff } from "../messages/admin-reports";
import { can, canWrite } from "../policy/policy";
import { sequelize } from "../../models";
import {
  AGENT_TRANSITIONS,
  type AgentStatus,
  agentRequestSchema,
  agentReviewSchema,
  CARRIERS,
  type Carrier,
  EDITABLE_STATUSES,
  type LaunchState,
  settingsSchema,
} from "./agent-schema";

export type Launch = { carrier: Carrier; state: LaunchState; updated_at: string };
export type RcsAgent = {
  id: string;
  name: string;
  description: string;
  logo_url: string;
  banner_url: string;
  color: string;
  phone: string;
  website: string;
  email: string;
  privacy_url: string;
  terms_url: string;
  status: AgentStatus;
  rbm_agent_id: string | null;
  launches: Launch[];
  created_at: Date;
  updated_at: Date;
};
export type StaffAgent = RcsAgent & { account_id: string; account_name: string };

const COLUMNS = "id, name, description, logo_url, banner_url, color, phone, website, email, privacy_url, terms_url, status, rbm_agent_id, launches, created_at, updated_at";
const A_COLUMNS = COLUMNS.split(", ")
  .map((c) => `a.${c}`)
  .join(", ");

export const STAFF_AGENTS_PATH = "/admin/rcs/agents";

function assertRead(ctx: SignedInCtx) {
  if (!can(ctx.actor, "/rcs/agents")) throw new AppError("FORBIDDEN");
}
function assertRequest(ctx: SignedInCtx) {
  if (!can(ctx.actor, "/rcs/request")) throw new AppError("FORBIDDEN");
}
/** Whether the actor may ask for and edit agents (the screens show the forms or a read-only view). */
export const canManageAgents = (ctx: SignedInCtx) => can(ctx.actor, "/rcs/request");
/** Whether the actor is platform staff who reviews agents. */
export const isAgentStaff = (ctx: SignedInCtx) => ctx.actor.accountType === "platform" && can(ctx.actor, STAFF_AGENTS_PATH);

/** Each carrier in CARRIERS order, its stored state or pending. */
function launchesOf(stored: Launch[] | null | undefined): Launch[] {
  return CARRIERS.map((carrier) => stored?.find((l) => l.carrier === carrier) ?? { carrier, state: "pending", updated_at: "" });
}
const view = <T extends RcsAgent>(a: T): T => ({ ...a, launches: launchesOf(a.launches) });

/** POST: a new agent of the account, requested, every carrier pending. */
export async function requestAgent(ctx: SignedInCtx, input: unknown): Promise<{ data: RcsAgent }> {
  assertRequest(ctx);
  const d = validate(agentRequestSchema, input);
  const now = new Date().toISOString();
  const launches = CARRIERS.map((carrier) => ({ carrier, state: "pending", updated_at: now }));
  return sequelize().transaction(async (transaction) => {
    const created = (await row<RcsAgent>(
      `INSERT INTO rcs_agents (account_id, name, description, logo_url, banner_url, color, phone, website, email, privacy_url, terms_url, launches)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12::jsonb) RETURNING ${COLUMNS}`,
      [
        ctx.actor.accountId,
        d.name,
        d.description,
        d.logo_url,
        d.banner_url,
        d.color.toLowerCase(),
        d.phone,
        d.website,
        d.email,
        d.privacy_url,
        d.terms_url,
        JSON.stringify(launches),
      ],
      { transaction },
    ))!;
    await recordAudit({ ...ctx, transaction }, "rcs.agent_requested", { meta: { id: created.id, name: created.name } });
    return { data: view(created) };
  });
}

/** GET: the account's agents, oldest first (an account has a handful: one page). */
export async function listAgents(ctx: SignedInCtx) {
  assertRead(ctx);
  const found = await rows<RcsAgent>(`SELECT ${COLUMNS} FROM rcs_agents WHERE account_id = $1 ORDER BY created_at, id`, [ctx.actor.accountId]);
  return onePage(found.map(view));
}

/** GET rcs/agent: the account's launched agent (the oldest launched), else its first agent, else null. */
export async function currentAgent(ctx: SignedInCtx): Promise<{ data: RcsAgent | null }> {
  assertRead(ctx);
  const found = await row<RcsAgent>(`SELECT ${COLUMNS} FROM rcs_agents WHERE account_id = $1 ORDER BY (status = 'launched') DESC, created_at, id LIMIT 1`, [ctx.actor.accountId]);
  return { data: found ? view(found) : null };
}

/** GET one: an agent of the account (another account's, or a non-uuid: 404). */
export async function getAgent(ctx: SignedInCtx, id: string): Promise<{ data: RcsAgent }> {
  assertRead(ctx);
  assertId(id);
  const found = await row<RcsAgent>(`SELECT ${COLUMNS} FROM rcs_agents WHERE id = $1 AND account_id = $2`, [id, ctx.actor.accountId]);
  if (!found) throw new AppError("NOT_FOUND");
  return { data: view(found) };
}

/** PUT: the account edits its agent's fields while it is not live; a rejected agent so edited is requested again. */
export async function updateAgent(ctx: SignedInCtx, id: string, input: unknown): Promise<{ data: RcsAgent }> {
  assertRequest(ctx);
  assertId(id);
  const d = validate(agentRequestSchema, input);
  return sequelize().transaction(async (transaction) => {
    const current = await row<{ status: AgentStatus }>(`SELECT status FROM rcs_agents WHERE id = $1 AND account_id = $2 FOR UPDATE`, [id, ctx.actor.accountId], {
      transaction,
    });
    if (!current) throw new AppError("NOT_FOUND");
    if (!EDITABLE_STATUSES.includes(current.status)) throw new AppError("VALIDATION", { fields: { form: ["rcs.agents.errors.notEditable"] } });
    const updated = (await row<RcsAgent>(
      `UPDATE rcs_agents SET name = $3, description = $4, logo_url = $5, banner_url = $6, color = $7, phone = $8, website = $9, email = $10,
              privacy_url = $11, terms_url = $12, status = CASE WHEN status = 'rejected' THEN 'requested' ELSE status END, updated_at = now()
        WHERE id = $1 AND account_id = $2 RETURNING ${COLUMNS}`,
      [id, ctx.actor.accountId, d.name, d.description, d.logo_url, d.banner_url, d.color.toLowerCase(), d.phone, d.website, d.email, d.privacy_url, d.terms_url],
      { transaction },
    ))!;
    await recordAudit({ ...ctx, transaction }, "rcs.agent_updated", { meta: { id, name: d.name, status: updated.status } });
    return { data: view(updated) };
  });
}

/** Staff: every account's agents, those waiting for review first, then newest (bounded: at most 500). */
export async function staffListAgents(ctx: SignedInCtx, input: { status?: string } = {}) {
  assertStaff(ctx, STAFF_AGENTS_PATH);
  const found = await rows<StaffAgent>(
    `SELECT ${A_COLUMNS}, a.account_id, c.name AS account_name FROM rcs_agents a JOIN accounts c ON c.id = a.account_id
      WHERE ($1::text IS NULL OR a.status = $1)
      ORDER BY (a.status IN ('requested','in_review')) DESC, a.created_at DESC, a.id LIMIT 500`,
    [input.status || null],
  );
  return onePage(found.map(view));
}

/** Staff: one agent of any account. */
export async function staffGetAgent(ctx: SignedInCtx, id: string): Promise<{ data: StaffAgent }> {
  assertStaff(ctx, STAFF_AGENTS_PATH);
  assertId(id);
  const found = await row<StaffAgent>(`SELECT ${A_COLUMNS}, a.account_id, c.name AS account_name FROM rcs_agents a JOIN accounts c ON c.id = a.account_id WHERE a.id = $1`, [id]);
  if (!found) throw new AppError("NOT_FOUND");
  return { data: view(found) };
}

/** Google's agent ids are lower-case letters, digits and hyphens: the brand's name folded. */
export function agentSlug(name: string): string {
  const s = name
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "")
    .slice(0, 40);
  return s || "agent";
}

/**
 * Staff: a review — the status (only the moves of AGENT_TRANSITIONS; the same status keeps it),
 * Google's agent id (given, or `<slug>@rbm.goog` when launching without one; unique), the launch
 * state of each carrier given. Audited in the agent's account.
 */
export async function reviewAgent(ctx: SignedInCtx, id: string, input: unknown): Promise<{ data: StaffAgent }> {
  assertStaff(ctx, STAFF_AGENTS_PATH);
  assertId(id);
  const d = validate(agentReviewSchema, input);
  return sequelize()
    .transaction(async (transaction) => {
      const t = { transaction };
      const current = await row<RcsAgent & { account_id: string }>(`SELECT ${COLUMNS}, account_id FROM rcs_agents WHERE id = $1 FOR UPDATE`, [id], t);
      if (!current) throw new AppError("NOT_FOUND");
      if (d.status !== current.status && !AGENT_TRANSITIONS[current.status].includes(d.status)) {
        throw new AppError("VALIDATION", { fields: { status: ["rcs.agents.errors.transition"] } });
      }
      let rbmId = d.rbm_agent_id ?? current.rbm_agent_id;
      if (d.status === "launched" && !rbmId) {
        const slug = agentSlug(current.name);
        const taken = await row(`SELECT 1 AS one FROM rcs_agents WHERE rbm_agent_id = $1 AND id <> $2`, [`${slug}@rbm.goog`, id], t);
        rbmId = taken ? `${slug}-${id.slice(0, 8)}@rbm.goog` : `${slug}@rbm.goog`;
      }
      if (rbmId && (await row(`SELECT 1 AS one FROM rcs_agents WHERE rbm_agent_id = $1 AND id <> $2`, [rbmId, id], t))) {
        throw new AppError("VALIDATION", { fields: { rbm_agent_id: ["rcs.agents.errors.rbmAgentIdTaken"] } });
      }
      const now = new Date().toISOString();
      const launches = launchesOf(current.launches).map((l) => {
        const state = d[l.carrier];
        return state && state !== l.state ? { ...l, state, updated_at: now } : l;
      });
      await exec(
        `UPDATE rcs_agents SET status = $2, rbm_agent_id = $3, launches = $4::jsonb, updated_at = now() WHERE id = $1`,
        [id, d.status, rbmId, JSON.stringify(launches)],
        t,
      );
      await recordAudit({ ...ctx, transaction }, "rcs.agent_reviewed", {
        accountId: current.account_id,
        meta: { id, from: current.status, status: d.status, rbm_agent_id: rbmId, launches: Object.fromEntries(launches.map((l) => [l.carrier, l.state])) },
      });
      return {
        data: (await row<StaffAgent>(
          `SELECT ${A_COLUMNS}, a.account_id, c.name AS account_name FROM rcs_agents a JOIN accounts c ON c.id = a.account_id WHERE a.id = $1`,
          [id],
          t,
        )) as StaffAgent,
      };
    })
    .then((r) => ({ data: view(r.data) }));
}

/** GET settings: whether a send to a handset that is not RCS-capable goes as SMS. */
export async function getRcsSettings(ctx: SignedInCtx): Promise<{ data: { rcs_fallback_sms: boolean; can_edit: boolean } }> {
  assertRead(ctx);
  const r = await row<{ rcs_fallback_sms: boolean }>(`SELECT rcs_fallback_sms FROM accounts WHERE id = $1`, [ctx.actor.accountId]);
  return { data: { rcs_fallback_sms: r?.rcs_fallback_sms ?? false, can_edit: canWrite(ctx.actor, "account") } };
}

/** PUT settings: the account's writers (owner, admin) turn the SMS fallback on or off; audited. */
export async function putRcsSettings(ctx: SignedInCtx, input: unknown) {
  assertRead(ctx);
  if (!canWrite(ctx.actor, "account")) throw new AppError("FORBIDDEN");
  const d = validate(settingsSchema, input);
  await sequelize().transaction(async (transaction) => {
    await exec(`UPDATE accounts SET rcs_fallback_sms = $2, updated_at = now() WHERE id = $1`, [ctx.actor.accountId, d.rcs_fallback_sms], { transaction });
    await recordAudit({ ...ctx, transaction }, "rcs.fallback_sms_changed", { meta: { rcs_fallback_sms: d.rcs_fallback_sms } });
  });
  return getRcsSettings(ctx);
}
