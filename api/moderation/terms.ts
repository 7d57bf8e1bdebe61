/** The words and URL domains under review (platform-wide; staff only). Spec: GET words, PUT/DELETE words/{id}; same for urls; POST added to create one. */
import { sequelize } from "../../models";
import { recordAudit } from "../audit/record";
import type { SignedInCtx } from "../lib/context";
import { AppError } from "../lib/errors";
import { assertId } from "../lib/owned";
import { decodeCursor, keyset } from "../lib/page";
import { validate } from "../lib/validate";
import { assertStaff } from "./access";
import type { TermKind } from "./match";
import { termSchema, termsQuerySchema } from "./schemas";
import { rows } from "../lib/sql";

export type ModerationTerm = { id: string; kind: TermKind; value: string; note: string; created_at: Date; updated_at: Date };
const COLUMNS = "id, kind, value, note, created_at, updated_at";

/** A keyset page of the terms by value (unique per kind: the cursor is the last value). */
export async function listTerms(ctx: SignedInCtx, kind: TermKind, input: unknown = {}): Promise<{ data: ModerationTerm[]; next_cursor: string | null }> {
  assertStaff(ctx);
  const q = validate(termsQuerySchema, input ?? {});
  const after = decodeCursor(q.cursor, ["string"]);
  const bind: unknown[] = [kind];
  if (after) bind.push(after[0]);
  const found = await rows<ModerationTerm>(`SELECT ${COLUMNS} FROM moderation_terms WHERE kind = $1${after ? " AND value > $2" : ""} ORDER BY value LIMIT ${q.limit + 1}`, bind);
  return keyset(found, q.limit, (r) => [r.value]);
}

export async function getTerm(ctx: SignedInCtx, kind: TermKind, id: string): Promise<{ data: ModerationTerm }> {
  assertStaff(ctx);
  assertId(id);
  const [row] = await rows<ModerationTerm>(`SELECT ${COLUMNS} FROM moderation_terms WHERE id = $1 AND kind = $2`, [id, kind]);
  if (!row) throw new AppError("NOT_FOUND");
  return { data: row };
}

/** Adds a term; adding one already listed answers it with created: false. */
export async function addTerm(ctx: SignedInCtx, kind: TermKind, input: unknown): Promise<{ data: ModerationTerm; created: boolean }> {
  assertStaff(ctx);
  const data = validate(termSchema(kind), input);
  const db = sequelize();
  return db.transaction(async (transaction) => {
    const [row] = await rows<ModerationTerm>(
      `INSERT INTO moderation_terms (kind, value, note, created_by) VALUES ($1, $2, $3, $4) ON CONFLICT (kind, value) DO NOTHING RETURNING ${COLUMNS}`,
      [kind, data.value, data.note, ctx.actor.userId],
      { transaction },
    );
    if (!row) {
      const [existing] = await rows<ModerationTerm>(`SELECT ${COLUMNS} FROM moderation_terms WHERE kind = $1 AND value = $2`, [kind, data.value], { transaction });
      return { data: existing, created: false };
    }
    await recordAudit({ ...ctx, transaction }, `moderation.${kind}_added`, { meta: { id: row.id, value: row.value } });
    return { data: row, created: true };
  });
}

export async function updateTerm(ctx: SignedInCtx, kind: TermKind, id: string, input: unknown): Promise<{ data: ModerationTerm }> {
  assertStaff(ctx);
  assertId(id);
  const data = validate(termSchema(kind), input);
  try {
    const [row] = await rows<ModerationTerm>(`UPDATE moderation_terms SET value = $3, note = $4, updated_at = now() WHERE id = $1 AND kind = $2 RETURNING ${COLUMNS}`, [
      id,
      kind,
      data.value,
      data.note,
    ]);
    if (!row) throw new AppError("NOT_FOUND");
    return { data: row };
  } catch (e) {
    if ((e as { name?: string }).name === "SequelizeUniqueConstraintError") throw new AppError("VALIDATION", { fields: { value: ["validation.invalid"] } });
    throw e;
  }
}

/** Removes a term: new messages with it are no longer held (held ones still wait for their review). */
export async function removeTerm(ctx: SignedInCtx, kind: TermKind, id: string): Promise<{ deleted: true }> {
  assertStaff(ctx);
  assertId(id);
  const found = await rows<{ id: string }>(`DELETE FROM moderation_terms WHERE id = $1 AND kind = $2 RETURNING id`, [id, kind]);
  if (found.length === 0) throw new AppError("NOT_FOUND");
  await recordAudit(ctx, `moderation.${kind}_removed`, { meta: { id } });
  return { deleted: true };
}
