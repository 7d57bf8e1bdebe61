/**
 * getContact: one contact with every field of spec section 3, its groups and its custom values.
 * Sensitive custom values are masked (value null, masked true) unless the actor is owner or admin.
 * contactActivity: the person's conversations, messages and opt-outs across channels.
 */
import { findOwned } from "../lib/owned";
import { Contact, CustomField } from "../../models";
import type { CustomFieldType } from "../../models/constants";
import type { SignedInCtx } from "../lib/context";
import { assertCan, displayName, isPrivileged } from "./access";
import { formatPhone } from "./phone";
import { rows } from "../lib/sql";

export type CustomValueView = {
  key: string;
  label: string;
  type: CustomFieldType;
  options: string[];
  required: boolean;
  sensitive: boolean;
  visible_in_attendance: boolean;
  value: string | number | null;
  /** True when a value exists but the actor may not see it. */
  masked: boolean;
};

export type ContactView = {
  id: string;
  name: string;
  first_name: string | null;
  last_name: string | null;
  birth_date: string | null;
  mobile_number: string | null;
  mobile_formatted: string;
  phone: string | null;
  phone_formatted: string;
  email: string | null;
  gender: string | null;
  company: string | null;
  website: string | null;
  address: string | null;
  number: string | null;
  complement: string | null;
  district: string | null;
  zip: string | null;
  city: string | null;
  state: string | null;
  country: string | null;
  description: string | null;
  tags: string[];
  groups: Array<{ id: string; name: string }>;
  custom: CustomValueView[];
  min_wait_time: number | null;
  avg_wait_time: number | null;
  max_wait_time: number | null;
  created_at: string;
  updated_at: string;
};

/** The contact row of the acting account, or NOT_FOUND. */
export const findContact = (ctx: SignedInCtx, id: string) => findOwned(Contact, ctx, id);

export async function groupsOfContact(accountId: string, contactId: string) {
  return rows<{ id: string; name: string; added_at: Date }>(
    `SELECT g.id, g.name, m.created_at AS added_at FROM contact_group_members m JOIN contact_groups g ON g.id = m.group_id
      WHERE m.account_id = $1 AND m.contact_id = $2 ORDER BY lower(g.name)`,
    [accountId, contactId],
  );
}

export async function getContact(ctx: SignedInCtx, id: string): Promise<ContactView> {
  assertCan(ctx);
  const c = await findContact(ctx, id);
  const [groups, defs] = await Promise.all([
    groupsOfContact(ctx.actor.accountId, c.id),
    CustomField.findAll({
      where: { accountId: ctx.actor.accountId },
      order: [
        ["position", "ASC"],
        ["label", "ASC"],
      ],
    }),
  ]);
  const seeAll = isPrivileged(ctx);
  const mobile = formatPhone(c.mobileNumber);
  const names = { first_name: c.firstName, last_name: c.lastName, email: c.email };
  return {
    id: c.id,
    name: displayName(names, mobile),
    first_name: c.firstName,
    last_name: c.lastName,
    birth_date: c.birthDate,
    mobile_number: c.mobileNumber,
    mobile_formatted: mobile,
    phone: c.phone,
    phone_formatted: c.phone?.startsWith("+") ? formatPhone(c.phone) : (c.phone ?? ""),
    email: c.email,
    gender: c.gender,
    company: c.company,
    website: c.website,
    address: c.address,
    number: c.number,
    complement: c.complement,
    district: c.district,
    zip: c.zip,
    city: c.city,
    state: c.state,
    country: c.country,
    description: c.description,
    tags: c.tags ?? [],
    groups: groups.map((g) => ({ id: g.id, name: g.name })),
    custom: defs.map((d) => {
      const raw = c.custom?.[d.key];
      const value = raw === undefined ? null : raw;
      const hidden = d.sensitive && !seeAll;
      return {
        key: d.key,
        label: d.label,
        type: d.type,
        options: d.options ?? [],
        required: d.required,
        sensitive: d.sensitive,
        visible_in_attendance: d.visibleInAttendance,
        value: hidden ? null : value,
        masked: hidden && value !== null && value !== "",
      };
    }),
    min_wait_time: c.minWaitTime,
    avg_wait_time: c.avgWaitTime,
    max_wait_time: c.maxWaitTime,
    created_at: c.createdAt.toISOString(),
    updated_at: c.updatedAt.toISOString(),
  };
}

export type ContactActivity = {
  conversations: Array<{ id: string; channel: string; status: string; created_at: string }>;
  messages: Array<{ id: string; channel: string; direction: string; status: string; created_at: string }>;
  opt_outs: Array<{ channel: string; created_at: string }>;
};

/**
 * The person's conversations and messages across channels, and their opt-outs. The tables that
 * hold them (messages, live-chat rooms, opt-outs) arrive with the messaging issues; until then
 * there is nothing to read, and the screens say so instead of showing invented rows. Those issues
 * fill this use-case in (by contact id and by the contact's E.164 number), not the screens.
 */
export async function contactActivity(ctx: SignedInCtx, id: string): Promise<ContactActivity> {
  assertCan(ctx);
  await findContact(ctx, id);
  return { conversations: [], messages: [], opt_outs: [] };
}
