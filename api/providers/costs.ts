/**
 * What each provider connection charges the platform per SMS segment, per route, from a start on
 * (issue 23, ADR 070): platform staff only (the /admin/providers policy route, like the connections).
 * A cost change is a new row with its own `valid_from`; a message is costed at the row of its
 * provider and route in force when it was handed over (api/admin-sms/reports.ts adminSmsSales), so
 * a period's margin stays what it was. Rules:
 * - a new cost may not start before the cost now in force of the same provider and route (the
 *   history before it stays as it was); the first one may start in the past (figures of messages
 *   already sent become known);
 * - one start per provider and route (422 on valid_from);
 * - only a cost that has not started yet may be deleted (409 PROVIDER_COST_APPLIED): one in force or
 *   past is history — change it with a new one.
 * Costs are kept by the connection's name (what messages carry): a deleted connection's stay.
 */
import { sequelize } from "../../models";
import { recordAudit } from "../audit/record";
import type { SignedInCtx } from "../lib/context";
import { AppError } from "../lib/errors";
import { assertId } from "../lib/owned";
import { onePage } from "../lib/page";
import { rows } from "../lib/sql";
import { validate } from "../lib/validate";
import { isoToLocal } from "../sms/schedule";
import { createCostSchema } from "./schemas";
import { assertStaff, loadProvider } from "./services";

export type ProviderCost = {
  id: string;
  provider: string;
  route: string;
  currency: string;
  cost_per_segment: number;
  valid_from: Date;
  created_at: Date;
  /** Already started (in force or past): kept for history, not deletable. */
  applied: boolean;
};

const COLUMNS = `id, provider, route, trim(currency) AS currency, cost_per_segment, valid_from, created_at, valid_from <= now() AS applied`;

/** Every cost (platform configuration: a few per connection and route), by provider, route, newest start first; of one provider when named. */
export async function listProviderCosts(ctx: SignedInCtx, provider?: string): Promise<{ data: ProviderCost[]; next_cursor: string | null }> {
  assertStaff(ctx);
  const found = await rows<ProviderCost>(`SELECT ${COLUMNS} FROM provider_costs WHERE ($1::text IS NULL OR provider = $1) ORDER BY provider, route, valid_from DESC`, [
    provider ?? null,
  ]);
  return onePage(found);
}

/** The costs of connection `connectionId` (its name's). */
export async function listConnectionCosts(ctx: SignedInCtx, connectionId: string) {
  assertStaff(ctx);
  const c = await loadProvider(connectionId);
  return listProviderCosts(ctx, c.name);
}

export async function getConnectionCost(ctx: SignedInCtx, connectionId: string, costId: string): Promise<{ data: ProviderCost }> {
  assertStaff(ctx);
  assertId(costId);
  const c = await loadProvider(connectionId);
  const [found] = await rows<ProviderCost>(`SELECT ${COLUMNS} FROM provider_costs WHERE id = $1 AND provider = $2`, [costId, c.name]);
  if (!found) throw new AppError("NOT_FOUND");
  return { data: found };
}

/** Adds a cost of connection `connectionId` on a route from `valid_from` on (see the rules above). */
export async function createProviderCost(ctx: SignedInCtx, connectionId: string, input: unknown): Promise<{ data: ProviderCost }> {
  assertStaff(ctx);
  const data = validate(createCostSchema, input);
  const row = await sequelize().transaction(async (transaction) => {
    // The connection's row locked: two costs of it are added one after the other (the in-force check holds).
    const c = await loadProvider(connectionId, transaction, true);
    const [current] = await rows<{ valid_from: Date }>(
      `SELECT valid_from FROM provider_costs WHERE provider = $1 AND route = $2 AND valid_from <= now() ORDER BY valid_from DESC LIMIT 1`,
      [c.name, data.route],
      { transaction },
    );
    if (current && data.valid_from.getTime() <= new Date(current.valid_from).getTime()) {
      const since = isoToLocal(new Date(current.valid_from)).replace("T", " ");
      throw new AppError("VALIDATION", { fields: { valid_from: [`admin.providers.costs.errors.beforeCurrent::${since}`] } });
    }
    const [inserted] = await rows<ProviderCost>(
      `INSERT INTO provider_costs (provider, route, currency, cost_per_segment, valid_from, created_by) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (provider, route, valid_from) DO NOTHING RETURNING ${COLUMNS}`,
      [c.name, data.route, data.currency, data.cost_per_segment, data.valid_from, ctx.actor.userId],
      { transaction },
    );
    if (!inserted) throw new AppError("VALIDATION", { fields: { valid_from: ["admin.providers.costs.errors.taken"] } });
    await recordAudit({ ...ctx, transaction }, "provider_cost.created", {
      meta: { id: inserted.id, provider: c.name, route: data.route, currency: data.currency, cost_per_segment: data.cost_per_segment, valid_from: data.valid_from.toISOString() },
    });
    return inserted;
  });
  return { data: row };
}

/**
 * Deletes a cost that has not started yet (409 PROVIDER_COST_APPLIED otherwise): of connection
 * `connectionId` (the API's nested route), or any (null: the /admin/providers screen, which lists them all).
 */
export async function deleteProviderCost(ctx: SignedInCtx, connectionId: string | null, costId: string): Promise<{ ok: true }> {
  assertStaff(ctx);
  assertId(costId);
  await sequelize().transaction(async (transaction) => {
    const c = connectionId === null ? null : await loadProvider(connectionId, transaction, true);
    const [found] = await rows<ProviderCost>(`SELECT ${COLUMNS} FROM provider_costs WHERE id = $1 AND ($2::text IS NULL OR provider = $2) FOR UPDATE`, [costId, c?.name ?? null], {
      transaction,
    });
    if (!found) throw new AppError("NOT_FOUND");
    if (found.applied) throw new AppError("PROVIDER_COST_APPLIED");
    await rows(`DELETE FROM provider_costs WHERE id = $1 AND valid_from > now() RETURNING id`, [costId], { transaction });
    await recordAudit({ ...ctx, transaction }, "provider_cost.deleted", {
      meta: {
        id: costId,
        provider: found.provider,
        route: found.route,
        currency: found.currency,
        cost_per_segment: found.cost_per_segment,
        valid_from: new Date(found.valid_from).toISOString(),
      },
    });
  });
  return { ok: true };
}
