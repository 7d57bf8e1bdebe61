/**
 * Platform staff's WhatsApp reports (issue 16; api/whatsapp/admin-reports.ts through GET
 * /api/admin/whatsapp/...): two fresh accounts with WhatsApp messages (both integrations) and one
 * SMS seeded on a São Paulo day of the past no other test writes to; staff read every account's
 * figures of that day with exact counts (per day, per Meta category, per account), then one
 * account's; the history lists both accounts' messages (filters, keyset pages, a message with its
 * account and events); the insights of the last 7 days for one account; a customer's owner is refused.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { api, login, registerPerson, type Person } from "../support/api";
import { makeMessage, makeMessageEvents, type MessageStatus } from "../support/factories";
import { DEMO_PASSWORD, signIn } from "../support/web";

const spToday = () => new Intl.DateTimeFormat("en-CA", { timeZone: "America/Sao_Paulo", year: "numeric", month: "2-digit", day: "2-digit" }).format(new Date());
const addDays = (day: string, n: number) => new Date(Date.parse(`${day}T12:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

type Seed = { status: MessageStatus; price: number; category?: string; inbound?: boolean; provider?: string; sms?: boolean };
/** A: 3 outbound (read, delivered, failed), 1 inbound, 1 SMS; B: 3 outbound (delivered, sent by the onprem integration, opted out). */
const SEEDS: Record<"a" | "b", Seed[]> = {
  a: [
    { status: "read", price: 40, category: "utility" },
    { status: "delivered", price: 80, category: "marketing" },
    { status: "failed", price: 40, category: "utility" },
    { status: "received", price: 0, inbound: true },
    { status: "delivered", price: 8, sms: true },
  ],
  b: [
    { status: "delivered", price: 80, category: "marketing" },
    { status: "sent", price: 30, category: "authentication", provider: "whatsapp_onprem" },
    { status: "optout", price: 0, category: "marketing" },
  ],
};

let staff: string;
let owner: string;
const people: Record<"a" | "b", Person> = {} as never;
const ids: Record<"a" | "b", string[]> = { a: [], b: [] };
/** The seeded day: 19 days ago (São Paulo), in this month's or last month's partition (ADR 029). */
let day: string;
let today: string;

async function seed(accountId: string, s: Seed, createdAt: string): Promise<string> {
  const id = await makeMessage(accountId, {
    channel: s.sms ? "sms" : "whatsapp",
    direction: s.inbound ? "inbound" : "outbound",
    sender: s.inbound ? "+5511970002222" : s.sms ? "LOJA" : "109876543210987",
    recipient: s.inbound ? "109876543210987" : "+5511970002222",
    body: `admin report ${s.status}`,
    status: s.status,
    price: s.price,
    currency: "BRL",
    provider: s.sms ? null : (s.provider ?? "whatsapp_cloud"),
    createdAt,
    sentAt: ["read", "delivered", "failed", "sent"].includes(s.status) ? createdAt : null,
  });
  if (s.category) {
    await makeMessageEvents(accountId, id, [
      { status: s.status === "optout" ? "optout" : "queued", payload: { price: s.price, currency: "BRL", category: s.category }, createdAt },
      ...(s.status === "failed" ? [{ status: "failed", source: "provider" as const, payload: { error_code: "131026", error_message: "Message undeliverable" }, createdAt }] : []),
    ]);
  }
  return id;
}

beforeAll(async () => {
  staff = (await login("staff@demo.example", DEMO_PASSWORD)).token;
  people.a = await registerPerson("waadmina");
  people.b = await registerPerson("waadminb");
  owner = (await login(people.a.email, people.a.password)).token;
  today = spToday();
  day = addDays(today, -19);
  for (const k of ["a", "b"] as const) {
    let minute = 0;
    for (const s of SEEDS[k]) {
      if (!s.sms) ids[k].push(await seed(people[k].accountId, s, `${day}T12:${String(minute).padStart(2, "0")}:00-03:00`));
      else await seed(people[k].accountId, s, `${day}T12:30:00-03:00`);
      minute += 1;
    }
  }
});

const get = (path: string, token = staff) => api(path, { token });

