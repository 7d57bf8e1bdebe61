/** Accounts a person belongs to; the current account; creating and editing an account. */
import { Op, Sequelize, type Transaction } from "sequelize";
import { Account, Currency, Membership, User, sequelize, type PlanPermission } from "../../models";
import { loadActor } from "../auth/actor";
import { recordAudit } from "../audit/record";
import type { SignedInCtx } from "../lib/context";
import { randomToken } from "../lib/crypto";
import { AppError } from "../lib/errors";
import { prepared, preparedRows } from "../lib/prepared";
import { rows } from "../lib/sql";
import { validate } from "../lib/validate";
import { decodeCursor, keyset } from "../lib/page";
import type { Role } from "../../models/constants";
import { canWrite } from "../policy/policy";
import { accountPageSchema, accountSchema } from "./schemas";
import { foundingAgentSeat } from "../seats/seats";

function view(a: Account, role: string, isAgent: boolean, balance: number) {
  return {
    id: a.id,
    name: a.name,
    type: a.type,
    status: a.status,
    currency: a.currency,
    balance,
    limit: a.creditLimit,
    role,
    is_agent: isAgent,
    whitelabel_id: a.whitelabelId,
    timezone: a.timezone,
    address: { street: a.street, number: a.number, complement: a.complement, district: a.district, city: a.city, province: a.province, postal_code: a.postalCode },
  };
}

/** The balances of accounts (their own rows, account_balances: ADR 027), by account id. */
async function balancesOf(accountIds: string[], transaction?: Transaction): Promise<Map<string, number>> {
  const found = await rows<{ account_id: string; balance: string }>(`SELECT account_id, balance FROM account_balances WHERE account_id = ANY($1::uuid[])`, [accountIds], {
    transaction,
  });
  return new Map(found.map((b) => [b.account_id, Number(b.balance)]));
}

/**
 * accounts (API): the person's accounts by name (then id), `limit` a page by keyset after `cursor`.
 * (A reseller owns every account it creates, so the list grows with its customers.)
 */
export async function listAccountsPage(userId: string, query: unknown) {
  const { cursor, limit } = validate(accountPageSchema, query ?? {});
  const after = decodeCursor(cursor, ["string", "string"]);
  const ms = await Membership.findAll({
    where: after
      ? {
          userId,
          [Op.or]: [
            Sequelize.where(Sequelize.col("account.name"), Op.gt, after[0]),
            { [Op.and]: [Sequelize.where(Sequelize.col("account.name"), Op.eq, after[0]), Sequelize.where(Sequelize.col("account.id"), Op.gt, after[1])] },
          ],
        }
      : { userId },
    include: [{ model: Account, as: "account", required: true }],
    order: [
      [{ model: Account, as: "account" }, "name", "ASC"],
      [{ model: Account, as: "account" }, "id", "ASC"],
    ],
    limit: limit + 1,
  });
  const balances = await balancesOf(ms.map((m) => m.accountId));
  return keyset(
    ms,
    limit,
    (m) => [m.account!.name, m.account!.id],
    (m) => view(m.account!, m.role, m.isAgent, balances.get(m.accountId) ?? 0),
  );
}

/** The person's accounts, all of them (the screens' account switcher and list). */
export async function listAccounts(userId: string) {
  const ms = await Membership.findAll({ where: { userId }, include: [{ model: Account, as: "account" }], order: [[{ model: Account, as: "account" }, "name", "ASC"]] });
  const balances = await balancesOf(ms.map((m) => m.accountId));
  return ms.filter((m) => m.account).map((m) => view(m.account!, m.role, m.isAgent, balances.get(m.accountId) ?? 0));
}

/** accounts/info: the current account with the actor's role and the plans keyed by service. */
/**
 * accounts/info: the acting account with its active plans, in ONE round trip (it is read on every
 * page and by every integrator: two model queries with an include cost more CPU than the SQL).
 */
const INFO_SQL = prepared(
  "account-info",
  `
  SELECT a.id, a.name, a.type, a.status, a.currency, b.balance, a.credit_limit, a.whitelabel_id, a.timezone, a.auth_token,
         a.street, a.number, a.complement, a.district, a.city, a.province, a.postal_code,
         COALESCE((SELECT json_agg(json_build_object('service', ap.service, 'id', ap.plan_id, 'name', p.name, 'ends_at', ap.ends_at, 'trial', p.is_trial,
                                                     'permissions', p.permissions) ORDER BY ap.starts_at)
                     FROM account_plans ap JOIN plans p ON p.id = ap.plan_id
                    WHERE ap.account_id = a.id AND ap.starts_at <= now() AND (ap.ends_at IS NULL OR ap.ends_at > now())), '[]') AS plans,
         (SELECT ap.ends_at FROM account_plans ap JOIN plans p ON p.id = ap.plan_id
           WHERE ap.account_id = a.id AND p.is_trial AND ap.ends_at <= now() ORDER BY ap.ends_at DESC LIMIT 1) AS trial_ended_at
    FROM accounts a JOIN account_balances b ON b.account_id = a.id WHERE a.id = $1`,
);

