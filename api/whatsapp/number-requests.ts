/**
 * Requests for a WhatsApp number (issue 16; spec section 2 "/whatsapp/request": ask for a number —
 * business data, display name, category). The account writes what Meta's onboarding asks for
 * (./request-schema checks each field, Meta's display name rules included); platform staff take it
 * from there (requested -> in_review -> approved | rejected with a reason) — their review is not
 * here. The account sees its requests newest first and cancels one while it is requested or in
 * review. Refused: a number any account has connected (409 NUMBER_ALREADY_REGISTERED on
 * phone_number, the spec's 'Number already registered'), and a second pending request of the
 * account for the same number (409 NUMBER_ALREADY_REQUESTED). A create honours an Idempotency-Key
 * like the WhatsApp sends (the same key and request answer the first response). Each request and
 * cancel is audited; the platform's staff get a notification of a new request.
 * Roles: those of /whatsapp/request (spec section 6: admin, user, owner, sales). Every query is
 * scoped by the acting account.
 */
import { createHash } from "node:crypto";
import { type Transaction, UniqueConstraintError } from "sequelize";
import { sequelize, WhatsappNumberRequest, WHATSAPP_REQUEST_STATUSES, type WhatsappRequestStatus } from "../../models";
import { recordAudit } from "../audit/record";
import type { SignedInCtx } from "../lib/context";
import { AppError } from "../lib/errors";
import { findOwned } from "../lib/owned";
import { keyset, pageInput } from "../lib/page";
import { exec, row, rows } from "../lib/sql";
import { validate } from "../lib/validate";
import { z } from "../lib/zod";
import { notify } from "../notifications/services";
import { can } from "../policy/policy";
import { POSITION_SQL, timeIdCursor } from "../sms/cursor";
import { numberRequestSchema } from "./request-schema";

export type NumberRequest = {
  id: string;
  legal_name: string;
  cnpj: string;
  website: string | null;
  email: string;
  business_phone: string;
  address: string | null;
  display_name: string;
  vertical: string;
  phone_number: string;
  integration: "cloud" | "onprem";
  description: string | null;
  status: WhatsappRequestStatus;
  reason: string | null;
  status_at: Date;
  created_at: Date;
  updated_at: Date;
};
type Answer = { data: NumberRequest };

const COLUMNS =
  "id, legal_name, cnpj, website, email, business_phone, address, display_name, vertical, phone_number, integration, description, status, reason, status_at, created_at, updated_at";

function view(m: WhatsappNumberRequest): NumberRequest {
  return {
    id: m.id,
    legal_name: m.legalName,
    cnpj: m.cnpj,
    website: m.website,
    email: m.email,
    business_phone: m.businessPhone,
    address: m.address,
    display_name: m.displayName,
    vertical: m.vertical,
    phone_number: m.phoneNumber,
    integration: m.integration,
    description: m.description,
    status: m.status,
    reason: m.reason ?? null,
    status_at: m.statusAt,
    created_at: m.createdAt,
    updated_at: m.updatedAt,
  };
}

function assertRequest(ctx: SignedInCtx) {
  if (!can(ctx.actor, "/whatsapp/request")) throw new AppError("FORBIDDEN");
}

const registered = () => new AppError("NUMBER_ALREADY_REGISTERED", { fields: { phone_number: ["validation.waNumberRegistered"] } });
const requested = () => new AppError("NUMBER_ALREADY_REQUESTED", { fields: { phone_number: ["validation.waNumberRequested"] } });

/** Whether a number (E.164) is connected to WhatsApp here, by any account: its display number's digits, or an onprem number's own. */
async function isConnected(e164: string, transaction: Transaction): Promise<boolean> {
  const digits = e164.replace(/\D/g, "");
  const found = await row<{ one: number }>(
    `SELECT 1 AS one FROM whatsapp_numbers
      WHERE regexp_replace(display_phone_number, '[^0-9]', '', 'g') = $1 OR (integration = 'onprem' AND phone_number_id = $1)
      LIMIT 1`,
    [digits],
    { transaction },
  );
  return found !== null;
}

