/**
 * The older WhatsApp integration's "jv" screens (issue 16, ADR 035) in Chromium without JavaScript,
 * against the simulator's loopback On-Premises peer (api/simulator/whatsapp-onprem.ts: a client per
 * path segment at SIMULATOR_URL/whatsapp-onprem/{client}, the demo credentials, templates decided
 * SIMULATOR_DELAY_MS after they are submitted to the BSP and read by polling, sends answered by sent,
 * delivered and read statuses posted to the number's webhook URL).
 *
 * An account owner connects a number on /whatsapp/jv/numbers/new (first with a wrong password: the
 * translated error next to the password field, nothing kept), sees it on /whatsapp/jv/numbers,
 * creates a template on /whatsapp/jv/templates/new and sees the BSP approve it on the list (the
 * page's <noscript> refresh), sends it from /whatsapp/jv/send to /whatsapp/jv/success, finds it on
 * /whatsapp/jv/history and follows its detail to read. Then a number added on /whatsapp/denylist
 * gets the same send answered `rejected`.
 */
import { describe, expect, inject, it } from "vitest";
import { ONPREM_SIM_PASSWORD, ONPREM_SIM_USERNAME } from "../../api/simulator/whatsapp-onprem";
import { registerPerson } from "../support/api";
import { hasChromium, newPage, requireChromiumInCi, screenshotPath, signIn, useBrowser } from "../support/browser";
import { giveOmni, setAccount } from "../support/factories";
import { handset } from "../support/whatsapp";

requireChromiumInCi();

const digits = (n: number) => Array.from({ length: n }, () => Math.floor(Math.random() * 10)).join("");

describe.skipIf(!hasChromium)("WhatsApp jv (On-Premises) screens in Chromium", () => {
  const browser = useBrowser();

  it("without JavaScript: connect an onprem number (a wrong password refused next to its field), create a template and see it approved, send it, follow it to read; a denied number's send is rejected", async () => {
    const person = await registerPerson("wa-jv-e2e");
    await giveOmni(person.accountId);
    await setAccount(person.accountId, { balance: 10_000 });
    const page = await newPage(browser(), { javaScriptEnabled: false });
    await signIn(page, person);

    // Connect: the peer's client is the number's digits.
    const phone = handset();
    const baseUrl = `${inject("simulatorUrl")}/whatsapp-onprem/${phone.slice(1)}`;
    await page.goto("/whatsapp/jv/numbers");
    await page.getByText("Nenhum número On-Premises conectado.").waitFor();
    await page.goto("/whatsapp/jv/numbers/new");
    const fill = async (password: string) => {
      await page.getByLabel("URL base").fill(baseUrl);
      await page.getByLabel("Usuário", { exact: true }).fill(ONPREM_SIM_USERNAME);
      await page.getByLabel("Senha", { exact: true }).fill(password);
      await page.getByLabel("Número de telefone").fill(phone);
      await page.getByRole("button", { name: "Conectar", exact: true }).click();
    };
    await fill("not-the-password");
    // The error is the password field's own (its id + "-error"), not the form's nor the base URL's.
    const passwordId = await page.getByLabel("Senha", { exact: true }).getAttribute("id");
    await page.locator(`#${passwordId}-error`).getByText("A API do WhatsApp recusou este usuário e senha").waitFor();
    expect(await page.locator(`#${await page.getByLabel("URL base").getAttribute("id")}-error`).count()).toBe(0);
    // The password is never sent back to the form.
    expect(await page.getByLabel("Senha", { exact: true }).inputValue()).toBe("");
    await page.screenshot({ path: screenshotPath("whatsapp-jv-connect-error-nojs"), fullPage: true });
    await fill(ONPREM_SIM_PASSWORD);
    await page.waitForURL((u) => u.pathname === "/whatsapp/jv/numbers");
    const row = page.locator("[data-number-id]");
    await row.waitFor();
    await expect.poll(() => row.count(), { timeout: 10_000 }).toBe(1);
    expect(await row.getByText(new URL(baseUrl).origin, { exact: true }).isVisible()).toBe(true);
    expect(await row.getByText("Conectado").isVisible()).toBe(true);
    const numberId = await row.getAttribute("data-number-id");
    expect(await row.locator("[data-webhook-url]").textContent()).toBe(`${inject("webUrl")}/api/webhooks/whatsapp-onprem/${numberId}`);
    expect(await page.content()).not.toContain(ONPREM_SIM_PASSWORD);
    await page.screenshot({ path: screenshotPath("whatsapp-jv-numbers-nojs"), fullPage: true });

    // A template for it, submitted to the BSP; the list's <noscript> refresh shows the BSP's approval.
    await page.goto("/whatsapp/jv/templates/new");
    const name = `aviso_jv_${digits(6)}`;
    await page.getByLabel("Nome", { exact: true }).fill(name);
    await page.getByLabel("Corpo", { exact: true }).fill("Olá {{1}}, seu pedido chegou.");
    await page.getByLabel("Exemplos das variáveis").fill("Ana");
    await page.getByRole("button", { name: "Enviar para análise" }).click();
    await page.waitForURL((u) => u.pathname === "/whatsapp/jv/templates");
    const tpl = page.locator(`[data-template-name="${name}"]`);
    await tpl.locator('[data-template-status="approved"]').waitFor({ timeout: 30_000 });
    await page.screenshot({ path: screenshotPath("whatsapp-jv-templates-nojs"), fullPage: true });

    // Send it (the only approved template is the form's default).
    const send = async (to: string) => {
      await page.goto("/whatsapp/jv/send");
      await page.getByLabel("Contato", { exact: true }).fill(to);
      await page.getByLabel("Variável 1").fill("Ana");
      await page.getByRole("button", { name: "Enviar", exact: true }).click();
      await page.waitForURL(/\/whatsapp\/jv\/success\?message=[0-9a-f-]{36}$/);
      return new URL(page.url()).searchParams.get("message")!;
    };
    const to = handset();
    const id = await send(to);
    expect(await page.locator('[data-row="to"] dd').textContent()).toBe(to);

    // The jv history lists it; its detail follows it to read (the detail's <noscript> refresh).
    await page.goto("/whatsapp/jv/history");
    await page.locator(`[data-message-id="${id}"]`).waitFor();
    await page.goto(`/whatsapp/jv/history/${id}`);
    await page.locator('[data-field="status"] [data-status="read"]').waitFor({ timeout: 30_000 });
    await page.screenshot({ path: screenshotPath("whatsapp-jv-message-nojs"), fullPage: true });

    // The deny list: a number added on /whatsapp/denylist gets the send answered rejected (not sent, not charged).
    const denied = handset();
    await page.goto("/whatsapp/denylist");
    await page.getByLabel("Número", { exact: true }).fill(denied);
    await page.getByRole("button", { name: "Bloquear", exact: true }).click();
    await page.locator(`[data-deny="${denied}"]`).waitFor();
    await send(denied);
    await page.locator('[data-row="status"] [data-status="rejected"]').waitFor();
    expect((await page.locator('[data-row="price"] dd').textContent())?.replace(/\u00a0/g, " ")).toBe("R$ 0,00");
  });
});
