/**
 * The WhatsApp report screens (issue 16) driven like a browser with JavaScript off, on a fresh
 * account whose WhatsApp and SMS messages are seeded today (São Paulo) with known statuses, prices
 * and Meta categories (the category lives in the first event's payload, as the send writes it):
 * /whatsapp/insights counts and cost, /whatsapp/reports per status and category, /whatsapp/usage
 * per category, SMS rows kept out of the WhatsApp figures and WhatsApp rows out of the SMS ones,
 * and the Export button of /whatsapp/history → /whatsapp/exports → a CSV of exactly the filtered rows.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { query } from "../support/db";
import { makeMessage, makeMessageEvents, type MessageStatus } from "../support/factories";
import { location, signedInCustomer, type WebClient } from "../support/web";

const spToday = () => new Intl.DateTimeFormat("en-CA", { timeZone: "America/Sao_Paulo", year: "numeric", month: "2-digit", day: "2-digit" }).format(new Date());

type Seed = { key: string; status: MessageStatus; price: number; category?: string; direction?: "outbound" | "inbound"; sent?: boolean; minutesAgo: number };

/** Today's WhatsApp messages: 7 outbound (5 handed to Meta), 2 inbound. */
const WHATSAPP: Seed[] = [
  { key: "delivered", status: "delivered", price: 40, category: "utility", sent: true, minutesAgo: 9 },
  { key: "read1", status: "read", price: 80, category: "marketing", sent: true, minutesAgo: 8 },
  { key: "read2", status: "read", price: 80, category: "marketing", sent: true, minutesAgo: 7 },
  { key: "failed", status: "failed", price: 40, category: "utility", sent: true, minutesAgo: 6 },
  { key: "sent", status: "sent", price: 30, category: "authentication", sent: true, minutesAgo: 5 },
  { key: "optout", status: "optout", price: 0, category: "marketing", minutesAgo: 4 },
  { key: "queued", status: "queued", price: 20, category: "service", minutesAgo: 3 },
  { key: "in1", status: "received", price: 0, direction: "inbound", minutesAgo: 2 },
  { key: "in2", status: "received", price: 0, direction: "inbound", minutesAgo: 1 },
];

let c: WebClient;
let accountId: string;
let today: string;
const ids: Record<string, string> = {};
const smsIds: string[] = [];

const strip = (html: string) => html.replace(/<script[\s\S]*?<\/script>/g, "");
async function pageOf(path: string) {
  const { res, html } = await c.page(path);
  expect(res.status, path).toBe(200);
  return strip(html);
}
/** The value shown in a figure card (components/sms-reports/figures.tsx). */
function figure(html: string, key: string) {
  const m = html.match(new RegExp(`data-figure="${key}"[\\s\\S]*?data-value[^>]*>([^<]*)<`));
  return m ? m[1].replace(/\u00a0/g, " ") : null;
}
/** A cell of a figures table row (data-{attr}="{value}" … data-col="{col}"). */
function cell(html: string, attr: string, value: string, col: string) {
  const start = html.indexOf(`data-${attr}="${value}"`);
  if (start < 0) return null;
  const row = html.slice(start, html.indexOf("</tr>", start));
  const m = row.match(new RegExp(`data-col="${col}"[^>]*>([^<]*)<`));
  return m ? m[1].replace(/\u00a0/g, " ") : null;
}

