/**
 * The WhatsApp screens (issue 16) in Chromium, against the simulator's loopback Graph peer
 * (api/simulator/whatsapp-cloud.ts: tokens starting with "EAA", any digits as ids, the app secret
 * derived from the simulator's key; templates approved SIMULATOR_DELAY_MS after they are submitted
 * unless their name contains "reject"; sends answered by sent, delivered and read webhooks).
 *
 * With JavaScript: an account owner connects a number on /whatsapp, creates a template with a
 * quick reply and a website button with a variable on /whatsapp/templates/new, sees Meta approve it
 * on /whatsapp/templates (the list follows by itself), sends it from /whatsapp/send (the contact's
 * 24-hour window shown closed) to /whatsapp/success, and follows the message on its history detail
 * to delivered and then read.
 * Without JavaScript: the connect form; the send form posted twice with its idempotency key sends
 * once; once the contact has written, its window shows open until 24 hours later and free text
 * goes at the service price; a template refused for a rule (two quick replies with the same text)
 * shows the translated error next to the buttons, fixed it is created and approved on the list
 * through the page's <noscript> refresh.
 */
import type { Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import { simulatedAppSecret } from "../../api/simulator/whatsapp-cloud";
import { registerPerson } from "../support/api";
import { hasChromium, newPage, requireChromiumInCi, screenshotPath, signIn, useBrowser } from "../support/browser";
import { query } from "../support/db";
import { giveOmni, setAccount } from "../support/factories";
import { handset } from "../support/whatsapp";

requireChromiumInCi();

const digits = (n: number) => Array.from({ length: n }, () => Math.floor(Math.random() * 10)).join("");

/** A new account whose owner signs in: the plan's whatsapp permission (templates) and a balance. */
async function owner(tag: string) {
  const person = await registerPerson(tag);
  await giveOmni(person.accountId);
  await setAccount(person.accountId, { balance: 10_000 });
  return person;
}

/** Connects a Cloud API number through the /whatsapp form; answers the display number the peer gives it. */
async function connectNumber(page: Page) {
  const phoneNumberId = `1${digits(14)}`;
  const display = `+55 11 9${phoneNumberId.slice(-8, -4)}-${phoneNumberId.slice(-4)}`;
  await page.goto("/whatsapp");
  await page.getByText("Nenhum número conectado ainda.").waitFor();
  await page.getByLabel("Id do número de telefone").fill(phoneNumberId);
  await page.getByLabel("Id da conta do WhatsApp Business (WABA)").fill(`2${digits(14)}`);
  await page.getByLabel("Token de acesso").fill(`EAAG${digits(20)}`);
  await page.getByLabel("Chave secreta do app").fill(simulatedAppSecret(inject("simulatorApiKey")));
  await page.getByRole("button", { name: "Conectar número" }).click();
  await page.getByText(`Número ${display} conectado`).waitFor();
  const row = page.locator("[data-number-id]");
  await row.getByText(display, { exact: true }).waitFor();
  expect(await row.getByText(`Simulated Business ${phoneNumberId.slice(-4)}`).isVisible()).toBe(true);
  expect(await row.locator('[data-quality="GREEN"]').textContent()).toBe("Alta");
  expect(await row.getByText("1.000 contatos/dia").isVisible()).toBe(true);
  const numberId = await row.getAttribute("data-number-id");
  expect(await row.locator("[data-webhook-url]").textContent()).toBe(`${inject("webUrl")}/api/webhooks/whatsapp/${numberId}`);
  // The secrets are never shown back.
  expect(await page.content()).not.toMatch(/EAAG\d/);
  return { display, numberId: numberId! };
}

/** The message ids the history shows, in order. */
const shownIds = (page: Page) => page.locator("[data-message-id]").evaluateAll((rows) => rows.map((r) => r.getAttribute("data-message-id")));

describe.skipIf(!hasChromium)("WhatsApp screens in Chromium", () => {
  const browser = useBrowser();

  it("with JavaScript: connect a number, create a template with buttons, see it approved, send it, follow it to delivered and read", async () => {
    const person = await owner("wa-e2e");
    const page = await newPage(browser());
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await signIn(page, person);
    const { display } = await connectNumber(page);
    await page.screenshot({ path: screenshotPath("whatsapp-overview-js"), fullPage: true });

    // The template: a body with two variables, a quick reply and a website button whose URL ends with a variable.
    await page.getByRole("link", { name: "Novo modelo" }).first().click();
    await page.waitForURL((u) => u.pathname === "/whatsapp/templates/new");
    await page.waitForLoadState("networkidle"); // hydrated: only the chosen kinds' fields show
    await expect.poll(() => page.getByLabel("Texto do cabeçalho").isVisible(), { timeout: 10_000 }).toBe(false);
    const name = `pedido_e2e_${digits(6)}`;
    await page.getByLabel("Nome", { exact: true }).fill(name);
    await page.getByLabel("Corpo", { exact: true }).fill("Olá {{1}}, seu pedido {{2}} saiu para entrega.");
    await page.getByText("O corpo tem 2 variáveis: um exemplo por linha, na ordem.").waitFor();
    await page.getByLabel("Exemplos das variáveis").fill("Ana\n4321");
    await page.getByLabel("Botão 1", { exact: true }).selectOption("quick_reply");
    await page.getByLabel("Texto do botão 1").fill("Obrigado");
    await page.getByLabel("Botão 2", { exact: true }).selectOption("url");
    await page.getByLabel("Texto do botão 2").fill("Acompanhar");
    // A variable in the middle of the URL is refused next to that button's URL, as the field is left.
    await page.getByLabel("URL do botão 2").fill("https://loja.example/{{1}}/pedido");
    await page.getByLabel("URL de exemplo do botão 2").focus();
    await page.getByText("A URL aceita no máximo uma variável, no final").waitFor();
    await page.getByLabel("URL do botão 2").fill("https://loja.example/pedido/{{1}}");
    await page.getByLabel("URL de exemplo do botão 2").fill("https://loja.example/pedido/4321");
    await page.screenshot({ path: screenshotPath("whatsapp-template-new-js"), fullPage: true });
    await page.getByRole("button", { name: "Enviar para análise" }).click();

    // The list: pending until Meta's webhook approves it; the page follows by itself.
    await page.waitForURL((u) => u.pathname === "/whatsapp/templates");
    await page.getByText(`Modelo ${name} enviado para análise da Meta`).waitFor();
    const row = page.locator(`[data-template-name="${name}"]`);
    await row.locator('[data-template-status="approved"]').waitFor({ timeout: 30_000 });
    expect(await row.getByText("Utilidade").isVisible()).toBe(true);
    expect(await row.getByText("Português (Brasil)").isVisible()).toBe(true);
    await page.screenshot({ path: screenshotPath("whatsapp-templates-js"), fullPage: true });

    // Send it: the contact never wrote, so the window is closed and only a template goes.
    await page.getByRole("link", { name: "Enviar WhatsApp" }).click();
    await page.waitForURL((u) => u.pathname === "/whatsapp/send");
    await page.waitForLoadState("networkidle");
    const to = handset();
    await page.getByLabel("Contato", { exact: true }).fill(to);
    await page.getByLabel("Contato", { exact: true }).press("Tab");
    await page.locator('[data-window="closed"]').waitFor();
    expect(await page.locator('[data-window="closed"]').textContent()).toContain("Janela de 24 horas fechada");
    await page.getByLabel("Modelo", { exact: true }).selectOption({ label: `${name} (pt_BR, Utilidade)` });
    await page.getByTestId("template-preview").getByText("Olá {{1}}, seu pedido {{2}} saiu para entrega.").waitFor();
    await page.getByLabel("Variável 1").fill("Ana");
    await page.getByLabel("Variável 2").fill("4321");
    await page.getByLabel("Variável do botão de site").fill("4321");
    await page.screenshot({ path: screenshotPath("whatsapp-send-js"), fullPage: true });
    await page.getByRole("button", { name: "Enviar", exact: true }).click();

    await page.waitForURL(/\/whatsapp\/success\?message=[0-9a-f-]{36}$/);
    const id = new URL(page.url()).searchParams.get("message")!;
    await page.getByRole("heading", { name: "Mensagem aceita", level: 2 }).waitFor();
    expect(await page.getByTestId("message-id").textContent()).toBe(id);
    expect((await page.locator('[data-row="price"] dd').textContent())?.replace(/\u00a0/g, " ")).toBe("R$ 0,06");
    expect(await page.locator('[data-row="to"] dd').textContent()).toBe(to);
    await page.screenshot({ path: screenshotPath("whatsapp-success-js"), fullPage: true });

    // Its history: delivered, then read, as Meta's webhooks arrive (the page follows by itself).
    await page.getByRole("link", { name: "Ver a mensagem" }).click();
    await page.waitForURL((u) => u.pathname === `/whatsapp/history/${id}`);
    await page.locator('[data-event-status="delivered"]').waitFor({ timeout: 30_000 });
    await page.locator('[data-field="status"] [data-status="read"]').waitFor({ timeout: 30_000 });
    const timeline = await page.locator("[data-event-status]").evaluateAll((els) => els.map((e) => e.getAttribute("data-event-status")));
    expect(timeline[0]).toBe("queued");
    expect(timeline).toContain("sent");
    expect(timeline.indexOf("delivered")).toBeLessThan(timeline.indexOf("read"));
    expect(await page.locator('[data-field="body"]').textContent()).toBe("Olá Ana, seu pedido 4321 saiu para entrega.");
    await page.screenshot({ path: screenshotPath("whatsapp-message-js"), fullPage: true });

    // The history lists it, and the recipient filter finds it.
    await page.getByRole("link", { name: "Histórico de WhatsApp" }).click();
    await page.waitForURL((u) => u.pathname === "/whatsapp/history");
    await expect.poll(() => shownIds(page), { timeout: 15_000 }).toEqual([id]);
    await page.locator(`[data-message-id="${id}"]`).getByText("Lida").waitFor();
    await page.getByLabel("Destinatário").fill(handset());
    await page.getByRole("button", { name: "Filtrar" }).click();
    await page.getByText("Nenhuma mensagem neste período.").waitFor();
    await page.getByLabel("Destinatário").fill(to);
    await page.getByRole("button", { name: "Filtrar" }).click();
    await expect.poll(() => shownIds(page), { timeout: 15_000 }).toEqual([id]);
    await page.screenshot({ path: screenshotPath("whatsapp-history-js"), fullPage: true });

    // The overview counts the approved template and shows the message among the last ones.
    await page.getByRole("link", { name: "Visão geral" }).click();
    await page.waitForURL((u) => u.pathname === "/whatsapp");
    await expect.poll(() => page.locator('[data-count="approved"] dd').textContent(), { timeout: 15_000 }).toBe("1");
    await page.locator(`[data-message-id="${id}"]`).waitFor();
    expect(await page.locator("[data-number-id]").getByText(display, { exact: true }).isVisible()).toBe(true);
    expect(errors).toEqual([]);
    await page.context().close();
  }, 120_000);

  it("without JavaScript: the send form posted twice with its idempotency key sends one message; inside the contact's window, free text", async () => {
    const person = await owner("wa-e2e-twice");
    const page = await newPage(browser(), { javaScriptEnabled: false });
    await signIn(page, person);
    await connectNumber(page);
    const [{ id: numberId }] = await query<{ id: string }>("SELECT id FROM whatsapp_numbers WHERE account_id = $1", [person.accountId]);
    // A template through the form (no JavaScript), approved by the peer.
    await page.goto("/whatsapp/templates/new");
    const name = `aviso_e2e_${digits(6)}`;
    await page.getByLabel("Nome", { exact: true }).fill(name);
    await page.getByLabel("Corpo", { exact: true }).fill("Seu código é {{1}}.");
    await page.getByLabel("Exemplos das variáveis").fill("1234");
    await page.getByRole("button", { name: "Enviar para análise" }).click();
    await page.waitForURL((u) => u.pathname === "/whatsapp/templates");
    await page.locator(`[data-template-name="${name}"] [data-template-status="approved"]`).waitFor({ timeout: 30_000 });

    const to = handset();
    // "Check window" posts and comes back to the page for that contact: its window (closed) and the template's variables.
    await page.goto("/whatsapp/send");
    await page.getByText("Informe o contato para ver a janela de 24 horas.").waitFor();
    await page.getByLabel("Contato", { exact: true }).fill(to);
    await page.getByRole("button", { name: "Verificar janela" }).click();
    await page.waitForURL((u) => u.searchParams.get("to") === to && u.searchParams.get("number_id") === numberId);
    await page.locator('[data-window="closed"]').waitFor();
    await page.getByLabel("Variável 1").fill("9876");
    const form = page.locator("form#whatsapp-send");
    const fields: Record<string, string> = {};
    for (const input of await form.locator("input[name], select[name], textarea[name]").all()) {
      const fieldName = (await input.getAttribute("name"))!;
      const type = await input.getAttribute("type");
      if (type === "radio" && !(await input.isChecked())) continue;
      fields[fieldName] = await input.inputValue();
    }
    expect(fields.idempotency_key).toMatch(/^[0-9a-f-]{36}$/);
    // Two posts of the same form (a double click without JavaScript): the same answer, one message.
    const post = () => page.request.post("/whatsapp/send", { form: { ...fields, intent: "send" }, maxRedirects: 0 });
    const [first, second] = await Promise.all([post(), post()]);
    expect(first.status()).toBe(302);
    expect(second.status()).toBe(302);
    expect(first.headers().location).toMatch(/^\/whatsapp\/success\?message=[0-9a-f-]{36}$/);
    expect(second.headers().location).toBe(first.headers().location);
    expect(await query("SELECT id FROM messages WHERE account_id = $1 AND channel = 'whatsapp' AND recipient = $2", [person.accountId, to])).toHaveLength(1);
    await page.goto(first.headers().location);
    await page.getByRole("heading", { name: "Mensagem aceita", level: 2 }).waitFor();

    // The contact writes to the number (Meta's messages webhook, from the peer): its window opens for 24 hours, and free text goes.
    const [number] = await query<{ phone_number_id: string; waba_id: string }>("SELECT phone_number_id, waba_id FROM whatsapp_numbers WHERE id = $1", [numberId]);
    const wrote = await fetch(new URL("/whatsapp/_sim/inbound", inject("simulatorUrl")), {
      method: "POST",
      headers: { Authorization: `Bearer ${inject("simulatorApiKey")}`, "Content-Type": "application/json" },
      body: JSON.stringify({ waba_id: number.waba_id, phone_number_id: number.phone_number_id, from: to, text: "Recebi, obrigado!" }),
    });
    expect(wrote.status).toBe(202);
    const sendText = `/whatsapp/send?number_id=${numberId}&to=${encodeURIComponent(to)}&type=text`;
    await expect
      .poll(
        async () => {
          await page.goto(sendText);
          return page.locator("[data-window]").getAttribute("data-window");
        },
        { timeout: 15_000 },
      )
      .toBe("open");
    // Open until 24 hours after the contact's message, in São Paulo time (dd/mm/yy hh:mm).
    const [win] = await query<{ until: string }>(
      `SELECT to_char((last_inbound_at + interval '24 hours') AT TIME ZONE 'America/Sao_Paulo', 'DD/MM/YY HH24:MI') AS until FROM whatsapp_windows WHERE number_id = $1 AND contact = $2`,
      [numberId, to],
    );
    expect(await page.locator('[data-window="open"]').textContent()).toBe(`Janela de 24 horas aberta até ${win.until}: texto livre permitido.`);
    await page.getByLabel("Texto", { exact: true }).fill("Que bom! Qualquer coisa, estamos aqui.");
    await page.getByRole("button", { name: "Enviar", exact: true }).click();
    await page.waitForURL(/\/whatsapp\/success\?message=[0-9a-f-]{36}$/);
    // Free text inside the window is a service conversation: R$ 0,00.
    expect((await page.locator('[data-row="price"] dd').textContent())?.replace(/\u00a0/g, " ")).toBe("R$ 0,00");
    await page.context().close();
  }, 120_000);

  it("without JavaScript: a template refused for a rule shows the translated error next to its field; fixed, it is created and approved", async () => {
    const person = await owner("wa-nojs");
    const page = await newPage(browser(), { javaScriptEnabled: false });
    await signIn(page, person);
    await connectNumber(page);
    await page.screenshot({ path: screenshotPath("whatsapp-overview-nojs"), fullPage: true });

    await page.goto("/whatsapp/templates/new");
    const name = `confirma_e2e_${digits(6)}`;
    await page.getByLabel("Nome", { exact: true }).fill(name);
    await page.getByLabel("Categoria").selectOption("marketing");
    await page.getByLabel("Corpo", { exact: true }).fill("Oi {{1}}, confirma sua visita?");
    await page.getByLabel("Exemplos das variáveis").fill("Ana");
    // Every button row's fields are there without JavaScript; rows left at "Sem botão" are skipped.
    await page.getByLabel("Botão 1", { exact: true }).selectOption("quick_reply");
    await page.getByLabel("Texto do botão 1").fill("Sim");
    await page.getByLabel("Botão 3", { exact: true }).selectOption("quick_reply");
    await page.getByLabel("Texto do botão 3").fill("sim");
    await page.getByRole("button", { name: "Enviar para análise" }).click();

    // Refused: the rule's message, translated, in the buttons' group; what was typed is kept.
    const buttons = page.locator("fieldset", { has: page.getByText("Botões (opcional)") });
    await buttons.getByRole("alert").getByText("Botões de resposta rápida não podem repetir o texto").waitFor();
    expect(await page.getByLabel("Nome", { exact: true }).inputValue()).toBe(name);
    expect(await page.getByLabel("Texto do botão 3").inputValue()).toBe("sim");
    expect(await query("SELECT 1 FROM whatsapp_templates WHERE account_id = $1", [person.accountId])).toHaveLength(0);
    await page.screenshot({ path: screenshotPath("whatsapp-template-error-nojs"), fullPage: true });

    await page.getByLabel("Texto do botão 3").fill("Não");
    await page.getByRole("button", { name: "Enviar para análise" }).click();
    await page.waitForURL((u) => u.pathname === "/whatsapp/templates");
    await page.getByText(`Modelo ${name} enviado para análise da Meta`).waitFor();
    const row = page.locator(`[data-template-name="${name}"]`);
    expect(await row.getByText("Marketing").isVisible()).toBe(true);
    // Pending until Meta decides: the page's own <noscript> refresh shows the approval.
    await row.locator('[data-template-status="approved"]').waitFor({ timeout: 30_000 });
    const [stored] = await query<{ components: Array<{ type: string; buttons?: unknown }> }>("SELECT components FROM whatsapp_templates WHERE account_id = $1 AND name = $2", [
      person.accountId,
      name,
    ]);
    expect(stored.components.find((c) => c.type === "BUTTONS")?.buttons).toEqual([
      { type: "QUICK_REPLY", text: "Sim" },
      { type: "QUICK_REPLY", text: "Não" },
    ]);
    await page.screenshot({ path: screenshotPath("whatsapp-templates-nojs"), fullPage: true });
    await page.context().close();
  }, 120_000);
});
