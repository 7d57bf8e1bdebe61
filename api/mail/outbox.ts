/**
 * The local outbox (/dev/mailbox): e-mails the platform wrote to outbound_emails, for trying the
 * product without an SMTP server. Never available in production. Who sees what:
 * - platform staff (an account of type "platform"): every e-mail;
 * - owner and admin: the e-mails their account sent (invitations…) and those addressed to them;
 * - everyone else: only the e-mails addressed to themselves;
 * - a visitor not signed in whose browser just registered an address (issue 19): the e-mails
 *   addressed to that address only (`listOutboxTo`, `getOutboxEmailTo`), to verify it.
 */
import { Op, type WhereOptions } from "sequelize";
import { OutboundEmail, sequelize } from "../../models";
import type { SignedInCtx } from "../lib/context";
import { env } from "../lib/env";
import { AppError } from "../lib/errors";
import { validate } from "../lib/validate";
import { seesAll } from "../policy/policy";
import { outboxIdSchema, outboxQuerySchema } from "./schemas";

export const OUTBOX_PAGE = 25;

function assertAvailable() {
  if (env().NODE_ENV === "production") throw new AppError("NOT_FOUND");
}

function visibleTo(ctx: SignedInCtx): WhereOptions<OutboundEmail> {
  if (ctx.actor.accountType === "platform") return {};
  const own = { toAddress: ctx.actor.email };
  return seesAll(ctx.actor, "mail") ? { [Op.or]: [{ accountId: ctx.actor.accountId }, own] } : own;
}

/** Newest first, keyset paged on (created_at, id): `before` is the id of the last row seen. */
export function listOutbox(ctx: SignedInCtx, query: unknown) {
  return listWhere(visibleTo(ctx), query);
}

/** The outbox of the address a visitor's session registered (the caller passes it), paged like `listOutbox`. */
export function listOutboxTo(to: string, query: unknown) {
  return listWhere({ toAddress: to }, query);
}

async function listWhere(visible: WhereOptions<OutboundEmail>, query: unknown) {
  assertAvailable();
  const { before } = validate(outboxQuerySchema, query ?? {});
  const cursor = before
    ? sequelize().literal(`("OutboundEmail"."created_at", "OutboundEmail"."id") < (SELECT c.created_at, c.id FROM outbound_emails c WHERE c.id = ${sequelize().escape(before)})`)
    : null;
  const rows = await OutboundEmail.findAll({
    attributes: ["id", "toAddress", "subject", "status", "createdAt", "sentAt"],
    where: cursor ? { [Op.and]: [visible, cursor] } : visible,
    order: [
      ["createdAt", "DESC"],
      ["id", "DESC"],
    ],
    limit: OUTBOX_PAGE + 1,
  });
  const page = rows.slice(0, OUTBOX_PAGE);
  return {
    data: page.map((m) => ({ id: m.id, to: m.toAddress, subject: m.subject, status: m.status, createdAt: m.createdAt, sentAt: m.sentAt })),
    next: rows.length > OUTBOX_PAGE ? page[page.length - 1].id : null,
  };
}

const LINK = /https?:\/\/[^\s<>"']+/g;

/** One e-mail of the outbox, with the links of its text body (NOT_FOUND when not visible). */
export function getOutboxEmail(ctx: SignedInCtx, id: unknown) {
  return getWhere(visibleTo(ctx), id);
}

/** One e-mail addressed to `to` (the address the visitor's session registered); NOT_FOUND for any other. */
export function getOutboxEmailTo(to: string, id: unknown) {
  return getWhere({ toAddress: to }, id);
}

async function getWhere(visible: WhereOptions<OutboundEmail>, id: unknown) {
  assertAvailable();
  const parsed = outboxIdSchema.safeParse(id);
  if (!parsed.success) throw new AppError("NOT_FOUND");
  const m = await OutboundEmail.findOne({ where: { [Op.and]: [{ id: parsed.data }, visible] } });
  if (!m) throw new AppError("NOT_FOUND");
  return {
    id: m.id,
    to: m.toAddress,
    subject: m.subject,
    status: m.status,
    html: m.html,
    text: m.textBody,
    error: m.error,
    attempts: m.attempts,
    createdAt: m.createdAt,
    sentAt: m.sentAt,
    links: [...new Set(m.textBody.match(LINK) ?? [])],
  };
}

/**
 * The newest e-mail the outbox wrote to `to` (issue 19): the page after a registration shows the
 * new person their own verification e-mail, without a mailbox, outside production only. The
 * caller passes the address its own session registered; null when there is none (yet).
 */
export async function latestOutboxEmailTo(to: string) {
  if (env().NODE_ENV === "production") return null;
  const m = await OutboundEmail.findOne({ where: { toAddress: to }, order: [["createdAt", "DESC"]] });
  if (!m) return null;
  return { id: m.id, subject: m.subject, createdAt: m.createdAt, links: [...new Set(m.textBody.match(LINK) ?? [])] };
}
