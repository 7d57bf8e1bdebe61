/**
 * A WhatsApp room on /live in Chromium (issue 16 proof), against the simulator's loopback Graph peer
 * (api/simulator/whatsapp-cloud.ts: tokens starting with "EAA", the app secret derived from the
 * simulator's key; templates approved shortly after they are submitted; sends answered by sent,
 * delivered and read webhooks). A number is connected through the API; a contact writes to it and
 * the room shows up in the agent's queue without a reload; the agent takes it, sees the contact's
 * 24-hour window open until a time (São Paulo), answers with text and sees it reach "read". The
 * window closes: free text is refused with the translated reason in the composer; opened again,
 * the room's composer says the window is closed and offers the approved template, whose variable
 * the agent fills; the rendered text appears in the thread and reaches "read". The contact writes
 * again: the window shows open again without a reload.
 */
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { simulatedAppSecret } from "../../api/simulator/whatsapp-cloud";
import { api, giveOmni, login, registerPerson, type Person } from "../support/api";
import { hasChromium, newPage, requireChromiumInCi, screenshotPath, signIn, useBrowser } from "../support/browser";
import { query } from "../support/db";
import { makeLiveSettings, setAccount } from "../support/factories";
import { handset } from "../support/whatsapp";

requireChromiumInCi();

const digits = (n: number) => Array.from({ length: n }, () => Math.floor(Math.random() * 10)).join("");

let agent: Person;
let token: string;
let numberId: string;
let phoneNumberId: string;
let wabaId: string;

