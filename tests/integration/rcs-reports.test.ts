/**
 * RCS reports API (issue 21; api/rcs/reports.ts, api/rcs/admin-reports.ts through
 * api/rcs/report-routes.ts): two fresh accounts with RCS history on a São Paulo day of the past
 * no other test writes RCS to (23 days ago), with agents, every content type, a fallback SMS leg
 * and an inbound message. Exact figures for the account (list with its filters and keyset pages,
 * charts, insights with filters), never another account's; the 31-day range refused with a
 * translated error; platform staff's messages, insights and synthetic report, refused to a customer.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { api, login, registerPerson, type Person } from "../support/api";
import { makeRcsAgent, mobileNumber, setAccount } from "../support/factories";
import { card, type RcsHistorySeed, seedRcsHistory } from "../support/rcs-reports";
import { DEMO_PASSWORD } from "../support/web";

const spToday = () => new Intl.DateTimeFormat("en-CA", { timeZone: "America/Sao_Paulo", year: "numeric", month: "2-digit", day: "2-digit" }).format(new Date());
const addDays = (day: string, n: number) => new Date(Date.parse(`${day}T12:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

let staff: string;
let ownerA: string;
let ownerB: string;
const people: Record<"a" | "b", Person> = {} as never;
let agents: RcsHistorySeed["agents"];
/** A's messages in order: 0 text basic read, 1 long text delivered, 2 card failed unsent, 3 carousel sent, 4 link queued, 5 inbound. */
let ids: string[];
let idB: string;
let legId: string;
let recipient: string;
let day: string;

beforeAll(async () => {
  staff = (await login("staff@demo.example", DEMO_PASSWORD)).token;
  people.a = await registerPerson("rcsrepa");
  people.b = await registerPerson("rcsrepb");
  ownerA = (await login(people.a.email, people.a.password)).token;
  ownerB = (await login(people.b.email, people.b.password)).token;
  day = addDays(spToday(), -23);
  ({ agents, ids, idB, legId, recipient } = await seedRcsHistory(people.a.accountId, people.b.accountId, day));
});

const post = (path: string, body: unknown, token = ownerA, lang?: string) => api(path, { token, body, lang });
const idsOf = (res: { body: { data: Array<{ id: string }> } }) => res.body.data.map((m) => m.id);

describe("RCS list: POST /api/rcs/messages/list", () => {
  const range = () => ({ created_at: { gte: day, lte: day } });

  it("the account's RCS messages of the day, newest first, never an SMS leg or another account's", async () => {
    const res = await post("/api/rcs/messages/list", range());
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(idsOf(res)).toEqual([...ids].reverse());
    expect(idsOf(res)).not.toContain(legId);
    expect(idsOf(res)).not.toContain(idB);
    expect(res.body.data[3]).toMatchObject({ id: ids[2], type: "card", from: agents.a1.rbm, to: recipient, status: "failed", price: 18, currency: "BRL", content: card });
    const ofB = await post("/api/rcs/messages/list", range(), ownerB);
    expect(idsOf(ofB)).toEqual([idB]);
  });

  it("filters: status, agent, type, recipient; keyset pages", async () => {
    expect(idsOf(await post("/api/rcs/messages/list", { ...range(), status: "failed" }))).toEqual([ids[2]]);
    expect(idsOf(await post("/api/rcs/messages/list", { ...range(), agent: agents.a2.id }))).toEqual([ids[4], ids[3]]);
    expect(idsOf(await post("/api/rcs/messages/list", { ...range(), type: "card-carousel" }))).toEqual([ids[3]]);
    expect(idsOf(await post("/api/rcs/messages/list", { ...range(), to: recipient }))).toEqual([ids[2], ids[0]]);
    // Another account's agent is not one to choose.
    const other = await post("/api/rcs/messages/list", { ...range(), agent: agents.b1.id }, ownerA, "en");
    expect(other.status).toBe(422);
    expect(other.body.error.fields).toEqual({ agent: ["Choose one of the options"] });
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { status: number; body: { data: Array<{ id: string }>; next_cursor: string | null } } = await post("/api/rcs/messages/list", {
        ...range(),
        limit: 2,
        ...(cursor ? { cursor } : {}),
      });
      expect(page.status).toBe(200);
      expect(page.body.data.length).toBeLessThanOrEqual(2);
      seen.push(...idsOf(page));
      cursor = page.body.next_cursor;
    } while (cursor);
    expect(seen).toEqual([...ids].reverse());
  });

  it("more than 31 days: a translated field error", async () => {
    const en = await post("/api/rcs/messages/list", { created_at: { gte: addDays(day, -31), lte: day } }, ownerA, "en");
    expect(en.status).toBe(422);
    expect(en.body.error.fields).toEqual({ "created_at.lte": ["Maximum range of 31 days"] });
    const pt = await post("/api/rcs/messages/list", { created_at: { gte: addDays(day, -31), lte: day } }, ownerA, "pt-BR");
    expect(pt.body.error.fields["created_at.lte"][0]).not.toBe("Maximum range of 31 days");
    expect(pt.body.error.fields["created_at.lte"][0]).toMatch(/31/);
  });
});

