/**
 * Live chat configuration screens over the real web process, as a browser with JavaScript off
 * would post them: tabulations, canned responses, macros, holidays ('error registering holidays'),
 * opening hours, system settings and agents, widget settings and key, mute/volume. Every row is
 * checked in the database, and every screen is scoped to the account and gated by the plan.
 */
import { beforeAll, describe, expect, inject, it } from "vitest";
import { giveOmni, registerPerson, type Person } from "../support/api";
import { query } from "../support/db";
import { DEMO_PASSWORD, location, signIn, type WebClient } from "../support/web";
import { addLiveAgent, makeDepartment, makeLiveSample, makeTabulation } from "../support/factories";

let owner: Person;
let c: WebClient;
let other: Person;

beforeAll(async () => {
  owner = await registerPerson("liveconf");
  other = await registerPerson("liveconf-other");
  await giveOmni(owner.accountId);
  await giveOmni(other.accountId);
  c = await signIn(owner.email, owner.password);
});

describe("plan gate", () => {
  it("without the omni plan the live screens and the plan-gated ones go to /403", async () => {
    const p = await registerPerson("liveconf-noplan");
    const w = await signIn(p.email, p.password);
    for (const path of ["/live/configs/system", "/live/configs/widget", "/live/preferences", "/tabulations", "/opening-hours"]) {
      const res = await w.get(path);
      expect(location(res), path).toBe("/403");
    }
  });
});

describe("tabulations", () => {
  it("create, duplicate name refused (any case), rename, deactivate, activate, delete", async () => {
    const created = await c.post("/tabulations", { intent: "create", name: "Venda realizada" });
    expect(created.status).toBe(302);
    const [tab] = await query<{ id: string; active: boolean }>("SELECT id, active FROM live_tabulations WHERE account_id = $1 AND name = 'Venda realizada'", [owner.accountId]);
    expect(tab.active).toBe(true);

    const dup = await c.post("/tabulations", { intent: "create", name: "VENDA REALIZADA" });
    expect(dup.status).toBe(422);
    expect(await dup.text()).toContain("Já existe uma tabulação com este nome");

    expect((await c.post("/tabulations", { intent: "rename", id: tab.id, name: "Venda concluída" })).status).toBe(302);
    expect((await c.post("/tabulations", { intent: "toggle", id: tab.id, active: "false" })).status).toBe(302);
    expect((await query("SELECT name, active FROM live_tabulations WHERE id = $1", [tab.id]))[0]).toEqual({ name: "Venda concluída", active: false });
    const page = await c.page("/tabulations");
    expect(page.html).toContain("Venda concluída");
    expect(page.html).toContain("Inativa");

    // Another account cannot touch it.
    const o = await signIn(other.email, other.password);
    expect((await o.post("/tabulations", { intent: "delete", id: tab.id })).status).toBe(404);
    expect((await o.page("/tabulations")).html).not.toContain("Venda concluída");

    expect((await c.post("/tabulations", { intent: "delete", id: tab.id })).status).toBe(302);
    expect(await query("SELECT 1 FROM live_tabulations WHERE id = $1", [tab.id])).toHaveLength(0);
  });
});

