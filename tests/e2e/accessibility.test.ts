/**
 * Issue 19: every screen of spec section 2 a person may open passes axe-core's WCAG 2 A and AA
 * rules with no "serious" or "critical" violation (colour contrast, names of controls and links…).
 * Three people, one browser context each: a visitor on the guest routes, the demo owner on the
 * customer routes and the platform's staff on /admin. A route that answers 403 or 404 (not built
 * yet, refused, or a sample id that names nothing), that sends the person elsewhere (/403, /login)
 * or that is not a page (/health) is skipped; routes with an id get a real one of the demo data
 * where there is one. About a minute and a half on two cores alone; A11Y_TIMING=1 prints each screen's load and
 * axe times.
 */
import AxeBuilder from "@axe-core/playwright";
import type { BrowserContext, Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import { query } from "../support/db";
import { APP_ROUTES, GUEST_ROUTES, ID } from "../support/spec-routes";
import { DEMO_PASSWORD } from "../support/web";
import { hasChromium, newPage, requireChromiumInCi, signIn, useBrowser } from "../support/browser";

requireChromiumInCi();

type Finding = { route: string; rule: string; impact: string; help: string; targets: string[] };

/** Real ids of the demo data for the routes with a parameter, where the demo has one (else the sample id, usually a 404). */
async function realIds(): Promise<Map<string, string>> {
  const one = async (sql: string) => (await query<{ id: string }>(sql))[0]?.id ?? null;
  const demo = `(SELECT m.account_id FROM memberships m JOIN users u ON u.id = m.user_id WHERE u.email = 'owner@demo.example' LIMIT 1)`;
  const ids: Array<[string, string | null]> = [
    [
      `/users/edit/${ID}`,
      await one(`SELECT user_id AS id FROM memberships WHERE account_id = ${demo} AND user_id <> (SELECT id FROM users WHERE email = 'owner@demo.example') LIMIT 1`),
    ],
    [`/admin/customers/${ID}`, await one(`SELECT ${demo} AS id`)],
    [`/contacts/groups/${ID}`, await one(`SELECT id FROM contact_groups WHERE account_id = ${demo} LIMIT 1`)],
    [`/sms/short-codes/${ID}`, await one(`SELECT id FROM short_codes WHERE account_id = ${demo} LIMIT 1`)],
    [`/chat/macros/${ID}/edit`, await one(`SELECT id FROM live_macros WHERE account_id = ${demo} LIMIT 1`)],
  ];
  const map = new Map(ids.filter((e): e is [string, string] => e[1] !== null).map(([route, id]): [string, string] => [route, route.replace(ID, id)]));
  // Workflow boards (issue 22): the demo board, and one of its deals under it.
  const deal = (await query<{ id: string; board_id: string }>(`SELECT id, board_id FROM pipeline_deals WHERE account_id = ${demo} ORDER BY created_at, id LIMIT 1`))[0];
  if (deal) {
    map.set(`/pipelines/${ID}`, `/pipelines/${deal.board_id}`);
    map.set(`/pipelines/${ID}/deals/${ID}`, `/pipelines/${deal.board_id}/deals/${deal.id}`);
  }
  return map;
}

/**
 * Opens the routes in `context` (two pages at a time) and runs axe on each; returns the serious and
 * critical violations. The shell's sidebar (the same links on every screen) is checked on the first
 * screen only, with its active link; later screens leave it out, which halves axe's time.
 */
async function audit(context: BrowserContext, routes: string[], ids: Map<string, string>, checked: string[]): Promise<Finding[]> {
  const findings: Finding[] = [];
  const seen = new Set<string>();
  const base = new URL(inject("webUrl"));
  const check = async (page: Page, route: string, whole: boolean): Promise<boolean> => {
    const path = ids.get(route) ?? route;
    // Asked first without following: a route that is no page (/health, a callback without its query
    // answering a file or another site) or that refuses (403, 404, /403, sign-in) is skipped.
    const pre = await context.request.get(path, { maxRedirects: 0 });
    const to = pre.headers().location ? new URL(pre.headers().location, base) : null;
    await pre.dispose();
    if (pre.status() === 403 || pre.status() === 404 || pre.status() >= 500) return false;
    if (to && (to.origin !== base.origin || to.pathname === "/403" || (to.pathname.startsWith("/login") && !path.startsWith("/login")))) return false;
    if (!to && !(pre.headers()["content-type"] ?? "").includes("text/html")) return false;
    const t0 = Date.now();
    const res = await page.goto(path, { waitUntil: "load" });
    const at = new URL(page.url()).pathname;
    if (!res || res.status() >= 400 || !(res.headers()["content-type"] ?? "").includes("text/html") || seen.has(at)) return false;
    seen.add(at);
    checked.push(path);
    const t1 = Date.now();
    // Legacy mode runs axe in the page itself: the default mode finishes each run in a new blank page
    // of the context, which doubled axe's time per screen (and more on two busy cores).
    const axe = new AxeBuilder({ page })
      .setLegacyMode(true)
      .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"])
      .options({ resultTypes: ["violations"] });
    const result = await (whole ? axe : axe.exclude("aside")).analyze();
    if (process.env.A11Y_TIMING) console.info(`${path} load ${t1 - t0} ms, axe ${Date.now() - t1} ms`);
    for (const v of result.violations) {
      if (v.impact !== "serious" && v.impact !== "critical") continue;
      const first = v.nodes[0];
      const detail = [...(first?.any ?? []), ...(first?.all ?? []), ...(first?.none ?? [])][0]?.message ?? "";
      findings.push({ route: path, rule: v.id, impact: v.impact, help: `${v.help}; ${detail}`, targets: v.nodes.slice(0, 4).map((n) => n.target.join(" ")) });
    }
    return true;
  };
  const rest = [...routes];
  const pages = await Promise.all([context.newPage(), context.newPage()]);
  // The first screen that opens is checked whole, sidebar included.
  for (let route = rest.shift(); route !== undefined && !(await check(pages[0], route, true)); route = rest.shift());
  await Promise.all(
    pages.map(async (page) => {
      for (let route = rest.shift(); route !== undefined; route = rest.shift()) await check(page, route, false);
    }),
  );
  await Promise.all(pages.map((p) => p.close()));
  return findings;
}

function report(findings: Finding[]) {
  return findings.map((f) => `${f.route} ${f.rule} (${f.impact}: ${f.help}): ${f.targets.join(" | ")}`).join("\n");
}

describe.skipIf(!hasChromium)("accessibility (axe, WCAG 2 A/AA) in Chromium", () => {
  const browser = useBrowser();

  const owner = APP_ROUTES.filter((p) => !p.startsWith("/admin"));
  // The owner's 120-odd screens in parts of at most 30, each with its own bound: in one test of 600 s
  // they ran out of time in a CI run beside another browser file on two cores (the staff's part,
  // started late, took 8 s a screen there). Each part signs in afresh.
  const PART = 30;
  const parts = Array.from({ length: Math.ceil(owner.length / PART) }, (_, i) => owner.slice(i * PART, (i + 1) * PART));
  const people = [
    { name: "a visitor", who: "a visitor", email: null, routes: GUEST_ROUTES, least: 5 },
    ...parts.map((routes, i) => ({ name: `the demo owner (part ${i + 1} of ${parts.length})`, who: "the demo owner", email: "owner@demo.example", routes, least: 1 })),
    { name: "the platform's staff", who: "the platform's staff", email: "staff@demo.example", routes: APP_ROUTES.filter((p) => p.startsWith("/admin")), least: 11 },
  ];
  const checkedBy = new Map<string, number>();
  for (const person of people) {
    it(`${person.name}: no serious or critical violation on any screen they may open`, { timeout: 300_000 }, async () => {
      const page = await newPage(browser());
      if (person.email) await signIn(page, { email: person.email, password: DEMO_PASSWORD });
      const checked: string[] = [];
      const findings = await audit(page.context(), person.routes, await realIds(), checked);
      await page.context().close();
      console.info(`${person.name}: ${checked.length} screens checked`);
      checkedBy.set(person.who, (checkedBy.get(person.who) ?? 0) + checked.length);
      // A walk that checked nothing would prove nothing (every route skipped).
      expect(checked.length).toBeGreaterThanOrEqual(person.least);
      expect(findings, report(findings)).toEqual([]);
    });
  }

  it("the owner's parts together checked most of the customer screens", () => {
    // Every part ran (a part that failed fails on its own); together they opened far more than a few screens.
    expect(checkedBy.get("the demo owner") ?? 0).toBeGreaterThan(owner.length / 2);
  });
});