describe("RCS figures", () => {
  it("insights of the day: by status, rates, cost, per type, agent and class, inbound and fallback legs", async () => {
    const res = await post("/api/rcs/messages/insights", { from: day, to: day });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const s = res.body;
    expect(s).toMatchObject({
      from: day,
      to: day,
      currency: "BRL",
      messages: 5,
      sent: 3,
      delivered: 2,
      read: 1,
      failed: 1,
      waiting: 1,
      delivery_rate: 0.6667,
      read_rate: 0.5,
      failure_rate: 0.2,
      statuses: { read: 1, delivered: 1, failed: 1, sent: 1, queued: 1 },
      basic: 1,
      rich: 4,
      cost: 78,
      received: 1,
      fallback_sms: 1,
      fallback_cost: 8,
      filters: { agent: null, type: null },
    });
    expect(s.data).toHaveLength(1);
    expect(s.data[0]).toMatchObject({ day, messages: 5, cost: 78 });
    expect(s.types).toEqual([
      { type: "text", messages: 2, delivered: 2, read: 1, failed: 0, cost: 24 },
      { type: "link", messages: 1, delivered: 0, read: 0, failed: 0, cost: 18 },
      { type: "midia", messages: 0, delivered: 0, read: 0, failed: 0, cost: 0 },
      { type: "card", messages: 1, delivered: 0, read: 0, failed: 1, cost: 18 },
      { type: "card-carousel", messages: 1, delivered: 0, read: 0, failed: 0, cost: 18 },
    ]);
    expect(s.agents).toEqual([
      { agent: { id: agents.a1.id, name: "Loja Um", rbm_agent_id: agents.a1.rbm }, messages: 3, delivered: 2, read: 1, failed: 1, cost: 42 },
      { agent: { id: agents.a2.id, name: "Loja Dois", rbm_agent_id: agents.a2.rbm }, messages: 2, delivered: 0, read: 0, failed: 0, cost: 36 },
    ]);
    expect(s.classes).toEqual([
      { class: "basic", messages: 1, cost: 6 },
      { class: "rich", messages: 4, cost: 72 },
    ]);
  });

  it("insights narrowed to an agent or a type; another account's figures are its own", async () => {
    const a2 = (await post("/api/rcs/messages/insights", { from: day, to: day, agent: agents.a2.id })).body;
    expect(a2).toMatchObject({ messages: 2, sent: 1, cost: 36, received: 0, fallback_sms: 0, filters: { agent: agents.a2.id, type: null } });
    const cards = (await post("/api/rcs/messages/insights", { from: day, to: day, type: "card" })).body;
    expect(cards).toMatchObject({ messages: 1, failed: 1, cost: 18, received: 0, fallback_sms: 1, fallback_cost: 8 });
    const b = (await post("/api/rcs/messages/insights", { from: day, to: day }, ownerB)).body;
    expect(b).toMatchObject({ messages: 1, delivered: 1, cost: 6, basic: 1, rich: 0, received: 0, fallback_sms: 0 });
    expect(b.agents.map((r: { agent: { id: string } }) => r.agent.id)).toEqual([agents.b1.id]);
  });

  it("insights: more than 31 days refused, translated; a wrong type a field error", async () => {
    const res = await post("/api/rcs/messages/insights", { from: addDays(day, -31), to: day }, ownerA, "en");
    expect(res.status).toBe(422);
    expect(res.body.error.fields).toEqual({ to: ["Maximum range of 31 days"] });
    const es = await post("/api/rcs/messages/insights", { from: addDays(day, -31), to: day }, ownerA, "es");
    expect(es.body.error.fields.to[0]).toMatch(/31/);
    expect(es.body.error.fields.to[0]).not.toBe(res.body.error.fields.to[0]);
    expect((await post("/api/rcs/messages/insights", { type: "sticker" }, ownerA, "en")).body.error.fields).toEqual({ type: ["Choose one of the options"] });
  });

  it("charts of 30 days: the day's outbound messages per status and cost", async () => {
    const res = await api("/api/rcs/messages/charts?days=30", { token: ownerA });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ days: 30, to: spToday(), currency: "BRL", next_cursor: null });
    expect(res.body.data).toHaveLength(30);
    expect(res.body.data.find((d: { day: string }) => d.day === day)).toEqual({ day, total: 5, cost: 78, statuses: { read: 1, delivered: 1, failed: 1, sent: 1, queued: 1 } });
    const b = await api("/api/rcs/messages/charts?days=30", { token: ownerB });
    expect(b.body.totals).toEqual({ total: 1, cost: 6, statuses: { delivered: 1 } });
    expect((await api("/api/rcs/messages/charts?days=12", { token: ownerA, lang: "en" })).body.error.fields).toEqual({ days: ["Choose one of the options"] });
  });
});

