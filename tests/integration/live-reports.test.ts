/**
 * Live chat reports (issue 5) over the real API, PostgreSQL, Redis and worker: rooms are built by
 * visitors writing to the public widget endpoint and agents acting through the JWT API; the
 * transition log's times are then set to known offsets so waits and service times are exact.
 * Covers the report's figures and filters, agents and their statistic, the conversation export
 * (queued -> done -> CSV) and /live/reports' GET filters without JavaScript.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inject } from "vitest";
import { api, giveOmni, login, registerPerson, type Person } from "../support/api";
import { query } from "../support/db";
import { WebClient } from "../support/web";
import { addMember, makeDepartments, makeHoliday, makeLiveSettings, makeTabulation, type Role, setUser } from "../support/factories";

type Agent = { person: Person; token: string; as: (path: string, opts?: Parameters<typeof api>[1]) => Promise<{ status: number; body: any; headers: Headers }> };

let owner: Agent;
let ana: Agent;
let bruno: Agent;
let carla: Agent;
let manager: Agent;
let agentOnly: Agent;
let stranger: Agent;
let accountId: string;
let widgetKey: string;
let support: string;
let sales: string;
let resolved: string;
const rooms: Record<string, string> = {};

async function agentOf(person: Person, account: string): Promise<Agent> {
  const { token } = await login(person.email, person.password);
  return { person, token, as: (path, opts = {}) => api(path, { ...opts, token, account }) };
}

async function member(tag: string, role: Role, isAgent: boolean, departmentId: string | null = null): Promise<Agent> {
  const person = await registerPerson(tag);
  await addMember(accountId, person.userId, { role, isAgent, departmentId });
  return agentOf(person, accountId);
}

let seq = 0;
async function visitor(message: string, departmentId: string | null = null) {
  const res = await api(`/api/widget/${widgetKey}/messages`, {
    body: { name: `=Visitante ${++seq}`, email: `v${seq}@example.com`, message, ...(departmentId ? { department_id: departmentId } : {}) },
  });
  expect(res.status).toBe(200);
  return res.body.room.id as string;
}

async function ok(res: Promise<{ status: number; body: any }>) {
  const r = await res;
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body;
}

/** Sets the room's log to known times: the n-th event at created_at + offsets[n] seconds; checks the event types first. */
async function timeline(roomId: string, types: string[], offsets: number[]) {
  const events = await query<{ id: string; type: string }>(`SELECT id, type FROM live_room_events WHERE room_id = $1 ORDER BY id`, [roomId]);
  expect(events.map((e) => e.type)).toEqual(types);
  for (const [i, e] of events.entries()) {
    // Relative to the room's own created_at, on the database's clock: one-off SQL, not a factory.
    await query(`UPDATE live_room_events SET created_at = (SELECT created_at FROM live_rooms WHERE id = $1) + make_interval(secs => $2) WHERE id = $3`, [roomId, offsets[i], e.id]);
  }
}

const today = () => new Intl.DateTimeFormat("en-CA", { timeZone: "America/Sao_Paulo", year: "numeric", month: "2-digit", day: "2-digit" }).format(new Date());

