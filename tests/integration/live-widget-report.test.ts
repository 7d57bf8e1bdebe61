/**
 * Issue 23: the last two live-chat screens of spec section 2, through the web without JavaScript
 * over the real API, PostgreSQL, Redis and realtime service.
 *  - /live/report: one agent's statistic for a period (GET /omni/agents/{id}/statistic's screen),
 *    from rooms built by visitors writing to the public widget endpoint and agents acting through
 *    the JWT API; a reader picks any agent of the account, an agent sees only themselves, another
 *    account's agents and figures never appear, and a bad period names its field.
 *  - /widget: the account's own snippet and key (never another account's), and whether a visitor is
 *    attended now, following an agent's live connection, a holiday, opening hours and the widget's
 *    on/off switch.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { api, giveOmni, login, registerPerson, type Person } from "../support/api";
import { query } from "../support/db";
import { addLiveAgent, makeDepartments, makeHoliday, makeLiveSettings, makeOpeningHours } from "../support/factories";
import { LiveClient, wsUrl } from "../support/live-client";
import { location, WebClient } from "../support/web";

type Answer = { status: number; body: any; headers: Headers };
type Member = { person: Person; token: string; web: WebClient; as: (path: string, opts?: Parameters<typeof api>[1]) => Promise<Answer> };

let owner: Member;
let ana: Member;
let bruno: Member;
let stranger: Member;
let accountId: string;
let widgetKey: string;
let strangerKey: string;
let support: string;
const clients: LiveClient[] = [];

/** Signed in to the web (a browser without JavaScript) and to the API, in `account`. */
async function member(person: Person, account: string): Promise<Member> {
  const { token } = await login(person.email, person.password);
  const web = new WebClient();
  await web.get("/login");
  const res = await web.post("/login", { email: person.email, password: person.password });
  expect(res.status).toBe(302);
  return { person, token, web, as: (path, opts = {}) => api(path, { ...opts, token, account }) };
}

async function ok(res: Promise<Answer>) {
  const r = await res;
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body;
}

let seq = 0;
async function visitor(key: string, message: string) {
  const res = await api(`/api/widget/${key}/messages`, { body: { name: `Visitante ${++seq}`, email: `wr${seq}@example.com`, message } });
  expect(res.status).toBe(200);
  return res.body.room.id as string;
}

const saoPaulo = (d: Date) => new Intl.DateTimeFormat("en-CA", { timeZone: "America/Sao_Paulo", year: "numeric", month: "2-digit", day: "2-digit" }).format(d);
const today = () => saoPaulo(new Date());
const dayBefore = (day: string) => new Date(Date.parse(`${day}T12:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
/** São Paulo's weekday now, 0 = Sunday (live_opening_hours.weekday). */
const weekdayNow = () =>
  ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"].indexOf(new Intl.DateTimeFormat("en-US", { timeZone: "America/Sao_Paulo", weekday: "short" }).format(new Date()));

/** The figure `key` of the page (ui Figures: data-figure, data-value). */
function figure(html: string, key: string) {
  return new RegExp(`data-figure="${key}"[\\s\\S]*?data-value="[^"]*">([^<]*)<`).exec(html)?.[1];
}
/** A cell of the per-day table: the row data-day, the cell data-col. */
function dayCell(html: string, day: string, col: string) {
  return new RegExp(`data-day="${day}"[\\s\\S]*?<td[^>]*data-col="${col}"[^>]*>([^<]*)<`).exec(html)?.[1];
}
const decode = (html: string) =>
  html
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");

