/**
 * /live in Chromium with JavaScript: a visitor writes through the public widget API, the agent's
 * open workspace shows the room without a reload, the agent takes it and replies with Enter, and
 * the reply reaches the visitor's conversation. Suggestion buttons: the agent offers them from the
 * composer (with JavaScript, and with a plain form post without it), the visitor taps one in the widget.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { api, giveOmni, registerPerson, type Person } from "../support/api";
import { hasChromium, newPage, requireChromiumInCi, screenshotPath, useBrowser, signIn, typeUntilShown } from "../support/browser";
import { query } from "../support/db";
import { makeLiveSettings } from "../support/factories";

requireChromiumInCi();

let agent: Person;
let widgetKey: string;

beforeAll(async () => {
  agent = await registerPerson("livedesk-e2e");
  await giveOmni(agent.accountId);
  // Manual acceptance: the room waits in the queue for the agent to take it.
  widgetKey = await makeLiveSettings(agent.accountId, { acceptanceOption: "manual" });
});

describe.skipIf(!hasChromium)("/live in Chromium", () => {
  const browser = useBrowser();

  it("a visitor writes, the agent sees the room live, takes it and replies; the visitor gets the reply", async () => {
    const page = await newPage(browser());
    await signIn(page, agent);
    await page.goto("/live?tab=queue");
    await expect(page.getByTestId("room-list").textContent()).resolves.toContain("Ninguém aguardando na fila");
    // At connect the status is restored (default AVAILABLE) and kept in localStorage per user.
    await expect
      .poll(async () => (await query<{ status: string }>(`SELECT status FROM live_agents WHERE account_id = $1 AND user_id = $2`, [agent.accountId, agent.userId]))[0]?.status, {
        timeout: 15_000,
        interval: 100,
      })
      .toBe("AVAILABLE");

    // The visitor writes through the public widget API while the page is open.
    const first = await api(`/api/widget/${widgetKey}/messages`, { body: { name: "Joana Visitante", message: "Oi, *preciso* de ajuda com meu pedido" } });
    expect(first.status).toBe(200);
    const { visitor_id, visitor_token, room } = first.body as { visitor_id: string; visitor_token: string; room: { id: string; protocol: string } };

    // No reload: the queue refreshes by itself.
    const item = page.locator(`[data-room="${room.id}"]`);
    await item.waitFor({ timeout: 10_000 });
    await expect(page.getByTestId("count-queue").textContent()).resolves.toBe("1");
    await expect.poll(() => page.title(), { timeout: 10_000 }).toMatch(/^\(\d+\) /);
    await item.click();
    await page.waitForURL((u) => u.searchParams.get("room") === room.id);
    await expect(page.getByTestId("thread").innerHTML()).resolves.toContain("<strong>preciso</strong>");

    await page.getByRole("button", { name: "Assumir atendimento" }).click();
    await page.waitForURL((u) => u.searchParams.get("tab") === "me" && u.searchParams.get("room") === room.id);
    expect((await query<{ status: string; agent_id: string }>(`SELECT status, agent_id FROM live_rooms WHERE id = $1`, [room.id]))[0]).toEqual({
      status: "OPEN",
      agent_id: agent.userId,
    });

    // Shift+Enter is a new line; Enter sends.
    const composer = page.getByLabel("Mensagem", { exact: true });
    await composer.fill("Olá Joana!");
    await composer.press("Shift+Enter");
    await composer.type("Vou verificar agora.");
    await composer.press("Enter");
    await expect.poll(async () => await composer.inputValue(), { timeout: 10_000 }).toBe("");
    await page.getByTestId("thread").getByText("Vou verificar agora.").waitFor();

    // The reply reached the visitor.
    await expect
      .poll(
        async () => {
          const conv = await api(`/api/widget/${widgetKey}/conversation?visitor_id=${visitor_id}&visitor_token=${visitor_token}`);
          return conv.body.messages.map((m: { author: string; body: string }) => `${m.author}:${m.body}`);
        },
        { timeout: 10_000 },
      )
      .toEqual(["visitor:Oi, *preciso* de ajuda com meu pedido", "agent:Olá Joana!\nVou verificar agora."]);

    // The visitor's message on screen was acknowledged: DELIVERED after 500 ms, then READ (room open and focused).
    await expect
      .poll(async () => (await query<{ status: string }>(`SELECT status FROM live_messages WHERE room_id = $1 AND author = 'visitor'`, [room.id]))[0].status, { timeout: 10_000 })
      .toBe("READ");

    // A second visitor message arrives live in the open thread.
    await api(`/api/widget/${widgetKey}/messages`, { body: { visitor_id, visitor_token, message: "Obrigada!" } });
    await page.getByTestId("thread").getByText("Obrigada!").waitFor({ timeout: 10_000 });
    await page.screenshot({ path: screenshotPath("live-desk"), fullPage: true });
    await page.context().close();
  });

  it("suggestion buttons: offered from the composer, shown in the thread, tapped by the visitor in the widget (and posted without JavaScript)", async () => {
    const owner = await registerPerson("livedesk-sug");
    await giveOmni(owner.accountId);
    const key = await makeLiveSettings(owner.accountId, { acceptanceOption: "manual" });
    // The visitor starts on the widget.
    const visitor = await newPage(browser());
    await visitor.goto(`/live/simulator?key=${key}`);
    await visitor.getByRole("button", { name: "Abrir o chat" }).click();
    const input = visitor.getByRole("textbox", { name: "Escreva uma mensagem…" });
    await input.fill("Meu pedido atrasou");
    await input.press("Enter");
    await expect.poll(async () => (await query(`SELECT 1 FROM live_rooms WHERE account_id = $1`, [owner.accountId])).length).toBe(1);
    const [room] = await query<{ id: string }>(`SELECT id FROM live_rooms WHERE account_id = $1`, [owner.accountId]);

    for (const js of [true, false]) {
      const page = await newPage(browser(), { javaScriptEnabled: js });
      await signIn(page, owner);
      if (js) {
        await page.goto(`/live?tab=queue&room=${room.id}`);
        await page.getByRole("button", { name: "Assumir atendimento" }).click();
        await page.waitForURL((u) => u.searchParams.get("tab") === "me" && u.searchParams.get("room") === room.id);
      } else {
        await page.goto(`/live?tab=me&room=${room.id}`);
      }
      await page.getByText("Botões de sugestão").click();
      const field = page.getByLabel("Sugestões (uma por linha)");
      const composer = page.getByLabel("Mensagem", { exact: true });
      if (js) {
        // "Typing…" both ways: the visitor types in the widget, the agent sees it under the thread; and back.
        // (A person keeps typing: each side signals at most every 2.5 s while its input changes.)
        await typeUntilShown(input, page.getByTestId("typing").getByText(/está digitando…/));
        const [{ first_name }] = await query<{ first_name: string }>(`SELECT first_name FROM users WHERE id = $1`, [owner.userId]);
        await typeUntilShown(page.getByLabel("Mensagem", { exact: true }), visitor.getByText(`${first_name} está digitando…`));
        await page.getByLabel("Mensagem", { exact: true }).fill("");
        await input.fill("");
        // Twelve is one too many: the agent is told before anything leaves.
        await field.fill(Array.from({ length: 12 }, (_, i) => `Opção ${i + 1}`).join("\n"));
        await composer.fill("Escolha uma opção");
        await composer.press("Enter");
        await page.getByText("No máximo 11 itens").waitFor();
        expect(await query(`SELECT 1 FROM live_messages WHERE room_id = $1 AND author = 'agent'`, [room.id])).toHaveLength(0);
        await field.fill("Reembolso\nNova entrega\n\nFalar com gerente");
        await composer.fill("Como prefere resolver?");
        await composer.press("Enter");
        await expect.poll(async () => composer.inputValue(), { timeout: 10_000 }).toBe("");
        const offered = page.getByTestId("thread").locator("[data-suggestions]").last();
        await offered.waitFor();
        expect(await offered.locator("li").allInnerTexts()).toEqual(["Reembolso", "Nova entrega", "Falar com gerente"]);
        await page.screenshot({ path: screenshotPath("live-desk-suggestions"), fullPage: true });

        // The widget shows them as buttons under the agent's message; a tap answers with its text.
        const chip = visitor.getByRole("button", { name: "Nova entrega", exact: true });
        await chip.waitFor({ timeout: 10_000 });
        await visitor.screenshot({ path: screenshotPath("widget-suggestions"), fullPage: true });
        await chip.click();
        await visitor.locator(".msg.me", { hasText: "Nova entrega" }).waitFor();
        await chip.waitFor({ state: "detached" });
        await page.getByTestId("thread").locator('[data-author="visitor"]', { hasText: "Nova entrega" }).waitFor({ timeout: 10_000 });
      } else {
        // Without JavaScript the same fields post as a plain form.
        await field.fill("Sim\nNão");
        await composer.fill("Posso encerrar?");
        await page.getByRole("button", { name: "Enviar", exact: true }).click();
        await page.getByTestId("thread").getByText("Posso encerrar?").waitFor();
        const [last] = await query<{ body: string; suggestions: string[] }>(
          `SELECT body, suggestions FROM live_messages WHERE room_id = $1 AND author = 'agent' ORDER BY created_at DESC LIMIT 1`,
          [room.id],
        );
        expect(last).toEqual({ body: "Posso encerrar?", suggestions: ["Sim", "Não"] });
        await visitor.getByRole("button", { name: "Sim", exact: true }).waitFor({ timeout: 10_000 });
      }
      await page.context().close();
    }
    await visitor.context().close();
  });
});
