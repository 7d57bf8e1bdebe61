/**
 * /mail/templates in Chromium (issue 17, ADR 037), without JavaScript (plain forms): a template
 * written in MJML is created (an MJML error shown on its field first), previewed with sample
 * values and then for a contact picked in the preview form (the frame shows the contact's name),
 * turned inactive and active again from the list, started from the platform library, sent from
 * /mail/send with the template (?template=) to the contact — delivered through the local SMTP
 * peer with the subject filled —, and the checked templates deleted at once. With JavaScript: a
 * template composed in the visual editor (GrapesJS under the app's CSP, its icon font ours) is
 * saved, sent from /mail/send and followed in /mail/history until delivered, then opened.
 */
import { describe, expect, inject, it } from "vitest";
import { api, login, registerPerson } from "../support/api";
import { hasChromium, newPage, requireChromiumInCi, screenshotPath, signIn, useBrowser } from "../support/browser";
import { query } from "../support/db";
import { pixelOf, rand, receivedHtml, validatedDomain } from "../support/email";
import { makeContacts, setAccount } from "../support/factories";

requireChromiumInCi();

const MJML = `<mjml><mj-body><mj-section><mj-column><mj-text>Olá, {{first_name}} de {{city}}!</mj-text></mj-column></mj-section></mj-body></mjml>`;

