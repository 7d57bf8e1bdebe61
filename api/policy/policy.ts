/**
 * The one permission policy (spec section 6), as tables: route roles, path allow-lists,
 * settings groups, plan gates, staff areas. The navigation guard, the menus and the API all ask
 * `decide()`. Interpretations of the spec's gaps are recorded in docs/decisions/002-permissions.md.
 */
import type { AccountType, PlanPermission, Role } from "../../models/constants";
import { AppError } from "../lib/errors";

export type RouteKind = "guest" | "public" | "tfa" | "app";
export type Subject = {
  role: Role;
  accountType: AccountType;
  /** Services with an active plan (e.g. "omni"), and the union of their permissions. */
  services: string[];
  permissions: Partial<Record<PlanPermission, boolean>>;
  /** A chat agent of the account (the membership's flag): "every level can be a chat agent". */
  isAgent?: boolean;
  /** The account is suspended for an unpaid invoice (ADR 044): only its billing screens, to pay. */
  suspended?: boolean;
};
/** A plan feature a gate asks for: live chat (the omni service) or one of the plan's permissions. */
export type PlanFeature = "omni" | PlanPermission;
export type Decision =
  | { allowed: true }
  | { allowed: false; reason: "role" | "path" | "staff" | "suspended" }
  /** Refused by the plan: `feature` is what unlocks it (the 403 screen and the API's body name it, with a link to upgrade). */
  | { allowed: false; reason: "plan"; feature: PlanFeature };

/**
 * What the people of an account suspended for an unpaid invoice still reach (ADR 044): its
 * invoices, to pay them (and a top-up), the billing overview that says why, and switching to another account. Everything else is
 * refused (the web sends them to /invoices; the API answers 403 CLIENT_INACTIVE).
 */
export const SUSPENDED_PATHS = [/^\/billing$/, /^\/invoices$/, /^\/invoice\/[^/]+(\/pdf)?$/, /^\/new-invoice$/, /^\/accounts\/switch$/, /^\/403$/];
/** The API's counterpart: GET and POST of /api/invoices, an invoice and its PDF. */
export const SUSPENDED_API_PATHS = [/^\/api\/billing\/?$/, /^\/api\/invoices(\/[^/]+(\/pdf)?)?\/?$/];

/** "Most product routes": admin, user (our agent), owner, billing, developer, sales. */
export const PRODUCT_ROLES: Role[] = ["admin", "agent", "owner", "billing", "developer", "sales"];

/** Routes of spec section 2 that are not product routes (any signed-in role). */
const UNTAGGED = [/^\/$/, /^\/notifications$/, /^\/user\/settings$/, /^\/accounts(\/create|\/switch)?$/, /^\/support(\/.*)?$/, /^\/403$/, /^\/dev\/mailbox(\/.*)?$/];

/** Who supervises live chat: the spec's profiles ADMINISTRATOR and MANAGER (our admin and manager), and the owner. */
export const SUPERVISOR_ROLES: Role[] = ["owner", "admin", "manager"];

/**
 * Who may change what, beyond reaching its screen (the routes above decide that): one row per
 * area, the only place these roles are written. Use-cases ask `canWrite` / `assertCanWrite`; the
 * screens ask the same to show a form or a read-only view.
 */
export const WRITE_ROLES = {
  /** The account's short codes (their nickname and status). */
  shortCodes: ["owner", "admin", "sales"],
  /** Live chat departments. */
  departments: ["owner", "admin", "sales"],
  /** Live chat's configuration: tabulations, macros, opening hours, holidays, system settings, others' canned messages. */
  live: ["owner", "admin", "sales"],
  /** The chat widget's settings and key. */
  widget: ["owner", "admin", "sales", "developer", "billing"],
  /** The account's people: invite, edit, remove. */
  users: ["owner", "admin"],
  /** An owner's membership, and handing out the owner role. */
  owners: ["owner"],
  /** The account's data and its API token. */
  account: ["owner", "admin"],
  /** Contacts' sensitive values, custom fields, a person's export and erasure (LGPD). */
  contacts: ["owner", "admin"],
  /** The account's plans (a change is paid from its balance): the owner, the admin and finance. */
  plans: ["owner", "admin", "billing"],
  /** Prices (with the platform account: `isPlatformStaff`). */
  prices: ["owner", "admin"],
  /** Installed integrations (store credentials, the messages order events send, test, uninstall; ADR 066). Sales, who reach /integrations too, read them. */
  integrations: ["owner", "admin"],
  /** Reclame Aqui complaints: answer them and sync, i.e. everyone /ra admits (the connection itself is `account`'s); ADR 067. */
  ra: ["owner", "admin", "sales"],
} as const satisfies Record<string, readonly Role[]>;
export type WriteArea = keyof typeof WRITE_ROLES;