describe("canned responses", () => {
  it("for all, for me and for a department; a bad key is refused with its message", async () => {
    const dept = { id: await makeDepartment(owner.accountId, "Suporte") };
    expect((await c.post("/responses", { intent: "create", key: "ola", message: "Olá! Como posso ajudar?", audience: "all" })).status).toBe(302);
    expect((await c.post("/responses", { intent: "create", key: "minha", message: "Só minha", audience: "me" })).status).toBe(302);
    const noDept = await c.post("/responses", { intent: "create", key: "sup", message: "Suporte aqui", audience: "department" });
    expect(noDept.status).toBe(422);
    expect((await c.post("/responses", { intent: "create", key: "sup", message: "Suporte aqui", audience: "department", department_id: dept.id })).status).toBe(302);
    const bad = await c.post("/responses", { intent: "create", key: "com espaço", message: "x", audience: "all" });
    expect(bad.status).toBe(422);
    expect(await bad.text()).toContain("Use só letras minúsculas, números, - e _");

    const rows = await query<{ key: string; for_all: boolean; user_id: string | null; department_id: string | null }>(
      "SELECT key, for_all, user_id, department_id FROM live_samples WHERE account_id = $1 ORDER BY key",
      [owner.accountId],
    );
    expect(rows).toEqual([
      { key: "minha", for_all: false, user_id: owner.userId, department_id: null },
      { key: "ola", for_all: true, user_id: null, department_id: null },
      { key: "sup", for_all: false, user_id: null, department_id: dept.id },
    ]);
    const page = await c.page("/responses");
    expect(page.html).toContain("/ola");
    expect(page.html).toContain("Suporte");

    // Edited from its row's form (no JavaScript); a bad shortcut keeps the old one.
    const ola = (await query<{ id: string }>("SELECT id FROM live_samples WHERE account_id = $1 AND key = 'ola'", [owner.accountId]))[0];
    expect((await c.post("/responses", { intent: "update", id: ola.id, key: "bem-vindo", message: "Bem-vindo! Em que posso ajudar?" })).status).toBe(302);
    expect((await c.post("/responses", { intent: "update", id: ola.id, key: "não pode", message: "x" })).status).toBe(422);
    expect((await query("SELECT key, message FROM live_samples WHERE id = $1", [ola.id]))[0]).toEqual({ key: "bem-vindo", message: "Bem-vindo! Em que posso ajudar?" });
  });
});

describe("canned responses for an agent", () => {
  it("an agent opens /responses, sees the shared and own samples, creates and edits only their own", async () => {
    const agent = await registerPerson("liveconf-agent");
    await addLiveAgent(owner.accountId, agent.userId);
    const shared = { id: await makeLiveSample(owner.accountId, { forAll: true, key: "geral", message: "Para todos" }) };
    const a = await signIn(agent.email, agent.password);

    const page = await a.page("/responses");
    expect(page.res.status).toBe(200);
    expect(page.html).toMatch(/\/(<!-- -->)?geral</);
    // Only "me" is offered, and no department; the shared one has no edit or delete form.
    expect(page.html).not.toContain('value="all"');
    expect(page.html).not.toContain('name="department_id"');
    expect(page.html).not.toContain(`name="id" value="${shared.id}"`);

    expect((await a.post("/responses", { intent: "create", key: "meu-oi", message: "Oi, aqui é do suporte", audience: "me" })).status).toBe(302);
    const [mine] = await query<{ id: string; user_id: string; for_all: boolean }>(`SELECT id, user_id, for_all FROM live_samples WHERE account_id = $1 AND key = 'meu-oi'`, [
      owner.accountId,
    ]);
    expect(mine).toMatchObject({ user_id: agent.userId, for_all: false });
    expect((await a.page("/responses")).html).toContain(`name="id" value="${mine.id}"`);
    expect((await a.post("/responses", { intent: "update", id: mine.id, key: "meu-ola", message: "Olá!" })).status).toBe(302);

    // For everyone, or someone else's: refused, nothing changed.
    expect((await a.post("/responses", { intent: "create", key: "todos", message: "x", audience: "all" })).status).toBe(403);
    expect((await a.post("/responses", { intent: "update", id: shared.id, key: "geral", message: "mudado" })).status).toBe(404);
    expect((await a.post("/responses", { intent: "delete", id: shared.id })).status).toBe(404);
    expect((await query("SELECT key, message FROM live_samples WHERE id = $1", [shared.id]))[0]).toEqual({ key: "geral", message: "Para todos" });
    expect((await a.post("/responses", { intent: "delete", id: mine.id })).status).toBe(302);
    expect(await query("SELECT 1 FROM live_samples WHERE id = $1", [mine.id])).toHaveLength(0);
  });
});