describe.skipIf(!hasChromium)("/mail/templates in Chromium", () => {
  const browser = useBrowser();

  it("without JavaScript: create (MJML error first), preview for a contact, inactive and active again, from the library, send with it and see it delivered, bulk delete", async () => {
    const person = await registerPerson("mail-templates-nojs");
    await setAccount(person.accountId, { balance: 100 });
    const token = (await login(person.email, person.password)).token;
    const { domain } = await validatedDomain(token);
    const email = `ana-${rand()}@destino.test`;
    const [contactId] = await makeContacts(person.accountId, [{ firstName: "Ana", lastName: "Souza", city: "Recife", email }]);
    const page = await newPage(browser(), { javaScriptEnabled: false });
    await signIn(page, person);

    // Create: an MJML error is shown on the source field, then the right source is saved.
    await page.goto("/mail/templates/create");
    const name = `Boas-vindas ${rand()}`;
    await page.getByLabel("Nome", { exact: true }).fill(name);
    await page.getByLabel("Assunto").fill("Oi {{first_name}}");
    await page.getByLabel("Fonte MJML").fill("<mjml><mj-body><mj-foo>x</mj-foo></mj-body></mjml>");
    await page.getByRole("button", { name: "Criar modelo" }).click();
    const sourceId = await page.getByLabel("Fonte MJML").getAttribute("id");
    await page
      .locator(`#${sourceId}-error`)
      .getByText(/Erro no MJML: .*mj-foo/)
      .waitFor();
    await page.getByLabel("Fonte MJML").fill(MJML);
    await page.getByRole("button", { name: "Criar modelo" }).click();
    await page.waitForURL((u) => /^\/mail\/templates\/create\/[0-9a-f-]{36}$/.test(u.pathname));
    const id = new URL(page.url()).pathname.split("/").pop()!;
    const frame = page.frameLocator('[data-testid="preview-frame"]');
    await frame.getByText("Olá, Maria de São Paulo!").waitFor();

    // Preview for a contact picked in the GET form.
    await page.getByLabel("Contato").selectOption(contactId);
    await page.getByRole("button", { name: "Ver prévia" }).click();
    await page.waitForURL((u) => u.searchParams.get("contact") === contactId);
    await frame.getByText("Olá, Ana de Recife!").waitFor();
    expect(await page.getByTestId("preview-subject").textContent()).toBe("Oi Ana");
    await page.screenshot({ path: screenshotPath("mail-template-preview-nojs"), fullPage: true });

    // Inactive, then active again, from the list.
    await page.goto("/mail/templates");
    const row = page.locator(`[data-template-id="${id}"]`);
    await row.getByRole("button", { name: `Desativar ${name}` }).click();
    await row.getByTestId("template-status").getByText("Inativo").waitFor();
    const refused = await api("/api/email/messages", { token, body: { from: `loja@${domain}`, to: email, template_id: id }, lang: "pt-BR" });
    expect(refused.body.error.fields).toEqual({ template_id: ["Este modelo não está ativo"] });
    await row.getByRole("button", { name: `Ativar ${name}` }).click();
    await row.getByTestId("template-status").getByText("Ativo").waitFor();

    // From the platform library: a new template starts from its source.
    await page.getByRole("link", { name: "Usar o modelo Boas-vindas da biblioteca" }).click();
    await page.waitForURL((u) => u.pathname.endsWith("/1"));
    expect(await page.getByLabel("Fonte MJML").inputValue()).toContain("<mj-button");
    await page.getByLabel("Nome", { exact: true }).fill(`Da biblioteca ${rand()}`);
    await page.getByRole("button", { name: "Criar modelo" }).click();
    await page.waitForURL((u) => /^\/mail\/templates\/create\/[0-9a-f-]{36}$/.test(u.pathname));

    // Send with the template from /mail/send (?template= picks it): the contact's values fill it.
    await page.goto(`/mail/send?template=${id}`);
    await page.getByLabel("Remetente", { exact: true }).fill(`contato@${domain}`);
    await page.getByLabel("Destinatários").fill(email);
    await page.getByRole("button", { name: "Enviar", exact: true }).click();
    await page.waitForURL((u) => u.pathname === "/mail/send/success");
    await expect
      .poll(async () => (await query<{ status: string }>("SELECT status FROM messages WHERE account_id = $1 AND channel = 'email'", [person.accountId])).map((m) => m.status), {
        timeout: 20_000,
        interval: 250,
      })
      .toEqual(["delivered"]);
    const atPeer = await fetch(new URL(`/email/_sim/messages?to=${encodeURIComponent(email)}`, inject("simulatorUrl")), {
      headers: { Authorization: `Bearer ${inject("simulatorApiKey")}` },
    }).then((r) => r.json());
    expect(atPeer.data[0].headers.subject).toBe("Oi Ana");

    // Bulk delete: the checked ones go, the others stay.
    const more: string[] = [];
    for (const n of [1, 2]) more.push((await api("/api/email/templates", { token, body: { name: `Lote ${n} ${rand()}`, subject: "x", mjml: MJML } })).body.data.id);
    await page.goto("/mail/templates");
    for (const m of more) await page.locator(`[data-template-id="${m}"] input[type="checkbox"]`).check();
    await page.getByRole("button", { name: "Excluir selecionados" }).click();
    await page.getByText("Modelos excluídos: 2").waitFor();
    expect(await page.locator(`[data-template-id="${more[0]}"]`).count()).toBe(0);
    await expect.poll(() => page.locator(`[data-template-id="${id}"]`).count(), { timeout: 10_000 }).toBe(1);
    await page.screenshot({ path: screenshotPath("mail-templates-list-nojs"), fullPage: true });
  }, 90_000);
});

