/**
 * /mail/domains in Chromium (issue 17), with and without JavaScript, against the run's loopback DNS
 * server (tests/support/dns-server.ts): an owner registers a domain (a refused name is shown next
 * to the field, translated), reads the four records to publish, checks them before they are
 * published (each "Não encontrado", the domain "Não validado"), publishes them exactly as the screen
 * shows them, checks again and sees the domain validated; then removes it.
 */
import { describe, expect, it } from "vitest";
import { registerPerson } from "../support/api";
import { hasChromium, newPage, requireChromiumInCi, screenshotPath, signIn, useBrowser } from "../support/browser";
import { publishDns } from "../support/dns-server";

requireChromiumInCi();

const rand = () => Math.random().toString(36).slice(2, 10);

describe.skipIf(!hasChromium)("/mail/domains in Chromium", () => {
  const browser = useBrowser();

  for (const javaScriptEnabled of [true, false]) {
    it(`${javaScriptEnabled ? "with" : "without"} JavaScript: register a domain, see its records, check, publish them, validate, remove`, async () => {
      const person = await registerPerson(`mail-domains-${javaScriptEnabled ? "js" : "nojs"}`);
      const page = await newPage(browser(), { javaScriptEnabled });
      await signIn(page, person);
      await page.goto("/mail/domains");
      await page.getByText("Nenhum domínio registrado ainda.", { exact: false }).waitFor();

      // Not a domain: refused next to the field.
      const field = page.getByLabel("Domínio", { exact: true });
      await field.fill("loja");
      await page.getByRole("button", { name: "Registrar", exact: true }).click();
      await page
        .locator(`#${await field.getAttribute("id")}-error`)
        .getByText("Informe um domínio válido, como loja.com.br")
        .waitFor();

      const domain = `loja-${rand()}.com.br`;
      await field.fill(domain);
      await page.getByRole("button", { name: "Registrar", exact: true }).click();
      const card = page.locator(`[data-domain="${domain}"]`);
      await card.waitFor();
      await card.locator('[data-domain-status="pending"]').waitFor();
      // The page may still be arriving (streamed, compressed as it flows): wait for its rows.
      await expect.poll(() => card.locator("[data-record]").count(), { timeout: 10_000 }).toBe(4);
      await page.screenshot({ path: screenshotPath(`mail-domains-registered-${javaScriptEnabled ? "js" : "nojs"}`), fullPage: true });

      // Checked before anything is published: every record missing.
      await card.getByRole("button", { name: "Verificar agora" }).click();
      await card.locator('[data-domain-status="failed"]').waitFor();
      await expect.poll(() => card.locator('[data-record-status="missing"]').count()).toBe(4);

      // Publish the records exactly as the screen shows them, then check again.
      for (const purpose of ["spf", "dkim", "dmarc", "return_path"]) {
        const row = card.locator(`[data-record="${purpose}"]`);
        const host = (await row.locator("code").nth(0).textContent())!.trim();
        const value = (await row.locator("code").nth(1).textContent())!.trim();
        await publishDns(host, purpose === "return_path" ? "CNAME" : "TXT", [value]);
      }
      await card.getByRole("button", { name: "Verificar agora" }).click();
      await card.locator('[data-domain-status="validated"]').waitFor();
      await expect.poll(() => card.locator('[data-record-status="ok"]').count()).toBe(4);
      await page.getByText(`Domínio ${domain} validado`, { exact: false }).first().waitFor();
      await page.screenshot({ path: screenshotPath(`mail-domains-validated-${javaScriptEnabled ? "js" : "nojs"}`), fullPage: true });

      // Removed after the confirmation.
      await card.getByLabel(`Remover o domínio ${domain}`).click();
      await card.getByRole("button", { name: "Remover domínio" }).click();
      await page.getByText("Nenhum domínio registrado ainda.", { exact: false }).waitFor();
    }, 60_000);
  }
});
