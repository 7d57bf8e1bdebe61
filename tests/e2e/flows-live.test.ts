/**
 * Issue 20's proof in Chromium: a small flow built on the canvas and published answers a visitor
 * on /live/simulator (its question's choices are the widget's suggestion buttons; the tap comes
 * back as the answer) and hands the visitor to the team: the agent finds the room in /live's queue
 * with the bot's part of the conversation, takes it and answers. Then the demo account's welcome
 * flow (seeds/demo.ts), active on its webchat as `npm start` leaves it: it greets, offers buttons,
 * answers "Horários" itself (and closes the conversation) and hands off on "Falar com uma pessoa".
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { giveOmni, registerPerson } from "../support/api";
import { hasChromium, newPage, requireChromiumInCi, screenshotPath, signIn, useBrowser } from "../support/browser";
import { query } from "../support/db";
import { makeDepartment, makeLiveSettings } from "../support/factories";

requireChromiumInCi();

const panel = (page: Page) => page.getByTestId("flow-panel");
const pick = (page: Page, id: string) => panel(page).getByLabel("Passo", { exact: true }).selectOption(id);

/** A visitor on /live/simulator with the widget open; answers the message box. */
async function openWidget(page: Page, key: string) {
  await page.goto(`/live/simulator?key=${key}`);
  await page.getByRole("button", { name: "Abrir o chat" }).click();
  const input = page.getByRole("textbox", { name: "Escreva uma mensagem…" });
  await input.waitFor();
  return input;
}

const roomsOf = (accountId: string) => query<{ id: string; status: string }>(`SELECT id, status FROM live_rooms WHERE account_id = $1 ORDER BY created_at`, [accountId]);

