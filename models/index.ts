/**
 * Sequelize models. The tables are created by migrations (models/migrations); these classes only
 * map them. Tenant-owned models carry accountId and are always queried with it.
 */
import { DataTypes, Model, type CreationOptional, type ForeignKey, type InferAttributes, type InferCreationAttributes, type ModelAttributes, type ModelStatic } from "sequelize";
import { sequelize } from "./db";

export * from "./constants";
import type { AccountType, CustomFieldType, Locale, PlanPermission, Role } from "./constants";
import { ENTITY_STATUSES, GENDERS, WHATSAPP_REQUEST_STATUSES } from "./constants";

const id = { type: DataTypes.UUID, primaryKey: true, defaultValue: DataTypes.UUIDV4 };
const bigId = { type: DataTypes.BIGINT, primaryKey: true, autoIncrement: true };
const ts = { createdAt: DataTypes.DATE, updatedAt: DataTypes.DATE };

export class Currency extends Model<InferAttributes<Currency>, InferCreationAttributes<Currency>> {
  declare code: string;
  declare name: string;
  declare namePlural: string;
  declare symbol: string;
  declare symbolNative: string;
  declare decimalDigits: number;
  declare rounding: number;
}

export class Whitelabel extends Model<InferAttributes<Whitelabel>, InferCreationAttributes<Whitelabel>> {
  declare id: CreationOptional<string>;
  declare accountId: string | null;
  declare name: string;
  declare color: string;
  declare host: string;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
}

export class Account extends Model<InferAttributes<Account>, InferCreationAttributes<Account>> {
  declare id: CreationOptional<string>;
  declare name: string;
  declare type: CreationOptional<AccountType>;
  declare status: CreationOptional<(typeof ENTITY_STATUSES)[number]>;
  declare currency: CreationOptional<string>;
  declare creditLimit: CreationOptional<number>;
  declare authToken: string;
  declare timezone: CreationOptional<string>;
  declare whitelabelId: CreationOptional<string | null>;
  declare parentAccountId: CreationOptional<string | null>;
  declare street: CreationOptional<string | null>;
  declare number: CreationOptional<string | null>;
  declare complement: CreationOptional<string | null>;
  declare district: CreationOptional<string | null>;
  declare city: CreationOptional<string | null>;
  declare province: CreationOptional<string | null>;
  declare postalCode: CreationOptional<string | null>;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
}

export class User extends Model<InferAttributes<User>, InferCreationAttributes<User>> {
  declare id: CreationOptional<string>;
  declare email: string;
  declare firstName: string;
  declare lastName: CreationOptional<string>;
  declare mobile: CreationOptional<string | null>;
  declare gender: CreationOptional<(typeof GENDERS)[number] | null>;
  declare birthDate: CreationOptional<string | null>;
  declare passwordHash: CreationOptional<string | null>;
  declare emailVerifiedAt: CreationOptional<Date | null>;
  declare locale: CreationOptional<Locale>;
  declare totpSecret: CreationOptional<string | null>;
  declare totpEnabledAt: CreationOptional<Date | null>;
  declare googleId: CreationOptional<string | null>;
  declare facebookId: CreationOptional<string | null>;
  declare currentAccountId: CreationOptional<string | null>;
  declare lastLoginAt: CreationOptional<Date | null>;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
}

export class Membership extends Model<InferAttributes<Membership>, InferCreationAttributes<Membership>> {
  declare id: CreationOptional<string>;
  declare accountId: ForeignKey<Account["id"]>;
  declare userId: ForeignKey<User["id"]>;
  declare role: Role;
  declare isAgent: CreationOptional<boolean>;
  declare departmentId: CreationOptional<string | null>;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
  declare user?: User;
  declare account?: Account;
}

export class Department extends Model<InferAttributes<Department>, InferCreationAttributes<Department>> {
  declare id: CreationOptional<string>;
  declare accountId: string;
  declare name: string;
  declare description: CreationOptional<string>;
  declare status: CreationOptional<"active" | "inactive">;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
}

