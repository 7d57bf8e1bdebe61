/**
 * The live screens driven like a browser with JavaScript off (plain GETs and form posts with the
 * CSRF field): take a queued room, reply, close with and without a required tabulation, transfer
 * to another agent who accepts, and the supervisor, dashboard and transcript screens. Effects are
 * checked in the database and through the visitor's own view of the conversation.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { api, giveOmni, registerPerson, type Person } from "../support/api";
import { query } from "../support/db";
import { location, signIn, type WebClient } from "../support/web";
import { addLiveAgent, makeLiveSettings, makeTabulation, setLiveAgents, setLiveSettings } from "../support/factories";

let owner: Person;
let accountId: string;
let widgetKey: string;
let ana: { person: Person; web: WebClient };
let bruno: { person: Person; web: WebClient };
let ownerWeb: WebClient;

const visible = (html: string) => html.replace(/<script[\s\S]*?<\/script>/g, "");
const room = async (id: string) => (await query<Record<string, any>>(`SELECT * FROM live_rooms WHERE id = $1`, [id]))[0];

async function addAgent(tag: string) {
  const person = await registerPerson(tag);
  await addLiveAgent(accountId, person.userId);
  return { person, web: await signIn(person.email, person.password) };
}

let seq = 0;
async function visitor(message = "Olá, preciso de ajuda") {
  const res = await api(`/api/widget/${widgetKey}/messages`, { body: { name: `Cliente Web ${++seq}`, email: `cliente${seq}@example.com`, message } });
  expect(res.status).toBe(200);
  return res.body as { visitor_id: string; visitor_token: string; room: { id: string; protocol: string } };
}

beforeAll(async () => {
  owner = await registerPerson("liveweb-owner");
  accountId = owner.accountId;
  await giveOmni(accountId);
  widgetKey = await makeLiveSettings(accountId, { acceptanceOption: "manual" });
  ana = await addAgent("liveweb-ana");
  bruno = await addAgent("liveweb-bruno");
  ownerWeb = await signIn(owner.email, owner.password);
});

/** A 1×1 PNG. */
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==", "base64");

