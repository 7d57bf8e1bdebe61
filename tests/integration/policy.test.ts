/**
 * The permission policy against spec section 6, in two parts:
 * 1. an expectation table written from the spec's sentences (independent of the policy code);
 * 2. guests through the real web process (the signed-in walk of every seeded person is
 *    tests/integration/roles-walk.test.ts).
 */
import { describe, expect, it } from "vitest";
import { decide, routeKind, settingsGroups, type Subject } from "../../api/policy/policy";
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
