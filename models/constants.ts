/** Enumerations shared by models, schemas and screens (no database code: safe in the browser bundle). */
export const ROLES = ["owner", "admin", "manager", "agent", "analyst", "sales", "security", "developer", "billing", "carrier"] as const;
export type Role = (typeof ROLES)[number];
/** Roles an owner or admin may invite (spec section 6): admin, developer, commercial, financial, carrier, information security, sales executive. */
export const INVITE_ROLES = ["admin", "developer", "manager", "billing", "carrier", "security", "sales", "agent", "analyst"] as const;
export const ACCOUNT_TYPES = ["customer", "reseller", "platform"] as const;
export type AccountType = (typeof ACCOUNT_TYPES)[number];
export const ENTITY_STATUSES = ["active", "inactive", "suspended"] as const;
export const GENDERS = ["male", "female", "undisclosed"] as const;
export const LOCALES = ["pt-BR", "en", "es", "zh"] as const;
export type Locale = (typeof LOCALES)[number];
export const PLAN_PERMISSIONS = ["opening_hour", "dashboard", "spie", "tab", "department", "whatsapp"] as const;
export type PlanPermission = (typeof PLAN_PERMISSIONS)[number];

/** Standard contact fields (spec section 3), in the order screens and CSV mapping offer them. */
export const CONTACT_FIELDS = [
  "first_name",
  "last_name",
  "mobile_number",
  "phone",
  "email",
  "birth_date",
  "gender",
  "company",
  "website",
  "address",
  "number",
  "complement",
  "district",
  "zip",
  "city",
  "state",
  "country",
  "description",
  "tags",
] as const;
export type ContactField = (typeof CONTACT_FIELDS)[number];
export const CUSTOM_FIELD_TYPES = ["text", "number", "date", "list"] as const;
export type CustomFieldType = (typeof CUSTOM_FIELD_TYPES)[number];
export const IMPORT_STATUSES = ["uploaded", "queued", "running", "completed", "failed"] as const;
export type ImportStatus = (typeof IMPORT_STATUSES)[number];
/** CSV import limits (spec sections 5 and 9). */
export const IMPORT_MAX_FILES = 10;
export const IMPORT_MAX_ROWS = 1_000_000;

/** Message statuses (spec section 4); the forward-only rules between them are in api/messages/status.ts. */
/** What only e-mail reaches (spec section 4, "E-mail adds"; ADR 036): a 4xx retried, opens and clicks, and its own failures. */
export const EMAIL_ONLY_STATUSES = ["deferred", "opened", "clicked", "bounced", "dropped", "blocked"] as const;
export const MESSAGE_STATUSES = [
  "pending",
  "scheduled",
  "queued",
  "sending",
  "sent",
  "received",
  "delivered",
  "read",
  "failed",
  "unavailable",
  "rejected",
  "optout",
  ...EMAIL_ONLY_STATUSES,
] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

/** Carriers a short code can be homologated with (its deliverability). */
export const CARRIERS = ["Vivo", "Claro", "TIM", "Oi", "Algar", "Sercomtel"] as const;

/** A WhatsApp number request (migration 0047): requested -> in_review -> approved | rejected | canceled. */
export const WHATSAPP_REQUEST_STATUSES = ["requested", "in_review", "approved", "rejected", "canceled"] as const;
export type WhatsappRequestStatus = (typeof WHATSAPP_REQUEST_STATUSES)[number];
/** The statuses the account may still cancel from (and that hold the number: one pending request per number). */
export const WHATSAPP_REQUEST_PENDING = ["requested", "in_review"] as const;