describe("platform staff's RCS reports", () => {
  it("a customer's owner is refused every admin report", async () => {
    expect((await api(`/api/admin/rcs/messages`, { token: ownerA })).status).toBe(403);
    expect((await post(`/api/admin/rcs/insights`, {})).status).toBe(403);
    expect((await post(`/api/admin/rcs/sintetic`, {})).status).toBe(403);
  });

  it("messages: every account's RCS messages of the day with their account; one account's", async () => {
    const q = `created_at[gte]=${day}&created_at[lte]=${day}`;
    const all = await api(`/api/admin/rcs/messages?${q}&limit=200`, { token: staff });
    expect(all.status, JSON.stringify(all.body)).toBe(200);
    const got = idsOf(all);
    for (const id of [...ids, idB]) expect(got).toContain(id);
    expect(got).not.toContain(legId);
    expect(all.body.data.find((m: { id: string }) => m.id === idB)).toMatchObject({ account_id: people.b.accountId, account_name: people.b.company });
    const ofA = await api(`/api/admin/rcs/messages?${q}&account_id=${people.a.accountId}&type=card`, { token: staff });
    expect(idsOf(ofA)).toEqual([ids[2]]);
  });

  it("insights of one account: costs per currency, agents with their account", async () => {
    const res = await post(`/api/admin/rcs/insights`, { from: day, to: day, account_id: people.a.accountId }, staff);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      account: { id: people.a.accountId, name: people.a.company, currency: "BRL" },
      messages: 5,
      basic: 1,
      rich: 4,
      cost: [{ currency: "BRL", amount: 78 }],
      fallback_sms: 1,
      fallback_cost: [{ currency: "BRL", amount: 8 }],
      received: 1,
    });
    expect(res.body.agents[0]).toMatchObject({ agent: { id: agents.a1.id }, account: { id: people.a.accountId, name: people.a.company }, cost: [{ currency: "BRL", amount: 42 }] });
    const all = await post(`/api/admin/rcs/insights`, { from: day, to: day }, staff);
    expect(all.body.messages).toBeGreaterThanOrEqual(6);
    expect(all.body.agents.map((r: { agent: { id: string } }) => r.agent.id)).toEqual(expect.arrayContaining([agents.a1.id, agents.a2.id, agents.b1.id]));
    const long = await post(`/api/admin/rcs/insights`, { from: addDays(day, -31), to: day }, staff, "en");
    expect(long.body.error.fields).toEqual({ to: ["Maximum range of 31 days"] });
  });

  it("synthetic report: per account and day, statuses, basic and rich, fallback legs, revenue without refunds; pages", async () => {
    const res = await post(`/api/admin/rcs/sintetic`, { from: day, to: day }, staff);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const row = (accountId: string) => res.body.data.find((r: { account: { id: string } }) => r.account.id === accountId);
    expect(row(people.a.accountId)).toEqual({
      day,
      account: { id: people.a.accountId, name: people.a.company },
      currency: "BRL",
      messages: 5,
      statuses: { read: 1, delivered: 1, failed: 1, sent: 1, queued: 1 },
      basic: 1,
      rich: 4,
      fallback_sms: 1,
      // 78 charged, less the card that failed before Google took it (refunded).
      revenue: 60,
    });
    expect(row(people.b.accountId)).toMatchObject({ messages: 1, basic: 1, rich: 0, fallback_sms: 0, revenue: 6 });
    const one = await post(`/api/admin/rcs/sintetic`, { from: day, to: day, account_id: people.b.accountId }, staff);
    expect(one.body.data).toHaveLength(1);
    expect(one.body.totals).toEqual({ messages: 1, statuses: { delivered: 1 }, basic: 1, rich: 0, fallback_sms: 0, revenue: [{ currency: "BRL", amount: 6 }] });
    // Pages of one row: every row once, in the order of the whole.
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { status: number; body: { data: Array<{ account: { id: string } }>; next_cursor: string | null } } = await post(
        `/api/admin/rcs/sintetic`,
        { from: day, to: day, limit: 1, ...(cursor ? { cursor } : {}) },
        staff,
      );
      expect(page.status).toBe(200);
      seen.push(...page.body.data.map((r) => r.account.id));
      cursor = page.body.next_cursor;
    } while (cursor);
    expect(seen).toEqual(res.body.data.map((r: { account: { id: string } }) => r.account.id));
  });
});

