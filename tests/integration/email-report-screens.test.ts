/**
 * The e-mail report screens (issue 17) on seeded data: two fresh accounts with e-mails (and one SMS,
 * one SMS campaign that must not count) on a São Paulo day of the past no other test writes to.
 * - The account's API: GET /api/email/usage, /api/email/reports/stat and /api/email/reports/campaigns
 *   count exactly its own e-mails of the day (the other account's never), the period's errors.
 * - Platform staff's API (GET /api/admin/email/reports/stat, /usage, /messages, /messages/{id}):
 *   both accounts' e-mails, or one's (account_id); a customer's owner is refused (403).
 * - The screens (/mail/usage, /mail/reports, /admin/email/reports/stat, /usage, /history) render those figures.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { api, login, registerPerson, type Person } from "../support/api";
import { makeCampaign, makeMessage, type MessageStatus } from "../support/factories";
import { query } from "../support/db";
import { DEMO_PASSWORD, location, signIn, type WebClient } from "../support/web";

const spToday = () => new Intl.DateTimeFormat("en-CA", { timeZone: "America/Sao_Paulo", year: "numeric", month: "2-digit", day: "2-digit" }).format(new Date());
const addDays = (day: string, n: number) => new Date(Date.parse(`${day}T12:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

type Seed = { status: string; price: number; campaign?: boolean; sms?: boolean };
/** A: 4 e-mails (delivered, opened and clicked in a campaign, bounced) and an SMS; B: 3 e-mails (delivered, blocked, dropped). */
const SEEDS: Record<"a" | "b", Seed[]> = {
  a: [
    { status: "delivered", price: 5 },
    { status: "opened", price: 5, campaign: true },
    { status: "clicked", price: 5, campaign: true },
    { status: "bounced", price: 5 },
    { status: "delivered", price: 8, sms: true },
  ],
  b: [
    { status: "delivered", price: 7 },
    { status: "blocked", price: 7 },
    { status: "dropped", price: 0 },
  ],
};

let staff: string;
const token: Record<"a" | "b", string> = {} as never;
const people: Record<"a" | "b", Person> = {} as never;
const ids: Record<"a" | "b", string[]> = { a: [], b: [] };
let smsId: string;
let campaignId: string;
let smsCampaignId: string;
/** The seeded day: 23 days ago (São Paulo). */
let day: string;

beforeAll(async () => {
  staff = (await login("staff@demo.example", DEMO_PASSWORD)).token;
  people.a = await registerPerson("mailrepa");
  people.b = await registerPerson("mailrepb");
  for (const k of ["a", "b"] as const) token[k] = (await login(people[k].email, people[k].password)).token;
  day = addDays(spToday(), -23);
  const at = (minute: number) => `${day}T10:${String(minute).padStart(2, "0")}:00-03:00`;
  campaignId = await makeCampaign(people.a.accountId, {
    channel: "email",
    name: "Black Friday e-mail",
    status: "completed",
    sender: "loja@exemplo.test",
    body: "Ofertas",
    total: 2,
    createdAt: at(0),
  });
  smsCampaignId = await makeCampaign(people.a.accountId, { name: "SMS campaign", status: "completed", sender: "LOJA", body: "Ofertas", total: 1, createdAt: at(0) });
  for (const k of ["a", "b"] as const) {
    let minute = 1;
    for (const s of SEEDS[k]) {
      const id = await makeMessage(people[k].accountId, {
        channel: s.sms ? "sms" : "email",
        sender: s.sms ? "LOJA" : "loja@exemplo.test",
        recipient: s.sms ? "+5511970003333" : `cliente${minute}@destino.test`,
        body: `relatório ${s.status}`,
        status: s.status as MessageStatus,
        price: s.price,
        currency: "BRL",
        campaignId: s.campaign ? campaignId : s.sms ? smsCampaignId : null,
        createdAt: at(minute),
        sentAt: s.status === "dropped" ? null : at(minute),
      });
      if (s.sms) smsId = id;
      else ids[k].push(id);
      minute += 1;
    }
  }
});

const get = (path: string, who: string) => api(path, { token: who, lang: "en" });
const range = () => `from=${day}&to=${day}`;

