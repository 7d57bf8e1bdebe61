/**
 * Administration of customers (issue 23, ADR 063): create a customer account, edit it, suspend and
 * activate it, delete it, attach people to it; its short codes and its WhatsApp numbers.
 *
 * Who: the platform's staff (owner or admin of the platform account) every customer and reseller;
 * a reseller's owner or admin only its own customers (another's is 404) and never a reseller; anyone
 * else 403 — `reach` of ./customers.ts, the same rule as the list. Short codes and numbers are the
 * platform's inventory and prices: the staff assign and price them, a reseller reads them.
 *
 * - Create: the account (company name, corporate name, billing e-mail, currency; a reseller for the
 *   staff), a reseller's new customer its child (parent_account_id, its whitelabel). No one is in it
 *   yet: attach its owner next. An `Idempotency-Key` (kept in idempotency_keys under the actor's
 *   account) makes a retry answer the customer created first.
 * - Suspend: status 'suspended' without billing_suspended_at, so api/auth/actor.ts refuses every
 *   request of its people to it (web, API, SMPP re-validation: CLIENT_INACTIVE), which also stops
 *   every new send; open realtime connections are closed. Activate clears a billing suspension too.
 * - Delete: soft (ADR 063): deleted_at and status 'inactive' (no one signs in to it), its short
 *   codes back to the inventory, its products cancelled; the ledger, invoices and messages stay.
 * Every change is audited under the actor's account with the customer's id.
 */
import { createHash } from "node:crypto";
import type { Transaction } from "sequelize";
import { sequelize } from "../../models/db";
import { recordAudit } from "../audit/record";
import { revokeMembershipConnections } from "../auth/revocation";
import type { SignedInCtx } from "../lib/context";
import { randomToken } from "../lib/crypto";
import { AppError } from "../lib/errors";
import { assertId } from "../lib/owned";
import { exec, row, rows } from "../lib/sql";
import { validate } from "../lib/validate";
import { isPlatformStaff } from "../policy/policy";
import { startAgentSeat } from "../seats/seats";
import { inviteInto } from "../users/services";
import { findCustomer, getCustomer, reach } from "./customers";
import { attachSchema, createCustomerSchema, createShortCodeSchema, updateCustomerSchema, updateNumberSchema, updateShortCodeSchema } from "./schemas";

const KEY_MAX = 100;

/** Whether the actor creates resellers and assigns short codes and prices numbers: the platform's staff. */
export const isStaff = (ctx: SignedInCtx) => isPlatformStaff(ctx.actor);

function staffOnly(ctx: SignedInCtx) {
  reach(ctx);
  if (!isStaff(ctx)) throw new AppError("FORBIDDEN");
}

function idempotencyKey(key: string | null | undefined) {
  const k = key?.trim() || null;
  if (k && (k.length > KEY_MAX || !/^[\x21-\x7e]+$/.test(k))) throw new AppError("VALIDATION", { fields: { idempotency_key: [`validation.maxLength::${KEY_MAX}`] } });
  return k;
}

/**
 * Creates a customer account (201 with the customer). With an idempotency key, the same person
 * and key again answers the first customer (`replayed`) when the request is the same, 409
 * IDEMPOTENCY_CONFLICT when it is not; two concurrent requests with one key create one account.
 */