beforeAll(async () => {
  const person = await registerPerson("rep-owner");
  accountId = person.accountId;
  await giveOmni(accountId);
  owner = await agentOf(person, accountId);
  [support, sales] = await makeDepartments(accountId, [{ name: "Suporte" }, { name: "Vendas" }]);
  ana = await member("rep-ana", "agent", true, support);
  bruno = await member("rep-bruno", "agent", true, support);
  carla = await member("rep-carla", "agent", true, sales);
  manager = await member("rep-manager", "manager", false);
  agentOnly = await member("rep-agentonly", "agent", true);
  const other = await registerPerson("rep-stranger");
  await giveOmni(other.accountId);
  stranger = await agentOf(other, other.accountId);
  widgetKey = await makeLiveSettings(accountId, { acceptanceOption: "manual" });
  resolved = await makeTabulation(accountId, "Resolvido");

  // A: Ana takes it, writes twice, closes with "Resolvido".
  rooms.a = await visitor("Olá A", support);
  await ok(ana.as(`/api/omni/rooms/${rooms.a}/take`, { method: "POST" }));
  await ok(ana.as(`/api/omni/messages`, { body: { room_id: rooms.a, message: "Oi, sou a Ana" } }));
  await ok(ana.as(`/api/omni/messages`, { body: { room_id: rooms.a, message: "Resolvido!" } }));
  await ok(ana.as(`/api/omni/rooms/${rooms.a}/close`, { method: "POST", body: { tabulation_id: resolved } }));
  await timeline(rooms.a, ["queued", "assigned", "closed"], [0, 60, 360]);

  // B: Ana takes it and transfers to Bruno, who accepts, writes once and closes without tabulation.
  rooms.b = await visitor("Olá B", support);
  await ok(ana.as(`/api/omni/rooms/${rooms.b}/take`, { method: "POST" }));
  await ok(ana.as(`/api/omni/rooms/${rooms.b}/transfer`, { body: { agent_id: bruno.person.userId } }));
  await ok(bruno.as(`/api/omni/rooms/${rooms.b}/transfer/accept`, { method: "POST" }));
  await ok(bruno.as(`/api/omni/messages`, { body: { room_id: rooms.b, message: "Bruno aqui" } }));
  await ok(bruno.as(`/api/omni/rooms/${rooms.b}/close`, { method: "POST" }));
  await timeline(rooms.b, ["queued", "assigned", "transfer_agent", "transfer_accept", "closed"], [0, 120, 200, 300, 720]);

  // C: Carla takes it, returns it to the queue, takes it again, writes, closes with "Resolvido".
  rooms.c = await visitor("Olá C", sales);
  await ok(carla.as(`/api/omni/rooms/${rooms.c}/take`, { method: "POST" }));
  await ok(carla.as(`/api/omni/rooms/${rooms.c}/return`, { method: "POST" }));
  await ok(carla.as(`/api/omni/rooms/${rooms.c}/take`, { method: "POST" }));
  await ok(carla.as(`/api/omni/messages`, { body: { room_id: rooms.c, message: "=1+1 Carla" } }));
  await ok(carla.as(`/api/omni/rooms/${rooms.c}/close`, { method: "POST", body: { tabulation_id: resolved } }));
  await timeline(rooms.c, ["queued", "assigned", "returned", "assigned", "closed"], [0, 30, 100, 130, 330]);

  // D: waits in the queue. E: written on a holiday, an offline contact.
  rooms.d = await visitor("Olá D");
  await makeHoliday(accountId);
  rooms.e = await visitor("Olá E");
  await query(`DELETE FROM live_holidays WHERE account_id = $1`, [accountId]);
  expect((await query<{ offline: boolean }>(`SELECT offline FROM live_rooms WHERE id = $1`, [rooms.e]))[0].offline).toBe(true);
});

afterAll(async () => {});

describe("GET /api/omni/reports", () => {
  it("counts the period's rooms from their log, with exact waits, service times, tabulations, channels, agents and messages per day", async () => {
    const day = today();
    const r = await ok(owner.as(`/api/omni/reports?begin=${day}&end=${day}`));
    expect(r.period).toEqual({ begin: day, end: day, department_id: null, agent_id: null });
    // Waits: A 60, B 120, C 30 -> 70. Service (first assigned -> closed): A 300, B 600, C 300 -> 400.
    expect(r.totals).toEqual({ started: 5, attended: 3, closed: 3, transferred: 1, returned: 1, offline: 1, average_wait_seconds: 70, average_service_seconds: 400 });
    expect(r.tabulations).toEqual([
      { tabulation_id: resolved, name: "Resolvido", rooms: 2 },
      { tabulation_id: null, name: null, rooms: 1 },
    ]);
    expect(r.channels).toEqual([{ channel: "webchat", rooms: 5 }]);
    const agents = Object.fromEntries(r.agents.map((a: any) => [a.agent_id, [a.rooms, a.average_service_seconds, a.messages_sent]]));
    // Per agent, every room they attended: Ana took A and B (B before transferring it to Bruno).
    expect(agents).toEqual({ [ana.person.userId]: [2, 450, 2], [bruno.person.userId]: [1, 600, 1], [carla.person.userId]: [1, 300, 1] });
    expect(r.days).toEqual([{ day, visitor: 5, agent: 4, total: 9 }]);
  });

  it("filters by department and by agent; the default period is today; a manager reads it", async () => {
    const vendas = await ok(owner.as(`/api/omni/reports?department_id=${sales}`));
    expect(vendas.period.begin).toBe(today());
    expect(vendas.totals).toMatchObject({ started: 1, attended: 1, closed: 1, returned: 1, transferred: 0, average_wait_seconds: 30, average_service_seconds: 300 });
    expect(vendas.agents.map((a: any) => a.agent_id)).toEqual([carla.person.userId]);
    expect(vendas.days[0]).toMatchObject({ visitor: 1, agent: 1, total: 2 });
    const byBruno = await ok(manager.as(`/api/omni/reports?agent_id=${bruno.person.userId}`));
    expect(byBruno.totals).toMatchObject({ started: 1, transferred: 1, closed: 1, average_wait_seconds: 120, average_service_seconds: 600 });
    // Ana's filter keeps the room she transferred away, and only her row.
    const byAna = await ok(manager.as(`/api/omni/reports?agent_id=${ana.person.userId}`));
    expect(byAna.totals).toMatchObject({ started: 2, attended: 2, transferred: 1, closed: 2 });
    expect(byAna.agents.map((a: any) => [a.agent_id, a.rooms])).toEqual([[ana.person.userId, 2]]);
  });

  it("refuses periods over 31 days, reversed ones, other accounts' departments, agents and accounts without the omni plan", async () => {
    const long = await owner.as(`/api/omni/reports?begin=2026-01-01&end=2026-02-01`, { lang: "en" });
    expect(long.status).toBe(422);
    expect(long.body.error.fields.end).toBeTruthy();
    expect((await owner.as(`/api/omni/reports?begin=2026-02-02&end=2026-02-01`)).status).toBe(422);
    expect((await owner.as(`/api/omni/reports?department_id=${crypto.randomUUID()}`)).status).toBe(422);
    expect((await agentOnly.as(`/api/omni/reports`)).status).toBe(403);
    // The stranger's own report knows nothing of this account.
    const theirs = await ok(stranger.as(`/api/omni/reports`));
    expect(theirs.totals.started).toBe(0);
    const noPlan = await registerPerson("rep-noplan");
    const noPlanAgent = await agentOf(noPlan, noPlan.accountId);
    const refused = await noPlanAgent.as(`/api/omni/reports`);
    expect([refused.status, refused.body.error.code]).toEqual([403, "PLAN_REQUIRED"]);
  });
});