/** Who sees everyone's records of an area (the others see their own). */
export const SEES_ALL_ROLES = {
  /** The audit log (information security reviews it). */
  audit: ["owner", "admin", "security"],
  /** The home screen's recent activity. */
  activity: ["owner", "admin"],
  /** Live chat transcripts (and the agents to filter them by). */
  transcripts: ["owner", "admin"],
  /** Sent e-mails of the account (the dev mailbox). */
  mail: ["owner", "admin"],
} as const satisfies Record<string, readonly Role[]>;
export type SeeArea = keyof typeof SEES_ALL_ROLES;

type WithRole = { role: Role };

export function canWrite(actor: WithRole, area: WriteArea): boolean {
  return (WRITE_ROLES[area] as readonly Role[]).includes(actor.role);
}

/** FORBIDDEN unless `canWrite`. */
export function assertCanWrite(actor: WithRole, area: WriteArea): void {
  if (!canWrite(actor, area)) throw new AppError("FORBIDDEN");
}

export function seesAll(actor: WithRole, area: SeeArea): boolean {
  return (SEES_ALL_ROLES[area] as readonly Role[]).includes(actor.role);
}

/** A live chat supervisor: sees every agent's rooms and every entry of the account's live stream. */
export function isSupervisor(actor: WithRole): boolean {
  return SUPERVISOR_ROLES.includes(actor.role);
}

/** A platform staff member who manages prices: the platform account's `prices` writers. */
export function isPlatformStaff(actor: WithRole & { accountType: AccountType }): boolean {
  return actor.accountType === "platform" && canWrite(actor, "prices");
}

/** SUPERVISOR_ROLES as an SQL list (`role IN (${SUPERVISOR_ROLES_SQL})`): who attends is `is_agent OR` one of them. */
export const SUPERVISOR_ROLES_SQL = SUPERVISOR_ROLES.map((r) => `'${r}'`).join(",");

/** Route-specific role tags (spec section 6). */
const ROUTE_ROLES: Array<[RegExp, Role[]]> = [
  [/^\/whatsapp\/(request|send|templates\/new)$/, ["admin", "agent", "owner", "sales"]],
  [/^\/whatsapp\/jv\/numbers(\/new)?$/, ["admin", "agent", "owner", "sales"]],
  // Starting an RCS campaign: who may both send RCS (/rcs/send) and read its campaigns (/rcs/campaigns).
  [/^\/rcs\/campaigns\/new$/, ["admin", "owner", "sales"]],
  // Anti-fraud review of messages, URLs and words is information security's work (an invitable role with no other screen). ADR 002.
  [/^\/sms\/antifraude$/, ["admin", "sales", "security"]],
  [/^\/numbers\/active$/, ["admin"]],
  // Products are billing: what the account pays for is read by its owner, admin and finance (ADR 048).
  [/^\/customer\/products$/, ["owner", "admin", "billing"]],
  // Tagged admin, owner, sales, and "Supervisor view needs profiles ADMINISTRATOR or MANAGER": the supervisors. ADR 002.
  [/^\/live\/manage$/, SUPERVISOR_ROLES],
  // Live chat reports: management reads reports, the developer analyses them; not the agent (every agent's figures). ADR 019.
  [/^\/(live\/(reports|usage)|chat\/reports)(\/|$)/, ["owner", "admin", "manager", "analyst", "sales", "developer", "billing"]],
];