describe("macros", () => {
  it("create with tags, a tabulation and close; edit; another account's is 404", async () => {
    const tab = { id: await makeTabulation(owner.accountId, "Resolvido") };
    const res = await c.post("/chat/macros", {
      intent: "save",
      name: "Encerrar resolvido",
      message: "Obrigado pelo contato!",
      tags: "resolvido, pós-venda, resolvido",
      tabulation_id: tab.id,
      close: "on",
    });
    expect(res.status).toBe(302);
    const [m] = await query<{ id: string; tags: string[]; tabulation_id: string; close: boolean }>("SELECT id, tags, tabulation_id, close FROM live_macros WHERE account_id = $1", [
      owner.accountId,
    ]);
    expect(m).toMatchObject({ tags: ["resolvido", "pós-venda"], tabulation_id: tab.id, close: true });

    const edit = await c.page(`/chat/macros/${m.id}/edit`);
    expect(edit.res.status).toBe(200);
    expect(edit.html).toContain('value="Encerrar resolvido"');
    const saved = await c.post(`/chat/macros/${m.id}/edit`, { intent: "save", name: "Encerrar", tags: "" });
    expect(saved.status, await saved.clone().text()).toBe(302);
    expect((await query("SELECT name, message, tags, tabulation_id, close FROM live_macros WHERE id = $1", [m.id]))[0]).toEqual({
      name: "Encerrar",
      message: null,
      tags: [],
      tabulation_id: null,
      close: false,
    });

    const o = await signIn(other.email, other.password);
    expect((await o.page(`/chat/macros/${m.id}/edit`)).res.status).toBe(404);
    expect((await o.post(`/chat/macros/${m.id}/edit`, { intent: "save", name: "Roubada" })).status).toBe(404);
  });
});

describe("holidays and opening hours", () => {
  it("a holiday is registered once; the same day again is 'error registering holidays'", async () => {
    expect((await c.post("/holidays/create", { name: "Natal", day: "2026-12-25" })).status).toBe(302);
    const again = await c.post("/holidays/create", { name: "Natal de novo", day: "2026-12-25" });
    expect(again.status).toBe(409);
    expect(await again.text()).toContain("Erro ao cadastrar feriados");
    const bad = await c.post("/holidays/create", { name: "Nunca", day: "2026-02-30" });
    expect(bad.status).toBe(422);
    expect(await query("SELECT name FROM live_holidays WHERE account_id = $1", [owner.accountId])).toEqual([{ name: "Natal" }]);
    expect((await c.page("/holidays")).html).toContain("Natal");
  });

  it("hours on several weekdays; closing before opening and overlaps are refused", async () => {
    expect((await c.page("/opening-hours")).html).toContain("Aberto agora"); // nothing configured: always open
    const res = await c.post("/opening-hours/create", { weekdays: "1", opens: "08:00", closes: "18:00" });
    expect(res.status).toBe(302);
    const body = new URLSearchParams([
      ["weekdays", "2"],
      ["weekdays", "3"],
      ["opens", "09:00"],
      ["closes", "12:00"],
      ["csrf", c.csrf],
    ]);
    expect((await c.request("/opening-hours/create", { method: "POST", body, headers: { "Content-Type": "application/x-www-form-urlencoded" } })).status).toBe(302);
    const backwards = await c.post("/opening-hours/create", { weekdays: "4", opens: "18:00", closes: "08:00" });
    expect(backwards.status).toBe(422);
    expect(await backwards.text()).toContain("O fechamento deve ser depois da abertura");
    const overlap = await c.post("/opening-hours/create", { weekdays: "1", opens: "17:00", closes: "19:00" });
    expect(overlap.status).toBe(422);
    expect(await overlap.text()).toContain("sobrepõe");
    const rows = await query<{ weekday: number; opens: string; closes: string }>(
      "SELECT weekday, opens::text AS opens, closes::text AS closes FROM live_opening_hours WHERE account_id = $1 ORDER BY weekday",
      [owner.accountId],
    );
    expect(rows).toEqual([
      { weekday: 1, opens: "08:00:00", closes: "18:00:00" },
      { weekday: 2, opens: "09:00:00", closes: "12:00:00" },
      { weekday: 3, opens: "09:00:00", closes: "12:00:00" },
    ]);
  });

  it("isOpen reads the account's rows: the holiday is closed, Monday 10:00 open, Monday 18:00 closed", async () => {
    process.env.DATABASE_URL = inject("databaseUrl");
    const { isOpen } = await import("../../api/live/hours");
    expect(await isOpen(owner.accountId, new Date("2026-03-02T13:00:00Z"))).toBe(true); // Mon 10:00 SP
    expect(await isOpen(owner.accountId, new Date("2026-03-02T21:00:00Z"))).toBe(false); // Mon 18:00
    expect(await isOpen(owner.accountId, new Date("2026-12-25T13:00:00Z"))).toBe(false); // Friday, Christmas (no Friday hours anyway)
    expect(await isOpen(other.accountId, new Date("2026-03-08T13:00:00Z"))).toBe(true); // nothing configured
  });
});

