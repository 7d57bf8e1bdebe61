/**
 * LGPD (Lei 13.709/2018) rights of the person a contact describes, exercised through the
 * account's owner or admin: access/portability (export everything held about them, JSON or CSV)
 * and erasure. Both are audited. The erasure rule for data that must outlive the contact
 * (messages keep their delivery facts) is docs/decisions/004-lgpd-erasure.md.
 */
import { Contact, CustomField, sequelize } from "../../models";
import { recordAudit } from "../audit/record";
import type { SignedInCtx } from "../lib/context";
import { AppError } from "../lib/errors";
import { validate } from "../lib/validate";
import { assertId, assertPrivileged } from "./access";
import { groupsOfContact } from "./get";
import { exportFormatSchema } from "./schemas";
import { rows } from "../lib/sql";

export type ContactExport = { filename: string; contentType: string; body: string };

/** Everything held about one contact: every column, every custom value (sensitive ones too), groups, tags, audit entries naming it. */
async function collect(ctx: SignedInCtx, id: string) {
  const [row] = await rows<Record<string, unknown>>(`SELECT * FROM contacts WHERE id = $1 AND account_id = $2`, [id, ctx.actor.accountId]);
  if (!row) throw new AppError("NOT_FOUND");
  const [groups, defs, audit] = await Promise.all([
    groupsOfContact(ctx.actor.accountId, id),
    CustomField.findAll({
      where: { accountId: ctx.actor.accountId },
      order: [
        ["position", "ASC"],
        ["label", "ASC"],
      ],
    }),
    rows<{ id: number; action: string; user_email: string | null; created_at: Date; meta: Record<string, unknown> }>(
      `SELECT a.id, a.action, u.email AS user_email, a.created_at, a.meta FROM audit_logs a LEFT JOIN users u ON u.id = a.user_id
        WHERE a.account_id = $1 AND (a.meta @> jsonb_build_object('contactId', $2::text) OR a.meta->'ids' @> jsonb_build_array($2::text))
        ORDER BY a.id`,
      [ctx.actor.accountId, id],
    ),
  ]);
  const custom = (row.custom ?? {}) as Record<string, unknown>;
  const { custom: _custom, tags, ...columns } = row;
  return {
    exported_at: new Date().toISOString(),
    contact: Object.fromEntries(Object.entries(columns).map(([k, v]) => [k, v instanceof Date ? v.toISOString() : (v ?? null)])),
    custom_fields: defs.filter((d) => d.key in custom).map((d) => ({ key: d.key, label: d.label, type: d.type, sensitive: d.sensitive, value: custom[d.key] ?? null })),
    tags: (tags as string[] | null) ?? [],
    groups: groups.map((g) => ({ id: g.id, name: g.name, added_at: new Date(g.added_at).toISOString() })),
    audit: audit.map((a) => ({ id: a.id, action: a.action, by: a.user_email, at: new Date(a.created_at).toISOString(), meta: a.meta })),
  };
}

/** key,value rows from nested data: contact.first_name, custom_fields.0.value, groups.1.name… */
function flatten(value: unknown, prefix: string, out: Array<[string, string]>) {
  if (Array.isArray(value)) {
    if (!value.length) out.push([prefix, ""]);
    value.forEach((v, i) => {
      flatten(v, `${prefix}.${i}`, out);
    });
  } else if (value && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) flatten(v, prefix ? `${prefix}.${k}` : k, out);
  } else {
    out.push([prefix, value === null || value === undefined ? "" : String(value)]);
  }
  return out;
}

/** A CSV cell; text a spreadsheet would run as a formula is prefixed with ' (numbers like +5511… stay as they are). */
function cell(s: string) {
  const risky = /^[=@\t\r]/.test(s) || (/^[+-]/.test(s) && !/^[+-]?[\d\s().-]+$/.test(s));
  const v = risky ? `'${s}` : s;
  return /[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
}

export async function exportContact(ctx: SignedInCtx, id: string, format: unknown = "json"): Promise<ContactExport> {
  assertPrivileged(ctx);
  assertId(id);
  const fmt = validate(exportFormatSchema, format);
  const data = await collect(ctx, id);
  await recordAudit(ctx, "contacts.exported", { meta: { contactId: id, format: fmt } });
  if (fmt === "json") return { filename: `contato-${id}.json`, contentType: "application/json; charset=utf-8", body: JSON.stringify(data, null, 2) };
  const rows = flatten(data, "", []);
  const body = ["key,value", ...rows.map(([k, v]) => `${cell(k)},${cell(v)}`)].join("\r\n") + "\r\n";
  // A BOM so spreadsheet programs read the accents as UTF-8.
  return { filename: `contato-${id}.csv`, contentType: "text/csv; charset=utf-8", body: `\uFEFF${body}` };
}

/**
 * Erase a contact: the row goes (group memberships cascade) and the audit trail records only that
 * contact id N was erased, by whom and when — no name, number or e-mail.
 */
export async function eraseContact(ctx: SignedInCtx, id: string) {
  assertPrivileged(ctx);
  assertId(id);
  await sequelize().transaction(async (transaction) => {
    const n = await Contact.destroy({ where: { id, accountId: ctx.actor.accountId }, transaction });
    if (!n) throw new AppError("NOT_FOUND");
    await recordAudit({ ...ctx, transaction }, "contacts.erased", { meta: { contactId: id } });
  });
  return { id, erased: true };
}