/**
 * Who attends live chat (spec section 6): "Live chat connects only for admin, owner or agent" and
 * "Every level can be a chat agent" (the membership's flag); the supervisors watch it too.
 */
export function attends(subject: Pick<Subject, "role" | "isAgent">): boolean {
  return subject.isAgent === true || subject.role === "agent" || SUPERVISOR_ROLES.includes(subject.role);
}

/**
 * The attendance screens (the desk, its history, the department dashboard) are for those who
 * attend, whatever their role's product routes; a chat agent of any role and the manager also
 * keep their canned messages (/responses). Plan gates still apply. ADR 002.
 */
const DESK = /^\/(live|live\/history(\/[^/]+)?|live\/dashboard)$/;
const RESPONSES = /^\/responses$/;

/** Path allow-lists: a restricted role reaches a product route only if one of its segments is listed. */
const ALLOW: Partial<Record<Role, string[]>> = {
  // "responses": managing one's own canned messages is a live-chat screen (spec sections 2 and 7: non-managers only for themselves).
  agent: ["dashboard", "send", "success", "templates", "history", "contacts", "live", "responses"],
  developer: ["insights", "campaigns", "history", "domains", "contacts", "widget", "webhooks", "live"],
  billing: ["insights", "campaigns", "history", "contacts", "widget", "webhooks", "live", "invoices", "invoice", "new-invoice", "billing", "usage"],
};

/** WhatsApp Meta templates are hidden for user and billing. */
const HIDDEN: Array<[RegExp, Role[]]> = [[/^\/whatsapp\/templates(\/.*)?$/, ["agent", "billing"]]];

/** Plan gates: path test -> plan permission needed. */
const PLAN_GATES: Array<[RegExp, PlanPermission]> = [
  [/\/opening-hours(\/|$)/, "opening_hour"],
  [/^\/live\/dashboard$/, "dashboard"],
  [/^\/live\/manage$/, "spie"],
  [/\/tabulations(\/|$)/, "tab"],
  [/^\/departments(\/|$)/, "department"],
  [/^\/whatsapp\/templates(\/|$)/, "whatsapp"],
];
/** The omni service (live chat): its screens, departments, and the chatbot flows that answer on its channels and hand off to its queue (ADR 053). */
const OMNI = /(^|\/)(live|departments|flows)(\/|$)|^\/chat\/reports(\/|$)/;

/** Platform-staff areas under /admin; resellers manage their customers and their branding, and read their customers' audit (ADR 062), products, invoices and short codes (ADR 064) and SMS figures (ADR 065). */
const RESELLER_ADMIN = /^\/admin\/(customers|whitelabel|audit|products|invoices|short-codes|sms\/(reports|dashboard|sales))(\/|$)/;
const STAFF_ROLES: Role[] = ["owner", "admin"];
/** Staff areas open to more staff roles: the platform's information security does the anti-fraud review. */
const STAFF_AREA_ROLES: Array<[RegExp, Role[]]> = [[/^\/admin\/antifraud$/, ["owner", "admin", "security"]]];

const GUEST = [
  /^\/experience$/,
  /^\/obrigado$/,
  /^\/login$/,
  /^\/register$/,
  /^\/success$/,
  /^\/email-verify(\/[^/]+)?$/,
  /^\/reset-password$/,
  /^\/reset-verification\/[^/]+$/,
  /^\/invitation\/[^/]+$/,
  /^\/callback\/(google|facebook)$/,
  /^\/auth\/(google|facebook)$/,
  /^\/health$/,
  /^\/webchat$/,
  /^\/about$/,
  /^\/logout$/,
  /^\/locale$/,
  /^\/unsubscribe$/,
];

export function routeKind(path: string): RouteKind {
  if (path === "/live/simulator") return "public";
  if (GUEST.some((r) => r.test(path))) return "guest";
  if (path === "/2fa") return "tfa";
  return "app";
}

function normalize(path: string) {
  return path.length > 1 ? path.replace(/\/+$/, "") : path;
}