describe("the account's e-mail usage and reports API", () => {
  it("usage: its own e-mails of the day and their cost, never the other account's nor SMS", async () => {
    const a = await get(`/api/email/usage?${range()}`, token.a);
    expect(a.status, JSON.stringify(a.body)).toBe(200);
    expect(a.body).toMatchObject({ from: day, to: day, currency: "BRL", next_cursor: null });
    expect(a.body.data).toEqual([expect.objectContaining({ day, messages: 4, cost: 20 })]);
    expect(a.body.totals).toMatchObject({ messages: 4, cost: 20 });
    const b = await get(`/api/email/usage?${range()}`, token.b);
    expect(b.body.totals).toMatchObject({ messages: 3, cost: 14 });
    // The default period is this month so far (today included).
    const month = await get("/api/email/usage", token.a);
    expect(month.status).toBe(200);
    expect(month.body.to).toBe(spToday());
    expect(month.body.from).toBe(`${spToday().slice(0, 8)}01`);
  });

  it("stat: per day per e-mail status and cost; campaigns: its e-mail campaigns only", async () => {
    const a = await get(`/api/email/reports/stat?${range()}`, token.a);
    expect(a.status, JSON.stringify(a.body)).toBe(200);
    expect(a.body.data).toEqual([expect.objectContaining({ day, total: 4, cost: 20, statuses: { delivered: 1, opened: 1, clicked: 1, bounced: 1 } })]);
    expect(a.body.totals).toMatchObject({ total: 4, cost: 20 });
    const b = await get(`/api/email/reports/stat?${range()}`, token.b);
    expect(b.body.totals).toMatchObject({ total: 3, cost: 14, statuses: { delivered: 1, blocked: 1, dropped: 1 } });
    // The default: the last 7 days, today included.
    const week = await get("/api/email/reports/stat", token.a);
    expect(week.body.data).toHaveLength(7);

    const campaigns = await get(`/api/email/reports/campaigns?${range()}`, token.a);
    expect(campaigns.status, JSON.stringify(campaigns.body)).toBe(200);
    expect(campaigns.body.data).toEqual([
      expect.objectContaining({ id: campaignId, name: "Black Friday e-mail", status: "completed", total: 2, messages: 2, cost: 10, statuses: { opened: 1, clicked: 1 } }),
    ]);
    expect((await get(`/api/email/reports/campaigns?${range()}`, token.b)).body.data).toEqual([]);
  });

  it("refuses a bad period with its field's error", async () => {
    const long = await get(`/api/email/usage?from=${addDays(day, -31)}&to=${day}`, token.a);
    expect(long.status).toBe(422);
    expect(long.body.error.fields).toEqual({ to: ["Maximum range of 31 days"] });
    const bad = await get(`/api/email/reports/stat?from=2026-02-30&to=${day}`, token.a);
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.error.fields)).toContain("from");
    expect((await get(`/api/email/reports/campaigns?from=${day}&to=${addDays(day, -1)}`, token.a)).status).toBe(422);
  });
});

