/**
 * Platform-wide SMS reports, dashboard, monitor and sales, and the analytics (issue 23;
 * api/admin-sms/*, the screens routes/admin/_app.admin.sms.*.tsx and _app.admin.analytics.tsx;
 * ADR 065). Two fresh accounts — A made a customer of the demo reseller, B not — with SMS seeded on
 * a São Paulo day of the past (23 days ago): platform staff read both with exact figures (per
 * status, route and provider, customer; revenue leaves out what was refused or refunded), the
 * reseller reads only A (B is out of reach), a customer's owner is refused everywhere. The monitor
 * shows a queue depth the test causes (queued messages of a paused campaign, which nothing sends)
 * and a provider's last-hour figures and errors; the analytics count the channels of the day.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { api, login, registerPerson, type Person } from "../support/api";
import { query } from "../support/db";
import { makeCampaign, makeMessages, type MessageFields } from "../support/factories";
import { keysOf, openRedis } from "../support/redis";
import { DEMO_PASSWORD, location, signIn, type WebClient } from "../support/web";

const spToday = () => new Intl.DateTimeFormat("en-CA", { timeZone: "America/Sao_Paulo", year: "numeric", month: "2-digit", day: "2-digit" }).format(new Date());
const addDays = (day: string, n: number) => new Date(Date.parse(`${day}T12:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

let staff: string;
let reseller: string;
let owner: string;
const people: Record<"a" | "b", Person> = {} as never;
let day: string;
/** A provider name only this file's messages carry (the monitor's per-provider rows). */
const PROVIDER = `mon_${Date.now().toString(36)}`;
const QUEUED = 7;
let heldIds: string[] = [];

const at = (minute: number) => `${day}T10:${String(minute).padStart(2, "0")}:00-03:00`;

beforeAll(async () => {
  staff = (await login("staff@demo.example", DEMO_PASSWORD)).token;
  reseller = (await login("reseller@demo.example", DEMO_PASSWORD)).token;
  people.a = await registerPerson("smsadmina");
  people.b = await registerPerson("smsadminb");
  owner = (await login(people.a.email, people.a.password)).token;
  const [r] = await query<{ id: string }>(
    `SELECT a.id::text FROM accounts a JOIN memberships m ON m.account_id = a.id JOIN users u ON u.id = m.user_id WHERE u.email = 'reseller@demo.example'`,
  );
  await query(`UPDATE accounts SET parent_account_id = $1 WHERE id = $2`, [r.id, people.a.accountId]);
  day = addDays(spToday(), -23);
  const sms = (f: MessageFields, minute: number): MessageFields => ({ provider: "simulator", currency: "BRL", createdAt: at(minute), ...f });
  // A: 5 messages. Revenue 8 + 16 + 8 = 32 (the failure before sending and the opt-out are not charged).
  await makeMessages(people.a.accountId, [
    sms({ status: "delivered", route: "T1", segments: 1, price: 8, sentAt: at(0) }, 0),
    sms({ status: "delivered", route: "T1", segments: 2, price: 16, sentAt: at(1) }, 1),
    sms({ status: "failed", route: "T2", segments: 1, price: 8, sentAt: at(2), errorCode: "E1" }, 2),
    sms({ status: "failed", route: "T2", segments: 1, price: 8, sentAt: null, errorCode: "dispatch_failed" }, 3),
    sms({ status: "optout", route: "T1", segments: 1, price: 0, provider: null }, 4),
  ]);
  // B: 2 SMS (revenue 20) and a WhatsApp message.
  await makeMessages(people.b.accountId, [
    sms({ status: "delivered", route: "T4", segments: 1, price: 10, sentAt: at(5) }, 5),
    sms({ status: "sent", route: "T4", segments: 1, price: 10, sentAt: at(6) }, 6),
    { channel: "whatsapp", status: "delivered", price: 40, currency: "BRL", provider: "whatsapp_cloud", createdAt: at(7), sentAt: at(7) },
  ]);
});

