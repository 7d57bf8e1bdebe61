/**
 * The webchat widget's public side (issue 5, spec sections 3-5 and 9) on the real API, PostgreSQL
 * and Redis: the public configuration by widget key, the visitor's edit/delete of their own
 * messages only (with the live events), the greeting and offline message (issue 19), the built
 * script's size budget (15 KB gzip, issue 19), and the hosted pages.
 */
import { createHash } from "node:crypto";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { gzipSync } from "node:zlib";
import type Redis from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inject } from "vitest";
import { api, giveOmni, login, registerPerson, type Person } from "../support/api";
import { query } from "../support/db";
import { WebClient } from "../support/web";
import { makeDepartments, makeHoliday, setLiveSettings } from "../support/factories";
import { openRedis, keysOf } from "../support/redis";

const root = resolve(__dirname, "..", "..");
let owner: Person;
let token: string;
let widgetKey: string;
let redis: Redis;
let depts: { support: string; sales: string; old: string };

const as = (path: string, opts: Parameters<typeof api>[1] = {}) => api(path, { ...opts, token, account: owner.accountId });

async function visitor(message: string) {
  const res = await api(`/api/widget/${widgetKey}/messages`, { body: { name: "Visitante", message, client_id: `c-${Math.random()}` } });
  expect(res.status).toBe(200);
  return res.body as { visitor_id: string; visitor_token: string; room: { id: string }; message: { id: string } };
}

/** Entries of a stream as objects, oldest first. */
async function stream(key: string) {
  const entries = await redis.xrange(key, "-", "+");
  return entries.map(([, f]) => Object.fromEntries(Array.from({ length: f.length / 2 }, (_, i) => [f[2 * i], f[2 * i + 1]])) as Record<string, string>);
}

beforeAll(async () => {
  redis = openRedis(inject("redisUrl"));
  owner = await registerPerson("widget-owner");
  await giveOmni(owner.accountId);
  ({ token } = await login(owner.email, owner.password));
  const [support, sales, old] = await makeDepartments(owner.accountId, [
    { name: "Suporte", status: "active" },
    { name: "Vendas", status: "active" },
    { name: "Antigo", status: "inactive" },
  ]);
  depts = { support, sales, old };
  // The widget settings screen's API creates the row (and the key) on first read.
  const w = await as("/api/live/widget");
  expect(w.status).toBe(200);
  widgetKey = w.body.widget_key;
  const put = await as("/api/live/widget", {
    method: "PUT",
    body: { ...w.body.settings, title_online: "Fale com a Loja", welcome: "Olá! Como podemos ajudar?", position: "left" },
  });
  expect(put.status).toBe(200);
});

afterAll(async () => {
  redis.disconnect();
});

describe("GET /api/widget/{key}/config", () => {
  it("answers the widget's public settings, open now, queue and active departments, and nothing of the account", async () => {
    const res = await api(`/api/widget/${widgetKey}/config`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      key: widgetKey,
      enabled: true,
      title_online: "Fale com a Loja",
      title_offline: "Deixe sua mensagem",
      welcome: "Olá! Como podemos ajudar?",
      position: "left",
      open: true,
      queue_enabled: true,
      attachments: true,
      emoji: true,
    });
    expect(Object.keys(res.body.colors).sort()).toEqual(["header", "launcher", "messageList", "receivedMessage", "sentMessage", "userInput", "userList"]);
    expect(res.body.departments).toEqual([
      { id: depts.support, name: "Suporte", open: true },
      { id: depts.sales, name: "Vendas", open: true },
    ]);
    const text = JSON.stringify(res.body);
    expect(text).not.toContain(owner.accountId);
    expect(text).not.toContain(owner.email);
    expect(res.body).not.toHaveProperty("acceptance_option");
    // Any site may embed it: CORS on the answer and on the preflight.
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    const pre = await fetch(new URL(`/api/widget/${widgetKey}/messages`, inject("apiUrl")), {
      method: "OPTIONS",
      headers: { Origin: "https://loja.example", "Access-Control-Request-Method": "POST" },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get("access-control-allow-methods")).toContain("PUT");
    // The same list at /departments.
    expect((await api(`/api/widget/${widgetKey}/departments`)).body.data).toEqual(res.body.departments);
  });

  it("follows the opening hours and holidays (closed: the widget shows the offline form) and the queue setting", async () => {
    await makeHoliday(owner.accountId, { name: "Hoje" });
    await setLiveSettings(owner.accountId, { queuedEnabled: false });
    try {
      const res = await api(`/api/widget/${widgetKey}/config`);
      expect(res.body).toMatchObject({ open: false, queue_enabled: false });
      expect(res.body.departments.map((d: { open: boolean }) => d.open)).toEqual([false, false]);
    } finally {
      await query(`DELETE FROM live_holidays WHERE account_id = $1`, [owner.accountId]);
      await setLiveSettings(owner.accountId, { queuedEnabled: true });
    }
    expect((await api(`/api/widget/${widgetKey}/config`)).body.open).toBe(true);
  });

  it("404 for an unknown key", async () => {
    expect((await api(`/api/widget/nao-existe-esta-chave-123/config`)).status).toBe(404);
    expect((await api(`/api/widget/x/config`)).status).toBe(404);
  });
});