describe("platform staff's e-mail reports API", () => {
  it("stat: both accounts' e-mails of the day, per status, cost per currency and per account; one account's", async () => {
    const res = await get(`/api/admin/email/reports/stat?${range()}`, staff);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    // Nobody else writes e-mails on that day: the platform's figures are the two accounts'.
    expect(res.body).toMatchObject({ from: day, to: day, account: null, next_cursor: null });
    expect(res.body.data).toEqual([{ day, total: 7, statuses: { delivered: 2, opened: 1, clicked: 1, bounced: 1, blocked: 1, dropped: 1 } }]);
    expect(res.body.cost).toEqual([{ currency: "BRL", amount: 34 }]);
    const row = (k: "a" | "b") => res.body.accounts.find((r: { account: { id: string } }) => r.account.id === people[k].accountId);
    expect(res.body.accounts).toHaveLength(2);
    expect(row("a")).toEqual({ account: { id: people.a.accountId, name: people.a.company }, messages: 4, delivered: 3, opened: 2, bounced: 1, cost: 20, currency: "BRL" });
    expect(row("b")).toEqual({ account: { id: people.b.accountId, name: people.b.company }, messages: 3, delivered: 1, opened: 0, bounced: 2, cost: 14, currency: "BRL" });

    const ofB = await get(`/api/admin/email/reports/stat?${range()}&account_id=${people.b.accountId}`, staff);
    expect(ofB.body.account).toEqual({ id: people.b.accountId, name: people.b.company, currency: "BRL" });
    expect(ofB.body.totals).toEqual({ total: 3, statuses: { delivered: 1, blocked: 1, dropped: 1 } });
    expect(ofB.body.accounts.map((r: { account: { id: string } }) => r.account.id)).toEqual([people.b.accountId]);
    const unknown = await get(`/api/admin/email/reports/stat?account_id=00000000-0000-4000-8000-000000000000`, staff);
    expect(unknown.status).toBe(422);
    expect(unknown.body.error.fields).toEqual({ account_id: ["Choose one of the options"] });
    expect((await get(`/api/admin/email/reports/stat?from=${addDays(day, -31)}&to=${day}`, staff)).body.error.fields).toEqual({ to: ["Maximum range of 31 days"] });
  });

  it("usage: per day e-mails and cost per currency, every account's or one's", async () => {
    const res = await get(`/api/admin/email/reports/usage?${range()}`, staff);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toEqual([{ day, messages: 7, cost: [{ currency: "BRL", amount: 34 }] }]);
    expect(res.body.totals).toEqual({ messages: 7, cost: [{ currency: "BRL", amount: 34 }] });
    const ofA = await get(`/api/admin/email/reports/usage?${range()}&account_id=${people.a.accountId}`, staff);
    expect(ofA.body.totals).toEqual({ messages: 4, cost: [{ currency: "BRL", amount: 20 }] });
  });

  it("history: both accounts' e-mails naming their account, one account's, and an e-mail of any account", async () => {
    const q = `created_at[gte]=${day}&created_at[lte]=${day}`;
    const all = await get(`/api/admin/email/reports/messages?${q}`, staff);
    expect(all.status, JSON.stringify(all.body)).toBe(200);
    expect(all.body.data.map((m: { id: string }) => m.id).sort()).toEqual([...ids.a, ...ids.b].sort());
    for (const m of all.body.data) {
      const k = ids.a.includes(m.id) ? "a" : "b";
      expect(m).toMatchObject({ account_id: people[k].accountId, account_name: people[k].company });
    }
    const ofB = await get(`/api/admin/email/reports/messages?${q}&account_id=${people.b.accountId}`, staff);
    expect(ofB.body.data.map((m: { id: string }) => m.id)).toEqual([...ids.b].reverse());
    const bounced = await get(`/api/admin/email/reports/messages?${q}&status=bounced`, staff);
    expect(bounced.body.data.map((m: { id: string }) => m.id)).toEqual([ids.a[3]]);

    const one = await get(`/api/admin/email/reports/messages/${ids.a[3]}`, staff);
    expect(one.status, JSON.stringify(one.body)).toBe(200);
    expect(one.body.data).toMatchObject({ id: ids.a[3], status: "bounced", price: 5, account: { id: people.a.accountId, name: people.a.company } });
    expect((await get(`/api/admin/email/reports/messages/${smsId}`, staff)).status).toBe(404);
    expect((await get("/api/admin/email/reports/messages/not-an-id", staff)).status).toBe(404);
  });

  it("is for platform staff only: a customer's owner is refused (403), nobody signed in is 401", async () => {
    for (const path of [
      `/api/admin/email/reports/stat?${range()}`,
      `/api/admin/email/reports/usage?${range()}`,
      `/api/admin/email/reports/messages?created_at[gte]=${day}&created_at[lte]=${day}`,
      `/api/admin/email/reports/messages/${ids.b[0]}`,
    ]) {
      const res = await get(path, token.a);
      expect(res.status, path).toBe(403);
      expect(JSON.stringify(res.body)).not.toContain("relatório");
      expect((await api(path)).status, path).toBe(401);
    }
  });
});

