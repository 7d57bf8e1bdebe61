/**
 * /admin/providers in Chromium, with and without JavaScript, as platform staff (reached through
 * the sidebar): create a connection, test it, map route T2 to it, see the delete refused while
 * the route uses it, map T2 back and delete it. The connection is of the simulator kind, so the
 * short remap of the shared run's T2 sends exactly as before for any other test meanwhile.
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { hasChromium, newPage, requireChromiumInCi, screenshotPath, useBrowser, openNavGroup } from "../support/browser";
import { query } from "../support/db";
import { DEMO_PASSWORD } from "../support/web";

requireChromiumInCi();

async function flow(page: Page, tag: string) {
  await page.goto("/login");
  await page.getByLabel("E-mail").fill("staff@demo.example");
  await page.getByLabel("Senha").fill(DEMO_PASSWORD);
  await page.getByRole("button", { name: "Entrar", exact: true }).click();
  await page.waitForURL((u) => u.pathname === "/");
  await openNavGroup(page, "platform");
  await page.getByRole("link", { name: "Provedores" }).click();
  await page.waitForURL((u) => u.pathname === "/admin/providers");

  const [original] = await query<{ connection_id: string }>("SELECT connection_id FROM sms_route_connections WHERE route = 'T2'");
  const name = `e2e_${tag}_${Date.now().toString(36)}`;
  const create = page.locator("#provider-create");
  await create.getByLabel("Nome").fill(name);
  await create.getByLabel("Tipo").selectOption("simulator");
  await create.getByRole("button", { name: "Criar conexão" }).click();
  await page.getByText(`Conexão ${name} criada`).waitFor();
  const row = page.locator(`tr[data-provider="${name}"]`);
  await row.waitFor();
  const [c] = await query<{ id: string; kind: string; enabled: boolean }>("SELECT id, kind, enabled FROM provider_connections WHERE name = $1", [name]);
  expect(c).toMatchObject({ kind: "simulator", enabled: true });

  await row.getByRole("button", { name: `Testar a conexão ${name}` }).click();
  const tested = page.getByTestId("provider-test");
  await tested.waitFor();
  expect(await tested.getAttribute("data-ok")).toBe("true");
  expect(await tested.textContent()).toContain(`${name}: a conexão funciona`);

  await page.getByLabel("Rota T2").selectOption({ label: `${name} (Simulador)` });
  await page.getByRole("button", { name: "Salvar rotas" }).click();
  await page.getByText("Mapa de rotas salvo").waitFor();
  expect((await query("SELECT connection_id FROM sms_route_connections WHERE route = 'T2'"))[0]).toEqual({ connection_id: c.id });
  await expect.poll(() => row.getByTestId("provider-routes").textContent()).toBe("T2");
  await page.screenshot({ path: screenshotPath(`admin-providers-${tag}`), fullPage: true });

  // Routed: the delete is refused with the reason.
  await row.getByLabel(`Excluir ${name}`).click();
  await row.getByRole("button", { name: "Excluir", exact: true }).click();
  await page.getByText("Uma rota ainda sai por esta conexão").waitFor();
  expect(await query("SELECT 1 FROM provider_connections WHERE id = $1", [c.id])).toHaveLength(1);

  // T2 back where it was; then the delete goes through.
  await page.getByLabel("Rota T2").selectOption(original.connection_id);
  await page.getByRole("button", { name: "Salvar rotas" }).click();
  // (The first save's toast may still be on screen: wait for the data.)
  await expect.poll(async () => (await query("SELECT connection_id FROM sms_route_connections WHERE route = 'T2'"))[0], { timeout: 10_000 }).toEqual(original);
  await expect.poll(() => row.getByTestId("provider-routes").textContent()).toBe("—");
  await row.getByLabel(`Excluir ${name}`).click();
  await row.getByRole("button", { name: "Excluir", exact: true }).click();
  await page.getByText("Conexão excluída").waitFor();
  expect(await query("SELECT 1 FROM provider_connections WHERE id = $1", [c.id])).toHaveLength(0);
}

describe.skipIf(!hasChromium)("/admin/providers in Chromium", () => {
  const browser = useBrowser();

  it("with JavaScript", async () => {
    await flow(await newPage(browser()), "js");
  });

  it("without JavaScript", async () => {
    await flow(await newPage(browser(), { javaScriptEnabled: false }), "nojs");
  });
});
