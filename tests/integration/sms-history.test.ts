/**
 * GET /api/sms/messages (SMS history) over the real API: 120 messages of a fresh account spread
 * over three São Paulo days (with rows on the day boundaries and a group sharing one timestamp),
 * checked against the order computed here: default today, São Paulo day boundaries, the 31-day
 * limit, filters, OFFSET pages with last_page, keyset cursor pages without gaps or repeats,
 * tenancy and permission.
 */
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { api, login, registerPerson, type Person } from "../support/api";
import { query } from "../support/db";
import { DEMO_PASSWORD } from "../support/web";
import { makeMessages, type MessageStatus, setMember } from "../support/factories";

type Seed = { created_at: string; sender: string; recipient: string; status: string; body: string; day: string };
type Item = { id: string; created_at: string; sender: string; recipient: string; status: string; body: string };
type Page = { data: Item[]; page: number; last_page: number; total: number; total_capped: boolean; next_cursor: string | null; created_at: { gte: string; lte: string } };

const spToday = () => new Intl.DateTimeFormat("en-CA", { timeZone: "America/Sao_Paulo", year: "numeric", month: "2-digit", day: "2-digit" }).format(new Date());
const addDays = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
/** A São Paulo wall-clock time (UTC-3, no daylight saving since 2019) as a UTC ISO string with microseconds. */
const sp = (day: string, h: number, m: number, s = 0, micro = "000000") =>
  new Date(Date.parse(`${day}T00:00:00-03:00`) + ((h * 60 + m) * 60 + s) * 1000).toISOString().replace(/\.\d{3}Z$/, `.${micro}Z`);

const STATUSES = ["delivered", "failed", "queued", "sent", "rejected"];
const SENDERS = ["LOJA", "AVISO", "PROMO"];
const RECIPIENTS = ["+5511970000001", "+5511970000002", "+5521970000003", "+5531970000004"];

let owner: Person & { token: string };
let stranger: Person & { token: string };
let today: string;
let yesterday: string;
let before: string;
/** Every seeded row with its id, newest first (created_at DESC, id DESC) as the API must answer. */
let all: Array<Seed & { id: string }>;

async function person(tag: string) {
  const p = await registerPerson(tag);
  return { ...p, token: (await login(p.email, p.password)).token };
}

async function insert(accountId: string, rows: Seed[], channel = "sms") {
  return makeMessages(
    accountId,
    rows.map((r) => ({ channel, sender: r.sender, recipient: r.recipient, body: r.body, status: r.status as MessageStatus, createdAt: r.created_at })),
  );
}

const newestFirst = <T extends { created_at: string; id: string }>(a: T, b: T) => (a.created_at === b.created_at ? (a.id < b.id ? 1 : -1) : a.created_at < b.created_at ? 1 : -1);

function history(params: Record<string, string | number>, token = owner.token) {
  const qs = new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)])).toString();
  return api<Page>(`/api/sms/messages${qs ? `?${qs}` : ""}`, { token });
}

const range = (gte: string, lte: string) => ({ "created_at[gte]": gte, "created_at[lte]": lte });
const ids = (p: { data: Array<{ id: string }> }) => p.data.map((m) => m.id);
const expectedIds = (pred: (s: Seed) => boolean) => all.filter(pred).map((s) => s.id);

