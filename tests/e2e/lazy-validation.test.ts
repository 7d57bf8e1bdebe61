/**
 * Forms check their fields in the browser without zod in the first load (ADR 052): the chunk with
 * zod and the schema comes when a field is focused, and a field left before it arrived is checked
 * as soon as it does. Here on /users/invite (the e-mail field), in Chromium.
 */
import type { Locator, Route } from "playwright-core";
import { describe, expect, it } from "vitest";
import { hasChromium, newPage, requireChromiumInCi, signIn, useBrowser } from "../support/browser";

requireChromiumInCi();

const OWNER = { email: "owner@demo.example", password: "Demo!Mensa#2026" };
/** React has taken the field over (hydration done: its props are on the element). */
const hydrated = (field: Locator) => expect.poll(() => field.evaluate((el) => Object.keys(el).some((k) => k.startsWith("__reactProps"))), { timeout: 15_000 }).toBe(true);
const ZOD_CHUNK = /\/assets\/lazy-validate\.zod-[\w-]+\.js$/;

describe.skipIf(!hasChromium)("in-browser checks load on first use (ADR 052)", () => {
  const browser = useBrowser();

  it("no zod until a field is focused; then a wrong e-mail is refused on leaving the field", async () => {
    const page = await newPage(browser());
    await signIn(page, OWNER);
    const asked: string[] = [];
    page.on("request", (r) => {
      if (ZOD_CHUNK.test(new URL(r.url()).pathname)) asked.push(r.url());
    });
    await page.goto("/users/invite");
    const email = page.getByLabel("E-mail");
    await hydrated(email);
    expect(asked).toEqual([]);

    await email.focus();
    await expect.poll(() => asked.length, { timeout: 10_000 }).toBe(1);
    await email.fill("not-an-address");
    await email.blur();
    await page.getByText("E-mail inválido").waitFor({ timeout: 10_000 });
    // Fixed as it is typed (revalidated on input), with no round trip to the server.
    await email.fill("someone@example.com");
    await expect.poll(() => page.getByText("E-mail inválido").count(), { timeout: 10_000 }).toBe(0);
  });

  it("a field left while the checks are still on their way is checked when they arrive", async () => {
    const page = await newPage(browser());
    await signIn(page, OWNER);
    let release: () => void = () => undefined;
    const held = new Promise<void>((r) => {
      release = r;
    });
    let intercepted = false;
    await page.route(ZOD_CHUNK, async (route: Route) => {
      intercepted = true;
      await held;
      await route.continue();
    });
    await page.goto("/users/invite");
    const email = page.getByLabel("E-mail");
    await hydrated(email);
    await email.fill("still-not-an-address");
    await email.blur();
    await expect.poll(() => intercepted, { timeout: 10_000 }).toBe(true);
    // Nothing shown yet (the chunk is held), and the page did not post the form to the server.
    expect(await page.getByText("E-mail inválido").count()).toBe(0);
    expect(page.url()).toMatch(/\/users\/invite$/);
    release();
    await page.getByText("E-mail inválido").waitFor({ timeout: 10_000 });
  });
});
