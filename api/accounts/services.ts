/** Accounts a person belongs to; the current account; creating and editing an account. */
import { Op, Sequelize } from "sequelize";
import { Account, Currency, Membership, User, initModels, sequelize } from "../../models";
import { accountPlans, loadActor } from "../auth/actor";
import { recordAudit } from "../audit/record";
import type { SignedInCtx } from "../lib/context";
import { randomToken } from "../lib/crypto";
import { AppError } from "../lib/errors";
import { validate } from "../lib/validate";
import { decodeCursor, keyset } from "../lib/page";
import type { Role } from "../../models/constants";
import { canWrite } from "../policy/policy";
import { accountPageSchema, accountSchema } from "./schemas";

function view(a: Account, role: string, isAgent: boolean) {
  return {
    id: a.id,
    name: a.name,
    type: a.type,
    status: a.status,
    currency: a.currency,
    balance: a.balance,
    limit: a.creditLimit,
    role,
    is_agent: isAgent,
    whitelabel_id: a.whitelabelId,
    timezone: a.timezone,
    address: { street: a.street, number: a.number, complement: a.complement, district: a.district, city: a.city, province: a.province, postal_code: a.postalCode },
  };
}

/**
 * accounts (API): the person's accounts by name (then id), `limit` a page by keyset after `cursor`.
 * (A reseller owns every account it creates, so the list grows with its customers.)
 */
export async function listAccountsPage(userId: string, query: unknown) {
  initModels();
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
  return keyset(
    ms,
    limit,
    (m) => [m.account!.name, m.account!.id],
    (m) => view(m.account!, m.role, m.isAgent),
  );
}

/** The person's accounts, all of them (the screens' account switcher and list). */
export async function listAccounts(userId: string) {
  initModels();
  const ms = await Membership.findAll({ where: { userId }, include: [{ model: Account, as: "account" }], order: [[{ model: Account, as: "account" }, "name", "ASC"]] });
  return ms.filter((m) => m.account).map((m) => view(m.account!, m.role, m.isAgent));
}

/** accounts/info: the current account with the actor's role and the plans keyed by service. */
export async function accountInfo(ctx: SignedInCtx) {
  initModels();
  const [a, { rows, permissions }] = await Promise.all([Account.findByPk(ctx.actor.accountId), accountPlans(ctx.actor.accountId)]);
  if (!a) throw new AppError("ACCOUNT_INFO_FAILED");
  const plans = Object.fromEntries(rows.map((r) => [r.service, { id: r.planId, name: r.plan?.name, ends_at: r.endsAt, trial: r.plan?.isTrial ?? false }]));
  return { ...view(a, ctx.actor.role, ctx.actor.isAgent), plans, permissions, auth_token: canEditAccount(ctx.actor.role) ? a.authToken : undefined };
}

export async function getAccount(ctx: SignedInCtx, accountId: string) {
  // Ids come from URLs: anything that is not a uuid is simply not found.
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(accountId)) throw new AppError("NOT_FOUND");
  initModels();
  const m = await Membership.findOne({ where: { userId: ctx.actor.userId, accountId }, include: [{ model: Account, as: "account" }] });
  if (!m?.account) throw new AppError("NOT_FOUND");
  return view(m.account, m.role, m.isAgent);
}

/** accounts/summary/{id}: make another of the person's accounts the current one. */
export async function switchAccount(ctx: SignedInCtx, accountId: string) {
  const actor = await loadActor(ctx.actor.userId, accountId).catch(() => null);
  if (!actor || actor.accountId !== accountId) throw new AppError("NOT_FOUND");
  initModels();
  await User.update({ currentAccountId: accountId }, { where: { id: ctx.actor.userId } });
  await recordAudit({ ...ctx, actor }, "accounts.switched");
  return actor;
}

/** A new account owned by the acting person (resellers' accounts become their children). */
export async function createAccount(ctx: SignedInCtx, input: unknown) {
  initModels();
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
    await Membership.create({ accountId: account.id, userId: ctx.actor.userId, role: "owner", isAgent: true }, { transaction });
    await recordAudit({ ...ctx, transaction }, "accounts.created", { accountId: account.id });
    return view(account, "owner", true);
  });
}

/** Who may edit the current account's data and see its API token: owner and admin. */
export function canEditAccount(role: Role) {
  return canWrite({ role }, "account");
}

export async function updateAccount(ctx: SignedInCtx, input: unknown) {
  if (!canEditAccount(ctx.actor.role)) throw new AppError("FORBIDDEN");
  initModels();
  const data = validate(accountSchema, input);
  if (!(await Currency.findByPk(data.currency))) throw new AppError("VALIDATION", { fields: { currency: ["validation.required"] } });
  const a = await Account.findByPk(ctx.actor.accountId);
  if (!a) throw new AppError("NOT_FOUND");
  await a.update(data);
  await recordAudit(ctx, "accounts.updated");
  return view(a, ctx.actor.role, ctx.actor.isAgent);
}

export async function listCurrencies() {
  initModels();
  return Currency.findAll({ order: [["code", "ASC"]] });
}
