/**
 * The e-mail template library (issue 17, /email/libs; ADR 037): starting points for templates.
 * The platform's entries (account_id NULL) are read by every account and seeded by
 * ensurePlatformEmailLibrary (seeds/demo.ts: `npm start` and the tests); an account saves its own
 * entries and changes or deletes only those (a platform entry is not found for PUT and DELETE).
 * Compiled like templates (./mjml.ts). Permission /mail/templates.
 */
import { UniqueConstraintError } from "sequelize";
import { recordAudit } from "../audit/record";
import type { SignedInCtx } from "../lib/context";
import { AppError } from "../lib/errors";
import { UUID } from "../lib/owned";
import { keyset, pageInput } from "../lib/page";
import { exec, row, rows } from "../lib/sql";
import { validate } from "../lib/validate";
import { z } from "../lib/zod";
import { can } from "../policy/policy";
import { textIdCursor } from "../sms/cursor";
import { PLATFORM_LIBRARY } from "./library-seed";
import { compileMjml } from "./mjml";
import { emailLibSchema } from "./schemas";
import { partsVariables } from "./variables";

export type EmailLibView = {
  id: string;
  name: string;
  description: string;
  subject: string;
  mjml: string;
  html: string;
  text: string | null;
  platform: boolean;
  variables: string[];
  created_at: Date;
  updated_at: Date;
};
type Row = Omit<EmailLibView, "variables">;
const COLUMNS = "id, name, description, subject, mjml, html, text, account_id IS NULL AS platform, created_at, updated_at";
const libView = (r: Row): EmailLibView => ({ ...r, variables: partsVariables(r.subject, r.mjml, r.text) });

function assertReach(ctx: SignedInCtx) {
  if (!can(ctx.actor, "/mail/templates")) throw new AppError("FORBIDDEN");
}
const nameTaken = () => new AppError("VALIDATION", { fields: { name: ["validation.emailTemplateNameTaken"] } });

const listSchema = z.object({ ...pageInput });

/** GET /email/libs: the platform's entries and the account's own, by name (ignoring case), then id. */
export async function listEmailLibs(ctx: SignedInCtx, input: unknown): Promise<{ data: EmailLibView[]; next_cursor: string | null }> {
  assertReach(ctx);
  const { limit, cursor } = validate(listSchema, input ?? {});
  const after = textIdCursor(cursor);
  const found = await rows<Row & { sort: string }>(
    `SELECT ${COLUMNS}, lower(name) AS sort FROM email_template_libs
      WHERE (account_id IS NULL OR account_id = $1) ${after ? "AND (lower(name), id) > ($3, $4::uuid)" : ""}
      ORDER BY lower(name), id LIMIT $2`,
    [ctx.actor.accountId, limit + 1, ...(after ?? [])],
  );
  return keyset(
    found,
    limit,
    (r) => [r.sort, r.id],
    ({ sort: _s, ...r }) => libView(r),
  );
}

/** One entry the account reads (the platform's or its own). */
export async function getEmailLib(ctx: SignedInCtx, id: string): Promise<{ data: EmailLibView }> {
  assertReach(ctx);
  const found = UUID.test(id)
    ? await row<Row>(`SELECT ${COLUMNS} FROM email_template_libs WHERE id = $1 AND (account_id IS NULL OR account_id = $2)`, [id, ctx.actor.accountId])
    : null;
  if (!found) throw new AppError("NOT_FOUND");
  return { data: libView(found) };
}

export async function createEmailLib(ctx: SignedInCtx, input: unknown): Promise<{ data: EmailLibView }> {
  assertReach(ctx);
  const data = validate(emailLibSchema, input);
  const html = await compileMjml(data.mjml);
  try {
    const created = (await row<Row>(
      `INSERT INTO email_template_libs (account_id, name, description, subject, mjml, html, text, created_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING ${COLUMNS}`,
      [ctx.actor.accountId, data.name, data.description ?? "", data.subject, data.mjml, html, data.text?.trim() ? data.text : null, ctx.actor.userId],
    ))!;
    await recordAudit(ctx, "email.lib_created", { meta: { id: created.id } });
    return { data: libView(created) };
  } catch (e) {
    if (e instanceof UniqueConstraintError) throw nameTaken();
    throw e;
  }
}

/** PUT /email/libs/{id}: the whole entry (the account's own only). */
export async function updateEmailLib(ctx: SignedInCtx, id: string, input: unknown): Promise<{ data: EmailLibView }> {
  assertReach(ctx);
  if (!UUID.test(id)) throw new AppError("NOT_FOUND");
  const data = validate(emailLibSchema, input);
  const html = await compileMjml(data.mjml);
  try {
    const updated = await row<Row>(
      `UPDATE email_template_libs SET name = $3, description = $4, subject = $5, mjml = $6, html = $7, text = $8, updated_at = now()
        WHERE id = $1 AND account_id = $2 RETURNING ${COLUMNS}`,
      [id, ctx.actor.accountId, data.name, data.description ?? "", data.subject, data.mjml, html, data.text?.trim() ? data.text : null],
    );
    if (!updated) throw new AppError("NOT_FOUND");
    await recordAudit(ctx, "email.lib_updated", { meta: { id } });
    return { data: libView(updated) };
  } catch (e) {
    if (e instanceof UniqueConstraintError) throw nameTaken();
    throw e;
  }
}

export async function deleteEmailLib(ctx: SignedInCtx, id: string): Promise<{ deleted: number }> {
  assertReach(ctx);
  const gone = UUID.test(id) ? await row<{ id: string }>(`DELETE FROM email_template_libs WHERE id = $1 AND account_id = $2 RETURNING id`, [id, ctx.actor.accountId]) : null;
  if (!gone) throw new AppError("NOT_FOUND");
  await recordAudit(ctx, "email.lib_deleted", { meta: { id } });
  return { deleted: 1 };
}

/** The platform's library entries (./library-seed.ts), inserted when missing by name; answers how many were added. Idempotent. */
export async function ensurePlatformEmailLibrary(): Promise<number> {
  let added = 0;
  for (const entry of PLATFORM_LIBRARY) {
    const exists = await row(`SELECT 1 FROM email_template_libs WHERE account_id IS NULL AND lower(name) = lower($1)`, [entry.name]);
    if (exists) continue;
    const html = await compileMjml(entry.mjml);
    added += await exec(
      `INSERT INTO email_template_libs (account_id, name, description, subject, mjml, html, text)
       VALUES (NULL, $1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING`,
      [entry.name, entry.description, entry.subject, entry.mjml, html, entry.text],
    );
  }
  return added;
}
