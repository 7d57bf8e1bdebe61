/**
 * The staff's customers in Chromium (issue 18, ADR 046), with and without JavaScript: the platform's
 * owner opens "Clientes" from the sidebar, searches a customer by name, opens it, is told a zero
 * adjustment is refused (nothing changes), then adjusts +R$ 25,00 with a reason: the page says so
 * with the new balance, and the customer's entries show the adjustment with the reason and who made it.
 */
import { describe, expect, it } from "vitest";
import { registerPerson } from "../support/api";
import { hasChromium, newPage, requireChromiumInCi, screenshotPath, signIn, useBrowser, openNavGroup } from "../support/browser";
import { query } from "../support/db";
import { balanceOf, setAccount } from "../support/factories";
import { DEMO_PASSWORD } from "../support/web";

requireChromiumInCi();

const text = (s: string) => s.replace(/\u00a0/g, " ").trim();

describe.skipIf(!hasChromium)("the staff's customers in Chromium", () => {
  const browser = useBrowser();

  for (const javaScriptEnabled of [false, true]) {
    it(`searches a customer, opens it and adjusts its balance with a reason (${javaScriptEnabled ? "with" : "without"} JavaScript)`, async () => {
      const customer = await registerPerson(`ajuste-${javaScriptEnabled ? "js" : "nojs"}`);
      await setAccount(customer.accountId, { balance: 10_000 });
      const page = await newPage(browser(), { javaScriptEnabled });
      await signIn(page, { email: "staff@demo.example", password: DEMO_PASSWORD });

      await openNavGroup(page, "platform");
      await page.getByRole("link", { name: "Clientes", exact: true }).first().click();
      await page.waitForURL((u) => u.pathname === "/admin/customers");
      await page.getByLabel("Buscar pelo nome").fill(customer.company);
      await page.getByRole("button", { name: "Buscar" }).click();
      await page.waitForURL((u) => u.searchParams.get("q") === customer.company);
      const row = page.locator(`tr[data-customer-id="${customer.accountId}"]`);
      await expect.poll(async () => text(await row.locator('[data-col="balance"]').innerText())).toBe("R$ 100,00");
      // Only the customer searched for (with JavaScript the list is replaced after the URL changes).
      await expect.poll(() => page.locator("tr[data-customer-id]").count()).toBe(1);

      await row.getByRole("link", { name: customer.company }).click();
      await page.waitForURL((u) => u.pathname === `/admin/customers/${customer.accountId}`);
      await expect.poll(async () => text(await page.getByTestId("customer-balance").innerText())).toBe("R$ 100,00");

      // Zero is refused with the field's message; nothing changes.
      await page.getByLabel("Valor (R$)").fill("0");
      await page.getByLabel("Motivo").fill("Teste de valor zero");
      await page.getByRole("button", { name: "Ajustar saldo" }).click();
      await page.getByText("O valor não pode ser zero").waitFor();
      expect(await balanceOf(customer.accountId)).toBe(10_000);

      const reason = `Cortesia pela instabilidade ${javaScriptEnabled ? "js" : "nojs"}`;
      await page.getByLabel("Valor (R$)").fill("25,00");
      await page.getByLabel("Motivo").fill(reason);
      await page.getByRole("button", { name: "Ajustar saldo" }).click();
      await expect
        .poll(async () => (await page.getByTestId("adjusted").count()) > 0 && text(await page.getByTestId("adjusted").innerText()))
        .toBe("Saldo ajustado em R$ 25,00: o novo saldo é R$ 125,00");
      expect(text(await page.getByTestId("customer-balance").innerText())).toBe("R$ 125,00");
      const entry = page.getByTestId("customer-entries").locator('tr[data-entry-kind="adjustment"]').first();
      expect(text(await entry.locator('[data-col="amount"]').innerText())).toBe("R$ 25,00");
      expect(text(await entry.locator('[data-col="reason"]').innerText())).toBe(reason);
      expect(text(await entry.locator('[data-col="by"]').innerText())).toBe("staff@demo.example");
      await page.screenshot({ path: screenshotPath(`admin-customer-${javaScriptEnabled ? "js" : "nojs"}`), fullPage: true });

      expect(await balanceOf(customer.accountId)).toBe(12_500);
      const legs = await query<{ book: string; amount: number }>(
        `SELECT book, amount::int AS amount FROM ledger_entries WHERE account_id = $1 AND kind = 'adjustment' AND reason = $2 ORDER BY book`,
        [customer.accountId, reason],
      );
      expect(legs).toEqual([
        { book: "adjustments", amount: -2_500 },
        { book: "customer", amount: 2_500 },
      ]);
    });
  }
});
