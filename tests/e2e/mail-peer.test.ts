/**
 * /dev/mailbox/email in Chromium without JavaScript (issue 17): an e-mail sent through the API
 * reaches the simulator's local SMTP peer and shows there — the account's only — with the DKIM
 * verdict of the peer's independent verifier, the envelope's signed return path, every header and
 * the HTML rendered in a sandboxed frame; another account sees none of it.
 */
import { describe, expect, it } from "vitest";
import { api, login, registerPerson } from "../support/api";
import { hasChromium, newPage, requireChromiumInCi, screenshotPath, signIn, useBrowser } from "../support/browser";
import { rand, validatedDomain } from "../support/email";
import { setAccount } from "../support/factories";

requireChromiumInCi();

describe.skipIf(!hasChromium)("/dev/mailbox/email in Chromium", () => {
  const browser = useBrowser();

  it("without JavaScript: the e-mail the peer received, DKIM valid, headers and HTML; another account sees nothing", async () => {
    const person = await registerPerson("mail-peer");
    await setAccount(person.accountId, { balance: 100 });
    const token = (await login(person.email, person.password)).token;
    const { domain } = await validatedDomain(token);
    const subject = `Pedido ${rand()} a caminho`;
    const sent = await api("/api/email/messages", {
      token,
      body: { from: `loja@${domain}`, from_name: "Loja Exemplo", to: `ana-${rand()}@destino.test`, subject, html: "<h1>Seu pedido saiu</h1>", text: "Seu pedido saiu" },
    });
    expect(sent.status).toBe(202);
    const id = sent.body.data.messages[0].id as string;

    const page = await newPage(browser(), { javaScriptEnabled: false });
    await signIn(page, person);
    // The peer receives it within the dispatch delay: the list is read again until it shows.
    await expect
      .poll(
        async () => {
          await page.goto("/dev/mailbox/email");
          return page.locator(`[data-peer-mail="${id}"]`).count();
        },
        { timeout: 20_000, interval: 500 },
      )
      .toBe(1);
    const row = page.locator(`[data-peer-mail="${id}"]`);
    await expect.poll(() => row.locator('[data-dkim="pass"]').count(), { timeout: 10_000 }).toBe(1);
    await row.getByRole("link", { name: subject }).click();
    await page.getByTestId("peer-subject").getByText(subject).waitFor();
    expect(await page.getByTestId("peer-dkim").textContent()).toContain(`assinado por ${domain}`);
    const headers = (await page.getByTestId("peer-headers").textContent()) ?? "";
    expect(headers).toContain(`<${id}@${domain}>`);
    expect(headers).toContain("DKIM-Signature");
    expect(await page.locator("iframe[sandbox]").getAttribute("srcdoc")).toContain("<h1>Seu pedido saiu</h1>");
    expect(await page.getByTestId("peer-text").textContent()).toContain("Seu pedido saiu");
    await page.screenshot({ path: screenshotPath("mail-peer-detail-nojs"), fullPage: true });

    const other = await registerPerson("mail-peer-other");
    const otherPage = await newPage(browser(), { javaScriptEnabled: false });
    await signIn(otherPage, other);
    await otherPage.goto("/dev/mailbox/email");
    await otherPage.getByText("O servidor SMTP local ainda não recebeu e-mails da sua conta.").waitFor();
    const detail = await otherPage.goto(page.url());
    expect(detail?.status()).toBe(404);
  }, 60_000);
});
