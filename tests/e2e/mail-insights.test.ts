/**
 * /mail/insights and /admin/email/reports/insights in Chromium (issue 17, ADR 039): an e-mail is sent
 * through the local SMTP peer, its pixel and a link fetched like a mail client; the account's screen
 * then shows the opens and clicks (cards, the day's row, the recipient's domain, the click map), the
 * period is a plain GET form (a range over 31 days is refused next to "Até"), and the tracking
 * settings form works without JavaScript (open tracking off is saved and shown, and the next e-mail
 * goes without a pixel). Platform staff see the same figures filtered by the account.
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { api, login, registerPerson } from "../support/api";
import { hasChromium, newPage, requireChromiumInCi, screenshotPath, signIn, useBrowser, openNavGroup } from "../support/browser";
import { query } from "../support/db";
import { pixelOf, rand, receivedHtml, validatedDomain } from "../support/email";
import { setAccount } from "../support/factories";
import { DEMO_PASSWORD } from "../support/web";

requireChromiumInCi();

const settle = { timeout: 20_000, interval: 250 };
const spToday = () => new Intl.DateTimeFormat("en-CA", { timeZone: "America/Sao_Paulo", year: "numeric", month: "2-digit", day: "2-digit" }).format(new Date());

/** An account with a validated domain and one e-mail sent to `to`, opened twice and its link clicked once. */
async function engagedAccount(tag: string, to: string) {
  const person = await registerPerson(tag);
  await setAccount(person.accountId, { balance: 100 });
  const token = (await login(person.email, person.password)).token;
  const { domain } = await validatedDomain(token);
  const sent = await api("/api/email/messages", {
    token,
    body: { from: `loja@${domain}`, to, subject: "Ofertas", html: '<p>Olá</p><a href="https://loja.example/ofertas">Ver</a>' },
  });
  expect(sent.status, JSON.stringify(sent.body)).toBe(202);
  const html = await receivedHtml(to);
  const pixel = pixelOf(html)!;
  const link = /href="([^"]+\/e\/c\/[^"]+)"/.exec(html)![1];
  await fetch(pixel);
  await fetch(pixel);
  expect((await fetch(link, { redirect: "manual" })).headers.get("location")).toBe("https://loja.example/ofertas");
  await expect.poll(async () => (await query<{ status: string }>("SELECT status FROM messages WHERE id = $1", [sent.body.data.messages[0].id]))[0].status, settle).toBe("clicked");
  return { person, token, domain };
}

const text = async (page: Page, selector: string) => (await page.locator(selector).first().innerText()).replace(/\u00a0/g, " ").trim();