afterAll(async () => {
  if (heldIds.length) await query(`DELETE FROM messages WHERE id = ANY($1::uuid[])`, [heldIds]);
});

const get = (path: string, token: string) => api(path, { token, lang: "en" });

describe("GET /api/admin/sms/reports and POST /api/admin/sms/insights", () => {
  it("staff read one account's SMS of the day exactly: per status, per route and provider; revenue without refused or refunded messages", async () => {
    const res = await get(`/api/admin/sms/reports?from=${day}&to=${day}&account_id=${people.a.accountId}`, staff);
    expect(res.status).toBe(200);
    const r = res.body.data;
    expect(r).toMatchObject({ from: day, to: day, reach: "platform", account: { id: people.a.accountId }, messages: 5, segments: 6, sent: 3, delivered: 2, failed: 2 });
    expect(r.delivery_rate).toBeCloseTo(2 / 3, 4);
    expect(r.revenue).toEqual([{ currency: "BRL", amount: 32 }]);
    expect(r.statuses).toEqual([
      { status: "delivered", messages: 2 },
      { status: "failed", messages: 2 },
      { status: "optout", messages: 1 },
    ]);
    const t1 = r.routes.find((x: { route: string; provider: string }) => x.route === "T1" && x.provider === "simulator");
    expect(t1).toMatchObject({ messages: 2, delivered: 2, failed: 0, revenue: [{ currency: "BRL", amount: 24 }] });
    expect(r.routes.find((x: { route: string }) => x.route === "T2")).toMatchObject({ messages: 2, failed: 2, revenue: [{ currency: "BRL", amount: 8 }] });
    expect(r.customers).toEqual([expect.objectContaining({ account: { id: people.a.accountId, name: people.a.company }, messages: 5, revenue: 32, currency: "BRL" })]);

    const posted = await api("/api/admin/sms/insights", { token: staff, body: { from: day, to: day, account_id: people.a.accountId, route: "T2" } });
    expect(posted.status).toBe(200);
    expect(posted.body.data).toMatchObject({ messages: 2, failed: 2, filters: { route: "T2", provider: null, status: null } });
  });

  it("staff see every customer of the day; the reseller only its own; a customer's owner is refused", async () => {
    const all = await get(`/api/admin/sms/reports?from=${day}&to=${day}`, staff);
    const ids = all.body.data.customers.map((c: { account: { id: string } }) => c.account.id);
    expect(ids).toEqual(expect.arrayContaining([people.a.accountId, people.b.accountId]));
    expect(all.body.data.customers.find((c: { account: { id: string } }) => c.account.id === people.b.accountId)).toMatchObject({ messages: 2, delivered: 1, revenue: 20 });

    const mine = await get(`/api/admin/sms/reports?from=${day}&to=${day}`, reseller);
    expect(mine.status).toBe(200);
    expect(mine.body.data.reach).toBe("reseller");
    expect(mine.body.data.customers.map((c: { account: { id: string } }) => c.account.id)).toEqual([people.a.accountId]);
    expect(mine.body.data.messages).toBe(5);
    const other = await get(`/api/admin/sms/reports?from=${day}&to=${day}&account_id=${people.b.accountId}`, reseller);
    expect(other.status).toBe(422);
    expect(other.body.error.fields.account_id).toBeTruthy();

    expect((await get(`/api/admin/sms/reports?from=${day}&to=${day}`, owner)).status).toBe(403);
    expect((await api("/api/admin/sms/insights", { token: owner, body: {} })).status).toBe(403);
  });

  it("refuses a period longer than 31 days and an unknown route, by field", async () => {
    const long = await get(`/api/admin/sms/reports?from=${addDays(day, -40)}&to=${day}`, staff);
    expect(long.status).toBe(422);
    expect(long.body.error.fields.to).toBeTruthy();
    const route = await get(`/api/admin/sms/reports?route=T9`, staff);
    expect(route.status).toBe(422);
    expect(route.body.error.fields.route).toBeTruthy();
  });
});