beforeAll(async () => {
  owner = await person("smshistory");
  stranger = await person("smshistory2");
  today = spToday();
  yesterday = addDays(today, -1);
  before = addDays(today, -2);
  const seeds: Seed[] = [];
  let n = 0;
  for (const [day, count] of [
    [today, 50],
    [yesterday, 40],
    [before, 30],
  ] as const) {
    for (let i = 0; i < count; i++, n++) {
      let at: string;
      if (i === 0)
        at = sp(day, 0, 0, 0); // the first instant of the São Paulo day (03:00 UTC)
      else if (i === 1)
        at = sp(day, 23, 30); // 02:30 UTC of the next UTC day: still this São Paulo day
      else if (i === 2)
        at = sp(day, 23, 59, 59, "999999"); // the last microsecond of the day
      else if (i < 12)
        at = sp(day, 12, 0, 0, "500000"); // nine messages sharing one timestamp: the id breaks the tie
      else at = sp(day, 8 + Math.floor(i / 6), (i * 7) % 60, i % 60, String(100000 + ((n * 7919) % 899999)));
      seeds.push({ day, created_at: at, sender: SENDERS[n % 3], recipient: RECIPIENTS[n % 4], status: STATUSES[n % 5], body: `Mensagem ${n}` });
    }
  }
  const inserted = await insert(owner.accountId, seeds);
  all = seeds.map((s, i) => ({ ...s, id: inserted[i].id, created_at: inserted[i].createdAt })).sort(newestFirst);
  expect(all.map((s) => s.created_at)).toEqual([...seeds.map((s) => s.created_at)].sort().reverse());
  // Not SMS, and another account's: never listed.
  await insert(owner.accountId, [{ day: today, created_at: sp(today, 12, 0), sender: "X", recipient: RECIPIENTS[0], status: "sent", body: "WhatsApp" }], "whatsapp");
  await insert(stranger.accountId, [{ day: today, created_at: sp(today, 12, 0), sender: "OUTRA", recipient: RECIPIENTS[0], status: "sent", body: "De outra conta" }]);
});