export async function createCustomer(ctx: SignedInCtx, input: unknown, key?: string | null) {
  const { parent } = reach(ctx);
  const k = idempotencyKey(key);
  const data = validate(createCustomerSchema, input);
  if (data.type === "reseller" && parent) throw new AppError("FORBIDDEN");
  const created = await sequelize().transaction(async (transaction) => {
    if (!(await row(`SELECT 1 FROM currencies WHERE code = $1`, [data.currency], { transaction }))) {
      throw new AppError("VALIDATION", { fields: { currency: ["validation.option"] } });
    }
    const storeKey = k ? `customers:${ctx.actor.userId}:${k}` : null;
    const hash = createHash("sha256").update(JSON.stringify(data)).digest("hex");
    if (storeKey) {
      // The key's row first: a concurrent request with the same key waits here for this one's commit.
      const claimed = await row(
        `INSERT INTO idempotency_keys (account_id, key, request_hash, response) VALUES ($1, $2, $3, '{}'::jsonb) ON CONFLICT DO NOTHING RETURNING key`,
        [ctx.actor.accountId, storeKey, hash],
        { transaction },
      );
      if (!claimed) {
        const first = await row<{ request_hash: string; response: { id?: string } }>(`SELECT request_hash, response FROM idempotency_keys WHERE account_id = $1 AND key = $2`, [
          ctx.actor.accountId,
          storeKey,
        ]);
        if (!first || first.request_hash !== hash || !first.response.id) throw new AppError("IDEMPOTENCY_CONFLICT");
        return { id: first.response.id, replayed: true };
      }
    }
    const parentRow = parent ? await row<{ whitelabel_id: string | null }>(`SELECT whitelabel_id FROM accounts WHERE id = $1`, [parent], { transaction }) : null;
    const account = await row<{ id: string }>(
      `INSERT INTO accounts (name, corporate_name, billing_email, currency, type, auth_token, parent_account_id, whitelabel_id, status, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'active', now(), now()) RETURNING id`,
      [data.name, data.corporate_name, data.billing_email, data.currency, data.type, randomToken(24), parent, parentRow?.whitelabel_id ?? null],
      { transaction },
    );
    const id = account!.id;
    if (storeKey)
      await exec(`UPDATE idempotency_keys SET response = $3::jsonb WHERE account_id = $1 AND key = $2`, [ctx.actor.accountId, storeKey, JSON.stringify({ id })], { transaction });
    await recordAudit({ ...ctx, transaction }, "customers.created", { meta: { customer_id: id, name: data.name, type: data.type, currency: data.currency } });
    return { id, replayed: false };
  });
  const { data: customer } = await getCustomer(ctx, created.id);
  return { data: customer, replayed: created.replayed };
}

/** Edits a customer's names and billing e-mail, and suspends or activates it. */
export async function updateCustomer(ctx: SignedInCtx, id: string, input: unknown) {
  const data = validate(updateCustomerSchema, input);
  const before = await findCustomer(ctx, id);
  const changes: Record<string, unknown> = {};
  for (const f of ["name", "corporate_name", "billing_email", "status"] as const) {
    if (data[f] !== undefined && data[f] !== before[f]) changes[f] = data[f];
  }
  await sequelize().transaction(async (transaction) => {
    await exec(
      `UPDATE accounts SET name = coalesce($2, name), corporate_name = coalesce($3, corporate_name), billing_email = coalesce($4, billing_email),
              status = coalesce($5, status),
              billing_suspended_at = CASE WHEN $5::text IS NULL THEN billing_suspended_at ELSE NULL END,
              updated_at = now()
        WHERE id = $1 AND deleted_at IS NULL`,
      [before.id, data.name ?? null, data.corporate_name ?? null, data.billing_email ?? null, data.status ?? null],
      { transaction },
    );
    const action = changes.status === "suspended" ? "customers.suspended" : changes.status === "active" ? "customers.activated" : "customers.updated";
    if (Object.keys(changes).length) await recordAudit({ ...ctx, transaction }, action, { meta: { customer_id: before.id, changes } });
  });
  if (changes.status === "suspended") await closeConnections(before.id, "suspended");
  return getCustomer(ctx, before.id);
}

/** Every person of the account: their open realtime streams of it close (their next request is refused anyway). */
async function closeConnections(accountId: string, reason: string) {
  const people = await rows<{ user_id: string }>(`SELECT user_id FROM memberships WHERE account_id = $1`, [accountId]);
  await Promise.all(people.map((p) => revokeMembershipConnections(p.user_id, accountId, reason)));
}

/**
 * Deletes a customer (soft, ADR 063): out of every list, no one signs in to it, its short codes
 * back to the inventory, its products cancelled; what it was charged and sent stays. A reseller
 * with customers of its own is not deleted (422 on the form: customers.errors.hasCustomers).
 */