export class Plan extends Model<InferAttributes<Plan>, InferCreationAttributes<Plan>> {
  declare id: CreationOptional<string>;
  declare name: string;
  declare service: string;
  declare price: CreationOptional<number>;
  declare currency: CreationOptional<string>;
  declare billingCycle: CreationOptional<"prepaid" | "weekly" | "biweekly" | "monthly">;
  declare durationDays: CreationOptional<number | null>;
  declare isTrial: CreationOptional<boolean>;
  declare permissions: CreationOptional<Partial<Record<PlanPermission, boolean>>>;
  declare active: CreationOptional<boolean>;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
}

export class AccountPlan extends Model<InferAttributes<AccountPlan>, InferCreationAttributes<AccountPlan>> {
  declare id: CreationOptional<string>;
  declare accountId: string;
  declare planId: string;
  declare service: string;
  declare startsAt: CreationOptional<Date>;
  declare endsAt: CreationOptional<Date | null>;
  /** The period paid of a plan that renews (api/plans/change.ts); null for one that does not. */
  declare periodStart: CreationOptional<Date | null>;
  declare periodEnd: CreationOptional<Date | null>;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
  declare plan?: Plan;
}

export class Invitation extends Model<InferAttributes<Invitation>, InferCreationAttributes<Invitation>> {
  declare id: CreationOptional<string>;
  declare accountId: string;
  declare email: string;
  declare role: Role;
  declare tokenHash: string;
  declare invitedBy: string | null;
  declare expiresAt: Date;
  declare acceptedAt: CreationOptional<Date | null>;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
  declare account?: Account;
}

export class UserToken extends Model<InferAttributes<UserToken>, InferCreationAttributes<UserToken>> {
  declare id: CreationOptional<string>;
  declare userId: string;
  declare purpose: "email_verify" | "password_reset";
  declare tokenHash: string;
  declare expiresAt: Date;
  declare usedAt: CreationOptional<Date | null>;
  declare createdAt: CreationOptional<Date>;
}

export class RefreshToken extends Model<InferAttributes<RefreshToken>, InferCreationAttributes<RefreshToken>> {
  declare id: CreationOptional<string>;
  declare userId: string;
  declare expiresAt: Date;
  declare revokedAt: CreationOptional<Date | null>;
  declare createdAt: CreationOptional<Date>;
}

export class OutboundEmail extends Model<InferAttributes<OutboundEmail>, InferCreationAttributes<OutboundEmail>> {
  declare id: CreationOptional<string>;
  declare accountId: CreationOptional<string | null>;
  declare toAddress: string;
  declare subject: string;
  declare html: string;
  declare textBody: string;
  declare status: CreationOptional<"queued" | "sent" | "local" | "failed">;
  declare attempts: CreationOptional<number>;
  declare error: CreationOptional<string | null>;
  declare sentAt: CreationOptional<Date | null>;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
}

export class AuditLog extends Model<InferAttributes<AuditLog>, InferCreationAttributes<AuditLog>> {
  declare id: CreationOptional<number>;
  declare accountId: string | null;
  declare userId: string | null;
  declare action: string;
  declare ip: CreationOptional<string | null>;
  declare userAgent: CreationOptional<string | null>;
  declare meta: CreationOptional<Record<string, unknown>>;
  declare createdAt: CreationOptional<Date>;
}

export class Notification extends Model<InferAttributes<Notification>, InferCreationAttributes<Notification>> {
  declare id: CreationOptional<number>;
  declare accountId: string;
  declare userId: string | null;
  declare kind: string;
  declare params: CreationOptional<Record<string, string | number>>;
  declare link: CreationOptional<string | null>;
  declare readAt: CreationOptional<Date | null>;
  declare createdAt: CreationOptional<Date>;
}