describe("system settings, agents, widget, preferences", () => {
  it("the settings row is created on first read; saving changes it; invalid numbers are refused", async () => {
    expect((await c.page("/live/configs/system")).res.status).toBe(200);
    const [row] = await query<{ widget_key: string; acceptance_option: string }>("SELECT widget_key, acceptance_option FROM live_settings WHERE account_id = $1", [
      owner.accountId,
    ]);
    expect(row.widget_key).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    expect(row.acceptance_option).toBe("automatic");
    const saved = await c.post("/live/configs/system", { intent: "system", acceptance_option: "manual", default_capacity: "5", tabulation_required: "on", idle_minutes: "15" });
    expect(saved.status).toBe(302);
    expect(
      (await query("SELECT queued_enabled, acceptance_option, default_capacity, tabulation_required, idle_minutes FROM live_settings WHERE account_id = $1", [owner.accountId]))[0],
    ).toEqual({
      queued_enabled: false,
      acceptance_option: "manual",
      default_capacity: 5,
      tabulation_required: true,
      idle_minutes: 15,
    });
    const bad = await c.post("/live/configs/system", { intent: "system", acceptance_option: "manual", default_capacity: "0", idle_minutes: "15" });
    expect(bad.status).toBe(422);
    expect(await bad.text()).toContain("Valor mínimo 1");
  });

  it("an agent's capacity and served departments", async () => {
    const dept = { id: await makeDepartment(owner.accountId, "Vendas") };
    const page = await c.page("/live/configs/system");
    expect(page.html).toContain(owner.email);
    const res = await c.post("/live/configs/system", { intent: "agent", id: owner.userId, capacity: "7", department_ids: dept.id });
    expect(res.status).toBe(302);
    expect((await query("SELECT capacity FROM live_agents WHERE account_id = $1 AND user_id = $2", [owner.accountId, owner.userId]))[0]).toEqual({ capacity: 7 });
    expect(await query("SELECT department_id FROM live_agent_departments WHERE account_id = $1 AND user_id = $2", [owner.accountId, owner.userId])).toEqual([
      { department_id: dept.id },
    ]);
    const foreign = { id: await makeDepartment(other.accountId, "Alheio") };
    expect((await c.post("/live/configs/system", { intent: "agent", id: owner.userId, capacity: "", department_ids: foreign.id })).status).toBe(422);
    expect((await c.post("/live/configs/system", { intent: "agent", id: other.userId, capacity: "2" })).status).toBe(404);
  });

  it("widget: colors saved lower-case, a bad color refused, snippet with the key, key regenerated; widgetConfigByKey reads it", async () => {
    const colors = Object.fromEntries(
      ["header", "launcher", "messageList", "sentMessage", "receivedMessage", "userInput", "userList"].flatMap((p) => [
        [`colors.${p}.bg`, "#112233"],
        [`colors.${p}.text`, "#FFFFFF"],
      ]),
    );
    const fields = {
      intent: "widget",
      title_online: "Fale com a gente",
      title_offline: "Estamos fora",
      welcome: "Bem-vindo!",
      position: "left",
      highlight_color: "#AA0000",
      enabled: "on",
      ...colors,
    };
    expect((await c.post("/live/configs/widget", fields)).status).toBe(302);
    const [s] = await query<{ widget: any; widget_key: string }>("SELECT widget, widget_key FROM live_settings WHERE account_id = $1", [owner.accountId]);
    expect(s.widget).toMatchObject({
      title_online: "Fale com a gente",
      position: "left",
      highlight_color: "#aa0000",
      enabled: true,
      attachments: false,
      colors: { header: { bg: "#112233", text: "#ffffff" } },
    });

    const bad = await c.post("/widget/config", { ...fields, "colors.header.bg": "red" });
    expect(bad.status).toBe(422);
    expect(await bad.text()).toContain("#RRGGBB");

    const page = await c.page("/widget/config");
    expect(page.html).toContain(`data-key=&quot;${s.widget_key}&quot;`);
    expect(page.html).toContain("/widget.js");

    expect((await c.post("/live/configs/widget", { intent: "regenerate" })).status).toBe(302);
    const [after] = await query<{ widget_key: string }>("SELECT widget_key FROM live_settings WHERE account_id = $1", [owner.accountId]);
    expect(after.widget_key).not.toBe(s.widget_key);

    process.env.DATABASE_URL = inject("databaseUrl");
    const { widgetConfigByKey } = await import("../../api/live/settings");
    expect(await widgetConfigByKey(s.widget_key)).toBeNull();
    const found = await widgetConfigByKey(after.widget_key);
    expect(found).toMatchObject({ accountId: owner.accountId, settings: { title_online: "Fale com a gente", colors: { header: { bg: "#112233" } } } });
  });

  it("mute for 8 hours sets mute_until about 8 hours ahead; 'always' clears it; volume is kept", async () => {
    const before = Date.now();
    expect((await c.post("/live/preferences", { mute: "8h", volume: "0.4" })).status).toBe(302);
    const [p] = await query<{ mute: string; mute_until: Date; volume: number }>("SELECT mute, mute_until, volume FROM live_agents WHERE account_id = $1 AND user_id = $2", [
      owner.accountId,
      owner.userId,
    ]);
    expect(p.mute).toBe("8h");
    expect(p.volume).toBeCloseTo(0.4);
    expect(Math.abs(p.mute_until.getTime() - (before + 8 * 3600_000))).toBeLessThan(60_000);
    expect((await c.page("/live/preferences")).html).toContain("Silenciado até");
    expect((await c.post("/live/preferences", { mute: "always", volume: "1" })).status).toBe(302);
    expect((await query("SELECT mute, mute_until FROM live_agents WHERE account_id = $1 AND user_id = $2", [owner.accountId, owner.userId]))[0]).toEqual({
      mute: "always",
      mute_until: null,
    });
    expect((await c.post("/live/preferences", { mute: "forever", volume: "2" })).status).toBe(422);
  });

  it("the demo agent reads the live settings but cannot change them", async () => {
    const a = await signIn("agent@demo.example", DEMO_PASSWORD);
    expect((await a.page("/live/configs/system")).html).toContain("Só administradores alteram estas configurações.");
    const res = await a.post("/live/configs/system", { intent: "system", acceptance_option: "manual", default_capacity: "9", idle_minutes: "9" });
    expect(res.status).toBe(403);
  });
});
