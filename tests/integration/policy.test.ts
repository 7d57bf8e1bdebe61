/**
 * The permission policy against spec section 6, in two parts:
 * 1. an expectation table written from the spec's sentences (independent of the policy code);
 * 2. guests through the real web process (the signed-in walk of every seeded person is
 *    tests/integration/roles-walk.test.ts);
 * 3. who writes, sees all and supervises: read from the policy's own tables (WRITE_ROLES,
 *    SEES_ALL_ROLES, SUPERVISOR_ROLES), the one place those roles are written, and checked against
 *    the gates that use them (the API's write gates through the real process: roles-walk).
 */
import { describe, expect, it } from "vitest";
import { canEditAccount } from "../../api/accounts/services";
import { isPrivileged } from "../../api/contacts/access";
import { isLiveWriter } from "../../api/live/access";
import { liveAccess } from "../../api/live/presence";
import { canEditWidget } from "../../api/live/settings";
import type { SignedInCtx } from "../../api/lib/context";
import {
  assertCanWrite,
  attends,
  canWrite,
  decide,
  isPlatformStaff,
  isSupervisor,
  routeKind,
  SEES_ALL_ROLES,
  seesAll,
  settingsGroups,
  SUPERVISOR_ROLES,
  type SeeArea,
  type Subject,
  WRITE_ROLES,
  type WriteArea,
} from "../../api/policy/policy";
import { ROLES, type Role } from "../../models/constants";
import { APP_ROUTES, GUEST_ROUTES } from "../support/spec-routes";
import { WebClient, location } from "../support/web";

const omni = { services: ["omni", "sms"], permissions: { opening_hour: true, dashboard: true, spie: true, tab: true, department: true, whatsapp: true } };
const customer = (role: Role, plans: Pick<Subject, "services" | "permissions"> = omni): Subject => ({ role, accountType: "customer", ...plans });
const noPlans = { services: [], permissions: {} };

/** [path, roles allowed] — straight from the spec's wording, for a customer with the full omni plan. */
const EXPECTED: Array<[string, Role[]]> = [
  // "Route roles: most product routes admin, user, owner, billing, developer, sales" + allow-lists
  ["/sms/history", ["admin", "agent", "owner", "billing", "developer", "sales"]],
  ["/sms/send", ["admin", "agent", "owner", "sales"]], // developer: "no send"; billing like developer
  ["/sms/templates", ["admin", "agent", "owner", "sales"]],
  ["/sms/dashboard", ["admin", "agent", "owner", "sales"]],
  ["/sms/insights", ["admin", "owner", "billing", "developer", "sales"]],
  ["/sms/campaigns", ["admin", "owner", "billing", "developer", "sales"]],
  ["/mail/domains", ["admin", "owner", "developer", "sales"]], // billing: developer minus mail domains
  ["/contacts", ["admin", "agent", "owner", "billing", "developer", "sales"]],
  ["/webhooks", ["admin", "owner", "billing", "developer", "sales"]], // user: not webhooks
  ["/users", ["admin", "owner", "sales"]], // user: not users
  ["/settings", ["admin", "owner", "sales"]], // user: not settings
  ["/widget/config", ["admin", "owner", "billing", "developer", "sales"]],
  ["/live", ["admin", "agent", "owner", "manager"]], // who attends: "connects only for admin, owner or agent"; the manager supervises
  ["/invoices", ["admin", "owner", "billing", "sales"]],
  // specific route tags
  ["/whatsapp/send", ["admin", "agent", "owner", "sales"]],
  ["/whatsapp/request", ["admin", "agent", "owner", "sales"]],
  ["/whatsapp/templates/new", ["admin", "agent", "owner", "sales"]],
  ["/whatsapp/jv/numbers", ["admin", "agent", "owner", "sales"]],
  ["/whatsapp/templates", ["admin", "owner", "sales"]], // hidden for user and billing; developer has no "templates"
  ["/sms/antifraude", ["admin", "sales", "security"]], // information security does the anti-fraud review (ADR 002)
  ["/numbers/active", ["admin"]],
  ["/live/manage", ["admin", "owner", "manager"]], // tagged admin, owner, sales; "needs profiles ADMINISTRATOR or MANAGER"
  // not product routes: every signed-in role
  ["/", [...ROLES]],
  ["/notifications", [...ROLES]],
  ["/user/settings", [...ROLES]],
  ["/accounts", [...ROLES]],
  ["/support", [...ROLES]],
];