export class Contact extends Model<InferAttributes<Contact>, InferCreationAttributes<Contact>> {
  declare id: CreationOptional<string>;
  declare accountId: string;
  declare firstName: CreationOptional<string | null>;
  declare lastName: CreationOptional<string | null>;
  declare birthDate: CreationOptional<string | null>;
  /** E.164 (+5511912345678). */
  declare mobileNumber: CreationOptional<string | null>;
  declare phone: CreationOptional<string | null>;
  declare email: CreationOptional<string | null>;
  declare gender: CreationOptional<(typeof GENDERS)[number] | null>;
  declare company: CreationOptional<string | null>;
  declare website: CreationOptional<string | null>;
  declare address: CreationOptional<string | null>;
  declare number: CreationOptional<string | null>;
  declare complement: CreationOptional<string | null>;
  declare district: CreationOptional<string | null>;
  declare zip: CreationOptional<string | null>;
  declare city: CreationOptional<string | null>;
  declare state: CreationOptional<string | null>;
  declare country: CreationOptional<string | null>;
  declare description: CreationOptional<string | null>;
  declare custom: CreationOptional<Record<string, string | number | null>>;
  declare tags: CreationOptional<string[]>;
  declare minWaitTime: CreationOptional<number | null>;
  declare avgWaitTime: CreationOptional<number | null>;
  declare maxWaitTime: CreationOptional<number | null>;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
}

export class ContactGroup extends Model<InferAttributes<ContactGroup>, InferCreationAttributes<ContactGroup>> {
  declare id: CreationOptional<string>;
  declare accountId: string;
  declare name: string;
  declare description: CreationOptional<string>;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
}

export class ContactGroupMember extends Model<InferAttributes<ContactGroupMember>, InferCreationAttributes<ContactGroupMember>> {
  declare groupId: string;
  declare contactId: string;
  declare accountId: string;
  declare createdAt: CreationOptional<Date>;
}

export class CustomField extends Model<InferAttributes<CustomField>, InferCreationAttributes<CustomField>> {
  declare id: CreationOptional<string>;
  declare accountId: string;
  declare key: string;
  declare label: string;
  declare type: CustomFieldType;
  declare options: CreationOptional<string[]>;
  declare required: CreationOptional<boolean>;
  declare sensitive: CreationOptional<boolean>;
  declare visibleInAttendance: CreationOptional<boolean>;
  declare position: CreationOptional<number>;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
}

/** An SMS template: a body with {{variables}}. */
export class SmsTemplate extends Model<InferAttributes<SmsTemplate>, InferCreationAttributes<SmsTemplate>> {
  declare id: CreationOptional<string>;
  declare accountId: string;
  declare name: string;
  declare body: string;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
}

/** A request for a WhatsApp number (migration 0047): the business's data for Meta, reviewed by platform staff. */
export class WhatsappNumberRequest extends Model<InferAttributes<WhatsappNumberRequest>, InferCreationAttributes<WhatsappNumberRequest>> {
  declare id: CreationOptional<string>;
  declare accountId: string;
  declare legalName: string;
  declare cnpj: string;
  declare website: string | null;
  declare email: string;
  declare businessPhone: string;
  declare address: string | null;
  declare displayName: string;
  declare vertical: string;
  declare phoneNumber: string;
  declare integration: "cloud" | "onprem";
  declare description: string | null;
  declare status: CreationOptional<(typeof WHATSAPP_REQUEST_STATUSES)[number]>;
  declare reason: CreationOptional<string | null>;
  declare statusAt: CreationOptional<Date>;
  declare createdBy: string | null;
  declare canceledBy: CreationOptional<string | null>;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
}

function init<M extends Model>(model: ModelStatic<M>, table: string, attrs: ModelAttributes<M>, opts: { timestamps?: boolean; updatedAt?: boolean } = {}) {
  // Sequelize writes the column name into each attribute object: never let two columns share one.
  // A data-type instance (DataTypes.ARRAY(TEXT)) is wrapped, not spread: spreading drops its prototype and Sequelize would read it as a plain column.
  const own = Object.fromEntries(
    Object.entries(attrs).map(([k, v]) => [k, typeof v === "object" && v !== null ? (Object.getPrototypeOf(v) === Object.prototype ? { ...v } : { type: v }) : v]),
  );
  (model as unknown as { init: (a: ModelAttributes, o: object) => void }).init(own as ModelAttributes, {
    sequelize: sequelize(),
    tableName: table,
    underscored: true,
    timestamps: opts.timestamps ?? true,
    updatedAt: opts.updatedAt ?? true,
  });
}

