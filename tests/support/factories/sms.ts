/** SMS set-up: plans, short codes (senders), prices, provider connections and routes, opt-outs, templates. */
import { type Query, type SqlExpression, given, insertRow, insertRows, runDb, sql, updateRows } from "./sql";

/** Gives an account the seeded Omni plan (departments and live chat). */
export async function giveOmni(accountId: string, q: Query = runDb): Promise<void> {
  await q(`INSERT INTO account_plans (account_id, plan_id, service) SELECT $1, id, service FROM plans WHERE name = 'Omni' AND NOT is_trial LIMIT 1`, [accountId]);
}

export type ShortCodeFields = {
  /** 4 to 8 digits; by default 8 random ones no one on the platform holds yet. */
  number?: string;
  nickname?: string;
  /** The carriers it reaches. */
  deliverability?: string[];
  status?: "active" | "inactive";
};

const randomCode = () => String(10_000_000 + Math.floor(Math.random() * 89_999_999));

/**
 * A short code assigned to `accountId` (or to no one: null), the sender a test sends from, since a
 * send may only use the account's own short codes (api/sms/senders.ts). A random number already
 * taken is drawn again; a given one that is taken fails.
 */
export async function makeShortCode(accountId: string | null, fields: ShortCodeFields = {}, q: Query = runDb): Promise<{ id: string; number: string }> {
  for (;;) {
    const row = { accountId, number: randomCode(), ...given(fields) };
    const opts = fields.number ? { returning: "id, number" } : { returning: "id, number", onConflict: { target: "(number)", update: [] } };
    const [created] = await insertRows<{ id: string; number: string }>("short_codes", [row], opts, q);
    if (created) return created;
  }
}

/** The account's own price per segment on a route (in the currency's smallest unit; BRL by default). */
export async function makeSmsPrice(accountId: string, fields: { route: "T1" | "T2" | "T4" | "T6"; pricePerSegment: number; currency?: string }, q: Query = runDb): Promise<string> {
  return (await insertRow("sms_prices", { accountId, ...given(fields) }, "id", q)).id;
}

export type ProviderConnectionFields = { name: string; kind: "smpp" | "http" | "simulator"; channel?: string; settings?: Record<string, unknown>; enabled?: boolean };

/** A provider connection (platform level), e.g. an SMPP bind to a test SMSC or an HTTP provider. */
export async function makeProviderConnection(fields: ProviderConnectionFields, q: Query = runDb): Promise<string> {
  return (await insertRow("provider_connections", { channel: "sms", ...given(fields) }, "id", q)).id;
}

export async function setProviderConnection(connectionId: string, fields: Partial<ProviderConnectionFields>, q: Query = runDb): Promise<void> {
  await updateRows("provider_connections", { id: connectionId }, fields, "id", q);
}

/** Sends a route's messages through a connection (platform-wide); answers the connection it used before, to put back afterwards. */
export async function routeSmsThrough(route: "T1" | "T2" | "T4" | "T6", connectionId: string, q: Query = runDb): Promise<string> {
  const [before] = await q<{ connection_id: string }>("SELECT connection_id FROM sms_route_connections WHERE route = $1", [route]);
  await updateRows("sms_route_connections", { route }, { connectionId }, "route", q);
  return before.connection_id;
}

/** A recipient who opted out of the account's messages (manually, by default). */
export async function makeOptout(accountId: string, recipient: string, fields: { channel?: string; source?: "manual" | "keyword" | "api" | "import" } = {}, q: Query = runDb) {
  return (await insertRow("optouts", { accountId, recipient, channel: "sms", source: "manual", ...given(fields) }, "id", q)).id;
}

export async function makeSmsTemplate(accountId: string, fields: { name: string; body: string }, q: Query = runDb): Promise<string> {
  return (await insertRow("sms_templates", { accountId, ...given(fields) }, "id", q)).id;
}

/** Ages an idempotency key of the account (the sweep forgets keys older than 24 h). */
export async function setIdempotencyKey(accountId: string, key: string, fields: { createdAt: Date | SqlExpression }, q: Query = runDb): Promise<void> {
  await updateRows("idempotency_keys", { accountId, key }, fields, "key", q);
}

/** Decides a moderation approval request directly (as staff would: rejected or approved, now). */
export async function setModerationApproval(
  approvalId: string,
  fields: { status: "approved" | "rejected"; reason?: string; decidedAt?: Date | SqlExpression },
  q: Query = runDb,
): Promise<void> {
  await updateRows("moderation_approvals", { id: approvalId }, { decidedAt: sql("now()"), ...given(fields) }, "id", q);
}
