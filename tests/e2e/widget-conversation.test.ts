/**
 * The widget's conversation features (issue 19, "The widget") in Chromium: a visitor on
 * /live/simulator and an agent signed in on /live in a second browser context. The greeting is the
 * first bubble and the offline message shows while no agent is connected; the agent's messages
 * carry their first name, an initials avatar and the time (HH:mm on the visitor's clock); "typing…"
 * both ways; the launcher's unread badge counts agent messages while the panel is closed (plural,
 * in its label) and clears on opening; the sound toggle is pressed/unpressed, kept over a reload,
 * and plays a WebAudio tone per new agent message only when on; Edit/Delete sit only on the
 * visitor's messages after the agent's last one, shown on hover and on keyboard focus. The offline
 * message follows an agent connecting and leaving while the widget stays open. Then the widget on a
 * host page whose Content-Security-Policy allows no inline script or style, also in a browser without
 * constructable stylesheets (its styles from APP/widget.css).
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { Locator, Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import { api, giveOmni, login, registerPerson } from "../support/api";
import { hasChromium, newPage, requireChromiumInCi, screenshotPath, signIn, useBrowser, typeUntilShown } from "../support/browser";
import { query } from "../support/db";
import { makeLiveSettings } from "../support/factories";

requireChromiumInCi();

/** Counts the tones the widget starts (each one creates an oscillator), before any page script runs. */
async function countTones(page: Page) {
  await page.addInitScript(() => {
    const w = window as unknown as { __tones: number };
    w.__tones = 0;
    const make = AudioContext.prototype.createOscillator;
    AudioContext.prototype.createOscillator = function (this: AudioContext) {
      w.__tones++;
      return make.call(this);
    };
  });
  return () => page.evaluate(() => (window as unknown as { __tones: number }).__tones);
}

const opacity = (l: Locator) => l.evaluate((el) => getComputedStyle(el).opacity);

