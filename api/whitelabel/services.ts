/** Reseller branding per host: name and color on the login page and the shell. */
import { UniqueConstraintError } from "sequelize";
import { Account, Whitelabel, sequelize } from "../../models";
import { recordAudit } from "../audit/record";
import type { SignedInCtx } from "../lib/context";
import { platformHosts } from "../lib/env";
import { AppError } from "../lib/errors";
import { validate } from "../lib/validate";
import { whitelabelSchema } from "./schemas";
import { can } from "../policy/policy";

export type Brand = { name: string; color: string } | null;

const cache = new Map<string, { brand: Brand; at: number }>();
/** The platform's own hosts (app, unsubscribe page, shortener) belong to no reseller. */
const isPlatformHost = (host: string) => platformHosts().includes(host);

/** Branding for a request's host (cached 30 s per process); never on a platform host, even if a row claims it. */
export async function brandForHost(host: string | null | undefined): Promise<Brand> {
  const h = (host ?? "").split(":")[0].toLowerCase().replace(/\.$/, "");
  if (!h || isPlatformHost(h)) return null;
  const hit = cache.get(h);
  if (hit && Date.now() - hit.at < 30_000) return hit.brand;
  const w = await Whitelabel.findOne({ where: { host: h } });
  const brand = w ? { name: w.name, color: w.color } : null;
  cache.set(h, { brand, at: Date.now() });
  return brand;
}

function assertAllowed(ctx: SignedInCtx) {
  if (!can(ctx.actor, "/admin/whitelabel")) throw new AppError("FORBIDDEN");
}

/** The reseller's own whitelabel (platform staff see every one). */
export async function getWhitelabel(ctx: SignedInCtx) {
  assertAllowed(ctx);
  const own = await Whitelabel.findOne({ where: { accountId: ctx.actor.accountId } });
  const all = ctx.actor.accountType === "platform" ? await Whitelabel.findAll({ order: [["name", "ASC"]] }) : own ? [own] : [];
  return { own, all };
}

/**
 * Creates or updates the reseller's whitelabel. A host is claimed once (whitelabels.host is citext
 * UNIQUE: "Marca.example" and "marca.example" are the same claim) and never a platform host.
 */
export async function saveWhitelabel(ctx: SignedInCtx, input: unknown) {
  assertAllowed(ctx);
  const data = validate(whitelabelSchema, input);
  if (isPlatformHost(data.host)) throw new AppError("VALIDATION", { fields: { host: ["validation.hostReserved"] } });
  try {
    const w = await sequelize().transaction(async (transaction) => {
      const existing = await Whitelabel.findOne({ where: { accountId: ctx.actor.accountId }, transaction });
      const saved = existing ? await existing.update(data, { transaction }) : await Whitelabel.create({ ...data, accountId: ctx.actor.accountId }, { transaction });
      await Account.update({ whitelabelId: saved.id }, { where: { id: ctx.actor.accountId }, transaction });
      return saved;
    });
    cache.clear();
    await recordAudit(ctx, "whitelabel.saved", { meta: data });
    return w;
  } catch (e) {
    if (e instanceof UniqueConstraintError) throw new AppError("VALIDATION", { fields: { host: ["validation.hostTaken"] } });
    throw e;
  }
}