beforeAll(async () => {
  const o = await registerPerson("wr-owner");
  accountId = o.accountId;
  await giveOmni(accountId);
  widgetKey = await makeLiveSettings(accountId, { acceptanceOption: "manual" });
  [support] = await makeDepartments(accountId, [{ name: "Suporte" }]);
  const a = await registerPerson("wr-ana");
  await addLiveAgent(accountId, a.userId, { role: "agent", firstName: "Ana" });
  const b = await registerPerson("wr-bruno");
  await addLiveAgent(accountId, b.userId, { role: "agent", firstName: "Bruno" });
  const s = await registerPerson("wr-stranger");
  await giveOmni(s.accountId);
  strangerKey = await makeLiveSettings(s.accountId, { acceptanceOption: "manual" });
  [owner, ana, bruno, stranger] = await Promise.all([member(o, accountId), member(a, accountId), member(b, accountId), member(s, s.accountId)]);

  // A: Ana takes it, writes twice, closes it.
  const roomA = await visitor(widgetKey, "Olá A");
  await ok(ana.as(`/api/omni/rooms/${roomA}/take`, { method: "POST" }));
  await ok(ana.as(`/api/omni/messages`, { body: { room_id: roomA, message: "Oi, sou a Ana" } }));
  await ok(ana.as(`/api/omni/messages`, { body: { room_id: roomA, message: "Resolvido!" } }));
  await ok(ana.as(`/api/omni/rooms/${roomA}/close`, { method: "POST" }));
  // B: Ana takes it and transfers it to Bruno, who accepts, writes once and closes it.
  const roomB = await visitor(widgetKey, "Olá B");
  await ok(ana.as(`/api/omni/rooms/${roomB}/take`, { method: "POST" }));
  await ok(ana.as(`/api/omni/rooms/${roomB}/transfer`, { body: { agent_id: bruno.person.userId } }));
  await ok(bruno.as(`/api/omni/rooms/${roomB}/transfer/accept`, { method: "POST" }));
  await ok(bruno.as(`/api/omni/messages`, { body: { room_id: roomB, message: "Bruno aqui" } }));
  await ok(bruno.as(`/api/omni/rooms/${roomB}/close`, { method: "POST" }));
  // D: Ana takes it, writes once, closes it — then it is moved to yesterday (room, log and messages: one-off SQL).
  const roomD = await visitor(widgetKey, "Olá D");
  await ok(ana.as(`/api/omni/rooms/${roomD}/take`, { method: "POST" }));
  await ok(ana.as(`/api/omni/messages`, { body: { room_id: roomD, message: "Ontem" } }));
  await ok(ana.as(`/api/omni/rooms/${roomD}/close`, { method: "POST" }));
  for (const table of ["live_rooms", "live_room_events", "live_messages"]) {
    await query(`UPDATE ${table} SET created_at = created_at - interval '1 day' WHERE ${table === "live_rooms" ? "id" : "room_id"} = $1`, [roomD]);
  }
  // The stranger's own room, taken and closed by its owner.
  const roomE = await visitor(strangerKey, "Olá E");
  await ok(stranger.as(`/api/omni/rooms/${roomE}/take`, { method: "POST" }));
  await ok(stranger.as(`/api/omni/messages`, { body: { room_id: roomE, message: "Outra conta" } }));
  await ok(stranger.as(`/api/omni/rooms/${roomE}/close`, { method: "POST" }));
});

afterAll(async () => {
  for (const c of clients) await c.close().catch(() => undefined);
});