describe("policy table (spec section 6)", () => {
  for (const [path, allowed] of EXPECTED) {
    it(`${path}: ${allowed.join(", ")}`, () => {
      for (const role of ROLES) expect(decide(customer(role), path).allowed, `${role} on ${path}`).toBe(allowed.includes(role));
    });
  }

  it("plan gates: /live and /departments need the omni plan; each gated screen its permission", () => {
    expect(decide(customer("owner", noPlans), "/live").allowed).toBe(false);
    expect(decide(customer("owner", noPlans), "/departments").allowed).toBe(false);
    expect(decide(customer("owner", noPlans), "/sms/history").allowed).toBe(true);
    const withoutPerm = (perm: string) => ({ services: ["omni"], permissions: { ...omni.permissions, [perm]: false } });
    expect(decide(customer("owner", withoutPerm("opening_hour")), "/opening-hours").allowed).toBe(false);
    expect(decide(customer("owner", withoutPerm("dashboard")), "/live/dashboard").allowed).toBe(false);
    expect(decide(customer("owner", withoutPerm("spie")), "/live/manage").allowed).toBe(false);
    expect(decide(customer("owner", withoutPerm("tab")), "/tabulations").allowed).toBe(false);
    expect(decide(customer("owner", withoutPerm("department")), "/departments").allowed).toBe(false);
    expect(decide(customer("owner", withoutPerm("whatsapp")), "/whatsapp/templates").allowed).toBe(false);
    expect(decide(customer("owner"), "/opening-hours").allowed).toBe(true);
  });

  it("admin pages: platform staff; resellers only their customers and whitelabel", () => {
    expect(decide(customer("owner"), "/admin/plans").allowed).toBe(false);
    expect(decide({ ...customer("owner"), accountType: "platform" }, "/admin/plans").allowed).toBe(true);
    expect(decide({ ...customer("agent"), accountType: "platform" }, "/admin/plans").allowed).toBe(false);
    expect(decide({ ...customer("owner"), accountType: "reseller" }, "/admin/customers").allowed).toBe(true);
    expect(decide({ ...customer("owner"), accountType: "reseller" }, "/admin/whitelabel").allowed).toBe(true);
    expect(decide({ ...customer("owner"), accountType: "reseller" }, "/admin/plans").allowed).toBe(false);
    // Their customers' SMS figures (ADR 065); not the platform's monitor or analytics.
    for (const p of ["/admin/sms/reports", "/admin/sms/dashboard", "/admin/sms/sales"]) expect(decide({ ...customer("admin"), accountType: "reseller" }, p).allowed).toBe(true);
    for (const p of ["/admin/sms/monitor", "/admin/analytics"]) expect(decide({ ...customer("owner"), accountType: "reseller" }, p).allowed).toBe(false);
    expect(decide({ ...customer("sales"), accountType: "reseller" }, "/admin/sms/reports").allowed).toBe(false);
  });

  it("settings groups: user sees lookup, manager, settings; developer contacts, lookup, manager; billing adds live, settings", () => {
    expect(settingsGroups("agent")).toEqual(["lookup", "manager", "settings"]);
    expect(settingsGroups("developer")).toEqual(["contacts", "lookup", "manager"]);
    expect(settingsGroups("billing")).toEqual(["contacts", "lookup", "manager", "live", "settings"]);
    expect(settingsGroups("owner").length).toBeGreaterThan(5);
  });

  it("classifies every spec route: guest routes, /2fa, /live/simulator, the rest signed-in", () => {
    for (const p of GUEST_ROUTES) expect(routeKind(p), p).toBe("guest");
    expect(routeKind("/2fa")).toBe("tfa");
    expect(routeKind("/live/simulator")).toBe("public");
    for (const p of APP_ROUTES) expect(routeKind(p), p).toBe("app");
  });
});

