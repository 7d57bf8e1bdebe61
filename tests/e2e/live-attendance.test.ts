/**
 * Live attendance in Chromium with four browsers at once (issue 5 proof): a visitor writes on the
 * webchat widget, agent Ana takes the room on /live and replies with text and a file, transfers
 * it to agent Bruno who accepts in his own browser and replies; the visitor sees every reply in
 * the widget; the supervisor, with the room open, sees every step live; Bruno's realtime
 * connection drops, the workspace counts down and reconnects, and shows the message the visitor
 * wrote meanwhile.
 */
import type { WebSocketRoute } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { giveOmni, registerPerson, type Person } from "../support/api";
import { hasChromium, newPage, requireChromiumInCi, screenshotPath, useBrowser, signIn } from "../support/browser";
import { query } from "../support/db";
import { addLiveAgent, makeLiveSettings } from "../support/factories";

requireChromiumInCi();

let owner: Person;
let ana: Person;
let bruno: Person;
let widgetKey: string;

async function addAgent(tag: string, firstName: string) {
  const person = await registerPerson(tag);
  await addLiveAgent(owner.accountId, person.userId, { firstName });
  return person;
}

/** A 1×1 PNG. */
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==", "base64");

const roomRow = async (id: string) =>
  (await query<{ status: string; agent_id: string | null; locked: boolean }>(`SELECT status, agent_id, locked FROM live_rooms WHERE id = $1`, [id]))[0];

beforeAll(async () => {
  owner = await registerPerson("attend-owner");
  await giveOmni(owner.accountId);
  widgetKey = await makeLiveSettings(owner.accountId, { acceptanceOption: "manual" });
  ana = await addAgent("attend-ana", "Ana");
  bruno = await addAgent("attend-bruno", "Bruno");
});