describe("/live/report: one agent's statistic", () => {
  it("a reader picks an agent of the account and sees the figures of the rooms that agent attended, per day, in the period", async () => {
    const day = today();
    const { res, html } = await owner.web.page(`/live/report?agent_id=${ana.person.userId}&begin=${day}&end=${day}`);
    expect(res.status).toBe(200);
    // Today: Ana attended A and B, closed A, transferred B to Bruno, wrote twice; nothing open now.
    expect([figure(html, "total_calls"), figure(html, "closed_calls"), figure(html, "transferred_calls"), figure(html, "messages_sent"), figure(html, "active_calls")]).toEqual([
      "2",
      "1",
      "1",
      "2",
      "0",
    ]);
    expect(html).toContain(`data-agent="${ana.person.userId}"`);
    expect(html).toContain("Ana wr-ana");
    expect(html).toContain(`${day.split("-").reverse().join("/")} 00:00:00`);
    // The picker: the account's agents (its attendants and supervisors), the chosen one selected; nobody of the other account.
    expect(html).toContain(`value="${ana.person.userId}" selected`);
    expect(html).toContain(`value="${bruno.person.userId}"`);
    expect(html).toContain(`value="${owner.person.userId}"`);
    expect(html).not.toContain(stranger.person.userId);
    // The sibling screen, for the same period, and back from it by the agent's name.
    expect(html).toContain(`href="/live/reports?begin=${day}&amp;end=${day}"`);
    const all = await owner.web.page(`/live/reports?begin=${day}&end=${day}`);
    expect(all.html).toContain(`href="/live/report?agent_id=${ana.person.userId}&amp;begin=${day}&amp;end=${day}"`);

    // Yesterday and today: room D counts on its own day; the day table has both days.
    const yesterday = dayBefore(day);
    const two = (await owner.web.page(`/live/report?agent_id=${ana.person.userId}&begin=${yesterday}&end=${day}`)).html;
    expect([figure(two, "total_calls"), figure(two, "closed_calls"), figure(two, "messages_sent")]).toEqual(["3", "2", "3"]);
    expect([dayCell(two, yesterday, "rooms"), dayCell(two, yesterday, "messages"), dayCell(two, day, "rooms"), dayCell(two, day, "messages")]).toEqual(["1", "1", "2", "2"]);
    expect(two).toContain(`data-chart-days="2"`);

    // Bruno's: the room he accepted by transfer and closed; he transferred nothing.
    const b = (await owner.web.page(`/live/report?agent_id=${bruno.person.userId}&begin=${day}&end=${day}`)).html;
    expect([figure(b, "total_calls"), figure(b, "closed_calls"), figure(b, "transferred_calls"), figure(b, "messages_sent")]).toEqual(["1", "1", "0", "1"]);
  });

  it("without a choice it shows today's figures of the reader themselves", async () => {
    const { html } = await owner.web.page("/live/report");
    expect(html).toContain(`value="${owner.person.userId}" selected`);
    expect(html).toContain(`value="${today()}"`);
    expect(figure(html, "total_calls")).toBe("0");
  });

  it("an agent sees only their own statistic, with no picker, and is refused a colleague's", async () => {
    const { res, html } = await ana.web.page("/live/report");
    expect(res.status).toBe(200);
    expect(html).not.toContain('name="agent_id"');
    expect(html).toContain(`data-agent="${ana.person.userId}"`);
    expect(figure(html, "total_calls")).toBe("2");
    expect(html).not.toContain('href="/live/reports');
    const other = await ana.web.get(`/live/report?agent_id=${bruno.person.userId}`);
    expect(other.status).toBe(403);
    const body = await other.text();
    expect(body).not.toContain(`data-figure="total_calls"`);
    // Nor the all-agents sibling.
    expect(location(await ana.web.get("/live/reports"))).toBe("/403");
  });

  it("another account's agent is an unknown option, and its own screen knows nothing of this account", async () => {
    const asked = await stranger.web.page(`/live/report?agent_id=${ana.person.userId}`);
    expect(asked.res.status).toBe(200);
    expect(asked.html).toContain('aria-invalid="true"');
    expect(asked.html).toMatch(/id="ar-agent_id-error"[^>]*>Atendente: Escolha uma das opções</);
    expect(asked.html).not.toContain('data-figure="total_calls"');
    expect(asked.html).not.toContain("Ana wr-ana");
    const own = (await stranger.web.page("/live/report")).html;
    expect(own).toContain(`value="${stranger.person.userId}" selected`);
    expect(own).not.toContain(ana.person.userId);
    expect([figure(own, "total_calls"), figure(own, "messages_sent")]).toEqual(["1", "1"]);
  });

  it("a period over 31 days or reversed is refused beside its field, translated and naming it", async () => {
    const long = await owner.web.page(`/live/report?agent_id=${ana.person.userId}&begin=2026-01-01&end=2026-03-01`);
    expect(long.res.status).toBe(200);
    expect(long.html).toMatch(/id="ar-end-error"[^>]*>Até: Intervalo máximo de 31 dias</);
    expect(long.html).toMatch(/id="ar-end"[^>]*aria-invalid="true"|aria-invalid="true"[^>]*id="ar-end"/);
    expect(long.html).not.toContain('data-figure="total_calls"');
    const reversed = await owner.web.page(`/live/report?begin=2026-02-02&end=2026-02-01`);
    expect(reversed.html).toMatch(/id="ar-end-error"[^>]*>Até: Valor inválido</);
    const badDay = await owner.web.page(`/live/report?begin=2026-02-30`);
    expect(badDay.html).toMatch(/id="ar-begin-error"[^>]*>De: Valor inválido</);
  });
});