describe("the visitor edits and deletes their own messages", () => {
  it("edits only their own messages with text, deletes them (shown as deleted), and publishes edited/deleted", async () => {
    const ana = await visitor("Quero trocar o pedido 123");
    const bia = await visitor("Mensagem da Bia");
    const creds = { visitor_id: ana.visitor_id, visitor_token: ana.visitor_token };
    const url = (id: string) => `/api/widget/${widgetKey}/messages/${id}`;

    const edited = await api(url(ana.message.id), { method: "PUT", body: { ...creds, message: "Quero trocar o pedido 124" } });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ id: ana.message.id, body: "Quero trocar o pedido 124", edited: true, author: "visitor" });
    expect(await query(`SELECT body, edited FROM live_messages WHERE id = $1`, [ana.message.id])).toEqual([{ body: "Quero trocar o pedido 124", edited: true }]);

    // Editing needs text.
    const empty = await api(url(ana.message.id), { method: "PUT", body: { ...creds, message: "   " } });
    expect(empty.status).toBe(422);
    // Another visitor's message: not found, untouched.
    expect((await api(url(bia.message.id), { method: "PUT", body: { ...creds, message: "invadido" } })).status).toBe(404);
    expect((await api(url(bia.message.id), { method: "DELETE", body: creds })).status).toBe(404);
    expect(await query(`SELECT body, status FROM live_messages WHERE id = $1`, [bia.message.id])).toEqual([{ body: "Mensagem da Bia", status: "SENT" }]);
    // A wrong token: 401.
    expect((await api(url(ana.message.id), { method: "PUT", body: { ...creds, visitor_token: bia.visitor_token, message: "x" } })).status).toBe(401);

    // The agent's message is not the visitor's.
    const took = await as(`/api/omni/rooms/${ana.room.id}/take`, { method: "POST" });
    expect(took.status).toBe(200);
    const reply = await as("/api/omni/messages", { body: { room_id: ana.room.id, message: "Claro!" } });
    expect(reply.status).toBe(200);
    expect((await api(url(reply.body.id), { method: "PUT", body: { ...creds, message: "mudado" } })).status).toBe(404);
    expect((await api(url(reply.body.id), { method: "DELETE", body: creds })).status).toBe(404);

    const deleted = await api(url(ana.message.id), { method: "DELETE", body: creds });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toMatchObject({ id: ana.message.id, status: "DELETED", body: "", attachments: [] });
    expect(await query(`SELECT status FROM live_messages WHERE id = $1`, [ana.message.id])).toEqual([{ status: "DELETED" }]);
    // Deleted: no more edits or deletes.
    expect((await api(url(ana.message.id), { method: "PUT", body: { ...creds, message: "de novo" } })).status).toBe(404);
    expect((await api(url(ana.message.id), { method: "DELETE", body: creds })).status).toBe(404);

    // The conversation shows it deleted, and names the attending agent for the user list.
    const conv = await api(`/api/widget/${widgetKey}/conversation?${new URLSearchParams(creds)}`);
    expect(conv.status).toBe(200);
    expect(conv.body.messages.find((m: { id: string }) => m.id === ana.message.id)).toMatchObject({ status: "DELETED", body: "" });
    expect(conv.body.participants).toEqual([{ id: owner.userId, name: "Teste" }]);

    // Live events: to the visitor's room stream and to the attending agent on the account stream.
    const room = (await stream(keysOf(inject("redisPrefix")).roomLiveStream(owner.accountId, ana.room.id))).filter((e) => e.event === "edited" || e.event === "deleted");
    expect(room.map((e) => [e.event, JSON.parse(e.data).message.id])).toEqual([
      ["edited", ana.message.id],
      ["deleted", ana.message.id],
    ]);
    expect(JSON.parse(room[0].data).message.body).toBe("Quero trocar o pedido 124");
    const account = (await stream(keysOf(inject("redisPrefix")).accountLiveStream(owner.accountId))).filter(
      (e) => e.room_id === ana.room.id && (e.event === "edited" || e.event === "deleted"),
    );
    expect(account.map((e) => [e.event, e.to])).toEqual([
      ["edited", "*"],
      ["deleted", owner.userId],
    ]);
  });
});

