/** A room's contact: the visitor's name, e-mail and phone, cleaned by one rule, and the account's contact they link to. */
import type { Transaction } from "sequelize";
import { normalizePhone } from "../../contacts/phone";
import { AppError } from "../../lib/errors";
import { email as emailSchema } from "../../lib/fields";
import { row } from "../../lib/sql";

/** What the visitor told about themself. */
export type ContactDetails = { accountId: string; username?: string; email?: string | null; phone?: string | null };

/** Links a room to the account's contact by e-mail or mobile, creating the contact if needed. */
export async function contactFor(input: ContactDetails, transaction: Transaction): Promise<string | null> {
  const email = input.email && input.email.includes("@") ? input.email.trim().toLowerCase() : null;
  const mobile = input.phone && /^\+[1-9]\d{7,14}$/.test(input.phone) ? input.phone : null;
  if (!email && !mobile) return null;
  const found = await row<{ id: string }>(
    `SELECT id FROM contacts WHERE account_id = $1 AND ((mobile_number = $2) OR (email = $3)) ORDER BY (mobile_number = $2) DESC NULLS LAST LIMIT 1`,
    [input.accountId, mobile, email],
    { transaction },
  );
  if (found) return found.id;
  // A name is split at the first space (spec section 5).
  const name = (input.username ?? "").trim();
  const space = name.indexOf(" ");
  const created = await row<{ id: string }>(
    `INSERT INTO contacts (account_id, first_name, last_name, mobile_number, email) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (account_id, mobile_number) WHERE mobile_number IS NOT NULL DO UPDATE SET updated_at = now() RETURNING id`,
    [input.accountId, space > 0 ? name.slice(0, space) : name || null, space > 0 ? name.slice(space + 1) : null, mobile, email],
    { transaction },
  );
  return created?.id ?? null;
}

export const ROOM_CONTACT_FIELDS = ["username", "email", "phone"] as const;
export type RoomContactPatch = Partial<Record<(typeof ROOM_CONTACT_FIELDS)[number], string | null>>;

type ContactField = (typeof ROOM_CONTACT_FIELDS)[number];

/** Control characters and the invisible direction marks (LRM/RLM/ALM, embeddings U+202A–U+202E, isolates U+2066–U+2069) that make a name read other than it is. */
// eslint-disable-next-line no-control-regex
const HIDDEN_CHARACTERS = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

/** One contact field as a person typed it: trimmed; e-mail checked and lower-cased (the sign-up's rule); phone in E.164 (spec section 5); a name of plain text up to 120. Answers the value or a locale key. */
function cleanContactField(field: ContactField, raw: string | null | undefined): { value: string | null } | { error: string } {
  const value = (raw ?? "").replace(/\s+/g, " ").trim();
  if (!value) return { value: null };
  if (field === "username") {
    if (value.length > 120) return { error: "validation.maxLength::120" };
    if (HIDDEN_CHARACTERS.test(value)) return { error: "validation.plainText" };
    return { value };
  }
  if (field === "email") {
    const parsed = emailSchema.safeParse(value);
    return parsed.success ? { value: parsed.data } : { error: parsed.error.issues[0]?.message ?? "validation.email" };
  }
  const phone = normalizePhone(value);
  return phone ? { value: phone } : { error: "validation.phone" };
}

/**
 * A room's contact fields (name, e-mail, phone) as an agent or a widget visitor typed them, cleaned
 * by one rule; every bad one is named in one 422, under the caller's own field names (the widget
 * posts `name`, the agents' API `username`). Fields not given stay absent.
 */
export function cleanRoomContact(patch: RoomContactPatch, names: Partial<Record<ContactField, string>> = {}): Partial<Record<ContactField, string | null>> {
  const out: Partial<Record<ContactField, string | null>> = {};
  const fields: Record<string, string[]> = {};
  for (const field of ROOM_CONTACT_FIELDS) {
    if (!(field in patch)) continue;
    const r = cleanContactField(field, patch[field]);
    if ("error" in r) fields[names[field] ?? field] = [r.error];
    else out[field] = r.value;
  }
  if (Object.keys(fields).length > 0) throw new AppError("VALIDATION", { fields });
  return out;
}