describe("messages accepted through POST /api/rcs/messages", () => {
  it("count in today's insights, charts and list: their type, price class and accepted price", async () => {
    const p = await registerPerson("rcsrepaccept");
    const token = (await login(p.email, p.password)).token;
    await setAccount(p.accountId, { balance: 10_000 });
    const agent = await makeRcsAgent(p.accountId, { name: "Loja Aceite" });
    const sent: Array<{ id: string; price: number }> = [];
    for (const content of [{ type: "text", messageText: "Oi" }, card]) {
      const res = await api("/api/rcs/messages", { token, body: { agent_id: agent.id, to: mobileNumber(), content } });
      expect(res.status, JSON.stringify(res.body)).toBe(202);
      sent.push({ id: res.body.data.id, price: res.body.data.price });
    }
    expect(sent.map((m) => m.price)).toEqual([6, 18]);
    const today = spToday();
    const list = await post("/api/rcs/messages/list", {}, token);
    expect(list.status, JSON.stringify(list.body)).toBe(200);
    expect(idsOf(list)).toEqual(sent.map((m) => m.id).reverse());
    expect(list.body.data.map((m: { type: string; from: string }) => [m.type, m.from])).toEqual([
      ["card", agent.rbmAgentId],
      ["text", agent.rbmAgentId],
    ]);
    // The dispatcher may already move them on (sent, failed): what is fixed is how many, of which type and class, at which price.
    const i = (await post("/api/rcs/messages/insights", { days: 7 }, token)).body;
    expect(i).toMatchObject({ to: today, messages: 2, basic: 1, rich: 1 });
    expect(Object.values(i.statuses as Record<string, number>).reduce((a, b) => a + b, 0)).toBe(2);
    expect(i.types.filter((r: { messages: number }) => r.messages > 0).map((r: { type: string }) => r.type)).toEqual(["text", "card"]);
    expect(i.classes).toEqual([
      { class: "basic", messages: 1, cost: 6 },
      { class: "rich", messages: 1, cost: 18 },
    ]);
    expect(i.agents).toEqual([expect.objectContaining({ agent: { id: agent.id, name: "Loja Aceite", rbm_agent_id: agent.rbmAgentId }, messages: 2, cost: 24 })]);
    const charts = (await api("/api/rcs/messages/charts?days=7", { token })).body;
    expect(charts.data.at(-1)).toMatchObject({ day: today, total: 2, cost: 24 });
  });
});
