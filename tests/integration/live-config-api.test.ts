/**
 * Live chat configuration over the JWT API (spec section 7): GET omni/tabs and webchat/tabs,
 * GET webchat/system, POST webchat/samples/create and GET webchat/samples/{agentId} (for all +
 * own + the agent's departments, from the membership and live_agent_departments), chat/macros,
 * and the /live resources; scoped by account, gated by the omni plan and by role.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { api, giveOmni, login, registerPerson, type Person } from "../support/api";
import { query } from "../support/db";
import { DEMO_PASSWORD } from "../support/web";
import { addMember, makeAccount, makeDepartments, makeTabulation, makeUser } from "../support/factories";

let owner: Person;
let token: string;
let otherToken: string;

beforeAll(async () => {
  owner = await registerPerson("liveapi");
  await giveOmni(owner.accountId);
  token = (await login(owner.email, owner.password)).token;
  const other = await registerPerson("liveapi-other");
  await giveOmni(other.accountId);
  otherToken = (await login(other.email, other.password)).token;
});

describe("live config API", () => {
  it("without the omni plan: 403 PLAN_REQUIRED", async () => {
    const p = await registerPerson("liveapi-noplan");
    const t = (await login(p.email, p.password)).token;
    const res = await api("/api/webchat/system", { token: t });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe("PLAN_REQUIRED");
  });

  it("tabulations: create, 422 on a duplicate, deactivate; agents' lists hide inactive ones and GENERIC", async () => {
    const a = await api("/api/live/tabulations", { token, body: { name: "Dúvida" } });
    expect(a.status).toBe(201);
    expect(a.headers.get("location")).toBe(`/api/live/tabulations/${a.body.id}`);
    expect((await api(a.headers.get("location")!, { token })).body).toEqual(a.body);
    expect((await api("/api/live/tabulations", { token, body: { name: "dúvida" } })).status).toBe(422);
    const b = await api("/api/live/tabulations", { token, body: { name: "Reclamação" } });
    await api("/api/live/tabulations", { token, body: { name: "GENERIC" } });
    const off = await api(`/api/live/tabulations/${b.body.id}`, { token, method: "PUT", body: { active: false } });
    expect(off.body).toMatchObject({ name: "Reclamação", active: false });
    for (const path of ["/api/omni/tabs", "/api/webchat/tabs"]) {
      const res = await api(path, { token });
      expect(
        res.body.data.map((x: { name: string }) => x.name),
        path,
      ).toEqual(["Dúvida"]);
      expect(res.body.next_cursor, path).toBeNull();
    }
    const all = (await api("/api/live/tabulations", { token })).body;
    expect(all.data).toHaveLength(3);
    expect(all.next_cursor).toBeNull();
    expect((await api(`/api/live/tabulations/${a.body.id}`, { token: otherToken, method: "DELETE" })).status).toBe(404);
    expect((await api("/api/omni/tabs", { token: otherToken })).body.data).toEqual([]);
  });

  it("webchat/system answers queued_enabled and acceptance_option; PUT live/settings changes them", async () => {
    expect((await api("/api/webchat/system", { token })).body).toEqual({ queued_enabled: true, acceptance_option: "automatic" });
    const put = await api("/api/live/settings", {
      token,
      method: "PUT",
      body: { queued_enabled: false, acceptance_option: "manual", default_capacity: 4, tabulation_required: true, idle_minutes: 20 },
    });
    expect(put.status).toBe(200);
    expect((await api("/api/webchat/system", { token })).body).toEqual({ queued_enabled: false, acceptance_option: "manual" });
    const bad = await api("/api/live/settings", { token, method: "PUT", body: { acceptance_option: "sometimes", default_capacity: 4, idle_minutes: 20 } });
    expect(bad.status).toBe(422);
    expect(bad.body.error.fields.acceptance_option).toBeDefined();
  });

  it("samples: an agent gets for_all + own + their departments' (membership and served ones), not others'", async () => {
    // Two agents of the owner's account, each in a department; the second also serves a third department.
    const [d1, d2, d3] = (await makeDepartments(owner.accountId, [{ name: "A" }, { name: "B" }, { name: "C" }])).map((id) => ({ id }));
    const u1 = { id: await makeUser({ email: `ana.${Date.now()}@test.example`, firstName: "Ana" }) };
    const u2 = { id: await makeUser({ email: `bia.${Date.now()}@test.example`, firstName: "Bia" }) };
    await addMember(owner.accountId, u1.id, { role: "agent", isAgent: true, departmentId: d1.id });
    await addMember(owner.accountId, u2.id, { role: "agent", isAgent: true, departmentId: d2.id });
    const served = await api(`/api/live/agents/${u2.id}`, { token, method: "PUT", body: { capacity: 2, department_ids: [d3.id] } });
    expect(served.status).toBe(200);
    expect(served.body).toMatchObject({ capacity: 2, effective_capacity: 2, department_ids: [d3.id] });

    const make = (body: Record<string, unknown>) => api("/api/webchat/samples/create", { token, body });
    const first = await make({ for_all: true, key: "oi", message: "Oi!" });
    expect(first.status).toBe(201);
    expect(first.headers.get("location")).toBe(`/api/live/samples/${first.body.id}`);
    expect((await api(first.headers.get("location")!, { token })).body).toEqual(first.body);
    expect((await make({ department_id: d1.id, key: "a", message: "Dept A" })).status).toBe(201);
    expect((await make({ department_id: d2.id, key: "b", message: "Dept B" })).status).toBe(201);
    expect((await make({ department_id: d3.id, key: "c", message: "Dept C" })).status).toBe(201);
    expect((await make({ agent_id: u1.id, key: "ana", message: "Só da Ana" })).status).toBe(201);
    expect((await make({ key: "dono", message: "Do dono" })).status).toBe(201); // no audience: the caller
    expect((await make({ key: "BAD KEY", message: "x" })).status).toBe(422);
    expect((await make({ agent_id: "00000000-0000-4000-8000-000000000000", key: "x", message: "x" })).status).toBe(422);

    const keys = async (agent: string) => (await api(`/api/webchat/samples/${agent}`, { token })).body.data.map((s: { key: string }) => s.key).sort();
    expect(await keys(u1.id)).toEqual(["a", "ana", "oi"]);
    expect(await keys(u2.id)).toEqual(["b", "c", "oi"]);
    expect(await keys(owner.userId)).toEqual(["dono", "oi"]);
    // Another account sees none of them.
    expect((await api(`/api/webchat/samples/${u1.id}`, { token: otherToken })).body.data).toEqual([]);
  });

  it("a plain agent creates samples only for themselves and reads only their own list", async () => {
    const agent = (await login("agent@demo.example", DEMO_PASSWORD)).token;
    const mine = await api("/api/webchat/samples/create", { token: agent, body: { key: "meu", message: "Meu atalho" } });
    expect(mine.status).toBe(201);
    expect(mine.body.audience).toBe("me");
    expect((await api("/api/webchat/samples/create", { token: agent, body: { for_all: true, key: "todos", message: "x" } })).status).toBe(403);
    const [owner] = await query<{ id: string }>("SELECT id FROM users WHERE email = 'owner@demo.example'");
    expect((await api(`/api/webchat/samples/${owner.id}`, { token: agent })).status).toBe(403);
    expect((await api(`/api/live/samples/${mine.body.id}`, { token: agent })).body).toEqual(mine.body);
    expect((await api("/api/live/tabulations", { token: agent, body: { name: "Agente" } })).status).toBe(403);
    await api(`/api/live/samples/${mine.body.id}`, { token: agent, method: "DELETE" });
  });

  it("chat/macros: GET, POST, PUT, DELETE; tabulation of another account refused", async () => {
    const tabs = (await api("/api/live/tabulations", { token })).body.data;
    const created = await api("/api/chat/macros", { token, body: { name: "Fechar", message: "Tchau", tags: ["fim"], tabulation_id: tabs[0].id, close: true } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: "Fechar", tags: ["fim"], tabulation_name: tabs[0].name, close: true });
    // Location names the new macro: a GET of it answers the same resource.
    const location = created.headers.get("location");
    expect(location).toBe(`/api/chat/macros/${created.body.id}`);
    expect((await api(location!, { token })).body).toEqual(created.body);
    const put = await api(`/api/chat/macros/${created.body.id}`, { token, method: "PUT", body: { name: "Fechar já", tags: [] } });
    expect(put.body).toMatchObject({ name: "Fechar já", message: null, tags: [], tabulation_id: null, close: false });
    const foreignTab = { id: await makeTabulation(await makeAccount(), "Alheia") };
    expect((await api("/api/chat/macros", { token, body: { name: "X", tabulation_id: foreignTab.id } })).status).toBe(422);
    expect((await api("/api/chat/macros", { token })).body.data.map((m: { name: string }) => m.name)).toEqual(["Fechar já"]);
    expect((await api(`/api/chat/macros/${created.body.id}`, { token: otherToken, method: "DELETE" })).status).toBe(404);
    expect((await api(`/api/chat/macros/${created.body.id}`, { token, method: "DELETE" })).status).toBe(200);
  });

  it("holidays (409 HOLIDAY_REGISTER_FAILED twice the same day), opening hours, widget and preferences", async () => {
    const tiradentes = await api("/api/live/holidays", { token, body: { name: "Tiradentes", day: "2027-04-21" } });
    expect(tiradentes.status).toBe(201);
    expect(tiradentes.headers.get("location")).toBe(`/api/live/holidays/${tiradentes.body.id}`);
    expect((await api(tiradentes.headers.get("location")!, { token })).body).toEqual(tiradentes.body);
    expect((await api(tiradentes.headers.get("location")!, { token: otherToken })).status).toBe(404);
    const dup = await api("/api/live/holidays", { token, body: { name: "De novo", day: "2027-04-21" }, lang: "en" });
    expect(dup.status).toBe(409);
    expect(dup.body.error.code).toBe("HOLIDAY_REGISTER_FAILED");
    const hours = await api("/api/live/opening-hours", { token, body: { weekdays: [1, 5], opens: "09:00", closes: "24:00" } });
    expect(hours.status).toBe(201);
    expect(hours.headers.get("location")).toBe("/api/live/opening-hours");
    expect(hours.body).toEqual({ created: 2, ids: [expect.any(String), expect.any(String)] });
    const list = (await api("/api/live/opening-hours", { token })).body;
    expect(list.data.map((h: { weekday: number; closes: string }) => [h.weekday, h.closes])).toEqual([
      [1, "24:00"],
      [5, "24:00"],
    ]);
    expect(list.data.map((h: { id: string }) => h.id)).toEqual(hours.body.ids);
    expect(list.next_cursor).toBeNull();

    const w = await api("/api/live/widget", { token });
    expect(w.body.snippet).toBe(`<script src="${w.body.snippet.match(/src="([^"]+)\/widget\.js"/)[1]}/widget.js" data-key="${w.body.widget_key}" async></script>`);
    expect(w.body.settings.position).toBe("right");
    const bad = await api("/api/live/widget", { token, method: "PUT", body: { ...w.body.settings, highlight_color: "#12345" } });
    expect(bad.status).toBe(422);
    const re = await api("/api/live/widget/regenerate-key", { token, method: "POST" });
    expect(re.body.widget_key).not.toBe(w.body.widget_key);

    const prefs = await api("/api/live/preferences", { token, method: "PUT", body: { mute: "1_week", volume: 0.5 } });
    expect(prefs.body).toMatchObject({ mute: "1w", muted: true, volume: 0.5 });
    expect(new Date(prefs.body.mute_until).getTime() - Date.now()).toBeGreaterThan(7 * 86_400_000 - 60_000);
    expect((await api("/api/live/preferences", { token })).body.mute).toBe("1w");
  });

  it("keyset lists (?limit=&cursor=): macros page by name, two pages, no row twice, next_cursor null at the end; a bad cursor is 422 on cursor", async () => {
    const p = await registerPerson("liveapi-pages");
    await giveOmni(p.accountId);
    const t = (await login(p.email, p.password)).token;
    for (const name of ["delta", "Alfa", "charlie", "Bravo", "echo"]) {
      expect((await api("/api/chat/macros", { token: t, body: { name, message: name } })).status).toBe(201);
    }
    const one = await api("/api/chat/macros?limit=3", { token: t });
    expect(one.status).toBe(200);
    expect(one.body.data.map((m: { name: string }) => m.name)).toEqual(["Alfa", "Bravo", "charlie"]);
    expect(typeof one.body.next_cursor).toBe("string");
    const two = await api(`/api/chat/macros?limit=3&cursor=${encodeURIComponent(one.body.next_cursor)}`, { token: t });
    expect(two.body.data.map((m: { name: string }) => m.name)).toEqual(["delta", "echo"]);
    expect(two.body.next_cursor).toBeNull();
    const ids = [...one.body.data, ...two.body.data].map((m: { id: string }) => m.id);
    expect(new Set(ids).size).toBe(5);
    // Without limit: all of them (default 50), one page.
    const all = await api("/api/chat/macros", { token: t });
    expect(all.body.data.map((m: { id: string }) => m.id)).toEqual(ids);
    expect(all.body.next_cursor).toBeNull();

    for (const cursor of ["not-a-cursor", Buffer.from(JSON.stringify(["x", "not-a-uuid"])).toString("base64url"), Buffer.from("[1]").toString("base64url")]) {
      const bad = await api(`/api/chat/macros?cursor=${cursor}`, { token: t });
      expect(bad.status, cursor).toBe(422);
      expect(Object.keys(bad.body.error.fields), cursor).toEqual(["cursor"]);
    }
    expect((await api("/api/chat/macros?limit=0", { token: t })).status).toBe(422);
    expect((await api("/api/chat/macros?limit=201", { token: t })).status).toBe(422);
  });

  it("keyset lists: samples, holidays and agents walk page by page to the same rows as one page", async () => {
    const p = await registerPerson("liveapi-walk");
    await giveOmni(p.accountId);
    const t = (await login(p.email, p.password)).token;
    for (const key of ["e", "b", "d", "a", "c"]) expect((await api("/api/webchat/samples/create", { token: t, body: { for_all: true, key, message: key } })).status).toBe(201);
    for (const day of ["2028-12-25", "2028-01-01", "2028-04-21", "2028-11-15"]) {
      expect((await api("/api/live/holidays", { token: t, body: { name: `Feriado ${day}`, day } })).status).toBe(201);
    }
    const people = [
      { email: `ze.${Date.now()}@test.example`, firstName: "Zé", lastName: "Silva" },
      { email: `ana1.${Date.now()}@test.example`, firstName: "ana", lastName: "Souza" },
      { email: `ana2.${Date.now()}@test.example`, firstName: "Ana", lastName: "Lima" },
    ];
    for (const person of people) await addMember(p.accountId, await makeUser(person), { role: "agent", isAgent: true });

    const walk = async (path: string, limit: number) => {
      const seen: Array<Record<string, unknown>> = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const sep = path.includes("?") ? "&" : "?";
        const res: { status: number; body: { data: Array<Record<string, unknown>>; next_cursor: string | null } } = await api(
          `${path}${sep}limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
          { token: t },
        );
        expect(res.status, path).toBe(200);
        expect(res.body.data.length, path).toBeLessThanOrEqual(limit);
        seen.push(...res.body.data);
        cursor = res.body.next_cursor;
        pages++;
      } while (cursor && pages < 20);
      return { seen, pages };
    };
    const samples = await walk("/api/live/samples", 2);
    expect(samples.pages).toBe(3);
    expect(samples.seen.map((s) => s.key)).toEqual(["a", "b", "c", "d", "e"]);
    expect((await walk(`/api/webchat/samples/${p.userId}`, 4)).seen.map((s) => s.key)).toEqual(["a", "b", "c", "d", "e"]);
    const holidays = await walk("/api/live/holidays", 3);
    expect(holidays.pages).toBe(2);
    expect(holidays.seen.map((h) => h.day)).toEqual(["2028-01-01", "2028-04-21", "2028-11-15", "2028-12-25"]);
    const agents = await walk("/api/live/agents", 1);
    const everyAgent = (await api("/api/live/agents", { token: t })).body;
    expect(everyAgent.next_cursor).toBeNull();
    expect(agents.seen.map((a) => a.user_id)).toEqual(everyAgent.data.map((a: { user_id: string }) => a.user_id));
    expect(new Set(agents.seen.map((a) => a.user_id)).size).toBe(agents.seen.length);
    const names = agents.seen.map((a) => a.name);
    expect(names.indexOf("Zé Silva")).toBe(names.length - 1);
    expect(names.indexOf("Ana Lima")).toBeLessThan(names.indexOf("ana Souza"));
  });

  it("channels and tabs answer one page; GET /live/channels/{id} of another account is 404", async () => {
    const list = await api("/api/live/channels", { token });
    expect(list.status).toBe(200);
    expect(list.body).toEqual({ data: [], next_cursor: null });
    expect((await api("/api/live/channels/00000000-0000-4000-8000-000000000000", { token })).status).toBe(404);
  });
});