/** The text of a table cell: the row `data-{attr}="{key}"`, the cell `data-col="{col}"`. */
function cell(html: string, attr: string, key: string, col: string): string | undefined {
  const row = html.match(new RegExp(`<tr[^>]*data-${attr}="${key}"[^>]*>([\\s\\S]*?)</tr>`))?.[1];
  const td = row?.match(new RegExp(`<td[^>]*data-col="${col}"[^>]*>([\\s\\S]*?)</td>`))?.[1];
  return td
    ?.replace(/<[^>]+>/g, "")
    .replace(/&nbsp;|\u00a0/g, " ")
    .trim();
}

describe("the screens render the figures", () => {
  let customer: WebClient;
  let admin: WebClient;
  beforeAll(async () => {
    customer = await signIn(people.a.email, people.a.password);
    admin = await signIn("staff@demo.example");
  });

  it("/mail/usage and /mail/reports: the account's day, per status, its campaign and the export button", async () => {
    const usage = await customer.page(`/mail/usage?${range()}`);
    expect(usage.res.status).toBe(200);
    expect(cell(usage.html, "day", day, "messages")).toBe("4");
    expect(cell(usage.html, "day", day, "cost")).toBe("R$ 0,20");
    expect(cell(usage.html, "day", "total", "messages")).toBe("4");
    expect(usage.html).not.toContain('data-col="segments"');

    const reports = await customer.page(`/mail/reports?${range()}`);
    expect(reports.res.status).toBe(200);
    expect(cell(reports.html, "day", day, "total")).toBe("4");
    for (const s of ["delivered", "opened", "clicked", "bounced"]) expect(cell(reports.html, "day", day, s), s).toBe("1");
    expect(cell(reports.html, "day", day, "cost")).toBe("R$ 0,20");
    expect(cell(reports.html, "campaign-id", campaignId, "total")).toBe("2");
    expect(cell(reports.html, "campaign-id", campaignId, "opened")).toBe("2");
    expect(reports.html).not.toContain(smsCampaignId);
    // The Export button: an e-mail export of the period shown, then /mail/exports.
    expect(reports.html).toContain('action="/mail/reports"');
    const exported = await customer.post("/mail/reports", { start: day, end: day });
    expect(exported.status, await exported.clone().text()).toBe(302);
    expect(location(exported)).toBe("/mail/exports");
    const [row] = await query<{ kind: string; filter: { sent_at?: { from?: string; to?: string } } }>(
      "SELECT kind, filter FROM sms_exports WHERE account_id = $1 ORDER BY created_at DESC LIMIT 1",
      [people.a.accountId],
    );
    expect(row.kind).toBe("email");
    expect(row.filter.sent_at).toMatchObject({ from: day, to: day });
    const bad = await customer.page(`/mail/reports?from=${day}&to=${addDays(day, -1)}`);
    expect(bad.res.status).toBe(200);
    expect(bad.html).not.toContain(`data-day="${day}"`);
  });

  it("/admin/email/reports/stat, /usage and /history: every account's figures and e-mails, one e-mail's panel", async () => {
    const stat = await admin.page(`/admin/email/reports/stat?${range()}`);
    expect(stat.res.status).toBe(200);
    expect(cell(stat.html, "day", day, "total")).toBe("7");
    expect(cell(stat.html, "day", day, "blocked")).toBe("1");
    expect(cell(stat.html, "account", people.a.accountId, "messages")).toBe("4");
    expect(cell(stat.html, "account", people.b.accountId, "bounced")).toBe("2");

    const usage = await admin.page(`/admin/email/reports/usage?${range()}&account=${encodeURIComponent(people.b.company)}`);
    expect(usage.res.status).toBe(200);
    expect(cell(usage.html, "day", day, "messages")).toBe("3");
    expect(cell(usage.html, "day", day, "cost")).toBe("R$ 0,14");

    const history = await admin.page(`/admin/email/reports/history?start=${day}&end=${day}&message=${ids.b[1]}`);
    expect(history.res.status).toBe(200);
    expect([...history.html.matchAll(/data-message-id="([^"]+)"/g)].map((m) => m[1]).sort()).toEqual([...ids.a, ...ids.b].sort());
    expect(history.html).toContain('data-testid="message-panel"');
    expect(history.html).toContain(people.b.company);

    // A customer's owner does not reach the staff screens.
    expect((await customer.page(`/admin/email/reports/stat?${range()}`)).res.status).not.toBe(200);
  });
});
