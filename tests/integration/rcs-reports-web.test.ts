/**
 * The RCS report screens through the web process (issue 21): /rcs/insights and /rcs/reports for
 * the account (its figures only, GET forms that filter without JavaScript, the 31-day range refused
 * on its field in Portuguese), and platform staff's /admin/rcs/reports/stat, /history and
 * /insights (one account's figures by the account field), refused to a customer's owner.
 * History seeded 25 São Paulo days ago (tests/support/rcs-reports.ts seedRcsHistory).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { registerPerson, type Person } from "../support/api";
import { type RcsHistorySeed, seedRcsHistory } from "../support/rcs-reports";
import { location, signIn, type WebClient } from "../support/web";

const spToday = () => new Intl.DateTimeFormat("en-CA", { timeZone: "America/Sao_Paulo", year: "numeric", month: "2-digit", day: "2-digit" }).format(new Date());
const addDays = (day: string, n: number) => new Date(Date.parse(`${day}T12:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

let a: Person;
let b: Person;
let owner: WebClient;
let staff: WebClient;
let seed: RcsHistorySeed;
let day: string;

/** The text of a figure card (data-figure) or of a table cell (data-{attr}="{key}" … data-col="{col}"). */
const figure = (html: string, key: string) => new RegExp(`data-figure="${key}"[\\s\\S]*?data-value[^>]*>([^<]*)<`).exec(html)?.[1];
const cell = (html: string, attr: string, key: string, col: string) => {
  const row = new RegExp(`<tr[^>]*data-${attr}="${key}"[^>]*>([\\s\\S]*?)</tr>`).exec(html)?.[1] ?? "";
  return new RegExp(`data-col="${col}"[^>]*>([^<]*)<`).exec(row)?.[1];
};

beforeAll(async () => {
  a = await registerPerson("rcswebA");
  b = await registerPerson("rcswebB");
  day = addDays(spToday(), -25);
  seed = await seedRcsHistory(a.accountId, b.accountId, day);
  owner = await signIn(a.email, a.password);
  staff = await signIn("staff@demo.example");
});

describe("customer RCS report screens", () => {
  it("/rcs/reports: the period's figures, per type and agent, only the account's", async () => {
    const { res, html } = await owner.page(`/rcs/reports?from=${day}&to=${day}`);
    expect(res.status).toBe(200);
    expect(figure(html, "messages")).toBe("5");
    expect(figure(html, "basic")).toBe("1");
    expect(figure(html, "rich")).toBe("4");
    expect(figure(html, "fallbackSms")).toBe("1");
    expect(figure(html, "cost")?.replace(/\s/g, " ")).toBe("R$ 0,78");
    expect(cell(html, "type", "card", "failed")).toBe("1");
    expect(cell(html, "type", "text", "messages")).toBe("2");
    expect(html).toContain("Loja Um");
    expect(html).toContain("Loja Dois");
    // The other account's agent is neither an option nor a row.
    expect(html).not.toContain("Outra");
    // The chart is drawn on the server (SVG), the form is a plain GET form.
    expect(html).toContain("<svg");
    expect(html).toMatch(/<form[^>]*method="get"[^>]*action="\/rcs\/reports"/);
  });

  it("/rcs/reports filters by agent and type; more than 31 days is its field's error", async () => {
    const byAgent = await owner.page(`/rcs/reports?from=${day}&to=${day}&agent=${seed.agents.a2.id}`);
    expect(figure(byAgent.html, "messages")).toBe("2");
    const byType = await owner.page(`/rcs/reports?from=${day}&to=${day}&type=card-carousel`);
    expect(figure(byType.html, "messages")).toBe("1");
    const long = await owner.page(`/rcs/reports?from=${addDays(day, -31)}&to=${day}`);
    expect(long.res.status).toBe(200);
    expect(long.html).toContain("Intervalo máximo de 31 dias");
    expect(long.html).not.toContain('data-figure="messages"');
  });

  it("/rcs/insights: the last 30 days, narrowed by type; another account sees its own", async () => {
    const { res, html } = await owner.page(`/rcs/insights?days=30`);
    expect(res.status).toBe(200);
    expect(figure(html, "messages")).toBe("5");
    expect(figure(html, "received")).toBe("1");
    expect(cell(html, "day", day, "messages")).toBe("5");
    const cards = await owner.page(`/rcs/insights?days=30&type=card`);
    expect(figure(cards.html, "messages")).toBe("1");
    const other = await signIn(b.email, b.password);
    const ofB = await other.page(`/rcs/insights?days=30`);
    expect(figure(ofB.html, "messages")).toBe("1");
    expect(ofB.html).not.toContain("Loja Um");
  });
});

describe("platform staff's RCS report screens", () => {
  const ofA = () => `account=${encodeURIComponent(a.company)}`;

  it("/admin/rcs/reports/stat: the synthetic report of one account's day", async () => {
    const { res, html } = await staff.page(`/admin/rcs/reports/stat?from=${day}&to=${day}&${ofA()}`);
    expect(res.status).toBe(200);
    expect(cell(html, "account", a.accountId, "messages")).toBe("5");
    expect(cell(html, "account", a.accountId, "basic")).toBe("1");
    expect(cell(html, "account", a.accountId, "rich")).toBe("4");
    expect(cell(html, "account", a.accountId, "fallback")).toBe("1");
    expect(cell(html, "account", a.accountId, "revenue")?.replace(/\s/g, " ")).toBe("R$ 0,60");
    expect(html).not.toContain(`data-account="${b.accountId}"`);
  });

  it("/admin/rcs/reports/history: one account's messages, filtered by type", async () => {
    const all = await staff.page(`/admin/rcs/reports/history?start=${day}&end=${day}&${ofA()}`);
    expect(all.res.status).toBe(200);
    expect([...all.html.matchAll(/data-message-id="([^"]+)"/g)].map((m) => m[1])).toEqual([...seed.ids].reverse());
    const cards = await staff.page(`/admin/rcs/reports/history?start=${day}&end=${day}&type=card&${ofA()}`);
    expect([...cards.html.matchAll(/data-message-id="([^"]+)"/g)].map((m) => m[1])).toEqual([seed.ids[2]]);
    expect(cards.html).toContain("Card");
  });

  it("/admin/rcs/reports/insights: one account's last 30 days", async () => {
    const { res, html } = await staff.page(`/admin/rcs/reports/insights?days=30&${ofA()}`);
    expect(res.status).toBe(200);
    expect(figure(html, "messages")).toBe("5");
    expect(figure(html, "fallbackSms")).toBe("1");
    expect(html).toContain("Loja Dois");
  });

  it("a customer's owner is sent to /403 from the staff screens", async () => {
    for (const path of ["/admin/rcs/reports/stat", "/admin/rcs/reports/history", "/admin/rcs/reports/insights"]) {
      const { res, html } = await owner.page(`${path}?${ofA()}`);
      expect(res.status, path).toBe(302);
      expect(location(res), path).toBe("/403");
      expect(html).not.toContain("Loja Um");
    }
  });
});
