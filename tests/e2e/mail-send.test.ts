/**
 * /mail/send in Chromium (issue 17), with and without JavaScript: without a validated domain the
 * screen says so; with one, an address that is not one is refused next to "Destinatários" naming
 * it, nothing charged; two addresses are accepted (/mail/send/success: 2 messages, the first's
 * status and price), debited, and delivered through the local SMTP peer.
 */
import { describe, expect, it } from "vitest";
import { login, registerPerson } from "../support/api";
import { hasChromium, newPage, requireChromiumInCi, screenshotPath, signIn, useBrowser } from "../support/browser";
import { query } from "../support/db";
import { rand, validatedDomain } from "../support/email";
import { balanceOf, setAccount } from "../support/factories";

requireChromiumInCi();

describe.skipIf(!hasChromium)("/mail/send in Chromium", () => {
  const browser = useBrowser();

  for (const javaScriptEnabled of [true, false]) {
    it(`${javaScriptEnabled ? "with" : "without"} JavaScript: no domain, then a refused address, then two addresses accepted, charged and delivered`, async () => {
      const person = await registerPerson(`mail-send-${javaScriptEnabled ? "js" : "nojs"}`);
      await setAccount(person.accountId, { balance: 100 });
      const page = await newPage(browser(), { javaScriptEnabled });
      await signIn(page, person);
      await page.goto("/mail/send");
      await page.getByTestId("no-domain").waitFor();
      const { domain } = await validatedDomain((await login(person.email, person.password)).token);
      await page.goto("/mail/send");
      await page.getByText(`Um endereço de: ${domain}`).waitFor();

      const fill = async (to: string) => {
        await page.getByLabel("Remetente", { exact: true }).fill(`contato@${domain}`);
        await page.getByLabel("Nome do remetente").fill("Loja Exemplo");
        await page.getByLabel("Destinatários").fill(to);
        await page.getByLabel("Assunto").fill("Promoção da semana");
        await page.getByLabel("HTML", { exact: true }).fill("<h1>Ofertas</h1>");
        await page.getByLabel("Texto", { exact: true }).fill("Ofertas");
        await page.getByRole("button", { name: "Enviar", exact: true }).click();
      };
      await fill("ana@destino.test, errado@");
      const toId = await page.getByLabel("Destinatários").getAttribute("id");
      await page.locator(`#${toId}-error`).getByText("E-mail inválido: errado@").waitFor();
      expect(await balanceOf(person.accountId)).toBe(100);

      const a = `ana-${rand()}@destino.test`;
      const b = `bia-${rand()}@destino.test`;
      await fill(`${a}\n${b}`);
      await page.waitForURL((u) => u.pathname === "/mail/send/success");
      const outcome = page.getByTestId("send-outcome");
      await outcome.getByText("2 e-mails aceitos").waitFor();
      expect(await outcome.locator('[data-row="to"] dd').textContent()).toBe(a);
      await page.screenshot({ path: screenshotPath(`mail-send-success-${javaScriptEnabled ? "js" : "nojs"}`), fullPage: true });
      expect(await balanceOf(person.accountId)).toBe(98);
      await expect
        .poll(
          async () =>
            (await query<{ status: string }>("SELECT status FROM messages WHERE account_id = $1 AND channel = 'email' ORDER BY recipient", [person.accountId])).map(
              (m) => m.status,
            ),
          { timeout: 20_000, interval: 250 },
        )
        .toEqual(["delivered", "delivered"]);
    }, 60_000);
  }
});
