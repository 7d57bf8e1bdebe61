/**
 * What the RCS campaign screens show beside the shared campaign view (api/campaigns/control.ts):
 * each campaign's agent, content type, price class and fallback (from campaigns.source, written
 * by ./bulk.ts), and the choices of the "new campaign" form (launched agents, contact groups,
 * RCS templates). Scoped by account; reading needs /rcs/campaigns, the form's choices /rcs/send.
 */
import type { SignedInCtx } from "../lib/context";
import { AppError } from "../lib/errors";
import { rows } from "../lib/sql";
import { can } from "../policy/policy";

export type RcsCampaignExtra = { id: string; agent_name: string | null; type: string | null; fallback_sms: boolean; file_name: string | null; group_name: string | null };

/** The agent, content type and fallback of the account's campaigns `ids` (others' ids are left out). */
export async function rcsCampaignExtras(ctx: SignedInCtx, ids: string[]): Promise<Record<string, RcsCampaignExtra>> {
  if (!can(ctx.actor, "/rcs/campaigns")) throw new AppError("FORBIDDEN");
  if (ids.length === 0) return {};
  const found = await rows<RcsCampaignExtra>(
    `SELECT c.id, COALESCE(g.name, c.source->>'agent_name') AS agent_name, c.source->>'type' AS type, COALESCE((c.source->>'fallback_sms')::boolean, false) AS fallback_sms,
            c.source->>'file_name' AS file_name, c.source->>'group_name' AS group_name
       FROM campaigns c LEFT JOIN rcs_agents g ON g.account_id = c.account_id AND g.id::text = c.source->>'agent_id'
      WHERE c.account_id = $1 AND c.channel = 'rcs' AND c.id = ANY($2::uuid[])`,
    [ctx.actor.accountId, ids],
  );
  return Object.fromEntries(found.map((r) => [r.id, r]));
}

export type RcsCampaignOptions = {
  agents: Array<{ id: string; name: string }>;
  groups: Array<{ id: string; name: string; members: number }>;
  templates: Array<{ id: string; name: string; type: string }>;
};

/** The new campaign form's choices: launched agents, contact groups with their size, RCS templates. */
export async function rcsCampaignOptions(ctx: SignedInCtx): Promise<RcsCampaignOptions> {
  if (!can(ctx.actor, "/rcs/send")) throw new AppError("FORBIDDEN");
  const accountId = ctx.actor.accountId;
  const [agents, groups, templates] = await Promise.all([
    rows<{ id: string; name: string }>(`SELECT id, name FROM rcs_agents WHERE account_id = $1 AND status = 'launched' AND rbm_agent_id IS NOT NULL ORDER BY name, id`, [accountId]),
    rows<{ id: string; name: string; members: number }>(
      `SELECT g.id, g.name, (SELECT count(*)::int FROM contact_group_members m WHERE m.group_id = g.id AND m.account_id = g.account_id) AS members
         FROM contact_groups g WHERE g.account_id = $1 ORDER BY g.name, g.id LIMIT 500`,
      [accountId],
    ),
    rows<{ id: string; name: string; type: string }>(`SELECT id, name, content->>'type' AS type FROM rcs_templates WHERE account_id = $1 ORDER BY name, id LIMIT 500`, [accountId]),
  ]);
  return { agents, groups, templates };
}