describe("GET /api/admin/sms/dashboard and /api/admin/sms/sales", () => {
  it("the dashboard's 30 days hold the day's messages; the reseller's are exactly A's", async () => {
    const s = await get("/api/admin/sms/dashboard", staff);
    expect(s.status).toBe(200);
    expect(s.body.data.data).toHaveLength(30);
    const staffDay = s.body.data.data.find((d: { day: string }) => d.day === day);
    expect(staffDay.messages).toBeGreaterThanOrEqual(7);
    expect(s.body.data.last30.messages).toBeGreaterThanOrEqual(7);

    const r = await get("/api/admin/sms/dashboard", reseller);
    expect(r.status).toBe(200);
    expect(r.body.data.last30).toMatchObject({ messages: 5, sent: 3, delivered: 2, failed: 2, revenue: [{ currency: "BRL", amount: 32 }] });
    expect(r.body.data.last7.messages).toBe(0);
    expect(r.body.data.data.find((d: { day: string }) => d.day === day)).toMatchObject({ messages: 5, delivered: 2 });
    expect((await get("/api/admin/sms/dashboard", owner)).status).toBe(403);
  });

  it("sales: revenue per customer and per route from the messages' prices; no cost recorded for the simulator: cost unknown, no margin (ADR 070)", async () => {
    const a = await get(`/api/admin/sms/sales?from=${day}&to=${day}&account_id=${people.a.accountId}`, staff);
    expect(a.status).toBe(200);
    const unknown = (revenue: number, uncosted: number) => [{ currency: "BRL", revenue, cost: null, margin: null, margin_rate: null, uncosted }];
    expect(a.body.data).toMatchObject({ messages: 3, segments: 4, revenue: [{ currency: "BRL", amount: 32 }], margin: unknown(32, 3) });
    expect(a.body.data.routes).toEqual([
      { route: "T1", messages: 2, segments: 3, revenue: [{ currency: "BRL", amount: 24 }], margin: unknown(24, 2) },
      { route: "T2", messages: 1, segments: 1, revenue: [{ currency: "BRL", amount: 8 }], margin: unknown(8, 1) },
    ]);
    const all = await get(`/api/admin/sms/sales?from=${day}&to=${day}`, staff);
    expect(all.body.data.customers.find((c: { account: { id: string } }) => c.account.id === people.b.accountId)).toMatchObject({ messages: 2, revenue: 20 });
    const mine = await get(`/api/admin/sms/sales?from=${day}&to=${day}`, reseller);
    expect(mine.body.data.margin).toBeNull();
    expect(mine.body.data.customers).toEqual([
      { account: { id: people.a.accountId, name: people.a.company }, currency: "BRL", messages: 3, segments: 4, revenue: 32, margin: null },
    ]);
    expect((await get(`/api/admin/sms/sales`, owner)).status).toBe(403);
  });
});

