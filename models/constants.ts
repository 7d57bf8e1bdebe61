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

