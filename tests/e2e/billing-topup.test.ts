/**
 * Top up by Pix in Chromium (issue 18, ADR 043), with and without JavaScript: /new-invoice through
 * the sidebar, the amount in reais, the invoice with its QR code and "copia e cola", the payment
 * provider's own page (the simulator's loopback PSP) and its "Pagar" button; back on the invoice it
 * is paid, the balance rose by exactly the amount, and /invoices lists it as paid. An amount under
 * the minimum is refused next to the field.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { registerPerson } from "../support/api";
import { hasChromium, newPage, requireChromiumInCi, screenshotPath, signIn, useBrowser, openNavGroup } from "../support/browser";
import { balanceOf } from "../support/factories";

requireChromiumInCi();

describe.skipIf(!hasChromium)("top up by Pix in Chromium", () => {
  const browser = useBrowser();

  for (const javaScriptEnabled of [false, true]) {
    it(`tops up R$ 50,00, pays on the provider's page and sees the invoice paid (${javaScriptEnabled ? "with" : "without"} JavaScript)`, async () => {
      const person = await registerPerson(`topup-e2e-${javaScriptEnabled ? "js" : "nojs"}`);
      const before = await balanceOf(person.accountId);
      const page = await newPage(browser(), { javaScriptEnabled });
      await signIn(page, person);

      await openNavGroup(page, "account");
      await page.getByRole("link", { name: "Adicionar saldo", exact: true }).first().click();
      await page.waitForURL((u) => u.pathname === "/new-invoice");
      // Under the minimum: refused next to the field, nothing created.
      await page.getByLabel("Valor (R$)").fill("9,99");
      await page.getByRole("button", { name: "Gerar Pix" }).click();
      await page.getByText("A recarga mínima é de R$ 10,00").waitFor();

      await page.getByLabel("Valor (R$)").fill("50,00");
      await page.getByRole("button", { name: "Gerar Pix" }).click();
      await page.waitForURL((u) => u.pathname.startsWith("/invoice/"));
      const invoiceUrl = page.url();
      await expect.poll(() => page.getByTestId("invoice-status").innerText()).toBe("Pendente");
      expect((await page.getByTestId("invoice-amount").innerText()).replace(/\u00a0/g, " ")).toBe("R$ 50,00");
      expect(await page.getByTestId("pix-payload").inputValue()).toMatch(/^000201.*6304[0-9A-F]{4}$/);
      await expect.poll(() => page.getByTestId("pix-qr").evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
      await page.screenshot({ path: screenshotPath(`invoice-pending-${javaScriptEnabled ? "js" : "nojs"}`), fullPage: true });

      // The provider's page, then "Pagar".
      await page.getByTestId("pay-link").click();
      await page.waitForURL((u) => u.pathname.startsWith("/psp/pay/"));
      await page.getByRole("button", { name: "Pagar R$ 50,00" }).click();
      await page.getByText("Pagamento confirmado").waitFor();

      await page.goto(invoiceUrl);
      await expect.poll(() => page.getByTestId("invoice-status").innerText()).toBe("Paga");
      expect(await page.getByTestId("pix-payload").count()).toBe(0);
      expect(await balanceOf(person.accountId)).toBe(before + 5000);
      // Its PDF downloads from the invoice (a plain link: with or without JavaScript).
      const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("invoice-pdf").click()]);
      expect(download.suggestedFilename()).toMatch(/^fatura-[0-9a-f]{8}\.pdf$/);
      const saved = await download.path();
      expect(saved && readFileSync(saved).subarray(0, 5).toString()).toBe("%PDF-");
      await page.getByRole("link", { name: "Todas as faturas" }).click();
      await page.waitForURL((u) => u.pathname === "/invoices");
      const rows = page.locator("tr[data-invoice-id]");
      await rows.first().waitFor();
      await expect.poll(() => rows.count(), { timeout: 10_000 }).toBe(1);
      expect(await rows.locator('[data-col="status"]').innerText()).toBe("Paga");
      await page.screenshot({ path: screenshotPath(`invoices-paid-${javaScriptEnabled ? "js" : "nojs"}`), fullPage: true });
      await page.context().close();
    }, 120_000);
  }
});
