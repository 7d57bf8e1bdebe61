/**
 * /usage in Chromium (issue 18), with and without JavaScript: reached from the sidebar, the last 7
 * days by default (per channel and route, per São Paulo day in dd/MM/yyyy, totals in R$, a
 * refunded failure counted but not charged), then a custom range that shows only its own days, a
 * range with nothing in it (the empty state) and from after to (the error next to the field).
 */
import { describe, expect, it } from "vitest";
import { saoPauloDay, saoPauloMidnight } from "../../api/usage/usage";
import { registerPerson } from "../support/api";
import { hasChromium, newPage, requireChromiumInCi, screenshotPath, signIn, useBrowser, openNavGroup } from "../support/browser";
import { makeMessageEvents, makeMessages } from "../support/factories";

requireChromiumInCi();

const addDays = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
const br = (day: string) => day.split("-").reverse().join("/");
/** Noon of a São Paulo day. */
const noon = (day: string) => new Date(saoPauloMidnight(day).getTime() + 12 * 3_600_000).toISOString();
const text = (s: string) => s.replace(/\u00a0/g, " ").trim();

describe.skipIf(!hasChromium)("usage in Chromium", () => {
  const browser = useBrowser();
  const today = saoPauloDay();
  const recent = addDays(today, -3);
  const older = addDays(today, -10);

  for (const javaScriptEnabled of [false, true]) {
    it(`shows the last 7 days and a custom range (${javaScriptEnabled ? "with" : "without"} JavaScript)`, async () => {
      const person = await registerPerson(`usage-e2e-${javaScriptEnabled ? "js" : "nojs"}`);
      const [, failed] = await makeMessages(person.accountId, [
        { route: "T1", status: "delivered", price: 8, createdAt: noon(recent) },
        { route: "T1", status: "failed", price: 8, errorCode: "invalid_number", createdAt: noon(recent) },
        { route: "T2", status: "delivered", price: 10, segments: 2, createdAt: noon(today) },
        { channel: "email", route: null, status: "delivered", price: 3, recipient: "ana@example.com", createdAt: noon(today) },
        { route: "T1", status: "delivered", price: 1234, createdAt: noon(older) },
      ]);
      await makeMessageEvents(person.accountId, failed.id, [{ status: "refund", payload: { price: 8, currency: "BRL", reason: "invalid_number" } }]);
      const page = await newPage(browser(), { javaScriptEnabled });
      await signIn(page, person);

      await openNavGroup(page, "account");
      await page.getByRole("link", { name: "Consumo e custos", exact: true }).first().click();
      await page.waitForURL((u) => u.pathname === "/usage");
      const products = page.locator('[data-usage-table="products"] tbody tr');
      await products.first().waitFor();
      await expect.poll(() => products.count(), { timeout: 10_000 }).toBe(3);
      const row = (channel: string, route: string) => page.locator(`[data-usage-table="products"] tr[data-channel="${channel}"][data-route="${route}"]`);
      expect(text(await row("sms", "T1").locator('[data-col="quantity"]').innerText())).toBe("2");
      expect(text(await row("sms", "T1").locator('[data-col="refunded"]').innerText())).toBe("1");
      expect(text(await row("sms", "T1").locator('[data-col="amount"]').innerText())).toBe("R$ 0,08");
      expect(text(await row("sms", "T2").locator('[data-col="amount"]').innerText())).toBe("R$ 0,10");
      expect(text(await row("email", "").locator('[data-col="amount"]').innerText())).toBe("R$ 0,03");
      expect(text(await page.locator('[data-total="quantity"]').innerText())).toBe("4");
      expect(text(await page.locator('[data-total="amount"]').innerText())).toBe("R$ 0,21");
      const days = page.locator('[data-usage-table="days"] tbody tr');
      await expect.poll(() => days.count(), { timeout: 10_000 }).toBe(3);
      expect(text(await days.first().locator('[data-col="date"]').innerText())).toBe(br(recent));
      expect(text(await page.locator("[data-usage-range]").innerText())).toBe(`De ${br(addDays(today, -6))} a ${br(today)}`);
      await page.screenshot({ path: screenshotPath(`usage-7d-${javaScriptEnabled ? "js" : "nojs"}`), fullPage: true });

      // A custom range around the older day: only its row.
      await page.getByLabel("Personalizado").check();
      await page.getByLabel("De", { exact: true }).fill(addDays(older, -1));
      await page.getByLabel("Até", { exact: true }).fill(addDays(older, 1));
      await page.getByRole("button", { name: "Ver consumo" }).click();
      await page.waitForURL((u) => u.searchParams.get("from") === addDays(older, -1));
      await expect.poll(() => page.locator('[data-usage-table="days"] tbody tr').count()).toBe(1);
      expect(text(await page.locator('[data-usage-table="days"] [data-col="date"]').innerText())).toBe(br(older));
      expect(text(await page.locator('[data-total="amount"]').innerText())).toBe("R$ 12,34");

      // Nothing in the range: the empty state.
      await page.getByLabel("De", { exact: true }).fill(addDays(older, -5));
      await page.getByLabel("Até", { exact: true }).fill(addDays(older, -4));
      await page.getByRole("button", { name: "Ver consumo" }).click();
      await page.locator("[data-usage-empty]").waitFor();
      expect(text(await page.locator("[data-usage-empty]").innerText())).toBe("Nenhuma mensagem enviada neste período.");

      // From after to: refused next to the field.
      await page.getByLabel("De", { exact: true }).fill(today);
      await page.getByLabel("Até", { exact: true }).fill(addDays(today, -1));
      await page.getByRole("button", { name: "Ver consumo" }).click();
      await page.getByText("A data inicial deve ser anterior ou igual à final").waitFor();
      expect(await page.getByLabel("De", { exact: true }).getAttribute("aria-invalid")).toBe("true");
      await page.screenshot({ path: screenshotPath(`usage-error-${javaScriptEnabled ? "js" : "nojs"}`), fullPage: true });

      // Back to 30 days: every row again.
      await page.getByLabel("Últimos 30 dias").check();
      await page.getByRole("button", { name: "Ver consumo" }).click();
      await page.waitForURL((u) => u.searchParams.get("period") === "30d");
      await expect.poll(async () => text(await page.locator('[data-total="amount"]').innerText())).toBe("R$ 12,55");
      await page.context().close();
    }, 120_000);
  }
});
