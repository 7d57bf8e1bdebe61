/**
 * The SMS list screens in Chromium, with and without JavaScript: create an SMPP user and read
 * its password (shown once), then opt a number out and save the keywords on /sms/optouts, and
 * deny a number on /sms/denylist (reached through the sidebar).
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { registerPerson, type Person } from "../support/api";
import { hasChromium, newPage, requireChromiumInCi, screenshotPath, useBrowser, signIn, openNavGroup } from "../support/browser";
import { query } from "../support/db";

requireChromiumInCi();

async function flow(page: Page, person: Person, tag: string) {
  await signIn(page, person);
  await openNavGroup(page, "sms");
  await page.getByRole("link", { name: "Usuários SMPP" }).click();
  await page.waitForURL((u) => u.pathname === "/sms/smpp");
  const systemId = `e2e${tag}${Date.now().toString(36).slice(-6)}`;
  await page.getByLabel("System ID").fill(systemId);
  await page.getByLabel("Limite de mensagens por segundo").fill("15");
  await page.getByRole("button", { name: "Criar usuário" }).click();
  const shown = page.getByTestId("smpp-password");
  await shown.waitFor();
  const password = (await shown.locator("code").textContent())!.trim();
  expect(password).toMatch(/^[A-Za-z0-9]{8}$/);
  await page.screenshot({ path: screenshotPath(`smpp-user-${tag}`), fullPage: true });
  const [u] = await query<{ tps: number; enabled: boolean }>("SELECT tps, enabled FROM smpp_users WHERE system_id = $1", [systemId]);
  expect(u).toEqual({ tps: 15, enabled: true });
  await page.goto("/sms/smpp");
  expect(await page.content()).not.toContain(password);

  await page.getByRole("link", { name: "Descadastros", exact: true }).click();
  await page.waitForURL((u) => u.pathname === "/sms/optouts");
  await page.getByLabel("Descadastrar com").waitFor();
  await page.getByLabel("Número", { exact: true }).fill("(11) 97777-1234");
  await page.getByRole("button", { name: "Adicionar" }).click();
  await page.getByRole("cell", { name: "(11) 97777-1234" }).waitFor();
  await page.getByLabel("Descadastrar com").fill("SAIR, CHEGA");
  await page.getByRole("button", { name: "Salvar palavras-chave" }).click();
  await page.getByText("Palavras-chave salvas").waitFor();
  const kws = await query<{ keyword: string }>("SELECT keyword FROM optout_keywords WHERE account_id = $1 AND action = 'optout' ORDER BY position", [person.accountId]);
  expect(kws.map((k) => k.keyword)).toEqual(["SAIR", "CHEGA"]);
  await page.screenshot({ path: screenshotPath(`sms-optouts-${tag}`), fullPage: true });

  await page.getByRole("link", { name: "Lista de bloqueio", exact: true }).click();
  await page.waitForURL((u) => u.pathname === "/sms/denylist");
  // The opt-out page also has a "Número" field: fill only once the deny list's own form is there,
  // or a client-side navigation still rendering the previous page takes the number (seen under load).
  await page.getByLabel("Motivo (opcional)").waitFor();
  await page.getByLabel("Número", { exact: true }).fill("11 96666-4321");
  await page.getByLabel("Motivo (opcional)").fill("fraude");
  await page.getByRole("button", { name: "Bloquear" }).click();
  await page.getByRole("cell", { name: "(11) 96666-4321" }).waitFor();
  expect(await query("SELECT 1 FROM deny_list WHERE account_id = $1 AND recipient = '+5511966664321'", [person.accountId])).toHaveLength(1);
}

describe.skipIf(!hasChromium)("SMS lists and SMPP users in Chromium", () => {
  const browser = useBrowser();

  it("with JavaScript", async () => {
    const person = await registerPerson("e2esmppjs");
    const page = await newPage(browser());
    await flow(page, person, "js");
  });

  it("without JavaScript", async () => {
    const person = await registerPerson("e2esmppnojs");
    const page = await newPage(browser(), { javaScriptEnabled: false });
    await flow(page, person, "nojs");
  });
});
