/**
 * Issue 19: every screen usable on a 375 px phone. Chromium at 375x812 (a phone's viewport, touch,
 * device scale 2) opens every route of the spec's route list that the person may open — the demo
 * owner for the customer area, the platform's staff for /admin, nobody for the guest pages — and
 * finds no horizontal overflow: the page is never wider than the screen (a wide table scrolls
 * inside its own box). A failure names the elements that stick out, so it says what to fix. Also
 * the sidebar behind the menu button: it opens as a panel within the screen, its groups collapsible.
 */
import type { Browser, BrowserContext, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { NAV } from "../../remix/app/components/shell/nav";
import { giveOmni, registerPerson } from "../support/api";
import { hasChromium, newPage, requireChromiumInCi, screenshotPath, signIn, useBrowser } from "../support/browser";
import { makeLiveRooms } from "../support/factories";
import { APP_ROUTES, GUEST_ROUTES, ID } from "../support/spec-routes";
import { DEMO_PASSWORD } from "../support/web";
import { query } from "../support/db";

requireChromiumInCi();

const WIDTH = 375;
const PHONE = { viewport: { width: WIDTH, height: 812 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };

/** The spec's routes and the sidebar's own (e.g. /live/preferences, /dev/mailbox), once each. */
/** Screens outside the spec's list and the sidebar: RCS campaigns (issue 21), a new catalogue product (issue 22). */
const MORE_ROUTES = ["/rcs/campaigns", "/rcs/campaigns/new", `/rcs/campaigns/${ID}`, "/catalog/list/new"];
const CUSTOMER_ROUTES = [
  ...new Set([...APP_ROUTES.filter((p) => !p.startsWith("/admin")), ...NAV.flatMap((g) => g.items.map((i) => i.href)).filter((p) => !p.startsWith("/admin")), ...MORE_ROUTES]),
];
const STAFF_ROUTES = [...new Set([...APP_ROUTES, ...NAV.flatMap((g) => g.items.map((i) => i.href))].filter((p) => p.startsWith("/admin")))];

async function phone(browser: Browser, person?: string): Promise<Page> {
  const page = await newPage(browser, PHONE);
  if (!person) return page;
  await page.goto("/login");
  await page.getByLabel("E-mail").fill(person);
  await page.getByLabel("Senha").fill(DEMO_PASSWORD);
  await page.getByRole("button", { name: "Entrar", exact: true }).click();
  await page.waitForURL((u) => u.pathname === "/");
  return page;
}

/**
 * How much wider than the screen the document is, and the elements that stick out: those past the
 * right edge that no scrolling or clipping box within the screen contains, outermost first (the
 * one to fix), each with its widest offending descendant.
 */
function measure(width: number) {
  const limit = width + 1;
  const label = (e: Element) => {
    const cls = typeof e.className === "string" ? e.className.trim().split(/\s+/).slice(0, 8).join(".") : "";
    const testid = e.getAttribute("data-testid");
    const r = e.getBoundingClientRect();
    return `<${e.tagName.toLowerCase()}${cls ? `.${cls}` : ""}${testid ? ` data-testid=${testid}` : ""}> right ${Math.round(r.right)} width ${Math.round(r.width)}`;
  };
  const contained = (e: Element) => {
    for (let a = e.parentElement; a && a !== document.documentElement; a = a.parentElement) {
      const s = getComputedStyle(a);
      if (s.overflowX !== "visible" && a.getBoundingClientRect().right <= limit) return true;
      if (s.position === "fixed") return a.getBoundingClientRect().right <= limit;
    }
    return false;
  };
  const sticking = [...document.body.querySelectorAll("*")].filter((e) => {
    const r = e.getBoundingClientRect();
    const style = getComputedStyle(e);
    // A fixed element (the toasts' region) follows the window, which a too-wide page widens: not a cause.
    return r.width > 0 && r.right > limit && style.visibility !== "hidden" && style.position !== "fixed" && !contained(e);
  });
  const outermost = sticking.filter((e) => !sticking.includes(e.parentElement as Element));
  return {
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
    offenders: outermost.slice(0, 5).map((e) => {
      const inner = sticking.filter((d) => d !== e && e.contains(d)).sort((a, b) => b.getBoundingClientRect().right - a.getBoundingClientRect().right)[0];
      return inner ? `${label(e)} (widest inside: ${label(inner)})` : label(e);
    }),
  };
}

/** Opens each route on `pages` (in parallel, one route per page at a time); returns what overflowed and what was skipped. */
async function walk(pages: Page[], routes: string[]) {
  const queue = [...routes];
  const overflow: string[] = [];
  const skipped: string[] = [];
  let opened = 0;
  await Promise.all(
    pages.map(async (page) => {
      for (let path = queue.shift(); path !== undefined; path = queue.shift()) {
        const res = await page.goto(path, { waitUntil: "load" });
        const status = res?.status() ?? 0;
        const at = new URL(page.url()).pathname;
        // Not built yet (404), refused for this person (403 or the /403 screen): not a screen this person uses.
        if (status === 404 || status === 403 || at === "/403") {
          skipped.push(`${path} (${status}${at !== path ? ` → ${at}` : ""})`);
          continue;
        }
        if (status >= 500) {
          overflow.push(`${path}: answered ${status}`);
          continue;
        }
        opened++;
        const m = await page.evaluate(measure, WIDTH);
        if (m.innerWidth !== WIDTH || m.scrollWidth > WIDTH + 1) {
          overflow.push(`${path}${at !== path ? ` (→ ${at})` : ""}: document ${m.scrollWidth} px wide in a ${m.innerWidth} px window\n    ${m.offenders.join("\n    ")}`);
        }
      }
    }),
  );
  return { overflow: overflow.sort(), skipped, opened };
}

async function closeAll(contexts: BrowserContext[]) {
  await Promise.all(contexts.map((c) => c.close()));
}

describe.skipIf(!hasChromium)("every screen at 375 px", () => {
  const browser = useBrowser();

  it("the demo owner's screens: no page wider than the phone", { timeout: 300_000 }, async () => {
    const first = await phone(browser(), "owner@demo.example");
    // A second page of the same signed-in context (same cookies): two routes at a time.
    const second = await first.context().newPage();
    // Screens of one record of the demo (the spec list's {id} placeholders answer 404): its RCS agent and templates (issue 21), its workflow board and one of its deals (issue 22).
    const demoRecords = await query<{ path: string }>(
      `SELECT '/rcs/agents/' || a.id AS path FROM rcs_agents a WHERE a.rbm_agent_id = 'lojademo@rbm.goog'
       UNION ALL SELECT '/rcs/templates/edit?id=' || t.id FROM rcs_templates t JOIN rcs_agents a ON a.account_id = t.account_id AND a.rbm_agent_id = 'lojademo@rbm.goog'
       UNION ALL (SELECT '/catalog/list/' || p.id FROM catalog_products p JOIN rcs_agents a ON a.account_id = p.account_id AND a.rbm_agent_id = 'lojademo@rbm.goog'
                   WHERE p.name = 'Fone de ouvido sem fio' LIMIT 1)
       UNION ALL (SELECT p FROM pipeline_deals d JOIN memberships m ON m.account_id = d.account_id JOIN users u ON u.id = m.user_id AND u.email = 'owner@demo.example',
                  LATERAL (VALUES ('/pipelines/' || d.board_id), ('/pipelines/' || d.board_id || '/deals/' || d.id)) v(p) ORDER BY d.created_at, d.id LIMIT 2)`,
    );
    const { overflow, skipped, opened } = await walk([first, second], [...CUSTOMER_ROUTES, ...demoRecords.map((r) => r.path)]);
    console.info(`owner: ${opened} screens at ${WIDTH} px; skipped ${skipped.length}: ${skipped.join(", ")}`);
    expect(overflow).toEqual([]);
    expect(opened).toBeGreaterThan(80);
    await closeAll([first.context()]);
  });

  it("the platform staff's /admin screens and the guest pages: no page wider than the phone", { timeout: 300_000 }, async () => {
    const staff = await phone(browser(), "staff@demo.example");
    const guest = await phone(browser());
    const admin = await walk([staff], STAFF_ROUTES);
    // Pages, not the OAuth callbacks (they answer the provider's redirect) nor /health (JSON).
    const guests = await walk(
      [guest],
      GUEST_ROUTES.filter((p) => !p.startsWith("/callback/") && p !== "/health"),
    );
    console.info(`staff: ${admin.opened} screens, skipped ${admin.skipped.join(", ")}; guest: ${guests.opened} screens, skipped ${guests.skipped.join(", ")}`);
    expect([...admin.overflow, ...guests.overflow]).toEqual([]);
    expect(admin.opened).toBeGreaterThan(10);
    expect(guests.opened).toBeGreaterThan(8);
    await closeAll([staff.context(), guest.context()]);
  });

  it("the sidebar sits behind the menu button: a panel within the screen, scrollable, the current page's group open and the others collapsible", { timeout: 60_000 }, async () => {
    const page = await phone(browser(), "owner@demo.example");
    await page.goto("/sms/history");
    // The desktop sidebar is not shown on a phone; the menu button is.
    const menu = page.getByTestId("mobile-menu");
    const summary = menu.locator("summary").first();
    await summary.click();
    const panel = page.getByTestId("mobile-menu-panel");
    await panel.waitFor();
    const box = (await panel.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(WIDTH + 1);
    expect(box.width).toBeGreaterThan(WIDTH - 40);
    // Taller content than the screen scrolls inside the panel.
    expect(await panel.evaluate((e) => getComputedStyle(e).overflowY)).toBe("auto");
    expect(box.y + box.height).toBeLessThanOrEqual(812 + 1);

    const nav = panel.getByRole("navigation", { name: "Navegação principal" });
    // The SMS group holds the current page: open, its links visible.
    const sms = nav.locator("details[data-group='sms']");
    expect(await sms.evaluate((d) => (d as HTMLDetailsElement).open)).toBe(true);
    await nav.getByRole("link", { name: "Enviar SMS" }).waitFor();
    // Another group starts closed; its summary opens it.
    const people = nav.locator("details[data-group='people']");
    expect(await people.evaluate((d) => (d as HTMLDetailsElement).open)).toBe(false);
    expect(await nav.getByRole("link", { name: "Usuários", exact: true }).isVisible()).toBe(false);
    await people.locator("summary").click();
    await nav.getByRole("link", { name: "Usuários", exact: true }).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(WIDTH + 1);
    await page.screenshot({ path: screenshotPath("phone-menu") });
    // Following a link of the menu leaves it closed on the next page.
    await nav.getByRole("link", { name: "Usuários", exact: true }).click();
    await page.waitForURL((u) => u.pathname === "/users");
    await expect.poll(() => menu.evaluate((d) => (d as HTMLDetailsElement).open), { timeout: 10_000 }).toBe(false);
    await page.context().close();
  });

  it("the live desk on a phone: the room list, or the open room with a way back to the list, never three columns", { timeout: 60_000 }, async () => {
    const person = await registerPerson("phone-desk");
    await giveOmni(person.accountId);
    const [room] = await makeLiveRooms(person.accountId, 1, { status: "QUEUE", username: "Ana Celular" });
    for (const javaScriptEnabled of [true, false]) {
      const page = await newPage(browser(), { ...PHONE, javaScriptEnabled });
      await signIn(page, person);
      await page.goto("/live");
      await page.getByTestId("room-list").waitFor();
      expect(await page.getByRole("region", { name: "Conversa" }).isVisible()).toBe(false);

      await page.goto(`/live?room=${room}`);
      await page.getByTestId("room-title").getByText("Ana Celular").waitFor();
      expect(await page.getByTestId("room-list").isVisible()).toBe(false);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(WIDTH + 1);
      // The room's details follow the conversation, full width.
      const panel = (await page.getByTestId("room-panel").boundingBox())!;
      expect(panel.x + panel.width).toBeLessThanOrEqual(WIDTH + 1);
      await page.screenshot({ path: screenshotPath(`phone-desk-room-${javaScriptEnabled ? "js" : "nojs"}`) });

      await page.getByTestId("back-to-list").click();
      await page.getByTestId("room-list").waitFor();
      await page.waitForURL((u) => !u.searchParams.has("room"));
      await page.context().close();
    }
  });
});
