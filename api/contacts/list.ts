/**
 * listContacts: the account's contacts, newest first, keyset paged (api/lib/page.ts: `limit`, 50 by
 * default, and `cursor`, the `next_cursor` of the previous page, carrying the last row's
 * (created_at, id)), so page 1,000 costs what page 1 costs. `after`/`next` are the older names of
 * `cursor`/`next_cursor` (the web's links still use them), kept as deprecated aliases. Every filter has its
 * index: search is ILIKE over the trigram-indexed expression of migration 0002, the group is the
 * members' primary key, the tag is the GIN index on tags, a custom field equality is a jsonb
 * containment (`custom @> {"key": value}`) served by the jsonb_path_ops GIN index.
 */
import { CustomField } from "../../models";
import type { SignedInCtx } from "../lib/context";
import { AppError } from "../lib/errors";
import { encodeCursor, pageInput } from "../lib/page";
import { validate } from "../lib/validate";
import { assertCan, displayName, isPrivileged } from "./access";
import { formatPhone } from "./phone";
import { contactListQuerySchema } from "./schemas";
import { timeCursor, tsText } from "./time-cursor";
import { rows } from "../lib/sql";

export const CONTACTS_PAGE = 50;
/** `total` is exact up to this many matches; beyond it the answer says `total_capped: true` (counting a million rows per page view is not worth it). */
export const COUNT_CAP = 10_000;

/** Exactly the expression of contacts_search_idx (migration 0002), so the trigram index serves it. */
const SEARCH_EXPR = `(coalesce(c.first_name,'') || ' ' || coalesce(c.last_name,'') || ' ' || coalesce(c.email::text,'') || ' ' || coalesce(c.mobile_number,'') || ' ' || coalesce(c.company,''))`;

const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

export type ContactRow = {
  id: string;
  name: string;
  first_name: string | null;
  last_name: string | null;
  mobile_number: string | null;
  mobile_formatted: string;
  email: string | null;
  company: string | null;
  city: string | null;
  tags: string[];
  groups: string[];
  created_at: string;
};

/** `next` is the deprecated alias of `next_cursor` (the same value). */
export type ContactPage = { data: ContactRow[]; next_cursor: string | null; next: string | null; total: number; total_capped: boolean };

export async function listContacts(ctx: SignedInCtx, query: unknown = {}): Promise<ContactPage> {
  assertCan(ctx);
  const f = validate(contactListQuerySchema.extend(pageInput), query ?? {});
  const bind: unknown[] = [ctx.actor.accountId];
  const where: string[] = ["c.account_id = $1"];
  const param = (v: unknown) => {
    bind.push(v);
    return `$${bind.length}`;
  };

  if (f.q) {
    const text = param(`%${likeEscape(f.q)}%`);
    const digits = f.q.replace(/\D/g, "");
    // "(11) 91234-5678" finds +5511912345678: a number typed with its mask is searched by its digits.
    if (digits.length >= 3 && digits !== f.q && /^[\d\s()+.-]+$/.test(f.q)) where.push(`(${SEARCH_EXPR} ILIKE ${text} OR ${SEARCH_EXPR} ILIKE ${param(`%${digits}%`)})`);
    else where.push(`${SEARCH_EXPR} ILIKE ${text}`);
  }
  if (f.group) where.push(`EXISTS (SELECT 1 FROM contact_group_members m WHERE m.group_id = ${param(f.group)} AND m.contact_id = c.id AND m.account_id = $1)`);
  if (f.tag) where.push(`c.tags @> ARRAY[${param(f.tag)}]::text[]`);
  if (f.field) {
    const def = await CustomField.findOne({ where: { accountId: ctx.actor.accountId, key: f.field } });
    if (!def) throw new AppError("VALIDATION", { fields: { field: ["validation.invalid"] } });
    // Filtering by a hidden value would reveal it one guess at a time.
    if (def.sensitive && !isPrivileged(ctx)) throw new AppError("FORBIDDEN");
    if (f.value === undefined) throw new AppError("VALIDATION", { fields: { value: ["validation.required"] } });
    let value: string | number = f.value;
    if (def.type === "number") {
      value = Number(f.value.replace(",", "."));
      if (!Number.isFinite(value)) throw new AppError("VALIDATION", { fields: { value: ["validation.number"] } });
    }
    where.push(`c.custom @> ${param(JSON.stringify({ [def.key]: value }))}::jsonb`);
  }
  const filters = where.join(" AND ");
  const countBind = [...bind];
  // `cursor` wins over its deprecated alias `after`; a bad one is a 422 on the parameter sent.
  const key = f.cursor ? timeCursor(f.cursor, "cursor", true) : timeCursor(f.after, "after", true);
  if (key) {
    const [ts, id] = key;
    where.push(`(c.created_at, c.id) < (${param(ts)}::timestamptz, ${param(id)}::uuid)`);
  }

  const [found, counted] = await Promise.all([
    rows<Omit<ContactRow, "name" | "mobile_formatted" | "groups" | "created_at"> & { created_at: Date; cursor_ts: string }>(
      `SELECT c.id, c.first_name, c.last_name, c.mobile_number, c.email::text AS email, c.company, c.city, c.tags, c.created_at,
              ${tsText("c.created_at")} AS cursor_ts
         FROM contacts c WHERE ${where.join(" AND ")}
        ORDER BY c.created_at DESC, c.id DESC LIMIT ${f.limit + 1}`,
      bind,
    ),
    rows<{ n: number }>(`SELECT count(*)::int AS n FROM (SELECT 1 FROM contacts c WHERE ${filters} LIMIT ${COUNT_CAP + 1}) s`, countBind),
  ]);
  const page = found.slice(0, f.limit);
  const groups = await groupNamesOf(
    ctx.actor.accountId,
    page.map((r) => r.id),
  );
  const n = counted[0]?.n ?? 0;
  const last = page.at(-1);
  const next = found.length > f.limit && last ? encodeCursor([last.cursor_ts, last.id]) : null;
  return {
    data: page.map((r) => {
      const mobile = formatPhone(r.mobile_number);
      return {
        id: r.id,
        name: displayName(r, mobile),
        first_name: r.first_name,
        last_name: r.last_name,
        mobile_number: r.mobile_number,
        mobile_formatted: mobile,
        email: r.email,
        company: r.company,
        city: r.city,
        tags: r.tags ?? [],
        groups: groups.get(r.id) ?? [],
        created_at: new Date(r.created_at).toISOString(),
      };
    }),
    next_cursor: next,
    next,
    total: Math.min(n, COUNT_CAP),
    total_capped: n > COUNT_CAP,
  };
}

/** Names of the groups of each contact (one query for a page). */
async function groupNamesOf(accountId: string, ids: string[]) {
  const out = new Map<string, string[]>();
  if (!ids.length) return out;
  const found = await rows<{ contact_id: string; name: string }>(
    `SELECT m.contact_id, g.name FROM contact_group_members m JOIN contact_groups g ON g.id = m.group_id
      WHERE m.account_id = $1 AND m.contact_id = ANY($2::uuid[]) ORDER BY lower(g.name)`,
    [accountId, ids],
  );
  for (const r of found) (out.get(r.contact_id) ?? out.set(r.contact_id, []).get(r.contact_id)!).push(r.name);
  return out;
}