describe.skipIf(!hasChromium)("widget conversation in Chromium (issue 19)", () => {
  const browser = useBrowser();

  it("greeting, offline message, agent's name/avatar/time, typing both ways, unread badge, sound toggle, edit/delete on the last own messages", async () => {
    const owner = await registerPerson("e2ewconv");
    await giveOmni(owner.accountId);
    // Manual acceptance: the room waits in the queue until the agent takes it.
    await makeLiveSettings(owner.accountId, { acceptanceOption: "manual" });
    const { token } = await login(owner.email, owner.password);
    const as = (path: string, opts: Parameters<typeof api>[1] = {}) => api(path, { ...opts, token, account: owner.accountId });
    const widget = (await as("/api/live/widget")).body;
    const put = await as("/api/live/widget", {
      method: "PUT",
      body: { ...widget.settings, welcome: "Olá! Sou a Loja Azul, como posso ajudar?", offline_message: "Nenhum atendente conectado agora; responderemos assim que possível." },
    });
    expect(put.status).toBe(200);
    const key = widget.widget_key as string;
    const [{ first_name }] = await query<{ first_name: string }>(`SELECT first_name FROM users WHERE id = $1`, [owner.userId]);

    // The visitor opens the widget before any agent is connected.
    const visitor = await newPage(browser());
    const tones = await countTones(visitor);
    await visitor.goto(`/live/simulator?key=${key}`);
    await visitor.getByRole("button", { name: "Abrir o chat" }).click();
    const input = visitor.getByRole("textbox", { name: "Escreva uma mensagem…" });
    await input.waitFor();
    // The greeting is the first bubble; the offline message follows while nobody is connected.
    const bubbles = visitor.locator(".list .msg");
    await expect.poll(() => bubbles.allInnerTexts()).toEqual(["Olá! Sou a Loja Azul, como posso ajudar?", "Nenhum atendente conectado agora; responderemos assim que possível."]);
    // The sound toggle starts on.
    const sound = visitor.getByRole("button", { name: "Som de novas mensagens" });
    expect(await sound.getAttribute("aria-pressed")).toBe("true");

    await input.fill("Oi, meu pedido não chegou");
    await input.press("Enter");
    await visitor.locator(".msg.me", { hasText: "Oi, meu pedido não chegou" }).waitFor();
    await expect.poll(async () => (await query(`SELECT 1 FROM live_rooms WHERE account_id = $1`, [owner.accountId])).length).toBe(1);
    const [room] = await query<{ id: string }>(`SELECT id FROM live_rooms WHERE account_id = $1`, [owner.accountId]);

    // The agent takes the room on /live.
    const agent = await newPage(browser());
    await signIn(agent, owner);
    await agent.goto(`/live?tab=queue&room=${room.id}`);
    await agent.getByRole("button", { name: "Assumir atendimento" }).click();
    await agent.waitForURL((u) => u.searchParams.get("tab") === "me" && u.searchParams.get("room") === room.id);
    // Someone attends now: the offline message is gone.
    await visitor.locator(".msg.off").waitFor({ state: "detached" });

    // Typing both ways: the visitor's shows under the agent's thread, the agent's in the widget with their name.
    await typeUntilShown(input, agent.getByTestId("typing").getByText(/está digitando…/));
    const composer = agent.getByLabel("Mensagem", { exact: true });
    const agentTyping = visitor.getByText(`${first_name} está digitando…`);
    await typeUntilShown(composer, agentTyping);
    await input.fill("");

    // The agent's reply: their name, an initials avatar and the time, on the visitor's clock; the typing line goes.
    await composer.fill("Olá! Vou verificar o seu pedido.");
    await composer.press("Enter");
    const reply = visitor.locator(".msg.them", { hasText: "Vou verificar o seu pedido." });
    await reply.waitFor({ timeout: 10_000 });
    await agentTyping.waitFor({ state: "hidden" });
    expect(await reply.locator(".who .name").innerText()).toBe(first_name);
    expect(await reply.locator(".av").innerText()).toBe(first_name.slice(0, 1).toUpperCase());
    const [sent] = await query<{ created_at: Date }>(`SELECT created_at FROM live_messages WHERE room_id = $1 AND author = 'agent'`, [room.id]);
    const hhmm = new Intl.DateTimeFormat("en-GB", { timeZone: "America/Sao_Paulo", hour: "2-digit", minute: "2-digit", hourCycle: "h23" }).format(sent.created_at);
    expect(await reply.locator("time").innerText()).toBe(hhmm);
    expect(await visitor.locator(".msg.me time").first().innerText()).toMatch(/^\d\d:\d\d$/);
    // Nothing of the agent's e-mail reaches the widget.
    expect(await visitor.locator(".win").textContent()).not.toContain(owner.email.split("@")[0]);
    // Sound on: the new agent message played a tone.
    await expect.poll(tones).toBe(1);
    await visitor.screenshot({ path: screenshotPath("widget-conversation-issue19"), fullPage: true });

    // Edit/Delete: only on the visitor's messages after the agent's last one.
    for (const text of ["Pedido 42", "Obrigada"]) {
      await input.fill(text);
      await input.press("Enter");
      await visitor.locator(".msg.me", { hasText: text }).waitFor();
    }
    const first = visitor.locator(".msg.me", { hasText: "Oi, meu pedido não chegou" });
    const last = visitor.locator(".msg.me", { hasText: "Obrigada" });
    const middle = visitor.locator(`.msg.me[data-id="${await visitor.locator(".msg.me", { hasText: "Pedido 42" }).getAttribute("data-id")}"]`);
    expect(await first.getByRole("button", { name: "Editar" }).count()).toBe(0);
    expect(await first.getByRole("button", { name: "Excluir" }).count()).toBe(0);
    expect(await visitor.getByRole("button", { name: "Editar" }).count()).toBe(2);
    // Hidden until hovered or focused from the keyboard.
    await visitor.mouse.move(0, 0);
    expect(await opacity(last.locator(".tools"))).toBe("0");
    await last.hover();
    await expect.poll(() => opacity(last.locator(".tools"))).toBe("1");
    await visitor.mouse.move(0, 0);
    await middle.getByRole("button", { name: "Editar" }).focus();
    await expect.poll(() => opacity(middle.locator(".tools"))).toBe("1");
    expect(await opacity(last.locator(".tools"))).toBe("0");
    await middle.getByRole("button", { name: "Editar" }).press("Enter");
    await visitor.getByText("Editando mensagem").waitFor();
    await input.fill("Pedido 43");
    await input.press("Enter");
    await middle.getByText("(editada)").waitFor();
    await last.getByRole("button", { name: "Excluir" }).click();
    await visitor.getByText("Mensagem excluída").waitFor();

    // The panel closed: agent messages count on the launcher, in its label too (plural-aware); opening clears it.
    const launcher = visitor.locator(".launcher");
    await launcher.click();
    await input.waitFor({ state: "hidden" });
    expect(await launcher.getAttribute("aria-label")).toBe("Abrir o chat");
    await composer.fill("Encontrei: chega amanhã.");
    await composer.press("Enter");
    await visitor.getByRole("button", { name: "Abrir o chat, 1 mensagem não lida" }).waitFor({ timeout: 10_000 });
    expect(await launcher.locator(".badge").innerText()).toBe("1");
    // An agent message after the visitor's: no Edit/Delete left.
    expect(await visitor.getByRole("button", { name: "Editar" }).count()).toBe(0);
    await composer.fill("Algo mais?");
    await composer.press("Enter");
    await visitor.getByRole("button", { name: "Abrir o chat, 2 mensagens não lidas" }).waitFor({ timeout: 10_000 });
    expect(await launcher.locator(".badge").innerText()).toBe("2");
    await expect.poll(tones).toBe(3);
    await launcher.click();
    await input.waitFor();
    expect(await launcher.getAttribute("aria-label")).toBe("Fechar o chat");
    expect(await launcher.locator(".badge").count()).toBe(0);

    // Sound off: kept over a reload; the next agent message shows without a tone.
    await sound.click();
    expect(await sound.getAttribute("aria-pressed")).toBe("false");
    await visitor.reload();
    await visitor.getByRole("button", { name: "Abrir o chat" }).click();
    expect(await sound.getAttribute("aria-pressed")).toBe("false");
    await visitor.locator(".msg.them", { hasText: "Algo mais?" }).waitFor();
    await composer.fill("Até logo!");
    await composer.press("Enter");
    // Positive signal: the message is on screen (the tone would have started in the same call).
    await visitor.locator(".msg.them", { hasText: "Até logo!" }).waitFor({ timeout: 10_000 });
    expect(await tones()).toBe(0);
    await agent.context().close();
    await visitor.context().close();
  });

  it("switches between the offline message and the greeting alone as an agent connects and leaves, without a reload", async () => {
    const owner = await registerPerson("e2ewavail");
    await giveOmni(owner.accountId);
    const { token } = await login(owner.email, owner.password);
    const as = (path: string, opts: Parameters<typeof api>[1] = {}) => api(path, { ...opts, token, account: owner.accountId });
    const widget = (await as("/api/live/widget")).body;
    const greeting = "Olá! Como podemos ajudar?";
    const offline = "Nenhum atendente agora; deixe sua mensagem.";
    expect((await as("/api/live/widget", { method: "PUT", body: { ...widget.settings, welcome: greeting, offline_message: offline } })).status).toBe(200);

    // The visitor opens the widget while no agent is connected: the greeting, then the offline message.
    const visitor = await newPage(browser());
    await visitor.goto(`/live/simulator?key=${widget.widget_key}`);
    await visitor.getByRole("button", { name: "Abrir o chat" }).click();
    const bubbles = visitor.locator(".list .msg");
    await expect.poll(() => bubbles.allInnerTexts()).toEqual([greeting, offline]);

    // An agent signs in and is Available on /live: the widget, still open, drops the offline message.
    const agent = await newPage(browser());
    await signIn(agent, owner);
    await agent.goto("/live");
    const status = agent.locator('[data-testid="live-header-status"][data-connection="open"]');
    await status.waitFor({ timeout: 15_000 });
    await expect.poll(() => status.textContent()).toContain("Disponível");
    // Re-read every 15 s (WIDGET_CONFIG_EVERY_MS) while the panel is open: within 30 s.
    await expect.poll(() => bubbles.allInnerTexts(), { timeout: 30_000 }).toEqual([greeting]);

    // The agent leaves (the connection closes): the offline message is back.
    await agent.context().close();
    await expect.poll(() => bubbles.allInnerTexts(), { timeout: 30_000 }).toEqual([greeting, offline]);
    await visitor.context().close();
  }, 120_000);

  it("works on another site whose CSP allows no inline script or style (the documented directives)", async () => {
    const owner = await registerPerson("e2ewcsp");
    await giveOmni(owner.accountId);
    const { token } = await login(owner.email, owner.password);
    const key = (await api("/api/live/widget", { token, account: owner.accountId })).body.widget_key as string;
    const origin = new URL(inject("webUrl")).origin;
    const ws = origin.replace(/^http/, "ws");
    // The customer's site: another origin on loopback, answering one page with its own policy.
    const csp = `default-src 'none'; script-src ${origin}; connect-src ${origin} ${ws}; img-src ${origin} data: blob:; media-src ${origin}; style-src 'self'`;
    const site = createServer((_req, res) => {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8", "content-security-policy": csp });
      res.end(
        `<!doctype html><html lang="pt-BR"><head><title>Loja</title></head><body><h1>Loja</h1><script src="${origin}/widget.js" data-key="${key}" async></script></body></html>`,
      );
    });
    await new Promise<void>((ok) => site.listen(0, "127.0.0.1", ok));
    const siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}/`;
    const page = await newPage(browser());
    // Every violation the page reports, from before the widget runs.
    await page.addInitScript(() => {
      const w = window as unknown as { __csp: string[] };
      w.__csp = [];
      document.addEventListener("securitypolicyviolation", (e) => w.__csp.push(`${e.violatedDirective} ${e.blockedURI}`));
    });
    const sockets: string[] = [];
    page.on("websocket", (w) => w.on("framereceived", () => sockets.push(w.url())));
    await page.goto(siteUrl);
    const launcher = page.getByRole("button", { name: "Abrir o chat" });
    await launcher.waitFor();
    // The styles applied (a constructed stylesheet): a round, fixed launcher.
    expect(await launcher.evaluate((el) => [getComputedStyle(el).position, getComputedStyle(el).borderRadius])).toEqual(["fixed", "50%"]);
    await launcher.click();
    const input = page.getByRole("textbox", { name: "Escreva uma mensagem…" });
    await input.fill("Oi pela loja");
    await input.press("Enter");
    await page.locator(".msg.me", { hasText: "Oi pela loja" }).waitFor();
    await page.getByText("Você é o 1º da fila").waitFor();
    // The live socket is up (a frame arrived on it), and nothing was refused.
    await expect.poll(() => sockets.some((u) => u.startsWith(`${ws}/realtime/ws?visitor=`))).toBe(true);
    expect(await page.evaluate(() => (window as unknown as { __csp: string[] }).__csp)).toEqual([]);
    await page.context().close();
    await new Promise((ok) => site.close(ok));
  });

  it("is styled without constructable stylesheets (Safari < 16.4): a <link> to APP/widget.css, under a CSP with style-src APP", async () => {
    const owner = await registerPerson("e2ewcss");
    await giveOmni(owner.accountId);
    const { token } = await login(owner.email, owner.password);
    const as = (path: string, opts: Parameters<typeof api>[1] = {}) => api(path, { ...opts, token, account: owner.accountId });
    const widget = (await as("/api/live/widget")).body;
    const colors = { ...widget.settings.colors, launcher: { bg: "#112233", text: "#fafafa" } };
    expect((await as("/api/live/widget", { method: "PUT", body: { ...widget.settings, colors } })).status).toBe(200);
    const origin = new URL(inject("webUrl")).origin;
    const ws = origin.replace(/^http/, "ws");
    const csp = `default-src 'none'; script-src ${origin}; connect-src ${origin} ${ws}; img-src ${origin} data: blob:; media-src ${origin}; style-src ${origin}`;
    const site = createServer((_req, res) => {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8", "content-security-policy": csp });
      res.end(
        `<!doctype html><html lang="pt-BR"><head><title>Loja</title></head><body><h1>Loja</h1><script src="${origin}/widget.js" data-key="${widget.widget_key}" async></script></body></html>`,
      );
    });
    await new Promise<void>((ok) => site.listen(0, "127.0.0.1", ok));
    const page = await newPage(browser());
    // A browser without constructable stylesheets, and every CSP violation, from before the widget runs.
    await page.addInitScript(() => {
      const w = window as unknown as { __csp: string[] };
      w.__csp = [];
      document.addEventListener("securitypolicyviolation", (e) => w.__csp.push(`${e.violatedDirective} ${e.blockedURI}`));
      for (const proto of [ShadowRoot.prototype, Document.prototype]) delete (proto as { adoptedStyleSheets?: unknown }).adoptedStyleSheets;
      delete (CSSStyleSheet.prototype as { replaceSync?: unknown }).replaceSync;
      delete (CSSStyleSheet.prototype as { replace?: unknown }).replace;
    });
    await page.goto(`http://127.0.0.1:${(site.address() as AddressInfo).port}/`);
    expect(await page.evaluate(() => "adoptedStyleSheets" in ShadowRoot.prototype || "replaceSync" in CSSStyleSheet.prototype)).toBe(false);
    const launcher = page.getByRole("button", { name: "Abrir o chat" });
    await launcher.waitFor();
    // The stylesheet is a file of ours, by its content hash.
    expect(await page.locator("link[rel=stylesheet]").getAttribute("href")).toMatch(new RegExp(`^${origin}/widget\\.css\\?v=[0-9a-f]{12}$`));
    // Styled once it loads: a round, fixed launcher in the account's launcher colors (set on the host through CSSOM).
    const look = () => launcher.evaluate((el) => ["position", "borderRadius", "backgroundColor", "color"].map((p) => getComputedStyle(el)[p as "position"]));
    await expect.poll(look).toEqual(["fixed", "50%", "rgb(17, 34, 51)", "rgb(250, 250, 250)"]);
    await launcher.click();
    await page.getByRole("textbox", { name: "Escreva uma mensagem…" }).waitFor();
    expect(await page.locator(".win").evaluate((el) => getComputedStyle(el).position)).toBe("fixed");
    expect(await page.evaluate(() => (window as unknown as { __csp: string[] }).__csp)).toEqual([]);
    // Served like the script: five minutes of cache, as CSS.
    const css = await fetch(`${origin}/widget.css`);
    expect(css.headers.get("content-type")).toMatch(/^text\/css/);
    expect(css.headers.get("cache-control")).toBe((await fetch(`${origin}/widget.js`)).headers.get("cache-control"));
    expect(await css.text()).toContain(".launcher{position:fixed");
    await page.context().close();
    await new Promise((ok) => site.close(ok));
  });
});