describe.skipIf(!hasChromium)("flows answer on the webchat and hand off to the team (issue 20)", () => {
  const browser = useBrowser();

  it("a flow built on the canvas and published talks to the visitor in /live/simulator and hands them to an agent who sees the bot's part in /live", async () => {
    const owner = await registerPerson("flows-live");
    await giveOmni(owner.accountId);
    const key = await makeLiveSettings(owner.accountId, { acceptanceOption: "manual" });
    const sales = await makeDepartment(owner.accountId, "Vendas");

    // Build: start -> a question with two choices -> hand-off on the answer.
    const author = await newPage(browser());
    await signIn(author, owner);
    await author.goto("/flows/create");
    await author.getByLabel("Nome", { exact: true }).fill("Triagem");
    await author.getByLabel("Canal", { exact: true }).selectOption({ label: "Webchat" });
    await author.getByRole("button", { name: "Criar fluxo" }).click();
    await author.waitForURL((u) => /^\/flows\/[0-9a-f-]{36}$/.test(u.pathname));
    await author.getByTestId("flow-canvas").waitFor();
    await author.getByRole("button", { name: "+ Pergunta" }).click();
    await author.getByTestId("step-question-1").waitFor();
    await panel(author).getByLabel("Texto", { exact: true }).fill("Oi! Quer falar com uma pessoa?");
    await panel(author).getByLabel("Tipo de resposta", { exact: true }).selectOption("choice");
    await panel(author).getByLabel("Opções", { exact: true }).fill("Sim, por favor\nNão");
    await panel(author).getByLabel("Nome da variável ou campo", { exact: true }).fill("quer");
    await author.getByRole("button", { name: "+ Passar para a equipe" }).click();
    await author.getByTestId("step-handoff-1").waitFor();
    await panel(author).getByLabel("Mensagem", { exact: true }).fill("Certo! Já chamo alguém da equipe.");
    await panel(author).getByLabel("Departamento", { exact: true }).selectOption({ label: "Vendas" });
    await pick(author, "question-1");
    await panel(author).getByLabel("Saída resposta vai para").selectOption("handoff-1");
    await pick(author, "start");
    await panel(author).getByLabel("Saída seguir vai para").selectOption("question-1");
    await expect.poll(() => author.getByTestId("flow-check").textContent()).toBe("Pronto para publicar");
    await author.getByRole("button", { name: "Publicar" }).click();
    await author.getByText("Versão 1 publicada").first().waitFor();
    await expect.poll(() => author.getByTestId("flow-status").textContent()).toBe("Ativo");

    // Talk: the visitor writes; the bot asks, its choices are buttons; the tap is the answer.
    const visitor = await newPage(browser());
    const input = await openWidget(visitor, key);
    await input.fill("Boa tarde");
    await input.press("Enter");
    await visitor.locator(".msg.them", { hasText: "Quer falar com uma pessoa?" }).waitFor({ timeout: 15_000 });
    const chip = visitor.locator(".chip", { hasText: "Sim, por favor" });
    await chip.waitFor();
    expect(await visitor.locator(".chip").allInnerTexts()).toEqual(["Sim, por favor", "Não"]);
    await expect.poll(async () => (await roomsOf(owner.accountId)).map((r) => r.status)).toEqual(["BOT"]);
    await chip.click();
    await visitor.locator(".msg.me", { hasText: "Sim, por favor" }).waitFor();
    await visitor.locator(".msg.them", { hasText: "Já chamo alguém da equipe." }).waitFor({ timeout: 15_000 });
    // Handed off: the room waits in the queue like any other.
    await expect.poll(async () => (await roomsOf(owner.accountId)).map((r) => r.status), { timeout: 15_000 }).toEqual(["QUEUE"]);
    const [room] = await roomsOf(owner.accountId);
    // In the queue of the department the hand-off step names.
    expect((await query<{ department_id: string }>(`SELECT department_id FROM live_rooms WHERE id = $1`, [room.id]))[0].department_id).toBe(sales);
    const [stream] = await query<{ status: string; vars: Record<string, string> }>(`SELECT status, vars FROM flow_streams WHERE room_id = $1`, [room.id]);
    expect(stream).toEqual({ status: "handed_off", vars: { quer: "Sim, por favor" } });
    await visitor.screenshot({ path: screenshotPath("flows-live-visitor"), fullPage: true });

    // The agent: the room in the queue shows the bot's part and the visitor's; they take it and answer.
    const agent = await newPage(browser());
    await signIn(agent, owner);
    await agent.goto(`/live?tab=queue&room=${room.id}`);
    const bot = agent.locator('[data-author="bot"]');
    await expect
      .poll(() => bot.allInnerTexts().then((t) => t.map((x) => x.split("\n").filter(Boolean).slice(0, 2).join(" | "))))
      .toEqual(["Robô | Oi! Quer falar com uma pessoa?", "Robô | Certo! Já chamo alguém da equipe."]);
    await agent.locator('[data-author="visitor"]', { hasText: "Sim, por favor" }).waitFor();
    await agent.locator('[data-author="visitor"]', { hasText: "Boa tarde" }).waitFor();
    await agent.getByRole("button", { name: "Assumir atendimento" }).click();
    await agent.waitForURL((u) => u.searchParams.get("tab") === "me" && u.searchParams.get("room") === room.id);
    const composer = agent.getByLabel("Mensagem", { exact: true });
    await composer.fill("Olá, sou da equipe. Como posso ajudar?");
    await composer.press("Enter");
    await visitor.locator(".msg.them", { hasText: "sou da equipe" }).waitFor({ timeout: 15_000 });
    await agent.screenshot({ path: screenshotPath("flows-live-agent"), fullPage: true });

    // The author follows it: the report counts one stream handed off at the hand-off step, and the
    // stream view shows the path with the variable the answer set.
    const flowId = new URL(author.url()).pathname.split("/").pop()!;
    await author.goto(`/flows/reports?flow=${flowId}`);
    const perFlow = author.locator(`[data-testid="report-flow"][data-flow-id="${flowId}"]`);
    await perFlow.waitFor();
    const funnel = author.locator(`[data-testid="report-funnel"][data-flow-id="${flowId}"]`);
    await funnel.waitFor();
    await author.screenshot({ path: screenshotPath("flows-live-reports"), fullPage: true });
    await author.locator('[data-testid="report-stream"] a').first().click();
    await author.waitForURL((u) => u.pathname.startsWith(`/flows/${flowId}/stream/`));
    await expect.poll(() => author.getByTestId("stream-status").getAttribute("data-status")).toBe("handed_off");
    expect(await author.getByTestId("stream-step").evaluateAll((rows) => rows.map((r) => r.getAttribute("data-node")))).toEqual(
      (await query<{ node_id: string }>(`SELECT node_id FROM flow_steps WHERE stream_id = (SELECT id FROM flow_streams WHERE room_id = $1) ORDER BY seq`, [room.id])).map(
        (r) => r.node_id,
      ),
    );
    expect(await author.getByTestId("step-vars").last().textContent()).toContain("Sim, por favor");
    await author.screenshot({ path: screenshotPath("flows-live-stream"), fullPage: true });
  });

  it("the demo account's welcome flow greets, answers 'Horários' itself and hands off on 'Falar com uma pessoa'", async () => {
    const [demo] = await query<{ account_id: string; widget_key: string }>(
      `SELECT s.account_id, s.widget_key FROM live_settings s JOIN memberships m ON m.account_id = s.account_id JOIN users u ON u.id = m.user_id
        WHERE u.email = 'owner@demo.example'`,
    );
    const [flow] = await query<{ status: string; channel: string; trigger: string; published_version: number }>(
      `SELECT status, channel, trigger, published_version FROM flows WHERE account_id = $1 AND name = 'Boas-vindas'`,
      [demo.account_id],
    );
    expect(flow).toEqual({ status: "active", channel: "webchat", trigger: "inbound", published_version: 1 });

    // A visitor who asks for the opening hours: the bot answers and says goodbye.
    const first = await newPage(browser());
    const input = await openWidget(first, demo.widget_key);
    await input.fill("Oi");
    await input.press("Enter");
    await first.locator(".msg.them", { hasText: "Que bom ter você por aqui." }).waitFor({ timeout: 15_000 });
    await first.locator(".msg.them", { hasText: "Como podemos ajudar?" }).waitFor();
    expect(await first.locator(".chip").allInnerTexts()).toEqual(["Horários", "Falar com uma pessoa"]);
    await first.locator(".chip", { hasText: "Horários" }).click();
    await first.locator(".msg.them", { hasText: "Atendemos de segunda a sexta, das 8h às 18h." }).waitFor({ timeout: 15_000 });
    await first.locator(".msg.them", { hasText: "Obrigado pelo contato!" }).waitFor();

    // Another visitor asks for a person: handed to the team.
    const second = await newPage(browser());
    const input2 = await openWidget(second, demo.widget_key);
    const said = `Olá, preciso de ajuda ${Date.now()}`;
    await input2.fill(said);
    await input2.press("Enter");
    await second.locator(".chip", { hasText: "Falar com uma pessoa" }).click();
    await second.locator(".msg.them", { hasText: "Um momento, vamos chamar alguém da equipe." }).waitFor({ timeout: 15_000 });
    await expect
      .poll(
        async () =>
          (
            await query<{ status: string; stream: string }>(
              `SELECT r.status, s.status AS stream FROM live_rooms r JOIN flow_streams s ON s.room_id = r.id
                WHERE r.account_id = $1 AND EXISTS (SELECT 1 FROM live_messages m WHERE m.room_id = r.id AND m.author = 'visitor' AND m.body = $2)`,
              [demo.account_id, said],
            )
          ).map((r) => `${r.status === "CLOSED" ? "CLOSED" : "with the team"}:${r.stream}`),
        { timeout: 15_000 },
      )
      .toEqual(["with the team:handed_off"]);
  });
});