describe("platform staff's WhatsApp reports API", () => {
  it("stat: every account's messages of the day, per day, per category and per account, exactly", async () => {
    const res = await get(`/api/admin/whatsapp/stat?from=${day}&to=${day}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const s = res.body;
    expect(s).toMatchObject({ from: day, to: day, account: null, next_cursor: null });
    // Nobody else writes WhatsApp messages on that day: the platform's figures are the two accounts'.
    expect(s.data).toEqual([{ day, messages: 6, delivered: 3, read: 1, failed: 1, statuses: { read: 1, delivered: 2, failed: 1, sent: 1, optout: 1 } }]);
    expect(s.totals).toEqual({ messages: 6, delivered: 3, read: 1, failed: 1 });
    expect(s.categories).toEqual([
      { category: "marketing", messages: 2, cost: [{ currency: "BRL", amount: 160 }] }, // the opted-out one is not usage
      { category: "utility", messages: 2, cost: [{ currency: "BRL", amount: 80 }] },
      { category: "authentication", messages: 1, cost: [{ currency: "BRL", amount: 30 }] },
      { category: "service", messages: 0, cost: [] },
    ]);
    expect(s.category_totals).toEqual({ messages: 5, cost: [{ currency: "BRL", amount: 270 }] });
    const row = (k: "a" | "b") => s.accounts.find((r: { account: { id: string } }) => r.account.id === people[k].accountId);
    expect(s.accounts).toHaveLength(2);
    expect(row("a")).toEqual({ account: { id: people.a.accountId, name: people.a.company }, messages: 3, delivered: 2, read: 1, failed: 1, cost: 160, currency: "BRL" });
    expect(row("b")).toEqual({ account: { id: people.b.accountId, name: people.b.company }, messages: 3, delivered: 1, read: 0, failed: 0, cost: 110, currency: "BRL" });
  });

  it("stat of one account: only its messages", async () => {
    const res = await get(`/api/admin/whatsapp/stat?from=${day}&to=${day}&account_id=${people.b.accountId}`);
    expect(res.status).toBe(200);
    expect(res.body.account).toEqual({ id: people.b.accountId, name: people.b.company, currency: "BRL" });
    expect(res.body.totals).toEqual({ messages: 3, delivered: 1, read: 0, failed: 0 });
    expect(res.body.category_totals).toEqual({ messages: 2, cost: [{ currency: "BRL", amount: 110 }] });
    expect(res.body.accounts.map((r: { account: { id: string } }) => r.account.id)).toEqual([people.b.accountId]);
    // An account id that names no account, or is not one: a field error; the period's rules are the customer report's.
    const en = (path: string) => api(path, { token: staff, lang: "en" });
    const unknown = await en(`/api/admin/whatsapp/stat?account_id=00000000-0000-4000-8000-000000000000`);
    expect(unknown.status).toBe(422);
    expect(unknown.body.error.fields).toEqual({ account_id: ["Choose one of the options"] });
    expect((await en(`/api/admin/whatsapp/stat?account_id=nope`)).body.error.fields).toEqual({ account_id: ["Invalid value"] });
    expect((await en(`/api/admin/whatsapp/stat?from=${addDays(day, -31)}&to=${day}`)).body.error.fields).toEqual({ to: ["Maximum range of 31 days"] });
  });

  it("history: both accounts' messages, each naming its account; filters and keyset pages", async () => {
    const q = `created_at[gte]=${day}&created_at[lte]=${day}`;
    const all = await get(`/api/admin/whatsapp/messages?${q}`);
    expect(all.status, JSON.stringify(all.body)).toBe(200);
    // Both accounts' WhatsApp messages of the day (A's SMS is not one), whichever account.
    expect(all.body.data.map((m: { id: string }) => m.id).sort()).toEqual([...ids.a, ...ids.b].sort());
    for (const m of all.body.data) {
      const k = ids.a.includes(m.id) ? "a" : "b";
      expect(m).toMatchObject({ account_id: people[k].accountId, account_name: people[k].company });
    }
    expect(all.body.next_cursor).toBeNull();

    const ofB = await get(`/api/admin/whatsapp/messages?${q}&account_id=${people.b.accountId}`);
    expect(ofB.body.data.map((m: { id: string }) => m.id)).toEqual([...ids.b].reverse());
    expect(new Set(ofB.body.data.map((m: { account_name: string }) => m.account_name))).toEqual(new Set([people.b.company]));
    const failed = await get(`/api/admin/whatsapp/messages?${q}&status=failed`);
    expect(failed.body.data.map((m: { id: string }) => m.id)).toEqual([ids.a[2]]);
    const inbound = await get(`/api/admin/whatsapp/messages?${q}&from=%2B5511970002222`);
    expect(inbound.body.data.map((m: { id: string }) => m.id)).toEqual([ids.a[3]]);

    // Pages of 2 by cursor: every message once.
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { status: number; body: { data: Array<{ id: string }>; next_cursor: string | null } } = await get(
        `/api/admin/whatsapp/messages?${q}&limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
      );
      expect(page.status).toBe(200);
      seen.push(...page.body.data.map((m) => m.id));
      cursor = page.body.next_cursor;
    } while (cursor);
    expect(seen).toEqual(all.body.data.map((m: { id: string }) => m.id));
  });

  it("a message of any account with its account and events; not a WhatsApp message: 404", async () => {
    const res = await get(`/api/admin/whatsapp/messages/${ids.a[2]}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({
      id: ids.a[2],
      status: "failed",
      direction: "outbound",
      price: 40,
      currency: "BRL",
      account: { id: people.a.accountId, name: people.a.company },
    });
    expect(res.body.data.events.map((e: { status: string; error_code: string | null }) => [e.status, e.error_code])).toEqual([
      ["queued", null],
      ["failed", "131026"],
    ]);
    expect((await get("/api/admin/whatsapp/messages/00000000-0000-4000-8000-000000000000")).status).toBe(404);
    expect((await get("/api/admin/whatsapp/messages/not-an-id")).status).toBe(404);
  });

  it("insights of the last 7 days for one account: its counts, rates and cost", async () => {
    const now = Date.now();
    const at = (minutes: number) => new Date(Math.max(now - minutes * 60_000, Date.parse(`${today}T00:00:01-03:00`))).toISOString();
    await seed(people.a.accountId, { status: "read", price: 40, category: "utility" }, at(3));
    await seed(people.a.accountId, { status: "failed", price: 40, category: "utility" }, at(2));
    await seed(people.a.accountId, { status: "received", price: 0, inbound: true }, at(1));
    const res = await get(`/api/admin/whatsapp/insights?account_id=${people.a.accountId}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      days: 7,
      to: today,
      account: { id: people.a.accountId, name: people.a.company },
      messages: 2,
      sent: 2,
      delivered: 1,
      read: 1,
      failed: 1,
      rejected: 0,
      delivery_rate: 0.5,
      read_rate: 1,
      failure_rate: 0.5,
      cost: [{ currency: "BRL", amount: 80 }],
      received: 1,
      next_cursor: null,
    });
    expect(res.body.data).toHaveLength(7);
    expect(res.body.data.at(-1)).toMatchObject({ day: today, messages: 2, delivered: 1, read: 1, failed: 1 });
    // Every account's: at least this account's.
    const all = await get("/api/admin/whatsapp/insights?days=30");
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({ days: 30, account: null });
    expect(all.body.messages).toBeGreaterThanOrEqual(2);
  });

  it("the screens' account field: a name several accounts hold offers them, a name nobody has is its field's error, one account's name filters", async () => {
    const web = await signIn("staff@demo.example");
    const several = await web.page(`/admin/whatsapp/reports/stat?from=${day}&to=${day}&account=waadmin`);
    expect(several.res.status).toBe(200);
    for (const k of ["a", "b"] as const) expect(several.html).toContain(`account_id=${people[k].accountId}`);
    expect(several.html).toContain('data-testid="account-matches"');
    expect(several.html).not.toContain('data-report="category"');
    const none = await web.page(`/admin/whatsapp/reports/history?account=${encodeURIComponent("no account has this name")}`);
    expect(none.html).toContain("Nenhuma conta tem esse nome.");
    expect(none.html).not.toContain("data-message-id");
    const one = await web.page(`/admin/whatsapp/reports/history?start=${day}&end=${day}&account=${encodeURIComponent(people.b.company)}`);
    expect([...one.html.matchAll(/data-message-id="([^"]+)"/g)].map((m) => m[1])).toEqual([...ids.b].reverse());
  });

  it("is for platform staff only: a customer's owner is refused (403), nobody signed in is 401", async () => {
    for (const path of [
      `/api/admin/whatsapp/stat?from=${day}&to=${day}`,
      "/api/admin/whatsapp/insights",
      `/api/admin/whatsapp/messages?created_at[gte]=${day}&created_at[lte]=${day}`,
      `/api/admin/whatsapp/messages/${ids.a[0]}`,
      `/api/admin/whatsapp/stat?account_id=${people.a.accountId}`,
    ]) {
      const res = await get(path, owner);
      expect(res.status, path).toBe(403);
      expect(JSON.stringify(res.body)).not.toContain("admin report");
      expect((await api(path)).status, path).toBe(401);
    }
  });
});