describe("/widget: the widget's home", () => {
  const state = (html: string) => /data-state="(\w+)"/.exec(html)?.[1];
  const page = async (m: Member) => {
    const { res, html } = await m.web.page("/widget");
    expect(res.status).toBe(200);
    return html;
  };

  it("shows the account's own snippet, key, hosted page and the way to its settings and the simulator; never another account's", async () => {
    const html = await page(owner);
    expect(html).toMatch(new RegExp(`data-testid="widget-key"[^>]*>${widgetKey}<`));
    const snippet = decode(/<textarea[^>]*data-testid="widget-snippet"[^>]*>([^<]*)<\/textarea>/.exec(html)?.[1] ?? "");
    expect(snippet).toBe(`<script src="${inject("webUrl").replace(/\/+$/, "")}/widget.js" data-key="${widgetKey}" async></script>`);
    expect(html).toMatch(/<textarea[^>]*readOnly=""|<textarea[^>]*readonly=""/);
    expect(html).toContain(`href="/live/simulator?key=${widgetKey}"`);
    expect(html).toContain(`href="/webchat?key=${widgetKey}"`);
    expect(html).toContain('href="/widget/config"');
    expect(html).not.toContain(strangerKey);
    // Three conversations came through this account's widget this week (D yesterday); the other account's one is not among them.
    expect(html).toContain("3 conversas nos últimos 7 dias");
    expect(html).toMatch(new RegExp(`data-department="${support}"[^>]*>[\\s\\S]*?Suporte`));

    const theirs = await page(stranger);
    expect(theirs).toMatch(new RegExp(`data-testid="widget-key"[^>]*>${strangerKey}<`));
    expect(theirs).not.toContain(widgetKey);
    expect(theirs).toContain("1 conversa nos últimos 7 dias");
    expect(theirs).not.toContain(`data-department="${support}"`);
  });

  it("says whether a visitor is attended now: agents connected, holidays, opening hours, the widget switched off", async () => {
    // Nobody of the account holds a live connection yet.
    let html = await page(owner);
    expect(state(html)).toBe("noAgents");
    expect(html).toContain("Sem horário de atendimento definido: sempre aberto");

    // Ana connects to the live desk (realtime websocket): she is listed and visitors are attended.
    const socket = new LiveClient(wsUrl(inject("realtimeUrl"), { token: ana.token, account: accountId }));
    clients.push(socket);
    await socket.welcome();
    await expect.poll(async () => state(await page(owner)), { timeout: 10_000 }).toBe("attending");
    html = await page(owner);
    expect(html).toContain(`data-online="${ana.person.userId}"`);
    expect(html).not.toContain(`data-online="${bruno.person.userId}"`);
    expect(html).toMatch(new RegExp(`data-department="${support}"[\\s\\S]*?>Aberto<`));

    // A holiday today closes the account (and its department) all day.
    await makeHoliday(accountId, { name: "Dia do Teste" });
    html = await page(owner);
    expect(state(html)).toBe("closed");
    expect(html).toContain("Feriado (Dia do Teste): fechado o dia todo");
    expect(html).toMatch(new RegExp(`data-department="${support}"[\\s\\S]*?>Fechado<`));
    await query(`DELETE FROM live_holidays WHERE account_id = $1`, [accountId]);

    // Opening hours on another weekday only: closed today. Then hours covering all of today: open.
    await makeOpeningHours(accountId, { weekday: (weekdayNow() + 1) % 7, opens: "08:00", closes: "18:00" });
    html = await page(owner);
    expect(state(html)).toBe("closed");
    expect(html).toContain("Fechado hoje");
    await makeOpeningHours(accountId, { weekday: weekdayNow(), opens: "00:00", closes: "24:00" });
    html = await page(owner);
    expect(state(html)).toBe("attending");
    expect(html).toContain("das 00:00 às 24:00");
    await query(`DELETE FROM live_opening_hours WHERE account_id = $1`, [accountId]);

    // The widget switched off (its settings, through the API): it does not show on the site.
    const settings = (await ok(owner.as("/api/live/widget"))).settings;
    await ok(owner.as("/api/live/widget", { method: "PUT", body: { ...settings, enabled: false } }));
    html = await page(owner);
    expect(state(html)).toBe("off");
    await ok(owner.as("/api/live/widget", { method: "PUT", body: { ...settings, enabled: true } }));
    expect(state(await page(owner))).toBe("attending");
  });

  it("is refused to an agent, as the widget's settings are", async () => {
    expect(location(await ana.web.get("/widget"))).toBe("/403");
  });
});