async function waitFor<T>(what: string, fn: () => Promise<T | null | undefined | false>, ms = 30_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

beforeAll(async () => {
  const owner = await signedInCustomer("wareports");
  c = owner.client;
  accountId = owner.accountId;
  today = spToday();
  // All of them on São Paulo's today: in the first minutes after midnight the whole set moves
  // forward to just after it (São Paulo has no daylight saving time: UTC-3).
  const now = Date.now() + Math.max(0, Date.parse(`${today}T00:00:01-03:00`) - (Date.now() - 10 * 60_000));
  // Messages of the past with their statuses and prices: no client door makes them (tests/support/factories).
  for (const s of WHATSAPP) {
    const createdAt = new Date(now - s.minutesAgo * 60_000).toISOString();
    const inbound = s.direction === "inbound";
    ids[s.key] = await makeMessage(accountId, {
      channel: "whatsapp",
      direction: s.direction ?? "outbound",
      sender: inbound ? "+5511970001234" : "109876543210987",
      recipient: inbound ? "109876543210987" : "+5511970001234",
      body: `WhatsApp ${s.key}`,
      status: s.status,
      price: s.price,
      currency: "BRL",
      segments: 1,
      createdAt,
      sentAt: s.sent ? createdAt : null,
    });
    if (s.category)
      await makeMessageEvents(accountId, ids[s.key], [
        { status: s.status === "optout" ? "optout" : "queued", payload: { price: s.price, currency: "BRL", category: s.category }, createdAt },
      ]);
  }
  // SMS of the same account and day: never in the WhatsApp figures.
  for (const status of ["delivered", "delivered", "failed"] as const) {
    const createdAt = new Date(now - 10 * 60_000).toISOString();
    smsIds.push(await makeMessage(accountId, { status, price: 8, currency: "BRL", segments: 1, createdAt, sentAt: createdAt }));
  }
});

describe("WhatsApp reports (JavaScript off)", () => {
  it("/whatsapp/insights counts today's WhatsApp messages only: sent, delivered, read, failed, rates, cost, received", async () => {
    const html = await pageOf("/whatsapp/insights");
    expect(figure(html, "messages")).toBe("7");
    expect(figure(html, "sent")).toBe("5");
    expect(figure(html, "delivered")).toBe("3"); // delivered + read
    expect(figure(html, "read")).toBe("2");
    expect(figure(html, "failed")).toBe("1");
    expect(figure(html, "received")).toBe("2");
    expect(figure(html, "cost")).toBe("R$ 2,90");
    expect(figure(html, "deliveryRate")).toBe("60,0%"); // 3 / 5
    expect(figure(html, "readRate")).toBe("66,7%"); // 2 / 3
    expect(figure(html, "failureRate")).toBe("14,3%"); // 1 / 7
    expect(html).toContain('data-chart-days="7"');
    expect(html).toContain(`data-bar-day="${today}" data-total="7"`);
    for (const href of ["/whatsapp/insights", "/whatsapp/reports", "/whatsapp/usage", "/whatsapp/exports"]) expect(html).toContain(`href="${href}"`);

    const month = await pageOf("/whatsapp/insights?days=30");
    expect(month).toContain('data-chart-days="30"');
    expect(figure(month, "messages")).toBe("7");
  });

  it("the SMS insights of the same day do not count the WhatsApp messages", async () => {
    const html = await pageOf("/sms/insights");
    expect(figure(html, "messages")).toBe("3");
    expect(figure(html, "delivered")).toBe("2");
    expect(figure(html, "received")).toBe("0");
    expect(figure(html, "cost")).toBe("R$ 0,24");
  });

  it("/whatsapp/reports: per day with totals, per status and per category", async () => {
    const html = await pageOf(`/whatsapp/reports?from=${today}&to=${today}`);
    expect(cell(html, "day", today, "total")).toBe("7");
    expect(cell(html, "day", "total", "cost")).toBe("R$ 2,90");
    expect(cell(html, "day", "total", "delivered")).toBe("3");
    expect(cell(html, "status", "read", "messages")).toBe("2");
    expect(cell(html, "status", "delivered", "messages")).toBe("1");
    expect(cell(html, "status", "optout", "messages")).toBe("1");
    expect(cell(html, "status", "total", "messages")).toBe("7");
    expect(cell(html, "category", "marketing", "messages")).toBe("2"); // the opted-out one is not usage
    expect(cell(html, "category", "marketing", "cost")).toBe("R$ 1,60");
  });

  it("/whatsapp/usage: messages and cost per Meta category in the account's currency", async () => {
    const html = await pageOf(`/whatsapp/usage?from=${today}&to=${today}`);
    const want = { marketing: ["2", "R$ 1,60"], utility: ["2", "R$ 0,80"], authentication: ["1", "R$ 0,30"], service: ["1", "R$ 0,20"], total: ["6", "R$ 2,90"] };
    for (const [category, [n, cost]] of Object.entries(want)) {
      expect(cell(html, "category", category, "messages"), category).toBe(n);
      expect(cell(html, "category", category, "cost"), category).toBe(cost);
    }
    const sms = await pageOf(`/sms/usage?from=${today}&to=${today}`);
    expect(cell(sms, "day", "total", "messages")).toBe("3");
  });

  it("Export on /whatsapp/history queues the filtered WhatsApp export; the CSV holds exactly those rows; the SMS exports do not show it", async () => {
    const history = await pageOf(`/whatsapp/history?start=${today}&end=${today}&status=read`);
    expect(history).toContain('action="/whatsapp/history?index"');
    const res = await c.post("/whatsapp/history?index", { start: today, end: today, status: "read", to: "" });
    expect(res.status, await res.clone().text()).toBe(302);
    expect(location(res)).toBe("/whatsapp/exports");
    const [row] = await query<{ id: string; kind: string; filter: unknown }>("SELECT id, kind, filter FROM sms_exports WHERE account_id = $1 ORDER BY created_at DESC LIMIT 1", [
      accountId,
    ]);
    expect(row.kind).toBe("whatsapp");
    expect(row.filter).toEqual({ id: "", from: "", to: "", status: "read", sent_at: { from: today, to: today } });
    await waitFor("export done", async () => (await query<{ status: string }>("SELECT status FROM sms_exports WHERE id = $1", [row.id]))[0].status === "done");

    const list = await pageOf("/whatsapp/exports");
    expect(list).toContain(`data-export-id="${row.id}"`);
    expect(list).toContain(`href="/whatsapp/exports/${row.id}/file"`);
    expect(await pageOf("/sms/exports")).not.toContain(row.id);

    const file = await c.get(`/whatsapp/exports/${row.id}/file`);
    expect(file.status).toBe(200);
    expect(file.headers.get("content-disposition")).toContain(`whatsapp-${today}_${today}`);
    const lines = (await file.text())
      .replace(/^\uFEFF/, "")
      .trim()
      .split("\n");
    expect(lines[0]).toBe("id,created_at,sent_at,delivered_at,direction,type,sender,recipient,body,segments,coding,status,error_code,error_message,carrier,price,currency");
    expect(lines.slice(1).map((l) => l.split(",")[0])).toEqual([ids.read2, ids.read1]);
    expect(lines[1]).toContain(",outbound,text,109876543210987,+5511970001234,WhatsApp read2,1,");
    expect(lines[1]).toContain(",read,,,,0.80,BRL");
    // A WhatsApp export is not an SMS export's file.
    expect((await c.get(`/sms/exports/${row.id}/file`)).status).toBe(404);

    // No status filter: every WhatsApp message of the day, both directions, and no SMS.
    const all = await c.post("/whatsapp/history?index", { start: today, end: today, status: "", to: "" });
    expect(all.status).toBe(302);
    const [whole] = await query<{ id: string }>("SELECT id FROM sms_exports WHERE account_id = $1 ORDER BY created_at DESC LIMIT 1", [accountId]);
    await waitFor("export done", async () => (await query<{ status: string }>("SELECT status FROM sms_exports WHERE id = $1", [whole.id]))[0].status === "done");
    const text = await (await c.get(`/whatsapp/exports/${whole.id}/file`)).text();
    const exported = text
      .trim()
      .split("\n")
      .slice(1)
      .map((l) => l.split(",")[0]);
    expect(new Set(exported)).toEqual(new Set(Object.values(ids)));
    for (const id of smsIds) expect(text).not.toContain(id);
  });
});
