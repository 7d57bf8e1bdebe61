/**
 * The webchat widget in Chromium (issue 5): a visitor on /live/simulator (logged out, the page
 * that embeds public/widget.js) opens the widget, writes with Enter (Shift+Enter is a newline),
 * an agent takes the room and replies through the JWT API, and the reply appears live over the
 * websocket; the markup renders (bold) and HTML is shown as text. Then the visitor edits (Escape
 * cancels) and deletes their own last message (issue 19: not an earlier one; the rest of issue 19's
 * widget is tests/e2e/widget-conversation.test.ts).
 */
import type { WebSocketRoute } from "playwright-core";
import { describe, expect, it } from "vitest";
import { api, giveOmni, login, registerPerson } from "../support/api";
import { hasChromium, newPage, requireChromiumInCi, screenshotPath, useBrowser } from "../support/browser";
import { query } from "../support/db";
import { makeHoliday } from "../support/factories";

requireChromiumInCi();

/** A 1x1 PNG. */
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

describe.skipIf(!hasChromium)("webchat widget in Chromium", () => {
  const browser = useBrowser();

  it("a file can be the visitor's first message: it starts the conversation and the widget goes on live", async () => {
    const owner = await registerPerson("e2ewidget-file");
    await giveOmni(owner.accountId);
    const { token } = await login(owner.email, owner.password);
    const as = (path: string, opts: Parameters<typeof api>[1] = {}) => api(path, { ...opts, token, account: owner.accountId });
    const key = (await as("/api/live/widget")).body.widget_key as string;
    const page = await newPage(browser());
    await page.goto(`/live/simulator?key=${key}`);
    await page.getByRole("button", { name: "Abrir o chat" }).click();
    const input = page.getByRole("textbox", { name: "Escreva uma mensagem…" });
    await input.waitFor();
    // Nothing written yet: the attach button is usable.
    await expect(page.getByRole("button", { name: "Anexar arquivo" }).isEnabled()).resolves.toBe(true);
    await page.locator("input[type=file]").setInputFiles({ name: "comprovante.png", mimeType: "image/png", buffer: Buffer.from(PNG, "base64") });
    await input.press("Enter");
    await page.locator(".msg.me img[alt='comprovante.png']").waitFor();
    await page.getByText("Você é o 1º da fila").waitFor();
    const [room] = await query<{ id: string; status: string; external_id: string }>(`SELECT id, status, external_id FROM live_rooms WHERE account_id = $1`, [owner.accountId]);
    expect(room).toMatchObject({ status: "QUEUE" });
    expect(room.external_id).toMatch(/^v_/);
    // The agent takes it and replies: the reply arrives live (the widget connected after the file).
    await as(`/api/omni/rooms/${room.id}/take`, { method: "POST" });
    await as(`/api/omni/messages`, { body: { room_id: room.id, message: "Recebi o comprovante, obrigado!" } });
    await page.locator(".msg.them").getByText("Recebi o comprovante").waitFor({ timeout: 15_000 });
    await page.context().close();
  });

  it("visitor and agent exchange messages live; markup renders and HTML is escaped; own messages edit and delete", async () => {
    const owner = await registerPerson("e2ewidget");
    await giveOmni(owner.accountId);
    const { token } = await login(owner.email, owner.password);
    const as = (path: string, opts: Parameters<typeof api>[1] = {}) => api(path, { ...opts, token, account: owner.accountId });
    const widget = await as("/api/live/widget");
    const key = widget.body.widget_key as string;

    const page = await newPage(browser());
    const sockets: string[] = [];
    page.on("websocket", (ws) => sockets.push(ws.url()));
    await page.goto(`/live/simulator?key=${key}`);
    await page.getByRole("heading", { name: "Simulador do widget" }).waitFor();

    // The launcher opens the window (the widget lives in a shadow root; locators pierce it).
    await page.getByRole("button", { name: "Abrir o chat" }).click();
    const input = page.getByRole("textbox", { name: "Escreva uma mensagem…" });
    await input.waitFor();
    await page.getByRole("button", { name: "Fale conosco" }).waitFor();

    // Empty text is not sent.
    await input.press("Enter");
    expect(await query(`SELECT 1 FROM live_messages WHERE account_id = $1`, [owner.accountId])).toHaveLength(0);

    // Shift+Enter is a newline, Enter sends; the input is cleared once it went through.
    await input.fill("Olá, quero *ajuda* com <b>pedido</b>");
    await input.press("Shift+Enter");
    await input.pressSequentially("linha 2");
    await input.press("Enter");
    const mine = page.locator(".msg.me").first();
    await mine.locator("strong", { hasText: "ajuda" }).waitFor();
    await expect.poll(() => input.inputValue()).toBe("");
    expect(await mine.locator(".text").innerText()).toBe("Olá, quero ajuda com <b>pedido</b>\nlinha 2");
    expect(await mine.locator("b").count()).toBe(0);
    const [room] = await query<{ id: string; status: string }>(`SELECT id, status FROM live_rooms WHERE account_id = $1`, [owner.accountId]);
    expect(room.status).toBe("QUEUE");
    expect(await query(`SELECT body FROM live_messages WHERE room_id = $1`, [room.id])).toEqual([{ body: "Olá, quero *ajuda* com <b>pedido</b>\nlinha 2" }]);
    // Waiting in line: the place is shown.
    await page.getByText("Você é o 1º da fila").waitFor();
    await expect.poll(() => sockets.some((u) => u.includes("/realtime/ws?visitor="))).toBe(true);

    // The agent takes the room and replies: it shows up in the widget without a reload.
    expect((await as(`/api/omni/rooms/${room.id}/take`, { method: "POST" })).status).toBe(200);
    const reply = await as("/api/omni/messages", { body: { room_id: room.id, message: "Oi! Sou a *Teste* ~não~ _agora_ https://exemplo.com.br/" + "x".repeat(60) } });
    expect(reply.status).toBe(200);
    const theirs = page.locator(".msg.them");
    await theirs.locator("strong", { hasText: "Teste" }).waitFor({ timeout: 4000 });
    expect(await theirs.locator("s").innerText()).toBe("não");
    expect(await theirs.locator("em").innerText()).toBe("agora");
    const link = theirs.locator("a");
    expect(await link.innerText()).toBe(("https://exemplo.com.br/" + "x".repeat(60)).slice(0, 50) + "…");
    expect(await link.getAttribute("href")).toBe("https://exemplo.com.br/" + "x".repeat(60));
    // The header's people line names the agent.
    await page.getByText("Você e Teste").waitFor();
    // Open and focused: the agent's message is READ.
    await expect.poll(async () => (await query<{ status: string }>(`SELECT status FROM live_messages WHERE id = $1`, [reply.body.id]))[0].status).toBe("READ");
    await page.screenshot({ path: screenshotPath("widget-conversation"), fullPage: true });

    // The emoji picker's categories insert at the cursor.
    await page.getByRole("button", { name: "Emojis" }).click();
    for (const cat of ["Pessoas", "Natureza", "Objetos", "Lugares", "Símbolos"]) await page.getByRole("tab", { name: cat }).waitFor();
    await page.getByRole("tab", { name: "Natureza" }).click();
    await page.getByRole("button", { name: "🐶" }).click();
    expect(await input.inputValue()).toBe("🐶");
    await input.fill("");
    await page.getByRole("button", { name: "Emojis" }).click();

    // A file (text optional): the visitor's upload shows in the thread as an image.
    await page.locator("input[type=file]").setInputFiles({ name: "foto.png", mimeType: "image/png", buffer: Buffer.from(PNG, "base64") });
    await page.getByText("foto.png").waitFor();
    await input.press("Enter");
    await page.locator(".msg.me img[alt='foto.png']").waitFor();
    const files = await query<{ attachments: Array<{ type: string; name: string }> }>(
      `SELECT attachments FROM live_messages WHERE room_id = $1 AND jsonb_array_length(attachments) > 0`,
      [room.id],
    );
    expect(files.map((f) => f.attachments.map((a) => [a.type, a.name]))).toEqual([[["image", "foto.png"]]]);
    await page.getByText("foto.png", { exact: true }).waitFor({ state: "hidden" });

    // Edit/Delete are on the visitor's messages after the agent's last one only (issue 19): not on the first.
    expect(await mine.getByRole("button", { name: "Editar" }).count()).toBe(0);
    await input.fill("Quero trocar o endereço");
    await input.press("Enter");
    await page.locator(".msg.me", { hasText: "Quero trocar o endereço" }).waitFor();
    const lastId = await page.locator(".msg.me", { hasText: "Quero trocar o endereço" }).getAttribute("data-id");
    const own = page.locator(`.msg.me[data-id="${lastId}"]`);
    // Edit: the input goes into edit mode; Escape cancels and leaves the message as it was.
    await own.getByRole("button", { name: "Editar" }).click();
    await page.getByText("Editando mensagem").waitFor();
    expect(await own.getByRole("button", { name: "Editar" }).isDisabled()).toBe(true);
    await input.press("Escape");
    await page.getByText("Editando mensagem").waitFor({ state: "hidden" });
    expect(await input.inputValue()).toBe("");
    await own.getByRole("button", { name: "Editar" }).click();
    await input.fill("Pedido 42, por favor");
    await input.press("Enter");
    await own.getByText("(editada)").waitFor();
    expect(await query(`SELECT body, edited FROM live_messages WHERE id = $1`, [lastId])).toEqual([{ body: "Pedido 42, por favor", edited: true }]);
    // Delete: shown as deleted; the agent's message has no edit/delete.
    expect(await theirs.getByRole("button", { name: "Excluir" }).count()).toBe(0);
    await own.getByRole("button", { name: "Excluir" }).click();
    await own.getByText("Mensagem excluída").waitFor();
    expect(await query(`SELECT status FROM live_messages WHERE id = $1`, [lastId])).toEqual([{ status: "DELETED" }]);

    // A reload resumes the same conversation (visitor id and token in localStorage).
    await page.reload();
    await page.getByRole("button", { name: "Abrir o chat" }).click();
    await page.locator(".msg.them strong", { hasText: "Teste" }).waitFor();
    await page.getByText("Mensagem excluída").waitFor();
  });

  it("outside opening hours (in English) the widget shows the offline form, and the message becomes an offline contact", async () => {
    const owner = await registerPerson("e2ewidgetoff");
    await giveOmni(owner.accountId);
    const { token } = await login(owner.email, owner.password);
    const key = (await api("/api/live/widget", { token, account: owner.accountId })).body.widget_key as string;
    await makeHoliday(owner.accountId, { name: "Hoje" });

    const page = await newPage(browser(), { locale: "en-US" });
    // An English browser: the page's lang is en, and so is the widget.
    await page.goto(`/live/simulator?key=${key}`);
    expect(await page.locator("html").getAttribute("lang")).toBe("en");
    await page.getByRole("button", { name: "Open chat" }).click();
    await page.getByRole("button", { name: "Deixe sua mensagem" }).waitFor();
    expect(await page.getByRole("textbox", { name: "Write a message…" }).isVisible()).toBe(false);
    const form = page.locator("form.offline");
    await form.locator("button[type=submit]").click();
    expect(await query(`SELECT 1 FROM live_rooms WHERE account_id = $1`, [owner.accountId])).toHaveLength(0);
    await form.locator("input[name=name]").fill("Maria Souza");
    await form.locator("input[name=contact]").fill("maria@example.com");
    await form.locator("textarea[name=message]").fill("Podem me ligar amanhã?");
    await form.locator("button[type=submit]").click();
    await page.locator(".offline p").filter({ hasText: "We got your message" }).waitFor();
    expect(await query(`SELECT username, email, offline, status FROM live_rooms WHERE account_id = $1`, [owner.accountId])).toEqual([
      { username: "Maria Souza", email: "maria@example.com", offline: true, status: "CLOSED" },
    ]);
    await page.screenshot({ path: screenshotPath("widget-offline"), fullPage: true });
  });

  it("a dropped connection: a 10-second countdown, polling meanwhile, then a reconnect that resumes from the last id", async () => {
    const owner = await registerPerson("e2ewidgetrc");
    await giveOmni(owner.accountId);
    const { token } = await login(owner.email, owner.password);
    const as = (path: string, opts: Parameters<typeof api>[1] = {}) => api(path, { ...opts, token, account: owner.accountId });
    const key = (await as("/api/live/widget")).body.widget_key as string;

    const page = await newPage(browser());
    // Every widget socket goes through a route the test can drop (messages still flow both ways).
    const routes: Array<{ page: WebSocketRoute; server: WebSocketRoute; url: string }> = [];
    await page.routeWebSocket(/\/realtime\/ws/, (ws) => {
      routes.push({ page: ws, server: ws.connectToServer(), url: ws.url() });
    });
    await page.goto(`/live/simulator?key=${key}`);
    await page.getByRole("button", { name: "Abrir o chat" }).click();
    const input = page.getByRole("textbox", { name: "Escreva uma mensagem…" });
    await input.fill("Oi");
    await input.press("Enter");
    await expect.poll(() => routes.length).toBe(1);
    const [room] = await query<{ id: string }>(`SELECT id FROM live_rooms WHERE account_id = $1`, [owner.accountId]);
    expect((await as(`/api/omni/rooms/${room.id}/take`, { method: "POST" })).status).toBe(200);
    const first = await as("/api/omni/messages", { body: { room_id: room.id, message: "Primeira resposta" } });
    await page.locator(".msg.them", { hasText: "Primeira resposta" }).waitFor({ timeout: 4000 });

    // The connection drops: a countdown from 10 s (the close handshake itself may take a second or two).
    const dropped = Date.now();
    void routes[0].server.close({ code: 1001 });
    void routes[0].page.close({ code: 1011 });
    const status = page.getByText(/Sem conexão\. Reconectando em \d+ s/);
    await status.waitFor();
    const seconds = Number((await status.innerText()).match(/(\d+) s/)![1]);
    expect(seconds).toBeGreaterThanOrEqual(7);
    expect(seconds).toBeLessThanOrEqual(10);
    // Meanwhile the agent writes: polling shows it before the socket is back.
    await as("/api/omni/messages", { body: { room_id: room.id, message: "Enquanto caiu" } });
    await page.locator(".msg.them", { hasText: "Enquanto caiu" }).waitFor({ timeout: 8000 });
    expect(routes).toHaveLength(1);
    // After the countdown a new socket resumes from the last stream id it saw.
    await expect.poll(() => routes.length, { timeout: 15_000 }).toBe(2);
    expect(Date.now() - dropped).toBeGreaterThanOrEqual(8_000);
    const resumed = new URL(routes[1].url);
    expect(resumed.searchParams.get("last")).toMatch(/^room:\d+-\d+$/);
    await page.getByText(/Reconectando/).waitFor({ state: "hidden" });
    await as("/api/omni/messages", { body: { room_id: room.id, message: "De volta ao vivo" } });
    await page.locator(".msg.them", { hasText: "De volta ao vivo" }).waitFor({ timeout: 4000 });
    // Nothing twice.
    expect(await page.locator(".msg.them .text").allInnerTexts()).toEqual(["Primeira resposta", "Enquanto caiu", "De volta ao vivo"]);
    expect(first.status).toBe(200);
  });
});