type InfoRow = {
  id: string;
  name: string;
  type: Account["type"];
  status: Account["status"];
  currency: string;
  balance: number;
  credit_limit: number;
  whitelabel_id: string | null;
  timezone: string;
  auth_token: string;
  street: string | null;
  number: string | null;
  complement: string | null;
  district: string | null;
  city: string | null;
  province: string | null;
  postal_code: string | null;
  plans: Array<{ service: string; id: string; name: string | null; ends_at: string | null; trial: boolean | null; permissions: Partial<Record<PlanPermission, boolean>> | null }>;
  /** When the account's trial ended (its plan row stays, ended: a trial becomes a plan by a change of plan, api/plans/change.ts). */
  trial_ended_at: Date | null;
};

export async function accountInfo(ctx: SignedInCtx) {
  const [a] = await preparedRows<InfoRow>(INFO_SQL, [ctx.actor.accountId]);
  if (!a) throw new AppError("ACCOUNT_INFO_FAILED");
  const permissions: Partial<Record<PlanPermission, boolean>> = {};
  for (const r of a.plans) for (const [k, v] of Object.entries(r.permissions ?? {})) if (v) permissions[k as PlanPermission] = true;
  // One entry per service (the latest-starting active plan of a service wins).
  const plans = Object.fromEntries(
    a.plans.map((r) => [r.service, { id: r.id, name: r.name ?? undefined, ends_at: r.ends_at ? new Date(r.ends_at).toISOString() : null, trial: r.trial ?? false }]),
  );
  return {
    id: a.id,
    name: a.name,
    type: a.type,
    status: a.status,
    currency: a.currency,
    balance: a.balance,
    limit: a.credit_limit,
    role: ctx.actor.role,
    is_agent: ctx.actor.isAgent,
    whitelabel_id: a.whitelabel_id,
    timezone: a.timezone,
    address: { street: a.street, number: a.number, complement: a.complement, district: a.district, city: a.city, province: a.province, postal_code: a.postal_code },
    plans,
    permissions,
    // A trial that ended and was not followed by a plan (a change of plan rewrites the same row): choose a plan.
    trial_ended_at: a.trial_ended_at ? new Date(a.trial_ended_at).toISOString() : null,
    auth_token: canEditAccount(ctx.actor.role) ? a.auth_token : undefined,
  };
}

export async function getAccount(ctx: SignedInCtx, accountId: string) {
  // Ids come from URLs: anything that is not a uuid is simply not found.
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(accountId)) throw new AppError("NOT_FOUND");
  const m = await Membership.findOne({ where: { userId: ctx.actor.userId, accountId }, include: [{ model: Account, as: "account" }] });
  if (!m?.account) throw new AppError("NOT_FOUND");
  return view(m.account, m.role, m.isAgent, (await balancesOf([accountId])).get(accountId) ?? 0);
}

/** accounts/summary/{id}: make another of the person's accounts the current one. */
export async function switchAccount(ctx: SignedInCtx, accountId: string) {
  const actor = await loadActor(ctx.actor.userId, accountId).catch(() => null);
  if (!actor || actor.accountId !== accountId) throw new AppError("NOT_FOUND");
  await User.update({ currentAccountId: accountId }, { where: { id: ctx.actor.userId } });
  await recordAudit({ ...ctx, actor }, "accounts.switched");
  return actor;
}

/** A new account owned by the acting person (resellers' accounts become their children). */
export async function createAccount(ctx: SignedInCtx, input: unknown) {
  const data = validate(accountSchema, input);
  if (!(await Currency.findByPk(data.currency))) throw new AppError("VALIDATION", { fields: { currency: ["validation.required"] } });
  return sequelize().transaction(async (transaction) => {
    const parent = await Account.findByPk(ctx.actor.accountId, { transaction });
    const account = await Account.create(
      {
        ...data,
        authToken: randomToken(24),
        parentAccountId: parent?.type === "reseller" ? parent.id : null,
        whitelabelId: parent?.whitelabelId ?? null,
      },
      { transaction },
    );
    const founder = await Membership.create({ accountId: account.id, userId: ctx.actor.userId, role: "owner", isAgent: true }, { transaction });
    // The founding owner attends: its agent seat is paid until the next month start (ADR 047).
    await foundingAgentSeat(founder.id, new Date(), transaction);
    await recordAudit({ ...ctx, transaction }, "accounts.created", { accountId: account.id });
    return view(account, "owner", true, 0);
  });
}

/** Who may edit the current account's data and see its API token: owner and admin. */
export function canEditAccount(role: Role) {
  return canWrite({ role }, "account");
}

export async function updateAccount(ctx: SignedInCtx, input: unknown) {
  if (!canEditAccount(ctx.actor.role)) throw new AppError("FORBIDDEN");
  const data = validate(accountSchema, input);
  if (!(await Currency.findByPk(data.currency))) throw new AppError("VALIDATION", { fields: { currency: ["validation.required"] } });
  const a = await Account.findByPk(ctx.actor.accountId);
  if (!a) throw new AppError("NOT_FOUND");
  await a.update(data);
  await recordAudit(ctx, "accounts.updated");
  return view(a, ctx.actor.role, ctx.actor.isAgent, (await balancesOf([a.id])).get(a.id) ?? 0);
}

export async function listCurrencies() {
  return Currency.findAll({ order: [["code", "ASC"]] });
}