let ready = false;
/**
 * Map every model to its table. Each process calls this once at its entry point (api/server.ts,
 * api/worker.ts, realtime/server.ts, api/smpp/server.ts, remix/app/entry.server.tsx, seeds/run.ts,
 * bench and test scripts run with Bun); use-cases never do (ADR 025). Repeated calls do nothing.
 */
export function initModels() {
  if (ready) return;
  ready = true;
  const text = DataTypes.TEXT;
  const nText = { type: DataTypes.TEXT, allowNull: true };
  init(
    Currency,
    "currencies",
    {
      code: { type: DataTypes.CHAR(3), primaryKey: true },
      name: text,
      namePlural: text,
      symbol: text,
      symbolNative: text,
      decimalDigits: DataTypes.SMALLINT,
      rounding: {
        type: DataTypes.DECIMAL(6, 2),
        get(this: Currency) {
          return Number(this.getDataValue("rounding"));
        },
      },
    },
    { timestamps: false },
  );
  init(Whitelabel, "whitelabels", { id, accountId: DataTypes.UUID, name: text, color: text, host: text, ...ts });
  init(Account, "accounts", {
    id,
    name: text,
    type: text,
    status: text,
    currency: text,
    creditLimit: DataTypes.BIGINT,
    authToken: text,
    timezone: text,
    whitelabelId: DataTypes.UUID,
    parentAccountId: DataTypes.UUID,
    street: nText,
    number: nText,
    complement: nText,
    district: nText,
    city: nText,
    province: nText,
    postalCode: nText,
    ...ts,
  });
  init(User, "users", {
    id,
    email: text,
    firstName: text,
    lastName: text,
    mobile: nText,
    gender: nText,
    birthDate: DataTypes.DATEONLY,
    passwordHash: nText,
    emailVerifiedAt: DataTypes.DATE,
    locale: text,
    totpSecret: nText,
    totpEnabledAt: DataTypes.DATE,
    googleId: nText,
    facebookId: nText,
    currentAccountId: DataTypes.UUID,
    lastLoginAt: DataTypes.DATE,
    ...ts,
  });
  init(Membership, "memberships", { id, accountId: DataTypes.UUID, userId: DataTypes.UUID, role: text, isAgent: DataTypes.BOOLEAN, departmentId: DataTypes.UUID, ...ts });
  init(Department, "departments", { id, accountId: DataTypes.UUID, name: text, description: text, status: text, ...ts });
  init(Plan, "plans", {
    id,
    name: text,
    service: text,
    price: DataTypes.BIGINT,
    currency: text,
    billingCycle: text,
    durationDays: DataTypes.INTEGER,
    isTrial: DataTypes.BOOLEAN,
    permissions: DataTypes.JSONB,
    active: DataTypes.BOOLEAN,
    ...ts,
  });
  init(AccountPlan, "account_plans", {
    id,
    accountId: DataTypes.UUID,
    planId: DataTypes.UUID,
    service: text,
    startsAt: DataTypes.DATE,
    endsAt: DataTypes.DATE,
    periodStart: DataTypes.DATE,
    periodEnd: DataTypes.DATE,
    ...ts,
  });
  init(Invitation, "invitations", {
    id,
    accountId: DataTypes.UUID,
    email: text,
    role: text,
    tokenHash: text,
    invitedBy: DataTypes.UUID,
    expiresAt: DataTypes.DATE,
    acceptedAt: DataTypes.DATE,
    ...ts,
  });
  init(
    UserToken,
    "user_tokens",
    { id, userId: DataTypes.UUID, purpose: text, tokenHash: text, expiresAt: DataTypes.DATE, usedAt: DataTypes.DATE, createdAt: DataTypes.DATE },
    { updatedAt: false },
  );
  init(RefreshToken, "refresh_tokens", { id, userId: DataTypes.UUID, expiresAt: DataTypes.DATE, revokedAt: DataTypes.DATE, createdAt: DataTypes.DATE }, { updatedAt: false });
  init(OutboundEmail, "outbound_emails", {
    id,
    accountId: DataTypes.UUID,
    toAddress: text,
    subject: text,
    html: text,
    textBody: text,
    status: text,
    attempts: DataTypes.INTEGER,
    error: nText,
    sentAt: DataTypes.DATE,
    ...ts,
  });
  init(
    AuditLog,
    "audit_logs",
    { id: bigId, accountId: DataTypes.UUID, userId: DataTypes.UUID, action: text, ip: DataTypes.INET, userAgent: nText, meta: DataTypes.JSONB, createdAt: DataTypes.DATE },
    { updatedAt: false },
  );
  init(
    Notification,
    "notifications",
    {
      id: bigId,
      accountId: DataTypes.UUID,
      userId: DataTypes.UUID,
      kind: text,
      params: DataTypes.JSONB,
      link: nText,
      readAt: DataTypes.DATE,
      createdAt: DataTypes.DATE,
    },
    { updatedAt: false },
  );

  init(Contact, "contacts", {
    id,
    accountId: DataTypes.UUID,
    firstName: nText,
    lastName: nText,
    birthDate: DataTypes.DATEONLY,
    mobileNumber: nText,
    phone: nText,
    email: nText,
    gender: nText,
    company: nText,
    website: nText,
    address: nText,
    number: nText,
    complement: nText,
    district: nText,
    zip: nText,
    city: nText,
    state: nText,
    country: nText,
    description: nText,
    custom: DataTypes.JSONB,
    tags: DataTypes.ARRAY(DataTypes.TEXT),
    minWaitTime: DataTypes.INTEGER,
    avgWaitTime: DataTypes.INTEGER,
    maxWaitTime: DataTypes.INTEGER,
    ...ts,
  });
  init(ContactGroup, "contact_groups", { id, accountId: DataTypes.UUID, name: text, description: text, ...ts });
  init(
    ContactGroupMember,
    "contact_group_members",
    {
      groupId: { type: DataTypes.UUID, primaryKey: true },
      contactId: { type: DataTypes.UUID, primaryKey: true },
      accountId: DataTypes.UUID,
      createdAt: DataTypes.DATE,
    },
    { updatedAt: false },
  );
  init(CustomField, "custom_fields", {
    id,
    accountId: DataTypes.UUID,
    key: text,
    label: text,
    type: text,
    options: DataTypes.ARRAY(DataTypes.TEXT),
    required: DataTypes.BOOLEAN,
    sensitive: DataTypes.BOOLEAN,
    visibleInAttendance: DataTypes.BOOLEAN,
    position: DataTypes.INTEGER,
    ...ts,
  });
  init(SmsTemplate, "sms_templates", { id, accountId: DataTypes.UUID, name: text, body: text, ...ts });
  init(WhatsappNumberRequest, "whatsapp_number_requests", {
    id,
    accountId: DataTypes.UUID,
    legalName: text,
    cnpj: text,
    website: nText,
    email: text,
    businessPhone: text,
    address: nText,
    displayName: text,
    vertical: text,
    phoneNumber: text,
    integration: text,
    description: nText,
    status: text,
    reason: nText,
    statusAt: DataTypes.DATE,
    createdBy: DataTypes.UUID,
    canceledBy: DataTypes.UUID,
    ...ts,
  });
  Contact.belongsToMany(ContactGroup, { through: ContactGroupMember, foreignKey: "contactId", otherKey: "groupId", as: "groups" });
  ContactGroup.belongsToMany(Contact, { through: ContactGroupMember, foreignKey: "groupId", otherKey: "contactId", as: "contacts" });

  Membership.belongsTo(User, { foreignKey: "userId", as: "user" });
  Membership.belongsTo(Account, { foreignKey: "accountId", as: "account" });
  User.hasMany(Membership, { foreignKey: "userId", as: "memberships" });
  Account.hasMany(Membership, { foreignKey: "accountId", as: "memberships" });
  AccountPlan.belongsTo(Plan, { foreignKey: "planId", as: "plan" });
  Invitation.belongsTo(Account, { foreignKey: "accountId", as: "account" });
  Account.belongsTo(Whitelabel, { foreignKey: "whitelabelId", as: "whitelabel" });
}

export { sequelize } from "./db";
