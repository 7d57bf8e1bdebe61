/** Debian's Chromium driven by playwright-core (never a downloaded browser). */
import { existsSync, mkdirSync } from "node:fs";
import { resolve } from "node:path";
import { chromium, type Browser, type BrowserContextOptions } from "playwright-core";
import { inject } from "vitest";

export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
export const hasChromium = existsSync(CHROMIUM);
export const ARTIFACTS = resolve(__dirname, "..", ".artifacts");

export async function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage"],
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