describe.skipIf(!hasChromium)("/mail/templates visual editor in Chromium", () => {
  const browser = useBrowser();

  it("with JavaScript: compose in the visual editor (under the app's CSP, its own icon font), save, send with it, and see it delivered and then opened in the history", async () => {
    const person = await registerPerson("mail-templates-js");
    await setAccount(person.accountId, { balance: 100 });
    const token = (await login(person.email, person.password)).token;
    const { domain } = await validatedDomain(token);
    const mjml = `<mjml><mj-body><mj-section><mj-column><mj-text>Primeiro bloco</mj-text><mj-text>Segundo bloco</mj-text></mj-column></mj-section></mj-body></mjml>`;
    const created = await api("/api/email/templates", { token, body: { name: `Visual ${rand()}`, subject: "Oi", mjml } });
    const id = created.body.data.id as string;
    const page = await newPage(browser(), { javaScriptEnabled: true });
    const problems: string[] = [];
    page.on("pageerror", (e) => problems.push(e.message));
    page.on("console", (m) => {
      // A script or eval refused by the CSP would break the editor (a web font's stylesheet refused only falls back).
      if (m.type() === "error" && /Content.Security.Policy|unsafe-eval/i.test(m.text()) && !/Loading the stylesheet/.test(m.text())) problems.push(m.text());
    });
    await signIn(page, person);
    await page.goto(`/mail/templates/create/${id}`);
    await page.getByRole("button", { name: "Abrir editor visual" }).click();
    const canvas = page.frameLocator("iframe.gjs-frame");
    await canvas.getByText("Segundo bloco").waitFor({ timeout: 20_000 });
    // The panels' icon font is ours (no CDN): its face loads from our origin.
    await expect.poll(() => page.evaluate(async () => (await document.fonts.load("14px FontAwesome")).map((f) => f.status)), { timeout: 10_000 }).toEqual(["loaded"]);
    // Select the second block in the canvas and delete it with the editor's toolbar.
    await canvas.getByText("Segundo bloco").click();
    await page.locator(".gjs-toolbar-item.fa-trash-o, .gjs-toolbar-item[title*='elete'], .gjs-toolbar .gjs-toolbar-item").last().click();
    await expect.poll(() => page.getByLabel("Fonte MJML").inputValue(), { timeout: 10_000 }).not.toContain("Segundo bloco");
    expect(await page.getByLabel("Fonte MJML").inputValue()).toContain("Primeiro bloco");
    await page.screenshot({ path: screenshotPath("mail-template-visual-editor-js"), fullPage: true });
    await page.getByRole("button", { name: "Salvar", exact: true }).click();
    await expect
      .poll(async () => (await query<{ mjml: string; html: string }>("SELECT mjml, html FROM email_templates WHERE id = $1", [id]))[0], { timeout: 10_000 })
      .toMatchObject({ mjml: expect.not.stringContaining("Segundo bloco"), html: expect.stringContaining("Primeiro bloco") });

    // Send with it from /mail/send, then follow it in the history: delivered (the peer's DSN), then
    // opened once the recipient's mail client loads the pixel.
    const to = `leitora-${rand()}@destino.test`;
    await page.goto(`/mail/send?template=${id}`);
    await page.getByLabel("Remetente", { exact: true }).fill(`contato@${domain}`);
    await page.getByLabel("Destinatários").fill(to);
    await page.getByRole("button", { name: "Enviar", exact: true }).click();
    await page.waitForURL((u) => u.pathname === "/mail/send/success");
    const html = await receivedHtml(to);
    expect(html).toContain("Primeiro bloco");
    expect(html).not.toContain("Segundo bloco");
    const [{ id: messageId }] = await query<{ id: string }>("SELECT id FROM messages WHERE account_id = $1 AND channel = 'email'", [person.accountId]);
    const stored = async () => (await query<{ status: string }>("SELECT status FROM messages WHERE id = $1", [messageId]))[0].status;
    const row = page.locator(`[data-message-id="${messageId}"] [data-col="status"]`);
    await expect.poll(stored, { timeout: 30_000, interval: 250 }).toBe("delivered");
    await page.goto("/mail/history");
    await row.locator('[data-status="delivered"]').waitFor();
    expect((await fetch(pixelOf(html)!)).status).toBe(200);
    await expect.poll(stored, { timeout: 30_000, interval: 250 }).toBe("opened");
    await page.goto("/mail/history");
    await row.locator('[data-status="opened"]').waitFor();
    await page.screenshot({ path: screenshotPath("mail-template-sent-opened-js"), fullPage: true });
    expect(problems).toEqual([]);
  }, 120_000);
});