export async function deleteCustomer(ctx: SignedInCtx, id: string) {
  const c = await findCustomer(ctx, id);
  await sequelize().transaction(async (transaction) => {
    if (c.type === "reseller" && (await row(`SELECT 1 FROM accounts WHERE parent_account_id = $1 AND deleted_at IS NULL LIMIT 1`, [c.id], { transaction }))) {
      throw new AppError("VALIDATION", { fields: { form: ["customers.errors.hasCustomers"] } });
    }
    await exec(`UPDATE accounts SET deleted_at = now(), status = 'inactive', updated_at = now() WHERE id = $1 AND deleted_at IS NULL`, [c.id], { transaction });
    const released = await rows<{ number: string }>(`UPDATE short_codes SET account_id = NULL, nickname = '', updated_at = now() WHERE account_id = $1 RETURNING number`, [c.id], {
      transaction,
    });
    await exec(`UPDATE customer_products SET status = 'cancelled', updated_at = now() WHERE account_id = $1 AND status <> 'cancelled'`, [c.id], { transaction });
    await exec(`UPDATE users SET current_account_id = NULL WHERE current_account_id = $1`, [c.id], { transaction });
    await recordAudit({ ...ctx, transaction }, "customers.deleted", { meta: { customer_id: c.id, name: c.name, released_short_codes: released.map((r) => r.number) } });
  });
  await closeConnections(c.id, "deleted");
  return { data: { id: c.id, deleted: true } };
}

/**
 * Attaches a person to a customer with a role: someone who already has a login is a member at once
 * (`attached`); anyone else gets the invitation e-mail of the account's own invitations
 * (`invited`: api/users/services.ts inviteInto) and joins when accepting it. A person already in
 * it: 409 ALREADY_MEMBER on the e-mail. As `agent` the account pays the seat (ADR 047): 402 and
 * nothing kept when it cannot.
 */
export async function attachUser(ctx: SignedInCtx, id: string, input: unknown, now = new Date()) {
  const data = validate(attachSchema, input);
  const c = await findCustomer(ctx, id);
  return sequelize().transaction(async (transaction) => {
    const tctx = { ...ctx, transaction };
    const user = await row<{ id: string }>(`SELECT id FROM users WHERE email = $1`, [data.email], { transaction });
    if (!user) {
      const { invitation } = await inviteInto(tctx, c.id, data);
      await recordAudit(tctx, "customers.user_invited", { meta: { customer_id: c.id, email: data.email, role: data.role } });
      return { data: { outcome: "invited" as const, email: data.email, role: data.role, user_id: null, invitation_id: invitation.id } };
    }
    const membership = await row<{ id: string }>(
      `INSERT INTO memberships (account_id, user_id, role, is_agent, created_at, updated_at) VALUES ($1, $2, $3, $4, now(), now())
       ON CONFLICT DO NOTHING RETURNING id`,
      [c.id, user.id, data.role, data.role === "agent"],
      { transaction },
    );
    if (!membership) throw new AppError("ALREADY_MEMBER", { fields: { email: ["errors.ALREADY_MEMBER"] } });
    if (data.role === "agent") await startAgentSeat(c.id, membership.id, ctx.actor.userId, now, transaction, { field: "role", key: "seats.errors.invitation" });
    // A person with no account in use lands in this one.
    await exec(`UPDATE users SET current_account_id = $2 WHERE id = $1 AND current_account_id IS NULL`, [user.id, c.id], { transaction });
    await recordAudit(tctx, "customers.user_attached", { meta: { customer_id: c.id, user_id: user.id, email: data.email, role: data.role } });
    return { data: { outcome: "attached" as const, email: data.email, role: data.role, user_id: user.id, invitation_id: null } };
  });
}

/** The people of a customer (its page shows who is in it), owners first, and its open invitations. */
export async function listCustomerPeople(ctx: SignedInCtx, id: string) {
  const c = await findCustomer(ctx, id);
  const [people, invitations] = await Promise.all([
    rows<{ user_id: string; email: string; name: string; role: string }>(
      `SELECT u.id AS user_id, u.email, btrim(u.first_name || ' ' || u.last_name) AS name, m.role
         FROM memberships m JOIN users u ON u.id = m.user_id WHERE m.account_id = $1 ORDER BY m.role <> 'owner', u.email`,
      [c.id],
    ),
    rows<{ id: string; email: string; role: string }>(
      `SELECT id, email, role FROM invitations WHERE account_id = $1 AND accepted_at IS NULL AND expires_at > now() ORDER BY created_at DESC LIMIT 50`,
      [c.id],
    ),
  ]);
  return { people, invitations };
}

