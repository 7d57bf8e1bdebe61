/**
 * Sending an SMS from /sms/send in Chromium, with JavaScript (the live segment counter and cost
 * follow the typing: GSM-7 to UCS-2, 1 to 2 segments) and without it (plain multipart post), to
 * /sms/send/success; then the message is followed through the real worker and simulator to its
 * final status — `delivered` for the simulator's mix on that message id (api/simulator/outcome.ts
 * decides per id; the test reads what it predicts and waits for exactly that).
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { simulatedOutcome } from "../../api/simulator/outcome";
import { giveShortCode, registerPerson } from "../support/api";
import { hasChromium, newPage, requireChromiumInCi, screenshotPath, useBrowser, signIn } from "../support/browser";
import { query } from "../support/db";
import { setAccount } from "../support/factories";

requireChromiumInCi();

async function customer(tag: string) {
  const person = await registerPerson(tag);
  await setAccount(person.accountId, { balance: 10000 });
  return person;
}

let seq = 30_000_000 + Math.floor(Math.random() * 30_000_000);

/** The message id from the success page's URL, and its final status once the simulator's receipt arrived. */
async function finalStatus(page: Page) {
  await page.waitForURL(/\/sms\/send\/success\?message=[0-9a-f-]{36}$/);
  const id = new URL(page.url()).searchParams.get("message")!;
  const until = Date.now() + 30_000;
  for (;;) {
    const [m] = await query<{ status: string }>("SELECT status FROM messages WHERE id = $1", [id]);
    if (["delivered", "failed", "unavailable"].includes(m.status)) return { id, status: m.status };
    if (Date.now() > until) throw new Error(`message ${id} still ${m.status}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe.skipIf(!hasChromium)("sending an SMS in Chromium", () => {
  const browser = useBrowser();

  it("with JavaScript: the counter and cost follow the text; the send reaches the success page and its final status", async () => {
    const person = await customer("smssend-e2e");
    const page = await newPage(browser());
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await signIn(page, person);
    // The sidebar's SMS group is closed on the home page: its summary opens it.
    const nav = page.getByRole("navigation", { name: "Navegação principal" });
    await nav.locator("details[data-group='sms'] > summary").click();
    await nav.getByRole("link", { name: "Enviar SMS" }).click();
    await page.waitForURL((u) => u.pathname === "/sms/send");
    await page.waitForLoadState("networkidle"); // hydrated

    // Only the chosen mode's field is shown once JavaScript runs (hydration may finish after networkidle on a busy machine).
    await expect.poll(() => page.getByLabel("Números", { exact: true }).isVisible(), { timeout: 10_000 }).toBe(false);
    await page.getByLabel("Lista de números").check();
    expect(await page.getByLabel("Números", { exact: true }).isVisible()).toBe(true);
    await page.getByLabel("Um número").check();

    const counter = page.getByTestId("segment-counter");
    const body = page.getByLabel("Mensagem");
    await body.fill("a".repeat(160));
    await expect.poll(() => counter.textContent()).toContain("160 caracteres · 1 segmento · GSM-7");
    expect((await page.getByTestId("segment-cost").textContent())?.replace(/\u00a0/g, " ")).toBe("Custo por destinatário: R$ 0,08");
    await body.press("End");
    await body.pressSequentially("a");
    await expect.poll(() => counter.textContent()).toContain("161 caracteres · 2 segmentos · GSM-7");
    expect((await page.getByTestId("segment-cost").textContent())?.replace(/\u00a0/g, " ")).toBe("Custo por destinatário: R$ 0,16");
    await body.fill("Olá, sua promoção chegou 😀");
    await expect.poll(() => counter.textContent()).toContain("27 caracteres · 1 segmento · UCS-2");

    await page.getByLabel("Número do celular").fill(`(11) 9${seq++}`);
    // A sender that is not the account's is refused on its field; its own short code is sent from.
    await page.getByLabel("Remetente").fill("40404");
    await page.getByRole("button", { name: "Enviar", exact: true }).click();
    await page.getByText("Este remetente não é um dos remetentes da sua conta").waitFor();
    const code = await giveShortCode(person.accountId);
    await page.getByLabel("Remetente").fill(code);
    await page.screenshot({ path: screenshotPath("sms-send-js"), fullPage: true });
    await page.getByRole("button", { name: "Enviar", exact: true }).click();
    const { id, status } = await finalStatus(page);
    await page.getByRole("heading", { name: "Envio aceito", level: 2 }).waitFor();
    expect(await page.locator('[data-row="total"] dd').textContent()).toMatch(/R\$\s0,08/);
    expect(status).toBe(simulatedOutcome(id));
    const [m] = await query<{ body: string; coding: string; sender: string }>("SELECT body, coding, sender FROM messages WHERE id = $1", [id]);
    expect(m).toEqual({ body: "Olá, sua promoção chegou 😀", coding: "UCS2", sender: code });
    await page.screenshot({ path: screenshotPath("sms-send-success-js"), fullPage: true });
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it("without JavaScript: the plain form posts, shows a translated field error, then sends and the message is delivered", async () => {
    const person = await customer("smssend-nojs");
    const page = await newPage(browser(), { javaScriptEnabled: false });
    await signIn(page, person);
    await page.goto("/sms/send");
    // Every mode's field is there without JavaScript; the server reads the chosen one.
    expect(await page.getByLabel("Números", { exact: true }).isVisible()).toBe(true);
    await page.getByLabel("Número do celular").fill("123");
    await page.getByLabel("Mensagem").fill("Pedido confirmado");
    await page.getByRole("button", { name: "Enviar", exact: true }).click();
    await page.getByText("Número de telefone inválido").waitFor();

    // Send until the simulator's mix (decided per message id) delivers one: with the default mix that is nearly always the first.
    for (let attempt = 0; ; attempt++) {
      await page.goto("/sms/send");
      await page.getByLabel("Número do celular").fill(`11 9${seq++}`);
      await page.getByLabel("Mensagem").fill("Pedido confirmado");
      await page.getByRole("button", { name: "Enviar", exact: true }).click();
      const { id, status } = await finalStatus(page);
      expect(status).toBe(simulatedOutcome(id));
      if (status === "delivered" || attempt === 4) {
        expect(status).toBe("delivered");
        break;
      }
    }
    await page.getByRole("heading", { name: "Envio aceito", level: 2 }).waitFor();
    await page.screenshot({ path: screenshotPath("sms-send-success-nojs"), fullPage: true });
    await page.context().close();
  });
});
