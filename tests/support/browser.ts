/** Debian's Chromium driven by playwright-core (never a downloaded browser). */
import { existsSync, mkdirSync } from "node:fs";
import { resolve } from "node:path";
import { chromium, type Browser, type BrowserContextOptions, type Locator, type Page } from "playwright-core";
import { afterAll, beforeAll, inject } from "vitest";

/**
 * Debian's chromium-headless-shell when installed (.ci/run installs it): the same Chromium without
 * the browser's own UI, made for automation — the full browser in headless mode runs its toolbar's
 * WebUI renderer too: the browser files took 13 % more CPU and 15 % more time with it (ADR 040). Else Debian's chromium.
 */
const HEADLESS_SHELL = "/usr/bin/chromium-headless-shell";
export const CHROMIUM = process.env.CHROMIUM_PATH ?? (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : "/usr/bin/chromium");
export const hasChromium = existsSync(CHROMIUM);
export const ARTIFACTS = resolve(__dirname, "..", ".artifacts");

export async function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--disable-dev-shm-usage",
    ],
  });
}

export async function newPage(browser: Browser, opts: BrowserContextOptions = {}) {
  const context = await browser.newContext({ baseURL: inject("webUrl"), locale: "pt-BR", timezoneId: "America/Sao_Paulo", viewport: { width: 1280, height: 800 }, ...opts });
  return context.newPage();
}

export function screenshotPath(name: string) {
  mkdirSync(ARTIFACTS, { recursive: true });
  return resolve(ARTIFACTS, `${name}.png`);
}

/** One Chromium per describe block: launched before its tests, closed after. Call inside describe(). */
export function useBrowser(): () => Browser {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await launch();
  });
  afterAll(async () => {
    await browser?.close();
  });
  return () => browser!;
}

/** CI always has Debian's Chromium; a developer machine without it skips the browser tests. */
export function requireChromiumInCi() {
  if (!hasChromium && process.env.CI) throw new Error("Debian chromium is required in CI (apt-get install chromium)");
}

/** Signs in through the login form (Portuguese, the default) and waits for the home page. */
export async function signIn(page: Page, person: { email: string; password: string }) {
  await page.goto("/login");
  await page.getByLabel("E-mail").fill(person.email);
  await page.getByLabel("Senha").fill(person.password);
  await page.getByRole("button", { name: "Entrar", exact: true }).click();
  await page.waitForURL((u) => u.pathname === "/");
}

/**
 * Opens the group `key` of the sidebar on screen (nav.ts: "sms", "account", "platform"…): only the
 * current page's group starts open. Works with JavaScript off (a <details>).
 */
export async function openNavGroup(page: Page, key: string) {
  const group = page.getByRole("navigation", { name: "Navegação principal" }).locator(`details[data-group='${key}']`);
  if (!(await group.evaluate((d) => (d as HTMLDetailsElement).open))) await group.locator("summary").click();
}

/** Types a few characters at a time, as a person would, until `shown` appears (about 15 s at most). */
export async function typeUntilShown(field: Locator, shown: Locator) {
  for (let round = 0; ; round++) {
    await field.pressSequentially("abc ", { delay: 40 });
    try {
      await shown.waitFor({ timeout: 3000 });
      return;
    } catch (e) {
      if (round >= 4) throw e;
    }
  }
}