describe("GET /api/admin/sms/monitor and /api/admin/sms/monitor/analytics", () => {
  it("shows a queue depth the test causes, the last minutes' throughput and a provider's last hour; staff only", async () => {
    const before = await get("/api/admin/sms/monitor", staff);
    expect(before.status).toBe(200);
    const t6Before = before.body.data.queue.find((q: { route: string }) => q.route === "T6");
    // Queued messages of a paused campaign: nothing publishes or sends them (the recovery sweep skips held campaigns).
    const campaign = await makeCampaign(people.b.accountId, { status: "paused", route: "T6" });
    const held = await makeMessages(
      people.b.accountId,
      Array.from({ length: QUEUED }, () => ({ status: "queued" as const, route: "T6", price: 10, currency: "BRL", campaignId: campaign })),
    );
    heldIds = held.map((h) => h.id);
    // Sent just now through this file's provider: 3 sent, 1 delivered, 1 failed with E42.
    const now = new Date().toISOString();
    await makeMessages(people.b.accountId, [
      { status: "delivered", route: "T1", provider: PROVIDER, price: 10, createdAt: now, sentAt: now },
      { status: "failed", route: "T1", provider: PROVIDER, price: 10, createdAt: now, sentAt: now, errorCode: "E42" },
      { status: "sent", route: "T1", provider: PROVIDER, price: 10, createdAt: now, sentAt: now },
    ]);

    const res = await get("/api/admin/sms/monitor", staff);
    expect(res.status).toBe(200);
    const m = res.body.data;
    const t6 = m.queue.find((q: { route: string }) => q.route === "T6");
    expect(t6.queued - (t6Before?.queued ?? 0)).toBeGreaterThanOrEqual(QUEUED);
    expect(m.waiting).toBeGreaterThanOrEqual(QUEUED);
    expect(m.throughput).toHaveLength(m.minutes);
    expect(m.throughput.reduce((s: number, x: { sent: number }) => s + x.sent, 0)).toBeGreaterThanOrEqual(3);
    expect(m.streams.length).toBeGreaterThan(0);
    for (const s of m.streams) expect(s).toMatchObject({ stream: "messages:sms", length: expect.any(Number), pending: expect.any(Number), dead: expect.any(Number) });
    expect(m.providers.find((p: { provider: string }) => p.provider === PROVIDER)).toEqual({
      provider: PROVIDER,
      messages: 3,
      sent: 3,
      delivered: 1,
      failed: 1,
      delivery_rate: 0.3333,
      errors: [{ code: "E42", messages: 1 }],
    });

    const a = await get("/api/admin/sms/monitor/analytics", staff);
    expect(a.status).toBe(200);
    expect(a.body.data.providers.find((p: { provider: string }) => p.provider === PROVIDER)).toMatchObject({ messages: 3, delivered: 1 });
    expect(a.body.data.hours.filter((h: { provider: string }) => h.provider === PROVIDER).reduce((s: number, h: { messages: number }) => s + h.messages, 0)).toBe(3);

    for (const token of [reseller, owner]) {
      expect((await get("/api/admin/sms/monitor", token)).status).toBe(403);
      expect((await get("/api/admin/sms/monitor/analytics", token)).status).toBe(403);
    }
  });
});

describe("GET /realtime/sms-monitor", () => {
  it("ticks over the realtime service when the SMS dispatch stream moves; staff only", async () => {
    const url = (token: string) => `${inject("webUrl")}/realtime/sms-monitor?token=${encodeURIComponent(token)}`;
    for (const token of [reseller, owner]) expect((await fetch(url(token))).status).toBe(403);
    expect((await fetch(`${inject("webUrl")}/realtime/sms-monitor`)).status).toBe(401);

    const controller = new AbortController();
    const res = await fetch(url(staff), { headers: { Accept: "text/event-stream" }, signal: controller.signal });
    expect(res.status).toBe(200);
    let text = "";
    const reading = (async () => {
      const reader = res.body!.getReader();
      const decoder = new TextDecoder();
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) return;
          text += decoder.decode(value, { stream: true });
        }
      } catch {}
    })();
    const redis = openRedis(inject("redisUrl"));
    try {
      await expect.poll(() => text.includes(": connected"), { timeout: 10_000 }).toBe(true);
      expect(text).not.toContain("event: tick");
      // An entry as the accept's relay writes it (a message id the dispatcher will not find: it acks and drops it).
      await redis.xadd(keysOf(inject("redisPrefix")).jobStream("messages:sms", 0), "*", "message_id", randomUUID());
      await expect.poll(() => /event: tick\ndata: \{"entries":\d+\}/.test(text), { timeout: 10_000 }).toBe(true);
    } finally {
      controller.abort();
      await reading;
      redis.disconnect();
    }
  });
});

