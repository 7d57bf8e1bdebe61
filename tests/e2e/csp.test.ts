/**
 * The Content-Security-Policy in Chromium (issue 11, item 13): signed in, the main screens and
 * the widget's hosted pages run with zero CSP violations, and they work: the login form submits,
 * hydrated React code runs (the widget is mounted from an effect and opens), the live desk connects.
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { api, giveOmni, login, registerPerson } from "../support/api";
import { hasChromium, newPage, requireChromiumInCi, signIn, useBrowser } from "../support/browser";

requireChromiumInCi();

/** Every CSP violation of the page's context, from the DOM event and from the console. */
async function watchCsp(page: Page) {
  const violations: string[] = [];
  await page.exposeFunction("__cspViolation", (v: string) => violations.push(v));
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (e) => {
      (window as unknown as { __cspViolation(v: string): void }).__cspViolation(`${e.violatedDirective} ${e.blockedURI} at ${e.sourceFile}:${e.lineNumber}`);
    });
  });
  page.on("console", (m) => {
    if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
  });
  page.on("pageerror", (e) => violations.push(`pageerror: ${e.message}`));
  return violations;
}

describe.skipIf(!hasChromium)("Content-Security-Policy in Chromium", () => {
  const browser = useBrowser();

  it("signed-in screens and the widget pages run without a violation, and work", async () => {
    const owner = await registerPerson("e2ecsp");
    await giveOmni(owner.accountId);
    const { token } = await login(owner.email, owner.password);
    const key = (await api("/api/live/widget", { token, account: owner.accountId })).body.widget_key as string;

    const page = await newPage(browser());
    const violations = await watchCsp(page);
    // The login form submits (form-action) and the client navigates home.
    await signIn(page, owner);
    // A hydration mismatch is a page error too (React reports it): /settings names currencies the same on both sides (issue 19).
    for (const path of ["/", "/sms/send", "/sms/dashboard", "/sms/reports/usage", "/sms/history", "/contacts", "/user/settings", "/settings", "/live/dashboard", "/live/reports"]) {
      const res = await page.goto(path);
      expect(res?.headers()["content-security-policy"], path).toContain("'nonce-");
      await page.waitForLoadState("networkidle");
    }
    // The live desk opens its realtime socket under connect-src.
    const sockets: string[] = [];
    page.on("websocket", (ws) => sockets.push(ws.url()));
    await page.goto("/live");
    await expect.poll(() => sockets.some((u) => u.includes("/realtime/ws")), { timeout: 15_000 }).toBe(true);

    // The simulator mounts the widget from a React effect (so hydration ran) and it opens.
    await page.goto(`/live/simulator?key=${key}`);
    await page.getByRole("button", { name: "Abrir o chat" }).click();
    await page.getByRole("textbox", { name: "Escreva uma mensagem…" }).waitFor();

    // The hosted webchat page, signed out in a fresh context.
    const visitor = await newPage(browser());
    const visitorViolations = await watchCsp(visitor);
    const res = await visitor.goto(`/webchat?key=${key}`);
    expect(res?.headers()["content-security-policy"]).toContain("frame-ancestors *");
    await visitor.getByRole("textbox", { name: "Escreva uma mensagem…" }).waitFor();

    expect(violations).toEqual([]);
    expect(visitorViolations).toEqual([]);
    await visitor.context().close();
    await page.context().close();
  });

  it("an injected inline script is refused (the policy is really enforced)", async () => {
    const page = await newPage(browser());
    const violations = await watchCsp(page);
    await page.goto("/login");
    await page.evaluate(() => {
      const s = document.createElement("script");
      s.textContent = "window.__injected = true";
      document.body.append(s);
    });
    await expect.poll(() => violations.length).toBeGreaterThan(0);
    expect(await page.evaluate(() => (window as unknown as { __injected?: boolean }).__injected)).toBeUndefined();
    await page.context().close();
  });
});