describe.skipIf(!hasChromium)("live attendance with three browsers", () => {
  const browser = useBrowser();

  it("take, reply, transfer, accept, supervise live; a dropped connection reconnects and shows what was missed", async () => {
    const anaPage = await newPage(browser());
    const brunoPage = await newPage(browser());
    const supPage = await newPage(browser());
    const visitorPage = await newPage(browser());
    // Bruno's realtime socket goes through a route the test can cut (a dropped connection).
    let brunoSocket: WebSocketRoute | null = null;
    await brunoPage.routeWebSocket(/\/realtime\/ws/, (ws) => {
      brunoSocket = ws;
      ws.connectToServer();
    });
    for (const [page, person] of [
      [anaPage, ana],
      [brunoPage, bruno],
      [supPage, owner],
    ] as const)
      await signIn(page, person);
    await anaPage.goto("/live?tab=queue");
    await brunoPage.goto("/live?tab=me");

    // The visitor opens the widget (hosted on /live/simulator) and writes; Ana sees the room in her queue without a reload.
    await visitorPage.goto(`/live/simulator?key=${widgetKey}`);
    await visitorPage.getByRole("button", { name: "Abrir o chat" }).click();
    const widgetInput = visitorPage.getByRole("textbox", { name: "Escreva uma mensagem…" });
    await widgetInput.fill("Boa tarde, meu pedido 123 atrasou");
    await widgetInput.press("Enter");
    await expect.poll(() => widgetInput.inputValue(), { timeout: 10_000 }).toBe("");
    let room = { id: "" };
    await expect
      .poll(async () => (room = (await query<{ id: string }>(`SELECT id FROM live_rooms WHERE account_id = $1`, [owner.accountId]))[0] ?? { id: "" }).id, { timeout: 10_000 })
      .not.toBe("");
    const [{ external_id: visitor_id }] = await query<{ external_id: string }>(`SELECT external_id FROM live_rooms WHERE id = $1`, [room.id]);
    const conversation = async () =>
      (await query<{ author: string; body: string }>(`SELECT author, body FROM live_messages WHERE room_id = $1 ORDER BY created_at, id`, [room.id])).map(
        (m) => `${m.author}:${m.body}`,
      );
    const widgetShows = (text: string) => visitorPage.locator(".msg.them").getByText(text).waitFor({ timeout: 20_000 });

    await anaPage.locator(`[data-room="${room.id}"]`).click({ timeout: 10_000 });
    await anaPage.getByRole("button", { name: "Assumir atendimento" }).click();
    await anaPage.waitForURL((u) => u.searchParams.get("tab") === "me" && u.searchParams.get("room") === room.id);

    // The supervisor opens the room and follows it live from here on.
    await supPage.goto(`/live?tab=me&room=${room.id}`);
    await supPage.getByTestId("thread").getByText("meu pedido 123 atrasou").waitFor();

    const anaComposer = anaPage.getByLabel("Mensagem", { exact: true });
    await anaComposer.fill("Olá Carla, sou a Ana. Vou passar para o Bruno, da logística.");
    await anaComposer.press("Enter");
    await supPage.getByTestId("thread").getByText("sou a Ana").waitFor({ timeout: 20_000 });
    await widgetShows("sou a Ana");

    // Ana sends a file: the visitor gets the image in the widget.
    await anaPage.locator("#attach-file").setInputFiles({ name: "etiqueta.png", mimeType: "image/png", buffer: PNG });
    await anaPage.getByRole("button", { name: "Enviar arquivo" }).click();
    await visitorPage.locator(".msg.them img").first().waitFor({ timeout: 20_000 });
    await supPage.getByTestId("thread").locator("img").first().waitFor({ timeout: 20_000 });

    // Ana transfers to Bruno: the room is locked until he answers.
    await anaPage.getByText("Transferir para agente").click();
    await anaPage.locator("#transfer-agent").selectOption(bruno.userId);
    await anaPage.getByRole("button", { name: "Transferir", exact: true }).click();
    await expect.poll(async () => (await roomRow(room.id)).locked, { timeout: 10_000 }).toBe(true);

    // Bruno is offered it live, opens it and accepts.
    const offer = brunoPage.getByTestId("incoming-transfers");
    await offer.waitFor({ timeout: 20_000 });
    await offer.getByRole("link").first().click();
    await brunoPage.getByRole("button", { name: "Aceitar" }).click();
    await expect.poll(async () => await roomRow(room.id), { timeout: 10_000 }).toMatchObject({ status: "OPEN", agent_id: bruno.userId, locked: false });
    await brunoPage.waitForURL((u) => u.searchParams.get("room") === room.id);

    const brunoComposer = brunoPage.getByLabel("Mensagem", { exact: true });
    await brunoComposer.fill("Oi Carla, Bruno aqui. Seu pedido sai hoje.");
    await brunoComposer.press("Enter");
    await supPage.getByTestId("thread").getByText("Bruno aqui").waitFor({ timeout: 20_000 });
    await widgetShows("Bruno aqui");
    await expect
      .poll(conversation, { timeout: 10_000 })
      .toEqual([
        "visitor:Boa tarde, meu pedido 123 atrasou",
        "agent:Olá Carla, sou a Ana. Vou passar para o Bruno, da logística.",
        "agent:",
        "agent:Oi Carla, Bruno aqui. Seu pedido sai hoje.",
      ]);

    // Bruno's connection drops. The workspace counts down, and the visitor writes meanwhile.
    await expect.poll(() => brunoSocket !== null).toBe(true);
    brunoSocket!.close({ code: 4000, reason: "test drop" });
    await brunoPage
      .getByTestId("live-connection")
      .getByText(/Reconectando em \d+ s/)
      .waitFor({ timeout: 20_000 });
    await widgetInput.fill("Obrigada! Chega até amanhã?");
    await widgetInput.press("Enter");
    // After the 10-second countdown it reconnects (the banner goes away) and shows what it missed.
    await brunoPage.getByTestId("live-connection").waitFor({ state: "detached", timeout: 25_000 });
    await brunoPage.getByTestId("thread").getByText("Chega até amanhã?").waitFor({ timeout: 20_000 });
    // Live again over the socket: a new message arrives without the banner coming back.
    await widgetInput.fill("Perfeito, obrigada");
    await widgetInput.press("Enter");
    await brunoPage.getByTestId("thread").getByText("Perfeito, obrigada").waitFor({ timeout: 20_000 });
    await expect(brunoPage.getByTestId("live-connection").count()).resolves.toBe(0);
    // The supervisor, whose connection never dropped, has both: the one written during the outage
    // (while its own page was refetching after Bruno went away) and the one after.
    await supPage.getByTestId("thread").getByText("Chega até amanhã?").waitFor({ timeout: 20_000 });
    await supPage.getByTestId("thread").getByText("Perfeito, obrigada").waitFor({ timeout: 20_000 });
    await brunoPage.screenshot({ path: screenshotPath("live-attendance-bruno"), fullPage: true });
    await visitorPage.screenshot({ path: screenshotPath("live-attendance-visitor"), fullPage: true });
    expect(visitor_id).toMatch(/^v_/);
    for (const p of [anaPage, brunoPage, supPage, visitorPage]) await p.context().close();
  }, 120_000);
});