describe("GET /api/admin/analytics", () => {
  it("counts the day's messages per channel against the day before, staff only", async () => {
    const res = await get(`/api/admin/analytics?from=${day}&to=${day}`, staff);
    expect(res.status).toBe(200);
    const r = res.body.data;
    expect(r.previous).toEqual({ from: addDays(day, -1), to: addDays(day, -1) });
    const channel = (c: string) => r.channels.find((x: { channel: string }) => x.channel === c);
    expect(channel("sms").value).toBeGreaterThanOrEqual(7);
    expect(channel("whatsapp").value).toBeGreaterThanOrEqual(1);
    expect(r.channels.map((x: { channel: string }) => x.channel)).toEqual(["sms", "whatsapp", "email", "rcs", "live"]);
    expect(r.messages.value).toBe(r.channels.reduce((s: number, x: { value: number }) => s + x.value, 0));
    expect(r.active_accounts.value).toBeGreaterThanOrEqual(2);
    expect(Array.isArray(r.revenue)).toBe(true);
    for (const token of [reseller, owner]) expect((await get(`/api/admin/analytics`, token)).status).toBe(403);
  });
});

describe("the screens", () => {
  let staffWeb: WebClient;
  let resellerWeb: WebClient;
  let ownerWeb: WebClient;
  beforeAll(async () => {
    staffWeb = await signIn("staff@demo.example");
    resellerWeb = await signIn("reseller@demo.example");
    ownerWeb = await signIn(people.a.email, people.a.password);
  });

  it("/admin/sms/reports: staff see both customers, the reseller only A, the owner is refused", async () => {
    const s = await staffWeb.page(`/admin/sms/reports?from=${day}&to=${day}`);
    expect(s.res.status).toBe(200);
    expect(s.html).toContain(people.a.company);
    expect(s.html).toContain(people.b.company);
    const one = await staffWeb.page(`/admin/sms/reports?from=${day}&to=${day}&account_id=${people.a.accountId}`);
    expect(one.html).toMatch(/data-figure="messages"[^>]*>.*?<dd[^>]*>5<\/dd>/s);
    const r = await resellerWeb.page(`/admin/sms/reports?from=${day}&to=${day}`);
    expect(r.res.status).toBe(200);
    expect(r.html).toContain(people.a.company);
    expect(r.html).not.toContain(people.b.company);
    const bad = await staffWeb.page(`/admin/sms/reports?from=${addDays(day, -40)}&to=${day}`);
    expect(bad.res.status).toBe(200);
    expect(bad.html).toContain('id="period-to-error"');
    expect(location(await ownerWeb.get("/admin/sms/reports"))).toBe("/403");
  });

  it("/admin/sms/dashboard, /admin/sms/sales: staff and the reseller; the owner is refused", async () => {
    for (const [c, note] of [
      [staffWeb, "margin-note"],
      [resellerWeb, "no-margin"],
    ] as const) {
      expect((await c.get("/admin/sms/dashboard")).status).toBe(200);
      const sales = await c.page(`/admin/sms/sales?from=${day}&to=${day}`);
      expect(sales.res.status).toBe(200);
      expect(sales.html).toContain(people.a.company);
      expect(sales.html).toContain(`data-testid="${note}"`);
    }
    for (const p of ["/admin/sms/dashboard", "/admin/sms/sales"]) expect(location(await ownerWeb.get(p))).toBe("/403");
  });

  it("/admin/sms/monitor and /admin/analytics: staff only; the monitor refreshes without JavaScript", async () => {
    const m = await staffWeb.page("/admin/sms/monitor");
    expect(m.res.status).toBe(200);
    expect(m.html).toMatch(/<noscript><meta http-equiv="refresh" content="5"\/?><\/noscript>/);
    expect(m.html).toContain('href="/admin/sms/monitor"');
    expect(m.html).toContain('data-route="T6"');
    const a = await staffWeb.page(`/admin/analytics?from=${day}&to=${day}`);
    expect(a.res.status).toBe(200);
    expect(a.html).toContain('data-figure="channel-sms"');
    for (const c of [resellerWeb, ownerWeb]) {
      expect(location(await c.get("/admin/sms/monitor"))).toBe("/403");
      expect(location(await c.get("/admin/analytics"))).toBe("/403");
    }
  });
});