// ——— Short codes of a customer ———

export type CustomerShortCode = {
  id: string;
  account_id: string;
  number: string;
  nickname: string;
  deliverability: string[];
  status: "active" | "inactive";
  monthly_price: number;
  created_at: string;
  updated_at: string;
};
type ShortCodeRow = Omit<CustomerShortCode, "monthly_price" | "created_at" | "updated_at"> & { monthly_price: string | number; created_at: Date; updated_at: Date };
const SC_COLUMNS = `id, account_id, number, nickname, deliverability, status, monthly_price, created_at, updated_at`;
const scOut = (r: ShortCodeRow): CustomerShortCode => ({
  ...r,
  monthly_price: Number(r.monthly_price),
  created_at: new Date(r.created_at).toISOString(),
  updated_at: new Date(r.updated_at).toISOString(),
});

export async function listCustomerShortCodes(ctx: SignedInCtx, id: string) {
  const c = await findCustomer(ctx, id);
  const found = await rows<ShortCodeRow>(`SELECT ${SC_COLUMNS} FROM short_codes WHERE account_id = $1 ORDER BY number`, [c.id]);
  return { data: found.map(scOut), next_cursor: null };
}

/**
 * Assigns a short code to a customer: a number of the inventory nobody holds (or a new one) with
 * its nickname, carriers, status and monthly price. A number another account holds: 422 on the number.
 */
export async function createCustomerShortCode(ctx: SignedInCtx, id: string, input: unknown) {
  staffOnly(ctx);
  const data = validate(createShortCodeSchema, input);
  const c = await findCustomer(ctx, id);
  return sequelize().transaction(async (transaction) => {
    const r = await row<ShortCodeRow>(
      `INSERT INTO short_codes (account_id, number, nickname, deliverability, status, monthly_price) VALUES ($1, $2, $3, $4::text[], $5, $6)
       ON CONFLICT (number) DO UPDATE SET account_id = EXCLUDED.account_id, nickname = EXCLUDED.nickname, deliverability = EXCLUDED.deliverability,
              status = EXCLUDED.status, monthly_price = EXCLUDED.monthly_price, updated_at = now()
        WHERE short_codes.account_id IS NULL
       RETURNING ${SC_COLUMNS}`,
      [c.id, data.number, data.nickname, data.deliverability, data.status, data.monthly_price],
      { transaction },
    );
    if (!r) throw new AppError("VALIDATION", { fields: { number: ["customers.errors.shortCodeTaken"] } });
    await recordAudit({ ...ctx, transaction }, "customers.short_code_assigned", { meta: { customer_id: c.id, short_code_id: r.id, number: r.number } });
    return { data: scOut(r) };
  });
}

async function customerShortCode(ctx: SignedInCtx, id: string, shortCodeId: string, transaction?: Transaction) {
  const c = await findCustomer(ctx, id);
  assertId(shortCodeId);
  const r = await row<ShortCodeRow>(`SELECT ${SC_COLUMNS} FROM short_codes WHERE id = $1 AND account_id = $2`, [shortCodeId, c.id], { transaction });
  if (!r) throw new AppError("NOT_FOUND");
  return r;
}

export async function getCustomerShortCode(ctx: SignedInCtx, id: string, shortCodeId: string) {
  return { data: scOut(await customerShortCode(ctx, id, shortCodeId)) };
}

export async function updateCustomerShortCode(ctx: SignedInCtx, id: string, shortCodeId: string, input: unknown) {
  staffOnly(ctx);
  const data = validate(updateShortCodeSchema, input);
  const before = await customerShortCode(ctx, id, shortCodeId);
  return sequelize().transaction(async (transaction) => {
    const r = await row<ShortCodeRow>(
      `UPDATE short_codes SET nickname = coalesce($3, nickname), deliverability = coalesce($4::text[], deliverability), status = coalesce($5, status),
              monthly_price = coalesce($6, monthly_price), updated_at = now()
        WHERE id = $1 AND account_id = $2 RETURNING ${SC_COLUMNS}`,
      [before.id, before.account_id, data.nickname ?? null, data.deliverability ?? null, data.status ?? null, data.monthly_price ?? null],
      { transaction },
    );
    if (!r) throw new AppError("NOT_FOUND");
    await recordAudit({ ...ctx, transaction }, "customers.short_code_updated", { meta: { customer_id: before.account_id, short_code_id: r.id, number: r.number, changes: data } });
    return { data: scOut(r) };
  });
}