describe("agents", () => {
  it("GET /api/omni/agents lists the account's agents by status then name; the statistic matches the report", async () => {
    await ok(ana.as(`/api/webchat/status`, { method: "PUT", body: { status: "AVAILABLE" } }));
    await ok(bruno.as(`/api/webchat/status`, { method: "PUT", body: { status: "BREAK" } }));
    await ok(carla.as(`/api/webchat/status`, { method: "PUT", body: { status: "OFFLINE" } }));
    const list = (await ok(owner.as(`/api/omni/agents`))).data;
    const ids = list.map((a: any) => a.id);
    expect(ids.slice(0, 2)).toEqual([ana.person.userId, bruno.person.userId]);
    expect(ids).toContain(carla.person.userId);
    // Agents, and the roles that may attend too (owner, admin, manager).
    expect(ids).toEqual(expect.arrayContaining([owner.person.userId, manager.person.userId, agentOnly.person.userId]));
    expect(list[0]).toMatchObject({ status: "AVAILABLE", active: true, active_calls: 0 });
    expect(list[1]).toMatchObject({ status: "BREAK", active: true });
    expect(list.find((a: any) => a.id === carla.person.userId)).toMatchObject({ status: "OFFLINE", active: false });
    expect(list.find((a: any) => a.id === manager.person.userId)).toMatchObject({ status: "OFFLINE", active: false, status_date: null });

    const day = today();
    const stat = await ok(manager.as(`/api/omni/agents/${bruno.person.userId}/statistic?begin=${day}&end=${day}`));
    // Bruno accepted B by transfer, wrote once and closed it; he transferred nothing.
    expect(stat).toEqual({
      agent_id: bruno.person.userId,
      begin: day,
      end: day,
      active_calls: 0,
      total_calls: 1,
      average_service_time: 600,
      closed_calls: 1,
      transferred_calls: 0,
      messages_sent: 1,
      days: [{ day, rooms: 1, messages: 1 }],
    });
    // An agent reads their own statistic, not a colleague's; another account's agent is unknown.
    expect((await ok(carla.as(`/api/omni/agents/${carla.person.userId}/statistic`))).total_calls).toBe(1);
    // Ana attended A and B, closed A, transferred B to Bruno, wrote twice.
    expect(await ok(owner.as(`/api/omni/agents/${ana.person.userId}/statistic`))).toMatchObject({
      total_calls: 2,
      average_service_time: 450,
      closed_calls: 1,
      transferred_calls: 1,
      messages_sent: 2,
    });
    expect((await carla.as(`/api/omni/agents/${bruno.person.userId}/statistic`)).status).toBe(403);
    expect((await stranger.as(`/api/omni/agents/${bruno.person.userId}/statistic`)).status).toBe(404);
  });
});

