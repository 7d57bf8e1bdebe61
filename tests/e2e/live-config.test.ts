/**
 * Live chat configuration in Chromium with JavaScript disabled: through the sidebar, create a
 * tabulation on /tabulations and a holiday on /holidays/create; registering the same day again
 * shows the translated 'error registering holidays'.
 */
import { describe, expect, it } from "vitest";
import { giveOmni, registerPerson } from "../support/api";
import { hasChromium, newPage, requireChromiumInCi, screenshotPath, useBrowser, signIn, openNavGroup } from "../support/browser";
import { query } from "../support/db";

requireChromiumInCi();

describe.skipIf(!hasChromium)("live chat configuration in Chromium", () => {
  const browser = useBrowser();

  it("without JavaScript: a tabulation and a holiday", async () => {
    const person = await registerPerson("e2eliveconf");
    await giveOmni(person.accountId);
    const page = await newPage(browser(), { javaScriptEnabled: false });
    await signIn(page, { email: person.email, password: person.password });

    await openNavGroup(page, "live");
    await page.getByRole("link", { name: "Tabulações" }).click();
    await page.waitForURL((u) => u.pathname === "/tabulations");
    await page.getByLabel("Nome").fill("Pedido entregue");
    await page.getByRole("button", { name: "Criar tabulação" }).click();
    await page.getByText("Tabulação Pedido entregue criada").waitFor();
    await page.getByLabel("Novo nome de Pedido entregue").waitFor();
    expect(await query("SELECT name, active FROM live_tabulations WHERE account_id = $1", [person.accountId])).toEqual([{ name: "Pedido entregue", active: true }]);
    await page.screenshot({ path: screenshotPath("live-tabulations-nojs"), fullPage: true });

    await page.getByRole("link", { name: "Feriados" }).click();
    await page.waitForURL((u) => u.pathname === "/holidays");
    await page.getByRole("link", { name: "Cadastrar feriado" }).click();
    await page.waitForURL((u) => u.pathname === "/holidays/create");
    await page.getByLabel("Nome").fill("Natal");
    await page.getByLabel("Data").fill("2026-12-25");
    await page.getByRole("button", { name: "Cadastrar feriado" }).click();
    await page.waitForURL((u) => u.pathname === "/holidays");
    await page.getByText("Feriado Natal cadastrado").waitFor();
    await page.getByRole("cell", { name: "Natal" }).waitFor();
    expect(await query("SELECT name, to_char(day, 'YYYY-MM-DD') AS day FROM live_holidays WHERE account_id = $1", [person.accountId])).toEqual([
      { name: "Natal", day: "2026-12-25" },
    ]);

    await page.goto("/holidays/create");
    await page.getByLabel("Nome").fill("Natal outra vez");
    await page.getByLabel("Data").fill("2026-12-25");
    await page.getByRole("button", { name: "Cadastrar feriado" }).click();
    await page.getByText("Erro ao cadastrar feriados").waitFor();
    await page.screenshot({ path: screenshotPath("live-holidays-nojs"), fullPage: true });
    expect(await query("SELECT 1 FROM live_holidays WHERE account_id = $1", [person.accountId])).toHaveLength(1);
  });
});
