/**
 * The choices the deal screen offers that the boards' use-cases do not list (api/pipelines/
 * services checks whatever is chosen: a member, a contact, a catalogue product of the account):
 * the account's people (a deal's or a task's owner), its catalogue products, and the contacts
 * matching a search (the deal's linked contact). Read-only, every query scoped by the account.
 * Kept apart from the use-cases on purpose (issue 22's screens; the catalogue has its own area).
 */
import type { SignedInCtx } from "~api/lib/context";
import { escapeLike, rows } from "~api/lib/sql";

export type OwnerOption = { id: string; name: string };
export type ProductOption = { id: string; name: string; unit_cents: number };
export type ContactOption = { id: string; name: string; reach: string | null };

/** The account's people by name (at most 500: an account's team). */
export function ownerOptions(ctx: SignedInCtx): Promise<OwnerOption[]> {
  return rows<OwnerOption>(
    `SELECT u.id, coalesce(NULLIF(btrim(concat_ws(' ', u.first_name, u.last_name)), ''), u.email::text) AS name
       FROM memberships m JOIN users u ON u.id = m.user_id
      WHERE m.account_id = $1 ORDER BY lower(u.first_name), lower(u.last_name), u.id LIMIT 500`,
    [ctx.actor.accountId],
  );
}

/** The account's catalogue products by name with their unit price (price less its discount), at most 500. */
export async function productOptions(ctx: SignedInCtx): Promise<ProductOption[]> {
  const list = await rows<ProductOption>(
    `SELECT id, name, (price_cents - discount_cents)::bigint AS unit_cents FROM catalog_products WHERE account_id = $1 ORDER BY lower(name), id LIMIT 500`,
    [ctx.actor.accountId],
  );
  return list.map((p) => ({ ...p, unit_cents: Number(p.unit_cents) }));
}

/** Contacts whose name, mobile number or e-mail contains `q` (at least 2 characters), at most 20. */
export function findContacts(ctx: SignedInCtx, q: string): Promise<ContactOption[]> {
  const term = q.trim();
  if (term.length < 2) return Promise.resolve([]);
  return rows<ContactOption>(
    `SELECT id, coalesce(NULLIF(btrim(concat_ws(' ', first_name, last_name)), ''), mobile_number, email::text, '') AS name,
            coalesce(mobile_number, phone, email::text) AS reach
       FROM contacts
      WHERE account_id = $1
        AND (concat_ws(' ', first_name, last_name) ILIKE $2 OR mobile_number ILIKE $2 OR email::text ILIKE $2)
      ORDER BY lower(first_name), id LIMIT 20`,
    [ctx.actor.accountId, `%${escapeLike(term)}%`],
  );
}
