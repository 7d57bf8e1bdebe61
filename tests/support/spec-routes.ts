/** Every route of spec section 2, with sample values for its parameters. */
export const ID = "00000000-0000-4000-8000-000000000001";

export const GUEST_ROUTES = [
  "/experience",
  "/obrigado",
  "/login",
  "/register",
  "/success",
  `/email-verify/${ID}`,
  "/reset-password",
  `/reset-verification/${ID}`,
  `/invitation/${ID}`,
  "/callback/google",
  "/callback/facebook",
  "/health",
  "/webchat",
  "/about",
];

export const APP_ROUTES = [
  "/",
  "/notifications",
  "/support",
  "/support/new-ticket",
  "/support/messages-ticket",
  `/support/${ID}`,
  "/accounts",
  "/accounts/create",
  "/chat/webchat",
  "/chat/configs",
  "/invoices",
  `/invoice/${ID}`,
  "/new-invoice",
  "/billing",
  `/billing/plans/${ID}`,
  "/billing/upgrade",
  "/usage",
  "/catalog/list",
  "/catalog/list/registered",
  "/settings",
  "/settings/resources",
  "/settings/messages",
  "/departments",
  "/webhooks",
  "/channels",
  "/lookup",
  "/lookup/list",
  "/lookup/usage",
  "/user/settings",
  "/campaigns",
  "/plans",
  "/numbers/active",
  "/configs/tabulations",
  "/customer/products",
  "/users",
  "/users/invite",
  `/users/edit/${ID}`,
  // admin
  "/admin/plans",
  "/admin/plans/create",
  `/admin/plans/${ID}/edit`,
  "/admin/customers",
  "/admin/customers/create",
  `/admin/customers/${ID}`,
  `/admin/customers/${ID}/products/create`,
  `/admin/customers/${ID}/short-codes/create`,
  `/admin/customers/${ID}/plans/create`,
  `/admin/customers/${ID}/plans/${ID}`,
  `/admin/customers/${ID}/short-codes/${ID}`,
  `/admin/customers/${ID}/products/${ID}`,
  `/admin/customers/${ID}/numbers/${ID}`,
  "/admin/antifraud",
  "/admin/invoices",
  "/admin/providers",
  "/admin/short-codes",
  "/admin/products",
  "/admin/products/create",
  `/admin/products/${ID}`,
  "/admin/tickets",
  `/admin/support/${ID}`,
  "/admin/sms/reports",
  "/admin/sms/dashboard",
  "/admin/sms/monitor",
  "/admin/sms/sales",
  "/admin/email/reports/stat",
  "/admin/email/reports/history",
  "/admin/email/reports/insights",
  "/admin/email/reports/usage",
  "/admin/whatsapp/reports/stat",
  "/admin/whatsapp/reports/history",
  "/admin/whatsapp/reports/insights",
  "/admin/rcs/reports/stat",
  "/admin/rcs/reports/history",
  "/admin/rcs/reports/insights",
  "/admin/whitelabel",
  "/admin/analytics",
  "/admin/audit",
  "/admin/audit/insights",
  "/admin/logs",
  "/admin/trackers",
  // sms
  "/sms/dashboard",
  "/sms/short-codes",
  `/sms/short-codes/${ID}`,
  "/sms/insights",
  "/sms/send",
  "/sms/send/success",
  "/sms/campaigns",
  `/sms/campaigns/${ID}`,
  "/sms/exports",
  "/sms/templates",
  "/sms/queue",
  "/sms/reports/stat",
  "/sms/reports/history",
  `/sms/reports/history/${ID}`,
  "/sms/reports/usage",
  "/sms/reports/campaign",
  "/sms/reports/exports",
  "/sms/usage",
  "/sms/history",
  `/sms/history/${ID}`,
  "/sms/antifraude",
  "/sms/denylist",
  "/sms/optouts",
  "/sms/smpp",
  "/sms/blacklist",
  // mail
  "/mail/send",
  "/mail/send/success",
  "/mail/insights",
  "/mail/templates",
  "/mail/templates/create",
  `/mail/templates/create/${ID}`,
  "/mail/dashboard",
  "/mail/history",
  `/mail/history/${ID}`,
  "/mail/campaigns",
  `/mail/campaigns/${ID}`,
  "/mail/exports",
  "/mail/domains",
  "/mail/denylist",
  "/mail/reports",
  "/mail/usage",
  "/mail/optouts",
  // whatsapp
  "/whatsapp",
  "/whatsapp/request",
  "/whatsapp/send",
  "/whatsapp/success",
  "/whatsapp/insights",
  "/whatsapp/history",
  `/whatsapp/history/${ID}`,
  "/whatsapp/campaigns",
  `/whatsapp/campaigns/${ID}`,
  "/whatsapp/exports",
  "/whatsapp/templates",
  "/whatsapp/templates/new",
  "/whatsapp/denylist",
  "/whatsapp/optouts",
  "/whatsapp/reports",
  "/whatsapp/usage",
  "/whatsapp/jv/send",
  "/whatsapp/jv/numbers",
  "/whatsapp/jv/numbers/new",
  "/whatsapp/jv/success",
  "/whatsapp/jv/history",
  `/whatsapp/jv/history/${ID}`,
  "/whatsapp/jv/templates",
  "/whatsapp/jv/templates/new",
  "/whatsapp/jv/denylist",
  "/whatsapp/jv/reports",
  // rcs
  "/rcs",
  "/rcs/request",
  "/rcs/insights",
  "/rcs/denylist",
  "/rcs/optouts",
  "/rcs/history",
  `/rcs/history/${ID}`,
  "/rcs/campaigns",
  `/rcs/campaigns/${ID}`,
  "/rcs/templates",
  "/rcs/templates/new",
  "/rcs/templates/edit",
  "/rcs/send",
  "/rcs/success",
  "/rcs/reports",
  "/rcs/agents",
  `/rcs/agents/${ID}`,
  // other
  "/ra",
  "/ra/all",
  "/ra/report",
  `/ra/view-ticket/${ID}`,
  "/contacts",
  "/contacts/detail",
  "/contacts/groups",
  `/contacts/groups/${ID}`,
  "/contacts/import",
  "/integrations",
  "/integrations/installed",
  `/integrations/${ID}`,
  "/live/dashboard",
  "/live",
  "/live/manage",
  "/live/configs/system",
  "/live/configs/widget",
  "/widget",
  "/widget/config",
  "/holidays",
  "/holidays/create",
  "/opening-hours",
  "/opening-hours/create",
  "/responses",
  "/tabulations",
  "/live/reports",
  "/live/usage",
  "/live/billing",
  "/live/history",
  `/live/history/${ID}`,
  "/live/report",
  "/chat/macros",
  `/chat/macros/${ID}/edit`,
  "/chat/reports",
  "/flows",
  "/flows/create",
  "/flows/templates",
  `/flows/${ID}`,
  `/flows/${ID}/stream/${ID}`,
  "/flows/reports",
  "/pipelines",
  `/pipelines/${ID}`,
  `/pipelines/${ID}/deals/${ID}`,
  "/pipelines/reports",
  "/shortener/links",
  "/shortener/reports/stat",
];