describe("greeting and offline message (issue 19)", () => {
  it("are validated by length with an error naming the field, in the reader's language, and reach the widget's config", async () => {
    const current = (await as("/api/live/widget")).body.settings;
    const long = "x".repeat(501);
    const bad = await as("/api/live/widget", { method: "PUT", body: { ...current, welcome: long, offline_message: long } });
    expect(bad.status).toBe(422);
    expect(bad.body.error.fields).toEqual({
      welcome: ["A saudação pode ter no máximo 500 caracteres."],
      offline_message: ["A mensagem quando não há atendentes pode ter no máximo 500 caracteres."],
    });
    const en = await as("/api/live/widget", { method: "PUT", body: { ...current, offline_message: long }, lang: "en" });
    expect(en.body.error.fields).toEqual({ offline_message: ["The message when no agent is available can have at most 500 characters."] });
    // Nothing stored by a refusal.
    expect((await api(`/api/widget/${widgetKey}/config`)).body).toMatchObject({ welcome: "Olá! Como podemos ajudar?", offline_message: "" });

    const ok = await as("/api/live/widget", {
      method: "PUT",
      body: { ...current, welcome: ` ${"a".repeat(500)} `, offline_message: "  Sem atendentes agora: deixe sua mensagem.  " },
    });
    expect(ok.status).toBe(200);
    expect(ok.body.settings).toMatchObject({ welcome: "a".repeat(500), offline_message: "Sem atendentes agora: deixe sua mensagem." });
    const config = (await api(`/api/widget/${widgetKey}/config`)).body;
    // No agent of this account holds a /live connection: the widget shows the offline message.
    expect(config).toMatchObject({ welcome: "a".repeat(500), offline_message: "Sem atendentes agora: deixe sua mensagem.", agents_online: false });
    await as("/api/live/widget", { method: "PUT", body: { ...current, offline_message: "" } });
  });

  it("the settings form without JavaScript: labels, the refusal next to its field, then saved", async () => {
    const web = new WebClient();
    await web.get("/login");
    expect((await web.post("/login", { email: owner.email, password: owner.password })).status).toBe(302);
    const form = await web.page("/live/configs/widget");
    expect(form.html).toContain("Saudação");
    expect(form.html).toContain("Mensagem quando não há atendentes");
    const current = (await as("/api/live/widget")).body.settings as Record<string, unknown> & { colors: Record<string, { bg: string; text: string }> };
    const fields: Record<string, string> = {
      intent: "widget",
      title_online: String(current.title_online),
      title_offline: String(current.title_offline),
      welcome: "Olá! Como podemos ajudar?",
      offline_message: "y".repeat(501),
      position: String(current.position),
      highlight_color: String(current.highlight_color),
      enabled: "on",
      ...Object.fromEntries(
        Object.entries(current.colors).flatMap(([part, c]) => [
          [`colors.${part}.bg`, c.bg],
          [`colors.${part}.text`, c.text],
        ]),
      ),
    };
    const refused = await web.post("/live/configs/widget", fields);
    expect(refused.status).toBe(422);
    expect(await refused.text()).toContain("A mensagem quando não há atendentes pode ter no máximo 500 caracteres.");
    expect((await api(`/api/widget/${widgetKey}/config`)).body.offline_message).toBe("");
    expect((await web.post("/live/configs/widget", { ...fields, offline_message: "Voltamos às 8h." })).status).toBe(302);
    expect((await api(`/api/widget/${widgetKey}/config`)).body.offline_message).toBe("Voltamos às 8h.");
    await as("/api/live/widget", { method: "PUT", body: { ...current, offline_message: "" } });
  });
});