beforeAll(async () => {
  agent = await registerPerson("live-wa-e2e");
  await giveOmni(agent.accountId);
  // A template is priced by its category and debited at accept.
  await setAccount(agent.accountId, { balance: 10_000 });
  // Manual acceptance: the room waits in the queue for the agent to take it.
  await makeLiveSettings(agent.accountId, { acceptanceOption: "manual" });
  ({ token } = await login(agent.email, agent.password));
  phoneNumberId = `1${digits(14)}`;
  wabaId = `2${digits(14)}`;
  const res = await api("/api/whatsapp/numbers", {
    token,
    body: { phone_number_id: phoneNumberId, waba_id: wabaId, access_token: `EAAG${digits(20)}`, app_secret: simulatedAppSecret(inject("simulatorApiKey")) },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  numberId = res.body.data.id;
});

/** A contact writes to the number through the peer (Meta's signed `messages` webhook to our URL). */
async function contactWrites(from: string, text: string, name: string) {
  const res = await fetch(new URL("/whatsapp/_sim/inbound", inject("simulatorUrl")), {
    method: "POST",
    headers: { Authorization: `Bearer ${inject("simulatorApiKey")}`, "Content-Type": "application/json" },
    body: JSON.stringify({ waba_id: wabaId, phone_number_id: phoneNumberId, from, text, name }),
  });
  expect(res.status).toBe(202);
}

/** The agent signs in on `page` (JavaScript on: connected, AVAILABLE), the contact writes, the room shows up in the queue and the agent takes it; answers the room's id. */
async function takeRoom(page: Page, from: string, text: string): Promise<string> {
  await signIn(page, agent);
  await page.goto("/live?tab=queue");
  // Connected: the status is restored at connect (AVAILABLE by default).
  await expect
    .poll(async () => (await query<{ status: string }>(`SELECT status FROM live_agents WHERE account_id = $1 AND user_id = $2`, [agent.accountId, agent.userId]))[0]?.status, {
      timeout: 15_000,
    })
    .toBe("AVAILABLE");
  // The contact writes: the room shows up in the queue without a reload.
  await contactWrites(from, text, "Joana Prado");
  let roomId = "";
  await expect
    .poll(
      async () =>
        (roomId =
          (
            await query<{ id: string }>(`SELECT id FROM live_rooms WHERE account_id = $1 AND channel = 'whatsapp' AND external_id = $2`, [agent.accountId, `${numberId}:${from}`])
          )[0]?.id ?? ""),
      { timeout: 20_000 },
    )
    .not.toBe("");
  await page.locator(`[data-room="${roomId}"]`).click({ timeout: 20_000 });
  await page.getByTestId("thread").getByText(text).waitFor();
  await page.getByRole("button", { name: "Assumir atendimento" }).click();
  await page.waitForURL((u) => u.searchParams.get("tab") === "me" && u.searchParams.get("room") === roomId);
  return roomId;
}

/** The agent's bubble in the thread with this text. */
const agentBubble = (page: Page, text: string) => page.getByTestId("thread").locator('[data-author="agent"]', { hasText: text });

describe.skipIf(!hasChromium)("a WhatsApp room on /live in Chromium", () => {
  const browser = useBrowser();

  it("the agent answers inside the window and follows it to read; outside it, free text is refused and an approved template goes", async () => {
    // The template the composer will offer once the window is closed (Meta approves it after a short delay).
    const created = await api("/api/whatsapp/templates", {
      token,
      body: {
        number_id: numberId,
        name: `retorno_${digits(6)}`,
        category: "utility",
        language: "pt_BR",
        body: "Olá {{1}}, podemos continuar seu atendimento?",
        body_examples: ["Ana"],
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const templateId: string = created.body.data.id;

    const page = await newPage(browser());
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    const from = handset();
    const roomId = await takeRoom(page, from, "Oi, meu pedido ainda não chegou");

    // The window: open until 24 hours after the contact's message, in São Paulo time.
    const [win] = await query<{ time: string; day: string }>(
      `SELECT to_char((last_inbound_at + interval '24 hours') AT TIME ZONE 'America/Sao_Paulo', 'HH24:MI') AS time,
              to_char((last_inbound_at + interval '24 hours') AT TIME ZONE 'America/Sao_Paulo', 'DD/MM/YY') AS day
         FROM whatsapp_windows WHERE number_id = $1 AND contact = $2`,
      [numberId, from],
    );
    const open = page.locator('[data-window="open"]');
    await open.waitFor();
    expect(await open.textContent()).toBe(`Janela de 24 horas do WhatsApp aberta até ${win.time} (${win.day}): texto livre permitido.`);

    // A text answer: a WhatsApp message that the peer reports sent, delivered and read.
    const composer = page.getByLabel("Mensagem", { exact: true });
    await composer.fill("Olá Joana! Seu pedido sai hoje.");
    await composer.press("Enter");
    await agentBubble(page, "Seu pedido sai hoje.").locator('[data-status="READ"]').waitFor({ timeout: 30_000 });
    await page.screenshot({ path: screenshotPath("live-whatsapp-open"), fullPage: true });

    // The window closes (a contact's last message 25 hours ago: no door of the product can date it;
    // the statement itself is the test's clock). The page still shows it open: free text is refused
    // and the composer says why, translated.
    await query(`UPDATE whatsapp_windows SET last_inbound_at = now() - interval '25 hours' WHERE number_id = $1 AND contact = $2`, [numberId, from]);
    await composer.fill("Ainda está aí?");
    await composer.press("Enter");
    await page.getByRole("alert").getByText("Informe um template antes de enviar (a janela de 24 horas do contato está fechada)").waitFor({ timeout: 15_000 });

    // The template is approved; the room opened again: the window is closed and only a template can be sent.
    await expect.poll(async () => (await api(`/api/whatsapp/templates/${templateId}`, { token })).body.data.status, { timeout: 30_000 }).toBe("approved");
    await page.reload();
    await page.locator('[data-window="closed"]').waitFor();
    expect(await page.locator('[data-window="closed"]').textContent()).toBe("Janela de 24 horas do WhatsApp fechada: só é possível enviar um modelo aprovado.");
    expect(await page.getByLabel("Mensagem", { exact: true }).count()).toBe(0);
    const picker = page.getByTestId("template-picker");
    await picker.getByLabel("Modelo aprovado").selectOption(templateId);
    expect(await picker.getByTestId("template-preview").textContent()).toBe("Olá {{1}}, podemos continuar seu atendimento?");
    await picker.getByLabel("Variável 1").fill("Joana");
    await expect.poll(() => picker.getByTestId("template-preview").textContent()).toBe("Olá Joana, podemos continuar seu atendimento?");
    await page.screenshot({ path: screenshotPath("live-whatsapp-template"), fullPage: true });
    await picker.getByRole("button", { name: "Enviar modelo" }).click();

    // The rendered text is the agent's message in the thread, and its ticks follow to read.
    await agentBubble(page, "Olá Joana, podemos continuar seu atendimento?").locator('[data-status="READ"]').waitFor({ timeout: 30_000 });
    const sent = await query<{ body: string; status: string; type: string }>(
      `SELECT l.body, l.status, m.type FROM live_messages l JOIN messages m ON m.id = l.message_id WHERE l.room_id = $1 AND l.author = 'agent' ORDER BY l.created_at`,
      [roomId],
    );
    expect(sent).toEqual([
      { body: "Olá Joana! Seu pedido sai hoje.", status: "READ", type: "text" },
      { body: "Olá Joana, podemos continuar seu atendimento?", status: "READ", type: "template" },
    ]);

    // The contact answers: the window opens again on screen without a reload, and free text is back.
    await contactWrites(from, "Sim, pode continuar", "Joana Prado");
    await page.getByTestId("thread").getByText("Sim, pode continuar").waitFor({ timeout: 20_000 });
    await page.locator('[data-window="open"]').waitFor({ timeout: 15_000 });
    await page.getByLabel("Mensagem", { exact: true }).waitFor();
    expect(await picker.count()).toBe(0);
    expect(errors).toEqual([]);
  });
  it("without JavaScript, the agent chooses another template, its own variables come with it, and it goes", async () => {
    const make = async (name: string, body: string, examples: string[]) => {
      const res = await api("/api/whatsapp/templates", { token, body: { number_id: numberId, name, category: "utility", language: "pt_BR", body, body_examples: examples } });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body.data.id as string;
    };
    const tag = digits(5);
    const first = await make(`a_aviso_${tag}`, "Oi {{1}}, tudo certo?", ["Ana"]);
    const second = await make(`b_pesquisa_${tag}`, "Olá {{1}}, de 0 a 10, que nota dá ao pedido {{2}}?", ["Ana", "42"]);
    for (const id of [first, second]) await expect.poll(async () => (await api(`/api/whatsapp/templates/${id}`, { token })).body.data.status, { timeout: 30_000 }).toBe("approved");
    const from = handset();
    const roomId = await takeRoom(await newPage(browser()), from, "Quero avaliar meu pedido");
    await query(`UPDATE whatsapp_windows SET last_inbound_at = now() - interval '25 hours' WHERE number_id = $1 AND contact = $2`, [numberId, from]);

    const page = await newPage(browser(), { javaScriptEnabled: false });
    await signIn(page, agent);
    await page.goto(`/live?tab=me&room=${roomId}`);
    const picker = page.getByTestId("template-picker");
    await picker.waitFor();
    // The first template is shown with its one variable; choosing the second brings the page back with its two.
    expect(await picker.getByLabel("Variável 2").count()).toBe(0);
    await picker.getByLabel("Modelo aprovado").selectOption(second);
    await picker.getByRole("button", { name: "Escolher" }).click();
    await page.waitForURL((u) => u.searchParams.get("template") === second);
    expect(await picker.getByTestId("template-preview").textContent()).toBe("Olá {{1}}, de 0 a 10, que nota dá ao pedido {{2}}?");
    await picker.getByLabel("Variável 1").fill("Joana");
    await picker.getByLabel("Variável 2").fill("4321");
    await picker.getByRole("button", { name: "Enviar modelo" }).click();
    await agentBubble(page, "Olá Joana, de 0 a 10, que nota dá ao pedido 4321?").waitFor({ timeout: 15_000 });
    const sent = await query<{ body: string; type: string; content: any }>(
      `SELECT l.body, m.type, m.content FROM live_messages l JOIN messages m ON m.id = l.message_id WHERE l.room_id = $1 AND l.author = 'agent'`,
      [roomId],
    );
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ body: "Olá Joana, de 0 a 10, que nota dá ao pedido 4321?", type: "template", content: { template: { name: `b_pesquisa_${tag}` } } });
  });
});
