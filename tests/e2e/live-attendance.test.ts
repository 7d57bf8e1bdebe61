/**
 * Live attendance in Chromium with three browsers at once (issue 5 proof): a visitor writes, agent
 * Ana takes the room and replies, transfers it to agent Bruno who accepts in his own browser and
 * replies; the supervisor, with the room open, sees every step live; Bruno's realtime connection
 * drops, the workspace counts down and reconnects, and shows the message that arrived meanwhile.
 */
import type { Page, WebSocketRoute } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { api, giveOmni, registerPerson, type Person } from "../support/api";
import { hasChromium, newPage, requireChromiumInCi, screenshotPath, useBrowser } from "../support/browser";
import { query } from "../support/db";

requireChromiumInCi();

let owner: Person;
let ana: Person;
let bruno: Person;
let widgetKey: string;

async function addAgent(tag: string, firstName: string) {
  const person = await registerPerson(tag);
  await query(`INSERT INTO memberships (account_id, user_id, role, is_agent) VALUES ($1, $2, 'agent', true)`, [owner.accountId, person.userId]);
  await query(`UPDATE users SET current_account_id = $2, first_name = $3 WHERE id = $1`, [person.userId, owner.accountId, firstName]);
  return person;
}

async function signIn(page: Page, person: Person) {
  await page.goto("/login");
  await page.getByLabel("E-mail").fill(person.email);
  await page.getByLabel("Senha").fill(person.password);
  await page.getByRole("button", { name: "Entrar", exact: true }).click();
  await page.waitForURL((u) => u.pathname === "/");
}

const roomRow = async (id: string) => (await query<{ status: string; agent_id: string | null; locked: boolean }>(`SELECT status, agent_id, locked FROM live_rooms WHERE id = $1`, [id]))[0];

beforeAll(async () => {
  owner = await registerPerson("attend-owner");
  await giveOmni(owner.accountId);
  [{ widget_key: widgetKey }] = await query<{ widget_key: string }>(
    `INSERT INTO live_settings (account_id, widget_key, acceptance_option) VALUES ($1, md5(random()::text), 'manual')
     ON CONFLICT (account_id) DO UPDATE SET acceptance_option = 'manual' RETURNING widget_key`,
    [owner.accountId],
  );
  ana = await addAgent("attend-ana", "Ana");
  bruno = await addAgent("attend-bruno", "Bruno");
});