describe("write, see-all and supervise rules: one table each in the policy", () => {
  const ctxOf = (role: Role, accountType: Subject["accountType"] = "customer") =>
    ({ actor: { ...customer(role), accountType, accountId: "a", userId: "u", isAgent: false } }) as unknown as SignedInCtx;

  it("canWrite and assertCanWrite answer each area's WRITE_ROLES row, and the gates built on them too", () => {
    for (const area of Object.keys(WRITE_ROLES) as WriteArea[]) {
      const row: readonly Role[] = WRITE_ROLES[area];
      expect(row.length, area).toBeGreaterThan(0);
      for (const role of ROLES) {
        expect(canWrite({ role }, area), `${role} ${area}`).toBe(row.includes(role));
        if (row.includes(role)) expect(() => assertCanWrite({ role }, area)).not.toThrow();
        else expect(() => assertCanWrite({ role }, area), `${role} ${area}`).toThrow(expect.objectContaining({ code: "FORBIDDEN" }));
      }
    }
    const gates: Array<[WriteArea, (role: Role) => boolean]> = [
      ["live", (role) => isLiveWriter(ctxOf(role))],
      ["widget", (role) => canEditWidget(ctxOf(role))],
      ["contacts", (role) => isPrivileged(ctxOf(role))],
      ["account", (role) => canEditAccount(role)],
      ["prices", (role) => isPlatformStaff(ctxOf(role, "platform").actor)],
    ];
    for (const [area, gate] of gates) for (const role of ROLES) expect(gate(role), `${role} ${area}`).toBe((WRITE_ROLES[area] as readonly Role[]).includes(role));
    // Prices are the platform's: no customer or reseller role manages them.
    for (const role of ROLES) for (const accountType of ["customer", "reseller"] as const) expect(isPlatformStaff(ctxOf(role, accountType).actor)).toBe(false);
  });

  it("seesAll answers each area's SEES_ALL_ROLES row", () => {
    for (const area of Object.keys(SEES_ALL_ROLES) as SeeArea[]) {
      for (const role of ROLES) expect(seesAll({ role }, area), `${role} ${area}`).toBe((SEES_ALL_ROLES[area] as readonly Role[]).includes(role));
    }
  });

  it("the supervisors are SUPERVISOR_ROLES everywhere: /live/manage, isSupervisor, who attends, the live stream", () => {
    for (const role of ROLES) {
      const sup = SUPERVISOR_ROLES.includes(role);
      expect(decide(customer(role), "/live/manage").allowed, `${role} /live/manage`).toBe(sup);
      expect(isSupervisor({ role }), role).toBe(sup);
      if (sup) expect(attends({ role, isAgent: false }), role).toBe(true);
      expect(liveAccess({ role, isAgent: true, services: ["omni"] }).supervisor, role).toBe(sup);
      expect(liveAccess({ role, isAgent: true, services: [] }).supervisor, `${role} without omni`).toBe(false);
    }
  });
});

describe("navigation guard: guests, through the web process", () => {
  it("guest: guest routes open, signed-in routes go to /login", async () => {
    const c = new WebClient();
    for (const p of APP_ROUTES) {
      const res = await c.get(p);
      expect(res.status, p).toBe(302);
      expect(location(res)?.startsWith("/login"), p).toBe(true);
    }
    for (const p of GUEST_ROUTES) expect(location(await c.get(p)) ?? "", p).not.toMatch(/^\/(login|403)/);
  });

  // Every role x every route signed in: tests/integration/roles-walk.test.ts (against the spec's table).
});