describe("/live file sending without JavaScript", () => {
  it("the agent sends an image with a caption from the attach form; a file of another type is refused, translated, and nothing is stored", async () => {
    const v = await visitor("Pode mandar a foto?");
    await ana.web.post(`/live?index&tab=queue&room=${v.room.id}`, { intent: "take", room_id: v.room.id });
    const form = new FormData();
    form.set("intent", "upload");
    form.set("room_id", v.room.id);
    form.set("body", "Segue a foto");
    form.set("file", new File([PNG], "produto.png", { type: "image/png" }));
    const sent = await ana.web.postMultipart(`/live?index&tab=me&room=${v.room.id}`, form);
    expect(sent.status).toBe(302);
    const conv = await api(`/api/widget/${widgetKey}/conversation?visitor_id=${v.visitor_id}&visitor_token=${v.visitor_token}`);
    const last = conv.body.messages.at(-1);
    expect(last).toMatchObject({ author: "agent", body: "Segue a foto" });
    expect(last.attachments).toEqual([expect.objectContaining({ type: "image", media_type: "image/png", name: "produto.png", size: PNG.length })]);
    // The thread shows the image.
    expect(visible((await ana.web.page(`/live?tab=me&room=${v.room.id}`)).html)).toMatch(/<img[^>]+src="\/api\/live\/files\//);

    const bad = new FormData();
    bad.set("intent", "upload");
    bad.set("room_id", v.room.id);
    bad.set("file", new File([Buffer.from("MZ not an accepted file")], "virus.exe", { type: "application/octet-stream" }));
    const refused = await ana.web.postMultipart(`/live?index&tab=me&room=${v.room.id}`, bad);
    expect(refused.status).toBe(415);
    expect(await refused.text()).toContain("errors.LIVE_FILE_TYPE");
    expect((await query(`SELECT 1 FROM live_messages WHERE room_id = $1`, [v.room.id])).length).toBe(2);
  });
});

describe("/live without JavaScript", () => {
  it("shows the queue; the agent takes a room, replies, and the visitor gets the reply", async () => {
    const v = await visitor("Meu pedido não chegou");
    const queue = await ana.web.page(`/live?tab=queue`);
    expect(queue.res.status).toBe(200);
    const html = visible(queue.html);
    expect(html).toContain("Cliente Web");
    expect(html).toContain(v.room.protocol);
    // The page title carries queued + unread.
    expect(queue.html).toMatch(/<title>\(\d+\) Atendimento/);

    const opened = visible((await ana.web.page(`/live?tab=queue&room=${v.room.id}`)).html);
    expect(opened).toContain("Meu pedido não chegou");
    expect(opened).toContain("Assumir atendimento");
    expect(opened).toContain(`action="/live?index&amp;tab=queue&amp;room=${v.room.id}"`);

    // Without the CSRF field nothing happens.
    expect((await ana.web.post(`/live?index&tab=queue&room=${v.room.id}`, { intent: "take", room_id: v.room.id }, { csrf: null })).status).toBe(403);
    expect((await room(v.room.id)).status).toBe("QUEUE");

    const took = await ana.web.post(`/live?index&tab=queue&room=${v.room.id}`, { intent: "take", room_id: v.room.id });
    expect(took.status).toBe(302);
    expect(location(took)).toBe(`/live?tab=me&room=${v.room.id}`);
    expect(await room(v.room.id)).toMatchObject({ status: "OPEN", agent_id: ana.person.userId });

    const sent = await ana.web.post(`/live?index&tab=me&room=${v.room.id}`, { intent: "send", room_id: v.room.id, body: "Olá! Vou verificar *agora*." });
    expect(sent.status).toBe(302);
    const conv = await api(`/api/widget/${widgetKey}/conversation?visitor_id=${v.visitor_id}&visitor_token=${v.visitor_token}`);
    expect(conv.body.messages.map((m: { author: string; body: string }) => `${m.author}:${m.body}`)).toEqual([
      "visitor:Meu pedido não chegou",
      "agent:Olá! Vou verificar *agora*.",
    ]);

    // The thread renders the markup (escaped) and the reply's status tick.
    const page = visible((await ana.web.page(`/live?tab=me&room=${v.room.id}`)).html);
    expect(page).toContain("Olá! Vou verificar <strong>agora</strong>.");
    expect(page).toContain('data-status="SENT"');

    // An empty message is refused with a translated error, and nothing is stored.
    const empty = await ana.web.post(`/live?index&tab=me&room=${v.room.id}`, { intent: "send", room_id: v.room.id, body: "   " });
    expect(empty.status).toBe(422);
    expect((await query(`SELECT 1 FROM live_messages WHERE room_id = $1`, [v.room.id])).length).toBe(2);
    // Another agent cannot write in Ana's room.
    const intruder = await bruno.web.post(`/live?index&tab=me&room=${v.room.id}`, { intent: "send", room_id: v.room.id, body: "intruso" });
    expect(intruder.status).toBe(403);
  });

  it("closing without a required tabulation shows 'Add a tabulation before finalizing'; with one it closes", async () => {
    await setLiveSettings(accountId, { tabulationRequired: true });
    const v = await visitor("Quero cancelar");
    await ana.web.post(`/live?index&tab=queue&room=${v.room.id}`, { intent: "take", room_id: v.room.id });
    const refused = await ana.web.post(`/live?index&tab=me&room=${v.room.id}`, { intent: "close", room_id: v.room.id, tabulation_id: "" });
    expect(refused.status).toBe(422);
    expect(visible(await refused.text())).toContain("Adicione uma tabulação antes de finalizar");
    expect((await room(v.room.id)).status).toBe("OPEN");

    const tab = await makeTabulation(accountId, "Cancelamento");
    const closed = await ana.web.post(`/live?index&tab=me&room=${v.room.id}`, { intent: "close", room_id: v.room.id, tabulation_id: tab });
    expect(closed.status).toBe(302);
    expect(await room(v.room.id)).toMatchObject({ status: "CLOSED", tabulation_id: tab });
    await setLiveSettings(accountId, { tabulationRequired: false });
  });

  it("the room panel's contact form (no JavaScript) saves the visitor's name, e-mail and phone; a bad e-mail is shown translated and nothing changes", async () => {
    const v = await visitor("Podem me ligar?");
    await ana.web.post(`/live?index&tab=queue&room=${v.room.id}`, { intent: "take", room_id: v.room.id });
    const form = visible((await ana.web.page(`/live?tab=me&room=${v.room.id}`)).html);
    expect(form).toContain("Editar contato");
    const bad = await ana.web.post(`/live?index&tab=me&room=${v.room.id}`, { intent: "contact", room_id: v.room.id, username: "João Lima", email: "joao@", phone: "" });
    expect(bad.status).toBe(422);
    expect(visible(await bad.text())).toContain("E-mail inválido");
    const before = await room(v.room.id);
    expect(before.username).not.toBe("João Lima");
    const ok = await ana.web.post(`/live?index&tab=me&room=${v.room.id}`, {
      intent: "contact",
      room_id: v.room.id,
      username: "João Lima",
      email: "joao@example.com",
      phone: "21 99876-5432",
    });
    expect(ok.status).toBe(302);
    expect(await room(v.room.id)).toMatchObject({ username: "João Lima", email: "joao@example.com", phone: "+5521998765432" });
    const page = visible((await ana.web.page(`/live?tab=me&room=${v.room.id}`)).html);
    expect(page).toContain("joao@example.com");
    expect(page).toContain("Contato atualizado");
    expect((await ana.web.post(`/live?index&tab=me&room=${v.room.id}`, { intent: "close", room_id: v.room.id, tabulation_id: "" })).status).toBe(302);
  });

  it("a transfer to another agent is offered to them; they accept from the prompt and attend", async () => {
    const v = await visitor("Preciso falar com o financeiro");
    await ana.web.post(`/live?index&tab=queue&room=${v.room.id}`, { intent: "take", room_id: v.room.id });
    const offered = await ana.web.post(`/live?index&tab=me&room=${v.room.id}`, { intent: "transfer_agent", room_id: v.room.id, agent_id: bruno.person.userId });
    expect(offered.status).toBe(302);
    expect(await room(v.room.id)).toMatchObject({ locked: true, transfer_to_user_id: bruno.person.userId, agent_id: ana.person.userId });

    // Bruno's workspace shows the incoming transfer and, on the room, the accept/refuse prompt.
    const list = visible((await bruno.web.page(`/live`)).html);
    expect(list).toContain("Transferências para você");
    expect(list).toContain(v.room.protocol);
    const prompt = visible((await bruno.web.page(`/live?tab=me&room=${v.room.id}`)).html);
    expect(prompt).toContain(`O atendimento ${v.room.protocol} foi transferido para você. Aceitar?`);

    const accepted = await bruno.web.post(`/live?index&tab=me&room=${v.room.id}`, { intent: "accept", room_id: v.room.id });
    expect(accepted.status).toBe(302);
    expect(location(accepted)).toBe(`/live?tab=me&room=${v.room.id}`);
    expect(await room(v.room.id)).toMatchObject({ locked: false, agent_id: bruno.person.userId, status: "OPEN" });
    expect((await bruno.web.post(`/live?index&tab=me&room=${v.room.id}`, { intent: "send", room_id: v.room.id, body: "Assumi seu atendimento" })).status).toBe(302);
  });

  it("the agent status form sets the status; an unknown status is refused", async () => {
    const ok = await ana.web.post(`/live?index&tab=me`, { intent: "status", status: "SHORT_BREAK" });
    expect(ok.status).toBe(302);
    expect((await query<{ status: string }>(`SELECT status FROM live_agents WHERE account_id = $1 AND user_id = $2`, [accountId, ana.person.userId]))[0].status).toBe(
      "SHORT_BREAK",
    );
    expect((await ana.web.post(`/live?index&tab=me`, { intent: "status", status: "SLEEPING" })).status).toBe(422);
  });
});

describe("supervisor, dashboard and transcripts without JavaScript", () => {
  it("/live/manage lists agents by status order then name, with their rooms; agents are kept out", async () => {
    await setLiveAgents(accountId, bruno.person.userId, { status: "AVAILABLE" });
    const page = await ownerWeb.page("/live/manage");
    expect(page.res.status).toBe(200);
    const html = visible(page.html);
    const order = [bruno.person.email, ana.person.email].map((e) => html.indexOf(`data-agent="${e}"`));
    expect(order.every((i) => i > 0)).toBe(true);
    expect(order[0]).toBeLessThan(order[1]); // AVAILABLE before SHORT_BREAK
    const [open] = await query<{ protocol: string }>(`SELECT protocol FROM live_rooms WHERE account_id = $1 AND agent_id = $2 AND status = 'OPEN'`, [
      accountId,
      bruno.person.userId,
    ]);
    expect(html).toContain(`#${open.protocol}`);
    expect((await ana.web.get("/live/manage")).status).toBe(302);
  });

  it("/live/dashboard shows the figures per department", async () => {
    const page = visible((await ownerWeb.page("/live/dashboard")).html);
    expect(page).toContain("Sem departamento");
    expect(page).toContain('data-figure="closed_today"');
  });

  it("/live/history finds conversations by e-mail; an agent sees only theirs; the transcript shows the messages", async () => {
    const mine = visible((await bruno.web.page(`/live/history`)).html);
    expect(mine).toContain("As conversas que você atendeu");
    const [financeiro] = await query<{ id: string; protocol: string; email: string }>(
      `SELECT r.id, r.protocol, r.email FROM live_rooms r JOIN live_messages m ON m.room_id = r.id WHERE r.account_id = $1 AND m.body = 'Preciso falar com o financeiro'`,
      [accountId],
    );
    expect(mine).toContain(financeiro.protocol);
    const [cancel] = await query<{ protocol: string }>(
      `SELECT r.protocol FROM live_rooms r JOIN live_messages m ON m.room_id = r.id WHERE r.account_id = $1 AND m.body = 'Quero cancelar'`,
      [accountId],
    );
    expect(mine).not.toContain(cancel.protocol); // Ana's room

    const search = visible((await ownerWeb.page(`/live/history?email=${encodeURIComponent(financeiro.email)}`)).html);
    expect(search).toContain(financeiro.protocol);
    expect(search).not.toContain(cancel.protocol);

    const transcript = visible((await bruno.web.page(`/live/history/${financeiro.id}`)).html);
    expect(transcript).toContain("Preciso falar com o financeiro");
    expect(transcript).toContain("Assumi seu atendimento");
    expect(transcript).toContain("Transferência aceita");
  });
});