/** Takes the short code from the customer: back to the platform's inventory (unassigned, nickname cleared), its number free to assign again. */
export async function deleteCustomerShortCode(ctx: SignedInCtx, id: string, shortCodeId: string) {
  staffOnly(ctx);
  const before = await customerShortCode(ctx, id, shortCodeId);
  await sequelize().transaction(async (transaction) => {
    await exec(`UPDATE short_codes SET account_id = NULL, nickname = '', updated_at = now() WHERE id = $1 AND account_id = $2`, [before.id, before.account_id], { transaction });
    await recordAudit({ ...ctx, transaction }, "customers.short_code_released", { meta: { customer_id: before.account_id, short_code_id: before.id, number: before.number } });
  });
  return { data: { id: before.id, released: true } };
}

// ——— WhatsApp numbers of a customer (its "numbers": /numbers/active) ———

type NumberRow = {
  id: string;
  account_id: string;
  integration: "cloud" | "onprem";
  phone_number_id: string;
  waba_id: string | null;
  display_phone_number: string;
  verified_name: string;
  quality_rating: string;
  messaging_limit: string;
  monthly_price: string | number;
  templates: string | number;
  created_at: Date;
  updated_at: Date;
};
const NUMBER_COLUMNS = `n.id, n.account_id, n.integration, n.phone_number_id, n.waba_id, n.display_phone_number, n.verified_name, n.quality_rating, n.messaging_limit,
  n.monthly_price, (SELECT count(*) FROM whatsapp_templates t WHERE t.number_id = n.id) AS templates, n.created_at, n.updated_at`;
const numberOut = (n: NumberRow) => ({
  ...n,
  monthly_price: Number(n.monthly_price),
  templates: Number(n.templates),
  created_at: new Date(n.created_at).toISOString(),
  updated_at: new Date(n.updated_at).toISOString(),
});
export type CustomerNumber = ReturnType<typeof numberOut>;

export async function listCustomerNumbers(ctx: SignedInCtx, id: string) {
  const c = await findCustomer(ctx, id);
  const found = await rows<NumberRow>(`SELECT ${NUMBER_COLUMNS} FROM whatsapp_numbers n WHERE n.account_id = $1 ORDER BY n.display_phone_number, n.id`, [c.id]);
  return { data: found.map(numberOut), next_cursor: null };
}

async function customerNumber(ctx: SignedInCtx, id: string, numberId: string) {
  const c = await findCustomer(ctx, id);
  assertId(numberId);
  const n = await row<NumberRow>(`SELECT ${NUMBER_COLUMNS} FROM whatsapp_numbers n WHERE n.id = $1 AND n.account_id = $2`, [numberId, c.id]);
  if (!n) throw new AppError("NOT_FOUND");
  return n;
}

/** One WhatsApp number of the customer: what Meta (or the BSP) reports about it, its templates and its monthly price. */
export async function getCustomerNumber(ctx: SignedInCtx, id: string, numberId: string) {
  return { data: numberOut(await customerNumber(ctx, id, numberId)) };
}

/** Sets what the customer pays each month for the number (the staff's price; /numbers/active shows it). */
export async function updateCustomerNumber(ctx: SignedInCtx, id: string, numberId: string, input: unknown) {
  staffOnly(ctx);
  const data = validate(updateNumberSchema, input);
  const before = await customerNumber(ctx, id, numberId);
  await sequelize().transaction(async (transaction) => {
    await exec(`UPDATE whatsapp_numbers SET monthly_price = $3, updated_at = now() WHERE id = $1 AND account_id = $2`, [before.id, before.account_id, data.monthly_price], {
      transaction,
    });
    await recordAudit({ ...ctx, transaction }, "customers.number_updated", {
      meta: { customer_id: before.account_id, number_id: before.id, monthly_price: data.monthly_price, previous: Number(before.monthly_price) },
    });
  });
  return getCustomerNumber(ctx, id, numberId);
}