describe.skipIf(!hasChromium)("/mail/insights in Chromium", () => {
  const browser = useBrowser();

  for (const javaScriptEnabled of [true, false]) {
    it(`${javaScriptEnabled ? "with" : "without"} JavaScript: the opens and clicks of the period, the range form, and tracking turned off by the settings form`, async () => {
      const to = `ana-${rand()}@gama-${javaScriptEnabled ? "js" : "nojs"}.test`;
      const { person, token, domain } = await engagedAccount(`mail-insights-${javaScriptEnabled ? "js" : "nojs"}`, to);
      const today = spToday();
      const page = await newPage(browser(), { javaScriptEnabled });
      await signIn(page, person);
      await openNavGroup(page, "mail");
      await page.getByRole("link", { name: "Indicadores de e-mail", exact: true }).click();
      await page.waitForURL((u) => u.pathname === "/mail/insights");
      const figure = (key: string) => text(page, `[data-figure="${key}"] [data-value]`);
      expect([await figure("sent"), await figure("delivered"), await figure("opens"), await figure("unique_opens"), await figure("clicks")]).toEqual(["1", "1", "2", "1", "1"]);
      expect(await figure("open_rate")).toBe("100,0%");
      expect(await text(page, `tr[data-day="${today}"] [data-col="opens"]`)).toBe("2");
      expect(await page.locator("svg[data-chart-days]").getAttribute("data-chart-days")).toBe("1");
      const domainRow = `[data-testid="by-domain"] tr[data-domain="${to.split("@")[1]}"]`;
      expect([await text(page, `${domainRow} [data-col="sent"]`), await text(page, `${domainRow} [data-col="clicks"]`)]).toEqual(["1", "1"]);
      const linkRow = '[data-testid="click-map"] tr[data-link="https://loja.example/ofertas"]';
      expect([await text(page, `${linkRow} [data-col="clicks"]`), await text(page, `${linkRow} [data-col="unique"]`)]).toEqual(["1", "1"]);
      await page.screenshot({ path: screenshotPath(`mail-insights-${javaScriptEnabled ? "js" : "nojs"}`), fullPage: true });

      // The period is a GET form: over 31 days is refused next to its field.
      await page.getByLabel("De", { exact: true }).fill("2026-01-01");
      await page.getByLabel("Até", { exact: true }).fill("2026-03-01");
      await page.getByRole("button", { name: "Mostrar", exact: true }).click();
      await page.waitForURL((u) => u.searchParams.get("from") === "2026-01-01");
      await page.getByText("Intervalo máximo de 31 dias").waitFor();

      // Tracking settings: open tracking off, saved and shown; the next e-mail has no pixel but tracked links.
      await page.goto("/mail/insights");
      const settings = page.getByTestId("tracking-settings");
      expect(await settings.getByLabel("Rastrear aberturas (uma imagem 1x1 no HTML)").isChecked()).toBe(true);
      await settings.getByLabel("Rastrear aberturas (uma imagem 1x1 no HTML)").uncheck();
      await settings.getByRole("button", { name: "Salvar", exact: true }).click();
      await page.getByText("Configurações de rastreamento salvas").waitFor();
      expect(await page.getByTestId("tracking-settings").getByLabel("Rastrear aberturas (uma imagem 1x1 no HTML)").isChecked()).toBe(false);
      expect(await page.getByTestId("tracking-settings").getByLabel("Rastrear cliques (links por um redirecionamento assinado)").isChecked()).toBe(true);
      expect((await api("/api/email/subscription-tracking-settings", { token })).body.data).toEqual({ open_tracking: false, click_tracking: true });
      const next = `bia-${rand()}@destino.test`;
      await api("/api/email/messages", { token, body: { from: `loja@${domain}`, to: next, subject: "Sem pixel", html: '<a href="https://loja.example/">Loja</a>' } });
      const html = await receivedHtml(next);
      expect(html).not.toContain("/e/o/");
      expect(html).toContain("/e/c/");
    }, 90_000);
  }

  it("platform staff: /admin/email/reports/insights filtered by the account shows its figures (without JavaScript)", async () => {
    const to = `caio-${rand()}@delta.test`;
    const { person } = await engagedAccount("mail-insights-admin", to);
    const page = await newPage(browser(), { javaScriptEnabled: false });
    await signIn(page, { email: "staff@demo.example", password: DEMO_PASSWORD });
    await openNavGroup(page, "platform");
    await page.getByRole("link", { name: "E-mail: indicadores", exact: true }).click();
    await page.waitForURL((u) => u.pathname === "/admin/email/reports/insights");
    await page.getByLabel("Conta", { exact: true }).fill(person.company);
    await page.getByRole("button", { name: "Mostrar", exact: true }).click();
    await page.waitForURL((u) => u.searchParams.get("account") === person.company);
    await page.getByText(`Números de ${person.company}`).waitFor();
    const figure = (key: string) => text(page, `[data-figure="${key}"] [data-value]`);
    expect([await figure("sent"), await figure("opens"), await figure("unique_clicks")]).toEqual(["1", "2", "1"]);
    expect(await text(page, '[data-testid="by-domain"] tr[data-domain="delta.test"] [data-col="opens"]')).toBe("2");
    await page.screenshot({ path: screenshotPath("admin-email-insights-nojs"), fullPage: true });
  }, 90_000);
});