/**
 * Spec section 6 as one table: who may open each route of section 2. Written from the spec's
 * sentences (quoted beside each rule) and the readings of docs/decisions/002-permissions.md, not
 * from the policy code: tests/integration/roles-walk.test.ts checks api/policy/policy.ts against
 * it and walks the seeded people through the web and the API with it. For a customer account with
 * the full omni plan (plan gates are tested in policy.test.ts); `staff` is the platform account.
 */
export type SpecRole = "owner" | "admin" | "manager" | "agent" | "analyst" | "sales" | "security" | "developer" | "billing" | "carrier";
export type SpecPerson = { role: SpecRole; isAgent: boolean; staff?: boolean };

const PRODUCT: SpecRole[] = ["admin", "agent", "owner", "billing", "developer", "sales"]; // "most product routes"
/** Not product routes: every signed-in person. */
const UNTAGGED = [/^\/$/, /^\/notifications$/, /^\/user\/settings$/, /^\/accounts(\/create)?$/, /^\/support(\/.*)?$/];
/** "Route roles: ... whatsapp request/send/templates/new and jv numbers admin, user, owner, sales; /sms/antifraude admin and sales; /numbers/active admin". */
const TAGS: Array<[RegExp, SpecRole[]]> = [
  [/^\/whatsapp\/(request|send|templates\/new)$/, ["admin", "agent", "owner", "sales"]],
  [/^\/whatsapp\/jv\/numbers(\/new)?$/, ["admin", "agent", "owner", "sales"]],
  // Anti-fraud review is information security's work ("Anti-fraud review of messages, URLs and words"; an invitable role).
  [/^\/sms\/antifraude$/, ["admin", "sales", "security"]],
  [/^\/numbers\/active$/, ["admin"]],
  // /customer/products is billing (the /billing screen shows "current plan and products"): the owner, admin and finance read it (ADR 048).
  [/^\/customer\/products$/, ["owner", "admin", "billing"]],
  // "live/manage admin, owner, sales" and "Supervisor view needs profiles ADMINISTRATOR or MANAGER": the supervisors.
  [/^\/live\/manage$/, ["admin", "owner", "manager"]],
  // Management and analysts read live chat's reports (ADR 019).
  [/^\/(live\/(reports|usage)|chat\/reports)$/, ["owner", "admin", "manager", "analyst", "sales", "developer", "billing"]],
];
/** "Path allow-lists": a segment of the path must be listed. */
const ALLOW: Partial<Record<SpecRole, string[]>> = {
  agent: ["dashboard", "send", "success", "templates", "history", "contacts", "live", "responses"],
  developer: ["insights", "campaigns", "history", "domains", "contacts", "widget", "webhooks", "live"],
  billing: ["insights", "campaigns", "history", "contacts", "widget", "webhooks", "live", "invoices", "invoice", "new-invoice", "billing", "usage"],
};
/** "WhatsApp meta templates hidden for user and billing." */
const HIDDEN: Array<[RegExp, SpecRole[]]> = [[/^\/whatsapp\/templates(\/.*)?$/, ["agent", "billing"]]];
/** The attendance screens (the desk, its history, the department dashboard): for who attends (`specAttends`), whatever the role. */
const DESK = /^\/(live|live\/history(\/[^/]+)?|live\/dashboard)$/;
/** Canned messages: "non-managers only for themselves" — every chat agent and the manager keep theirs. */
const RESPONSES = /^\/responses$/;
/** Staff areas: platform staff (owner, admin); the platform's information security reviews anti-fraud. */
const STAFF: Array<[RegExp, SpecRole[]]> = [
  [/^\/admin\/antifraud$/, ["owner", "admin", "security"]],
  [/^\/admin(\/.*)?$/, ["owner", "admin"]],
];

export function specAllows(p: SpecPerson, path: string): boolean {
  if (UNTAGGED.some((r) => r.test(path))) return true;
  if (path.startsWith("/admin")) return !!p.staff && STAFF.find(([r]) => r.test(path))![1].includes(p.role);
  if (DESK.test(path)) return specAttends(p);
  if (RESPONSES.test(path) && (p.isAgent || p.role === "manager")) return true;
  const tag = TAGS.find(([r]) => r.test(path));
  if (tag) return tag[1].includes(p.role);
  if (!PRODUCT.includes(p.role)) return false;
  if (HIDDEN.some(([r, roles]) => r.test(path) && roles.includes(p.role))) return false;
  const allow = ALLOW[p.role];
  return !allow || path.split("/").some((s) => allow.includes(s));
}

/**
 * "Live chat connects only for admin, owner or agent with omni plan"; "Every level can be a chat
 * agent" (the membership's flag); "Supervisor view needs profiles ADMINISTRATOR or MANAGER".
 */
export function specAttends(p: SpecPerson): boolean {
  return p.isAgent || ["owner", "admin", "agent", "manager"].includes(p.role);
}