describe("GET /api/sms/messages (history)", () => {
  it("defaults to today in São Paulo, newest first, with the message fields", async () => {
    const res = await history({});
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.created_at).toEqual({ gte: today, lte: today });
    expect(ids(res.body)).toEqual(expectedIds((s) => s.day === today));
    expect(res.body).toMatchObject({ page: 1, last_page: 1, total: 50, total_capped: false, next_cursor: null });
    const first = all.find((s) => s.day === today)!;
    expect(res.body.data[0]).toMatchObject({
      id: first.id,
      from: first.sender,
      to: first.recipient,
      body: first.body,
      status: first.status,
      segments: 1,
      coding: null,
      price: 0,
      currency: "BRL",
      error_code: null,
      error_message: null,
      direction: "outbound",
      // The deprecated aliases of from/to, as GET /api/sms/messages/{id} names them.
      sender: first.sender,
      recipient: first.recipient,
    });
    expect(new Date(res.body.data[0].created_at).toISOString()).toBe(first.created_at.replace(/\d{3}Z$/, "Z"));
    expect(JSON.stringify(res.body)).not.toContain("WhatsApp");
    expect(JSON.stringify(res.body)).not.toContain("De outra conta");
  });

  it("days are São Paulo days: 00:00:00 to 23:59:59.999999, and 02:30 UTC belongs to the previous day", async () => {
    const y = await history(range(yesterday, yesterday));
    expect(y.status).toBe(200);
    expect(ids(y.body)).toEqual(expectedIds((s) => s.day === yesterday));
    expect(y.body.total).toBe(40);
    // Yesterday 23:30 in São Paulo is today 02:30 UTC: listed under yesterday, not today.
    const late = all.find((s) => s.day === yesterday && s.created_at === sp(yesterday, 23, 30))!;
    expect(late.created_at.slice(0, 10)).toBe(today);
    expect(late.created_at.slice(11, 16)).toBe("02:30");
    expect(ids(y.body)).toContain(late.id);
    expect(ids((await history(range(today, today))).body)).not.toContain(late.id);
    // Only the last two days; the default end is today when only the start is given.
    const two = await history({ "created_at[gte]": yesterday });
    expect(two.body.created_at).toEqual({ gte: yesterday, lte: today });
    expect(two.body.total).toBe(90);
    // A range without messages.
    const empty = await history(range(addDays(today, -20), addDays(today, -10)));
    expect(empty.body).toMatchObject({ data: [], page: 1, last_page: 1, total: 0, next_cursor: null });
  });

  it("at most 31 days: 31 is accepted, 32 is 422; bad dates, an inverted range and bad filters are 422", async () => {
    expect((await history(range(addDays(today, -30), today))).status).toBe(200);
    const over = await history(range(addDays(today, -31), today));
    expect(over.status).toBe(422);
    expect((over.body as any).error).toMatchObject({ code: "VALIDATION", fields: { "created_at.lte": ["Intervalo máximo de 31 dias"] } });
    const en = await api(`/api/sms/messages?created_at[gte]=${addDays(today, -40)}&created_at[lte]=${today}`, { token: owner.token, lang: "en" });
    expect(en.body.error.fields).toEqual({ "created_at.lte": ["Maximum range of 31 days"] });
    const inverted = await history(range(today, yesterday));
    expect(inverted.status).toBe(422);
    expect(Object.keys((inverted.body as any).error.fields)).toEqual(["created_at.lte"]);
    const bad = await history({ "created_at[gte]": "2026-02-30", status: "lido", to: "123", id: "x", page: 0, cursor: "nope" });
    expect(bad.status).toBe(422);
    expect(Object.keys((bad.body as any).error.fields).sort()).toEqual(["created_at.gte", "cursor", "id", "page", "status", "to"]);
    expect((await history({ order_by: "scheduled_at" })).status).toBe(422);
  });

  it("filters: status, sender, recipient (any format, normalized), id", async () => {
    const r = range(before, today);
    const failed = await history({ ...r, status: "failed" });
    expect(ids(failed.body)).toEqual(expectedIds((s) => s.status === "failed"));
    expect(failed.body.total).toBe(24);
    const promo = await history({ ...r, from: "PROMO" });
    expect(ids(promo.body)).toEqual(expectedIds((s) => s.sender === "PROMO"));
    const to = await history({ ...r, to: "(21) 97000-0003" });
    expect(ids(to.body)).toEqual(expectedIds((s) => s.recipient === "+5521970000003"));
    expect(to.body.total).toBe(30);
    const combined = await history({ ...r, to: "+55 11 97000-0001", status: "delivered", from: "LOJA" });
    const want = expectedIds((s) => s.recipient === "+5511970000001" && s.status === "delivered" && s.sender === "LOJA");
    expect(want.length).toBeGreaterThan(0);
    expect(ids(combined.body)).toEqual(want);
    const one = all.find((s) => s.day === yesterday)!;
    expect(ids((await history({ ...r, id: one.id })).body)).toEqual([one.id]);
    // The date range applies to the id too; an unknown id lists nothing.
    expect(ids((await history({ id: one.id })).body)).toEqual([]);
    expect(ids((await history({ ...r, id: randomUUID() })).body)).toEqual([]);
    // The recipient filter has its own index (migration 0009), in the history's order.
    const [index] = await query<{ indexdef: string }>("SELECT indexdef FROM pg_indexes WHERE indexname = 'messages_account_recipient_idx'");
    expect(index.indexdef).toContain("(account_id, recipient, created_at DESC, id DESC)");
  });

  it("pages 1..3 by page number (50 a page) with last_page", async () => {
    const r = range(before, today);
    const pages = [];
    for (const page of [1, 2, 3]) {
      const res = await history({ ...r, page });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ page, last_page: 3, total: 120, total_capped: false });
      pages.push(...ids(res.body));
    }
    expect(pages).toEqual(all.map((s) => s.id));
    const beyond = await history({ ...r, page: 4 });
    expect(beyond.body).toMatchObject({ data: [], page: 4, last_page: 3, next_cursor: null });
  });

  it("cursor pages continue exactly after the previous page: no gaps, no repeats, ties broken by id", async () => {
    const r = range(before, today);
    const seen: string[] = [];
    let res = await history(r);
    expect(res.body.page).toBe(1);
    seen.push(...ids(res.body));
    const pageNumbers = [1];
    while (res.body.next_cursor) {
      res = await history({ ...r, cursor: res.body.next_cursor });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      pageNumbers.push(res.body.page);
      seen.push(...ids(res.body));
    }
    expect(pageNumbers).toEqual([1, 2, 3]);
    expect(seen).toEqual(all.map((s) => s.id));
    expect(res.body.data.length).toBe(20);

    // Oldest first, by cursor as well.
    const asc: string[] = [];
    let up = await history({ ...r, order: "asc" });
    asc.push(...ids(up.body));
    while (up.body.next_cursor) {
      up = await history({ ...r, order: "asc", cursor: up.body.next_cursor });
      asc.push(...ids(up.body));
    }
    expect(asc).toEqual(all.map((s) => s.id).reverse());
    // A cursor of one direction is refused in the other.
    const first = await history(r);
    expect((await history({ ...r, order: "asc", cursor: first.body.next_cursor! })).status).toBe(422);

    // `limit` is the page size: 120 rows in pages of 45, the cursor walking each row once.
    const sized: string[] = [];
    let l = await history({ ...r, limit: 45 });
    const sizes = [l.body.data.length];
    sized.push(...ids(l.body));
    expect(l.body.last_page).toBe(3);
    while (l.body.next_cursor) {
      l = await history({ ...r, limit: 45, cursor: l.body.next_cursor });
      sizes.push(l.body.data.length);
      sized.push(...ids(l.body));
    }
    expect(sizes).toEqual([45, 45, 30]);
    expect(sized).toEqual(all.map((s) => s.id));
    expect((await history({ ...r, limit: 201 })).status).toBe(422);

    // With a filter, the cursor walks the filtered rows.
    const queued = expectedIds((s) => s.status === "queued");
    const q1 = await history({ ...r, status: "queued" });
    expect(q1.body.next_cursor).toBeNull();
    expect(ids(q1.body)).toEqual(queued);
  });

  it("a cursor page is stable when newer messages arrive (OFFSET would shift)", async () => {
    const r = range(before, today);
    const first = await history(r);
    const [fresh] = await insert(owner.accountId, [
      { day: today, created_at: sp(today, 23, 59, 59, "999999"), sender: "NOVA", recipient: RECIPIENTS[0], status: "queued", body: "Chegou depois" },
    ]);
    const second = await history({ ...r, cursor: first.body.next_cursor! });
    expect(ids(second.body)).toEqual(all.slice(50, 100).map((s) => s.id));
    const byOffset = await history({ ...r, page: 2 });
    expect(ids(byOffset.body)[0]).toBe(all[49].id);
    expect(byOffset.body.total).toBe(121);
    await query("DELETE FROM messages WHERE id = $1", [fresh.id]);
  });

  it("another account sees only its own messages", async () => {
    const res = await history(range(before, today), stranger.token);
    expect(res.status).toBe(200);
    expect(res.body.data.map((m) => m.body)).toEqual(["De outra conta"]);
    const guess = await history({ ...range(before, today), id: all[0].id }, stranger.token);
    expect(guess.body.data).toEqual([]);
    expect((await history({}, "")).status).toBe(401);
  });

  it("permission /sms/history: a developer may read it, an analyst may not", async () => {
    const developer = (await login("developer@demo.example", DEMO_PASSWORD)).token;
    const dev = await history({}, developer);
    expect(dev.status).toBe(200);
    expect(dev.body.created_at).toEqual({ gte: today, lte: today });
    const analyst = (await login("analyst@demo.example", DEMO_PASSWORD)).token;
    const refused = await history({}, analyst);
    expect(refused.status).toBe(403);
    expect((refused.body as any).error.code).toBe("FORBIDDEN");

    // In the fresh account: the same person as developer reads the history, as analyst is refused.
    await setMember(owner.accountId, owner.userId, { role: "developer" });
    const asDev = await history(range(before, today));
    expect(asDev.status).toBe(200);
    expect(asDev.body.total).toBe(120);
    await setMember(owner.accountId, owner.userId, { role: "analyst" });
    expect((await history(range(before, today))).status).toBe(403);
    await setMember(owner.accountId, owner.userId, { role: "owner" });
  });
});