describe("conversation exports (/chat/reports)", () => {
  async function done(token: string, id: string) {
    for (let i = 0; i < 100; i++) {
      const list = await api(`/api/chat/reports`, { token, account: accountId });
      const e = list.body.data.find((x: any) => x.id === id);
      if (e && (e.status === "done" || e.status === "failed")) return e;
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new Error("export not finished");
  }

  it("POST queues it ('queued for processing'); the worker writes one row per room; the CSV is the account's only", async () => {
    const day = today();
    const res = await owner.as(`/api/chat/reports`, { body: { begin: day, end: day }, lang: "en" });
    // A create: 201 and Location, which reads the same export.
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ status: "queued", filter: { begin: day, end: day, department_id: null, agent_id: null } });
    expect(res.body.message).toBe("Report export: queued for processing");
    const id = res.body.data.id;
    expect(res.headers.get("location")).toBe(`/api/chat/reports/${id}`);
    const located = await owner.as(res.headers.get("location")!);
    expect(located.status).toBe(200);
    expect(located.body.data).toMatchObject({ id, filter: { begin: day, end: day } });
    expect((await stranger.as(`/api/chat/reports/${id}`)).status).toBe(404);
    // The list pages by keyset: its only export, then nothing more; a bad cursor is refused on `cursor`.
    expect((await owner.as(`/api/chat/reports?limit=1`)).body).toMatchObject({ data: [{ id }], next_cursor: null });
    expect((await owner.as(`/api/chat/reports?cursor=bad`)).body.error.fields).toHaveProperty("cursor");
    const finished = await done(owner.token, id);
    expect(finished).toMatchObject({ status: "done", rows: 5, error: null });

    const file = await fetch(new URL(`/api/chat/reports/${id}/file`, inject("apiUrl")), { headers: { Authorization: `Bearer ${owner.token}`, "X-Account-Id": accountId } });
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toContain("text/csv");
    const csv = (await file.text()).replace(/^\uFEFF/, "");
    const lines = csv.trim().split("\n");
    expect(lines[0]).toBe("protocol,channel,visitor,agent,department,tabulation,tags,created,assigned,closed,wait_seconds,service_seconds,messages");
    expect(lines).toHaveLength(6);
    const protocol = (await query<{ protocol: string }>(`SELECT protocol FROM live_rooms WHERE id = $1`, [rooms.c]))[0].protocol;
    const c = lines.find((l) => l.startsWith(protocol))!;
    // The visitor's name starts with "=": a leading apostrophe keeps it text.
    expect(c).toMatch(
      new RegExp(`^${protocol},webchat,'=Visitante \\d+ <v\\d+@example.com>,Teste rep-carla,Vendas,Resolvido,,\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d,[^,]+,[^,]+,30,300,2$`),
    );
    const protocolE = (await query<{ protocol: string }>(`SELECT protocol FROM live_rooms WHERE id = $1`, [rooms.e]))[0].protocol;
    expect(lines.find((l) => l.startsWith(protocolE))).toMatch(/,,,,,\d{4}-[^,]+,,,,,1$/);

    expect((await stranger.as(`/api/chat/reports/${id}/file`)).status).toBe(404);
    expect((await stranger.as(`/api/chat/reports`)).body.data).toEqual([]);
    // SMS exports do not list it, nor serve its file.
    expect((await owner.as(`/api/sms/reports`)).body.data.map((e: any) => e.id)).not.toContain(id);
    expect((await owner.as(`/api/sms/reports/${id}/file`)).status).toBe(404);
    expect((await agentOnly.as(`/api/chat/reports`, { body: {} })).status).toBe(403);
  });
});

describe("/live/reports without JavaScript", () => {
  it("the GET filters (period, department) give the filtered figures; a bad period shows its error", async () => {
    await setUser(manager.person.userId, { currentAccountId: accountId });
    const web = new WebClient();
    await web.get("/login");
    expect((await web.post("/login", { email: manager.person.email, password: manager.person.password })).status).toBe(302);
    const day = today();
    const all = await web.page(`/live/reports?begin=${day}&end=${day}`);
    expect(all.res.status).toBe(200);
    expect(all.html).toMatch(/data-figure="started"[\s\S]*?data-value="[^"]*">5</);
    expect(all.html).toContain(`name="department_id"`);
    const vendas = await web.page(`/live/reports?begin=${day}&end=${day}&department_id=${sales}&agent_id=`);
    expect(vendas.html).toMatch(/data-figure="started"[\s\S]*?data-value="[^"]*">1</);
    expect(vendas.html).toMatch(/data-figure="average_wait"[\s\S]*?data-value="[^"]*">0:30</);
    expect(vendas.html).toContain(`value="${sales}" selected`);
    const bad = await web.page(`/live/reports?begin=2026-01-01&end=2026-03-01`);
    expect(bad.res.status).toBe(200);
    expect(bad.html).toContain('aria-invalid="true"');
    const usage = await web.page(`/live/usage`);
    expect(usage.res.status).toBe(200);
    expect(usage.html).toContain("Omni");
    const exports = await web.page(`/chat/reports`);
    expect(exports.res.status).toBe(200);
    expect(exports.html).toMatch(/data-export-status="done"/);
  });
});