describe.skipIf(!hasChromium)("live attendance with three browsers", () => {
  const browser = useBrowser();

  it("take, reply, transfer, accept, supervise live; a dropped connection reconnects and shows what was missed", async () => {
    const anaPage = await newPage(browser());
    const brunoPage = await newPage(browser());
    const supPage = await newPage(browser());
    // Bruno's realtime socket goes through a route the test can cut (a dropped connection).
    let brunoSocket: WebSocketRoute | null = null;
    await brunoPage.routeWebSocket(/\/realtime\/ws/, (ws) => {
      brunoSocket = ws;
      ws.connectToServer();
    });
    for (const [page, person] of [[anaPage, ana], [brunoPage, bruno], [supPage, owner]] as const) await signIn(page, person);
    await anaPage.goto("/live?tab=queue");
    await brunoPage.goto("/live?tab=me");

    // The visitor writes; Ana sees it in her queue without a reload, and takes it.
    const first = await api(`/api/widget/${widgetKey}/messages`, { body: { name: "Carla Cliente", message: "Boa tarde, meu pedido 123 atrasou" } });
    expect(first.status).toBe(200);
    const { visitor_id, visitor_token, room } = first.body as { visitor_id: string; visitor_token: string; room: { id: string } };
    const conversation = async () =>
      (await api(`/api/widget/${widgetKey}/conversation?visitor_id=${visitor_id}&visitor_token=${visitor_token}`)).body.messages.map((m: { author: string; body: string }) => `${m.author}:${m.body}`);

    await anaPage.locator(`[data-room="${room.id}"]`).click({ timeout: 10_000 });
    await anaPage.getByRole("button", { name: "Assumir atendimento" }).click();
    await anaPage.waitForURL((u) => u.searchParams.get("tab") === "me" && u.searchParams.get("room") === room.id);

    // The supervisor opens the room and follows it live from here on.
    await supPage.goto(`/live?tab=me&room=${room.id}`);
    await supPage.getByTestId("thread").getByText("meu pedido 123 atrasou").waitFor();

    const anaComposer = anaPage.getByLabel("Mensagem", { exact: true });
    await anaComposer.fill("Olá Carla, sou a Ana. Vou passar para o Bruno, da logística.");
    await anaComposer.press("Enter");
    await supPage.getByTestId("thread").getByText("sou a Ana").waitFor({ timeout: 10_000 });

    // Ana transfers to Bruno: the room is locked until he answers.
    await anaPage.getByText("Transferir para agente").click();
    await anaPage.locator("#transfer-agent").selectOption(bruno.userId);
    await anaPage.getByRole("button", { name: "Transferir", exact: true }).click();
    await expect.poll(async () => (await roomRow(room.id)).locked, { timeout: 10_000 }).toBe(true);

    // Bruno is offered it live, opens it and accepts.
    const offer = brunoPage.getByTestId("incoming-transfers");
    await offer.waitFor({ timeout: 10_000 });
    await offer.getByRole("link").first().click();
    await brunoPage.getByRole("button", { name: "Aceitar" }).click();
    await expect.poll(async () => await roomRow(room.id), { timeout: 10_000 }).toMatchObject({ status: "OPEN", agent_id: bruno.userId, locked: false });
    await brunoPage.waitForURL((u) => u.searchParams.get("room") === room.id);

    const brunoComposer = brunoPage.getByLabel("Mensagem", { exact: true });
    await brunoComposer.fill("Oi Carla, Bruno aqui. Seu pedido sai hoje.");
    await brunoComposer.press("Enter");
    await supPage.getByTestId("thread").getByText("Bruno aqui").waitFor({ timeout: 10_000 });
    await expect.poll(conversation, { timeout: 10_000 }).toEqual([
      "visitor:Boa tarde, meu pedido 123 atrasou",
      "agent:Olá Carla, sou a Ana. Vou passar para o Bruno, da logística.",
      "agent:Oi Carla, Bruno aqui. Seu pedido sai hoje.",
    ]);

    // Bruno's connection drops. The workspace counts down, and the visitor writes meanwhile.
    await expect.poll(() => brunoSocket !== null).toBe(true);
    brunoSocket!.close({ code: 4000, reason: "test drop" });
    await brunoPage.getByTestId("live-connection").getByText(/Reconectando em \d+ s/).waitFor({ timeout: 10_000 });
    await api(`/api/widget/${widgetKey}/messages`, { body: { visitor_id, visitor_token, message: "Obrigada! Chega até amanhã?" } });
    // After the 10-second countdown it reconnects (the banner goes away) and shows what it missed.
    await brunoPage.getByTestId("live-connection").waitFor({ state: "detached", timeout: 25_000 });
    await brunoPage.getByTestId("thread").getByText("Chega até amanhã?").waitFor({ timeout: 10_000 });
    // Live again over the socket: a new message arrives without the banner coming back.
    await api(`/api/widget/${widgetKey}/messages`, { body: { visitor_id, visitor_token, message: "Perfeito, obrigada" } });
    await brunoPage.getByTestId("thread").getByText("Perfeito, obrigada").waitFor({ timeout: 10_000 });
    await expect(brunoPage.getByTestId("live-connection").count()).resolves.toBe(0);
    await supPage.getByTestId("thread").getByText("Chega até amanhã?").waitFor({ timeout: 10_000 });
    await brunoPage.screenshot({ path: screenshotPath("live-attendance-bruno"), fullPage: true });
    for (const p of [anaPage, brunoPage, supPage]) await p.context().close();
  }, 120_000);
});
