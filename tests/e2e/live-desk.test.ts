/**
 * /live in Chromium with JavaScript: a visitor writes through the public widget API, the agent's
 * open workspace shows the room without a reload, the agent takes it and replies with Enter, and
 * the reply reaches the visitor's conversation.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { api, giveOmni, registerPerson, type Person } from "../support/api";
import { hasChromium, newPage, requireChromiumInCi, screenshotPath, useBrowser } from "../support/browser";
import { query } from "../support/db";

requireChromiumInCi();

let agent: Person;
let widgetKey: string;

beforeAll(async () => {
  agent = await registerPerson("livedesk-e2e");
  await giveOmni(agent.accountId);
  // Manual acceptance: the room waits in the queue for the agent to take it.
  [{ widget_key: widgetKey }] = await query<{ widget_key: string }>(
    `INSERT INTO live_settings (account_id, widget_key, acceptance_option) VALUES ($1, 'wk_' || md5(random()::text), 'manual')
     ON CONFLICT (account_id) DO UPDATE SET acceptance_option = 'manual' RETURNING widget_key`,
    [agent.accountId],
  );
});

describe.skipIf(!hasChromium)("/live in Chromium", () => {
  const browser = useBrowser();

  it("a visitor writes, the agent sees the room live, takes it and replies; the visitor gets the reply", async () => {
    const page = await newPage(browser());
    await page.goto("/login");
    await page.getByLabel("E-mail").fill(agent.email);
    await page.getByLabel("Senha").fill(agent.password);
    await page.getByRole("button", { name: "Entrar", exact: true }).click();
    await page.waitForURL((u) => u.pathname === "/");
    await page.goto("/live?tab=queue");
    await expect(page.getByTestId("room-list").textContent()).resolves.toContain("Ninguém aguardando na fila");
    // At connect the status is restored (default AVAILABLE) and kept in localStorage per user.
    for (let i = 0; i < 40; i++) {
      const [row] = await query<{ status: string }>(`SELECT status FROM live_agents WHERE account_id = $1 AND user_id = $2`, [agent.accountId, agent.userId]);
      if (row?.status === "AVAILABLE") break;
      await new Promise((r) => setTimeout(r, 100));
    }

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
    expect((await query<{ status: string; agent_id: string }>(`SELECT status, agent_id FROM live_rooms WHERE id = $1`, [room.id]))[0]).toEqual({ status: "OPEN", agent_id: agent.userId });

    // Shift+Enter is a new line; Enter sends.
    const composer = page.getByLabel("Mensagem", { exact: true });
    await composer.fill("Olá Joana!");
    await composer.press("Shift+Enter");
    await composer.type("Vou verificar agora.");
    await composer.press("Enter");
    await expect.poll(async () => (await composer.inputValue()), { timeout: 10_000 }).toBe("");
    await page.getByTestId("thread").getByText("Vou verificar agora.").waitFor();

    // The reply reached the visitor.
    await expect
      .poll(async () => {
        const conv = await api(`/api/widget/${widgetKey}/conversation?visitor_id=${visitor_id}&visitor_token=${visitor_token}`);
        return conv.body.messages.map((m: { author: string; body: string }) => `${m.author}:${m.body}`);
      }, { timeout: 10_000 })
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
});
