/**
 * Issue 19 (ADR 049): a page inlines only its own translation namespaces, so a client-side
 * navigation must bring the next page's before it renders. Signed in as the demo owner, follow the
 * sidebar's links without reloading and read each screen: no raw "ns:key" text anywhere.
 */
import { describe, expect, it } from "vitest";
import { webNamespaces } from "../../remix/app/lib/i18n";
import { DOCUMENT_PATHS } from "../../remix/app/lib/hydration";
import { hasChromium, newPage, requireChromiumInCi, useBrowser } from "../support/browser";
import { DEMO_PASSWORD } from "../support/web";

requireChromiumInCi();

const RAW_KEY = new RegExp(`(?<![\\w/.-])(?:${webNamespaces.join("|")}):[A-Za-z_][\\w.]*`, "g");

describe.skipIf(!hasChromium)("in Chromium", () => {
  const browser = useBrowser();

  it("client-side navigation through the sidebar shows every screen translated", async () => {
    const page = await newPage(browser());
    await page.goto("/login");
    await page.getByLabel("E-mail").fill("owner@demo.example");
    await page.getByLabel("Senha").fill(DEMO_PASSWORD);
    await page.getByRole("button", { name: "Entrar", exact: true }).click();
    await page.waitForURL((u) => u.pathname === "/");
    // /sms/history, not /sms/send: the composer is served without React (ADR 051).
    await page.goto("/sms/history");
    // Hydrated: Remix's router is up. A marker on window tells a client navigation from a reload.
    await page.waitForFunction(() => (window as unknown as { __remixRouter?: { state: { initialized: boolean } } }).__remixRouter?.state.initialized === true);
    await page.evaluate(() => {
      (window as unknown as { __sameDocument: boolean }).__sameDocument = true;
    });
    const nav = page.getByRole("navigation", { name: "Navegação principal" }).first();
    const hrefs = [...new Set(await nav.locator("a[href^='/']").evaluateAll((as) => as.map((a) => a.getAttribute("href") ?? "")))]
      .filter((h) => h !== "/sms/history" && !DOCUMENT_PATHS.has(h) && !h.startsWith("/logout"))
      .slice(0, 10);
    expect(hrefs.length).toBeGreaterThan(3);
    const raw: string[] = [];
    const mainText = () => page.evaluate(() => document.querySelector("main")?.textContent ?? "");
    for (const href of hrefs) {
      const before = await mainText();
      const link = nav.locator(`a[href='${href}']`).first();
      // Only the current page's group of the sidebar is open: open the link's group first.
      const group = link.locator("xpath=ancestor::details[1]");
      if (!(await group.evaluate((d) => (d as HTMLDetailsElement).open))) await group.locator("summary").click();
      await link.click();
      await page.waitForURL((u) => u.pathname === href.split("?")[0]);
      // The URL changes at the router's commit; React renders the new screen just after: wait for
      // the main area to show something else than the previous screen.
      await page.waitForFunction((prev) => (document.querySelector("main")?.textContent ?? "") !== prev, before);
      expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument), `${href} was a client-side navigation`).toBe(true);
      for (const key of (await page.locator("body").textContent())?.match(RAW_KEY) ?? []) raw.push(`${href}: ${key}`);
    }
    expect(raw).toEqual([]);
    await page.context().close();
  });
});