export function decide(subject: Subject, rawPath: string): Decision {
  const path = normalize(rawPath);
  if (routeKind(path) !== "app") return { allowed: true };
  if (subject.suspended && !SUSPENDED_PATHS.some((r) => r.test(path))) return { allowed: false, reason: "suspended" };
  if (UNTAGGED.some((r) => r.test(path))) return { allowed: true };

  if (path === "/admin" || path.startsWith("/admin/")) {
    const staff = subject.accountType === "platform" || (subject.accountType === "reseller" && RESELLER_ADMIN.test(path));
    if (!staff) return { allowed: false, reason: "staff" };
    const roles = STAFF_AREA_ROLES.find(([r]) => r.test(path))?.[1] ?? STAFF_ROLES;
    return roles.includes(subject.role) ? { allowed: true } : { allowed: false, reason: "role" };
  }

  if (DESK.test(path)) return attends(subject) ? planGate(subject, path) : { allowed: false, reason: "role" };
  if (RESPONSES.test(path) && (subject.isAgent || subject.role === "manager")) return planGate(subject, path);
  const tagged = ROUTE_ROLES.find(([r]) => r.test(path));
  const roles = tagged ? tagged[1] : PRODUCT_ROLES;
  if (!roles.includes(subject.role)) return { allowed: false, reason: "role" };
  // A route's own role tag is the specific rule: the generic allow-lists apply to untagged routes only.
  if (!tagged && HIDDEN.some(([r, hiddenFor]) => r.test(path) && hiddenFor.includes(subject.role))) return { allowed: false, reason: "role" };

  const allow = tagged ? undefined : ALLOW[subject.role];
  if (allow) {
    const segments = path.split("/").filter(Boolean);
    if (!segments.some((s) => allow.includes(s))) return { allowed: false, reason: "path" };
  }

  return planGate(subject, path);
}

function planGate(subject: Subject, path: string): Decision {
  if (OMNI.test(path) && !hasFeature(subject, "omni")) return { allowed: false, reason: "plan", feature: "omni" };
  const gate = PLAN_GATES.find(([r]) => r.test(path));
  if (gate && !hasFeature(subject, gate[1])) return { allowed: false, reason: "plan", feature: gate[1] };
  return { allowed: true };
}

/** The account's plans include `feature`: the omni service (live chat), or a plan permission. The sidebar asks it for a whole area (issue 19). */
export function hasFeature(subject: Pick<Subject, "services" | "permissions">, feature: PlanFeature): boolean {
  return feature === "omni" ? subject.services.includes("omni") : subject.permissions[feature] === true;
}

/** The API's 403 for a refusal: PLAN_REQUIRED naming the feature that unlocks it (and where to upgrade), else FORBIDDEN. */
export function refusal(d: Exclude<Decision, { allowed: true }>): AppError {
  return d.reason === "plan" ? planRequired(d.feature) : new AppError("FORBIDDEN");
}

/** 403 PLAN_REQUIRED for `feature`: its message names the feature, `params.upgrade` is where to get it. */
export function planRequired(feature: PlanFeature): AppError {
  return new AppError("PLAN_REQUIRED", { params: { feature, upgrade: "/billing/upgrade" } });
}

export function can(subject: Subject, path: string): boolean {
  return decide(subject, path).allowed;
}

/** Settings groups shown on /settings; roles not listed see every group. */
export const SETTINGS_GROUPS = ["account", "users", "departments", "contacts", "lookup", "manager", "live", "settings", "resources", "messages", "webhooks", "whitelabel"] as const;
export type SettingsGroup = (typeof SETTINGS_GROUPS)[number];
const SETTINGS_VISIBLE: Partial<Record<Role, SettingsGroup[]>> = {
  agent: ["lookup", "manager", "settings"],
  developer: ["contacts", "lookup", "manager"],
  billing: ["contacts", "lookup", "manager", "live", "settings"],
};
export function settingsGroups(role: Role): SettingsGroup[] {
  return SETTINGS_VISIBLE[role] ?? [...SETTINGS_GROUPS];
}