describe("the widget script", () => {
  it("builds to at most 15 KB gzip (issue 19), and the web serves it", async () => {
    const out = join(mkdtempSync(join(tmpdir(), "widget-")), "widget.js");
    const r = spawnSync(process.execPath, [join(root, "api", "cli", "widget-build.mjs"), "--out", out], { cwd: root, encoding: "utf8" });
    expect(r.status, r.stderr).toBe(0);
    const js = readFileSync(out);
    const gz = gzipSync(js, { level: 9 }).byteLength;
    expect(gz).toBeGreaterThan(2_000); // it is the real widget, not an empty file
    expect(gz).toBeLessThanOrEqual(15 * 1024);
    // Beside it, the same styles as a file (browsers without constructable stylesheets), asked for by content hash.
    const css = readFileSync(out.replace(/\.js$/, ".css"), "utf8");
    expect(css).toContain(".launcher{position:fixed");
    const v = createHash("sha256").update(css).digest("hex").slice(0, 12);
    expect(js.toString()).toContain(v);
    const served = await fetch(new URL("/widget.js", inject("webUrl")));
    expect(served.status).toBe(200);
    expect(await served.text()).toContain("mensageria-widget");
  });
});

/** One <title> (the page's own, then the brand) and the viewport meta: a phone renders it at its width (issue 19). */
function expectOneHead(html: string, title: string) {
  const head = html.slice(0, html.indexOf("</head>"));
  const titles = [...head.matchAll(/<title>([^<]*)<\/title>/g)].map((m) => m[1]);
  expect(titles).toHaveLength(1);
  expect(titles[0].startsWith(`${title} · `)).toBe(true);
  expect(head.match(/<meta name="viewport" content="width=device-width, initial-scale=1"\/>/g)).toHaveLength(1);
}

describe("hosted pages", () => {
  it("/webchat?key= is public and embeds the widget; an unknown key is not found", async () => {
    const web = new WebClient();
    const { res, html } = await web.page(`/webchat?key=${widgetKey}`);
    expect(res.status).toBe(200);
    expect(html).toContain("Fale com a Loja");
    expectOneHead(html, "Fale com a Loja");
    expect((await web.get(`/webchat?key=desconhecida-1234567890`)).status).toBe(404);
  });

  it("/live/simulator works logged out (with a key) and uses the account's own key when logged in", async () => {
    const out = new WebClient();
    const anon = await out.page("/live/simulator");
    expect(anon.res.status).toBe(200);
    expect(anon.html).toContain("Simulador do widget");
    expectOneHead(anon.html, "Simulador do widget");
    expect(anon.html).not.toContain(widgetKey);
    const withKey = await out.page(`/live/simulator?key=${widgetKey}`);
    expect(withKey.html).toContain(`data-key=&quot;${widgetKey}&quot;`);

    const me = new WebClient();
    await me.get("/login");
    expect((await me.post("/login", { email: owner.email, password: owner.password })).status).toBe(302);
    const mine = await me.page("/live/simulator");
    expect(mine.res.status).toBe(200);
    expect(mine.html).toContain(widgetKey);
  });
});