/** POST: a new request, status requested. */
export async function createNumberRequest(ctx: SignedInCtx, input: unknown, idempotencyKey: string | null = null): Promise<Answer> {
  assertRequest(ctx);
  const data = validate(numberRequestSchema, input);
  const accountId = ctx.actor.accountId;
  // The key's namespace is the account's (idempotency_keys): the route is part of what is hashed.
  const hash = createHash("sha256")
    .update(JSON.stringify(["whatsapp.number_request", data]))
    .digest("hex");

  return sequelize().transaction(async (transaction) => {
    const t = { transaction };
    if (idempotencyKey !== null) {
      const stored = await row<{ request_hash: string; response: Answer }>(
        `SELECT request_hash, response FROM idempotency_keys WHERE account_id = $1 AND key = $2`,
        [accountId, idempotencyKey],
        t,
      );
      if (stored) {
        if (stored.request_hash !== hash) throw new AppError("IDEMPOTENCY_CONFLICT");
        return stored.response;
      }
    }
    if (await isConnected(data.phone_number, transaction)) throw registered();
    const pending = await row<{ one: number }>(
      `SELECT 1 AS one FROM whatsapp_number_requests WHERE account_id = $1 AND phone_number = $2 AND status IN ('requested','in_review')`,
      [accountId, data.phone_number],
      t,
    );
    if (pending) throw requested();
    let created: WhatsappNumberRequest;
    // One time for created_at and status_at: the request began as requested when it was made.
    const now = new Date();
    try {
      created = await WhatsappNumberRequest.create(
        {
          accountId,
          status: "requested",
          statusAt: now,
          createdAt: now,
          legalName: data.legal_name,
          cnpj: data.cnpj,
          website: data.website,
          email: data.email,
          businessPhone: data.business_phone,
          address: data.address,
          displayName: data.display_name,
          vertical: data.vertical,
          phoneNumber: data.phone_number,
          integration: data.integration,
          description: data.description,
          createdBy: ctx.actor.userId,
        },
        t,
      );
    } catch (e) {
      // The same number asked for at the same moment by another request of the account (the pending index).
      if (e instanceof UniqueConstraintError) throw requested();
      throw e;
    }
    const answer: Answer = { data: view(created) };
    if (idempotencyKey !== null) {
      await exec(
        `INSERT INTO idempotency_keys (account_id, key, request_hash, response) VALUES ($1, $2, $3, $4::jsonb)`,
        [accountId, idempotencyKey, hash, JSON.stringify(answer)],
        t,
      );
    }
    const tctx = { ...ctx, transaction };
    await recordAudit(tctx, "whatsapp.number_requested", {
      meta: { id: created.id, phone_number: data.phone_number, display_name: data.display_name, integration: data.integration, vertical: data.vertical },
    });
    await notifyStaff(tctx, accountId, created);
    return answer;
  });
}

/** The platform's staff (every platform account) are told of a new request in their bell. */
async function notifyStaff(ctx: SignedInCtx, accountId: string, r: WhatsappNumberRequest) {
  const staff = await rows<{ id: string; account: string }>(`SELECT p.id, a.name AS account FROM accounts p, accounts a WHERE p.type = 'platform' AND a.id = $1`, [accountId], {
    transaction: ctx.transaction,
  });
  for (const s of staff) {
    await notify(ctx, { accountId: s.id, kind: "whatsapp_number_requested", params: { account: s.account, number: r.phoneNumber, name: r.displayName } });
  }
}

const listSchema = z.object({ status: z.enum(WHATSAPP_REQUEST_STATUSES, "validation.option").optional(), ...pageInput });

/** GET: the account's requests newest first (created_at, id), by status when given; `limit` a page after `cursor`. */
export async function listNumberRequests(ctx: SignedInCtx, input: unknown): Promise<{ data: NumberRequest[]; next_cursor: string | null }> {
  assertRequest(ctx);
  const q = validate(listSchema, input ?? {});
  const after = timeIdCursor(q.cursor);
  const found = await rows<NumberRequest & { position: string }>(
    `SELECT ${COLUMNS}, ${POSITION_SQL("created_at")} AS position FROM whatsapp_number_requests
      WHERE account_id = $1 AND ($2::text IS NULL OR status = $2)
        ${after ? "AND (created_at, id) < ($4::timestamptz, $5::uuid)" : ""}
      ORDER BY created_at DESC, id DESC LIMIT $3`,
    [ctx.actor.accountId, q.status ?? null, q.limit + 1, ...(after ?? [])],
  );
  return keyset(
    found,
    q.limit,
    (r) => [r.position, r.id],
    ({ position: _p, ...r }) => r,
  );
}

/** GET one: a request of the account (another account's, or a non-uuid: 404). */
export async function getNumberRequest(ctx: SignedInCtx, id: string): Promise<Answer> {
  assertRequest(ctx);
  return { data: view(await findOwned(WhatsappNumberRequest, ctx, id)) };
}

/** DELETE: cancels a request still requested or in review (409 REQUEST_STATE once decided or canceled); the row stays, canceled. */
export async function cancelNumberRequest(ctx: SignedInCtx, id: string): Promise<Answer> {
  assertRequest(ctx);
  const current = await findOwned(WhatsappNumberRequest, ctx, id);
  return sequelize().transaction(async (transaction) => {
    // The conditional update is the claim: a staff decision or another cancel at the same moment leaves it alone.
    const canceled = await row<NumberRequest>(
      `UPDATE whatsapp_number_requests SET status = 'canceled', status_at = now(), updated_at = now(), canceled_by = $3
        WHERE id = $1 AND account_id = $2 AND status IN ('requested','in_review')
        RETURNING ${COLUMNS}`,
      [current.id, ctx.actor.accountId, ctx.actor.userId],
      { transaction },
    );
    if (!canceled) throw new AppError("REQUEST_STATE");
    await recordAudit({ ...ctx, transaction }, "whatsapp.number_request_canceled", { meta: { id: canceled.id, phone_number: canceled.phone_number } });
    return { data: canceled };
  });
}
