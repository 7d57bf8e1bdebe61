/**
 * The app-wide live connection in Chromium (spec section 4 "Live connection", issue 5): for an
 * attendant of an omni account it starts on any page in steps 200 ms apart (sync, system config,
 * account tags, tabs, then the live socket); the header and the page title follow the queue live
 * away from /live; a second session of the same person is offered to take over, and the first one
 * is told it was disconnected. Someone without the omni plan never connects.
 */
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { api, giveOmni, registerPerson, type Person } from "../support/api";
import { hasChromium, newPage, requireChromiumInCi, screenshotPath, useBrowser, signIn } from "../support/browser";
import { makeLiveSettings } from "../support/factories";

requireChromiumInCi();

let owner: Person;
let plain: Person;
let widgetKey: string;

beforeAll(async () => {
  owner = await registerPerson("liveconn-owner");
  await giveOmni(owner.accountId);
  widgetKey = await makeLiveSettings(owner.accountId, { acceptanceOption: "manual" });
  plain = await registerPerson("liveconn-plain");
});

/** Every live connect step and socket the page opens, with the time it started. */
function recordSteps(page: Page) {
  const seen: Array<{ what: string; at: number; page: string }> = [];
  page.on("request", (r) => {
    const m = /\/live\/connect\/(\w+)/.exec(r.url());
    // The page that asked: its Referer (the page's URL now may already be the next one).
    if (m) seen.push({ what: m[1], at: Date.now(), page: new URL(r.headers()["referer"] ?? page.url()).pathname });
  });
  page.on("websocket", (ws) => {
    if (ws.url().includes("/realtime/ws")) seen.push({ what: "socket", at: Date.now(), page: new URL(page.url()).pathname });
  });
  return seen;
}

describe.skipIf(!hasChromium)("the live connection", () => {
  const browser = useBrowser();

  it("connects in spaced steps on any page, follows the queue in the header and title, and offers a second session to take over on /live", async () => {
    const page = await newPage(browser());
    const steps = recordSteps(page);
    await signIn(page, owner);
    // Home connects first; then a full page load connects again from the start.
    await expect.poll(() => steps.some((s) => s.what === "socket"), { timeout: 15_000 }).toBe(true);
    steps.length = 0;
    await page.goto("/contacts");
    // Only the new page's steps: the home page's throttled re-sync (after its status was restored)
    // may still go out while the navigation is under way.
    const onContacts = () => steps.filter((s) => s.page === "/contacts");
    await expect.poll(() => onContacts().map((s) => s.what), { timeout: 15_000 }).toEqual(["sync", "system", "tags", "tabs", "socket"]);
    // Each step starts after the previous one answered and 200 ms passed. The times are when this
    // process heard of each request (Chromium's events carry up to tens of ms of jitter under
    // load): a burst would be ~0 ms apart, so 150 ms still tells spaced steps from a burst.
    const contacts = onContacts();
    for (let i = 1; i < contacts.length; i++) expect(contacts[i].at - contacts[i - 1].at).toBeGreaterThanOrEqual(150);
    const status = page.getByTestId("live-header-status");
    await expect(status.textContent()).resolves.toContain("Disponível");
    await expect(page.getByTestId("live-header-count").count()).resolves.toBe(0);

    // A visitor writes: away from /live, the header and the title count the queued conversation.
    const first = await api(`/api/widget/${widgetKey}/messages`, { body: { name: "Lia", message: "Olá, alguém aí?" } });
    expect(first.status).toBe(200);
    await expect
      .poll(
        () =>
          page
            .getByTestId("live-header-count")
            .textContent()
            .catch(() => null),
        { timeout: 15_000 },
      )
      .toBe("1");
    await expect.poll(() => page.title(), { timeout: 10_000 }).toMatch(/^\(1\) /);
    await page.screenshot({ path: screenshotPath("live-connection-header"), fullPage: false });

    // The same person signs in elsewhere. Away from /live that session has nothing to warn about
    // (issue 19): its connection waits, silently. On /live it is offered to take over, and doing
    // so disconnects the first one, which says so on /live.
    await page.goto("/live");
    await page.locator('[data-testid="live-header-status"][data-connection="open"]').waitFor({ timeout: 15_000 });
    const other = await newPage(browser());
    await signIn(other, owner);
    await other.locator('[data-testid="live-header-status"][data-connection="already_connected"]').waitFor({ timeout: 15_000 });
    await expect(other.getByTestId("live-connection").count()).resolves.toBe(0);
    await other.goto("/live");
    await other.getByTestId("live-takeover").click({ timeout: 15_000 });
    await page.getByTestId("live-connection").getByText("Esta sessão foi desconectada").waitFor({ timeout: 15_000 });
    await expect.poll(() => other.getByTestId("live-connection").count(), { timeout: 15_000 }).toBe(0);
    await expect(other.getByTestId("live-header-status").textContent()).resolves.toContain("Disponível");
    for (const p of [page, other]) await p.context().close();
  }, 90_000);

  it("does not connect without the omni plan", async () => {
    const page = await newPage(browser());
    await signIn(page, plain);
    const steps = recordSteps(page);
    // Signal: "networkidle" — the page loaded, hydrated (its module scripts are part of the load)
    // and then made no request for 500 ms. The provider's first step (sync) is fetched in the
    // effect that runs at hydration, so an enabled connection would have asked by then.
    await page.goto("/contacts", { waitUntil: "networkidle" });
    await page.getByRole("heading", { level: 1 }).first().waitFor();
    expect(steps).toEqual([]);
    await expect(page.getByTestId("live-header-status").count()).resolves.toBe(0);
    await page.context().close();
  });
});
