/**
 * The SMS history and report screens driven like a browser with JavaScript off (plain GETs and
 * form posts with the CSRF field), on a fresh account whose messages are seeded on known São Paulo
 * days: default today, São Paulo day boundaries, the status filter, the 31-day limit, the detail
 * (dates, cost, coding, error reason, timeline, map), the Export button → /sms/exports → the CSV,
 * account scoping, and the dashboard / usage / insights / stat / queue / campaign figures.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { query } from "../support/db";
import { location, signedInCustomer, type WebClient } from "../support/web";
import { makeCampaign, makeMessage, makeMessageEvents, makeSmsExport, type MessageFields, type MessageStatus, setAccount, setMessages, setUser } from "../support/factories";

const spToday = () => new Intl.DateTimeFormat("en-CA", { timeZone: "America/Sao_Paulo", year: "numeric", month: "2-digit", day: "2-digit" }).format(new Date());
const addDays = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
const sp = (day: string, h: number, m: number, s = 0, micro = "000000") =>
  new Date(Date.parse(`${day}T00:00:00-03:00`) + ((h * 60 + m) * 60 + s) * 1000).toISOString().replace(/\.\d{3}Z$/, `.${micro}Z`);

const freshCustomer = (tag: string) => signedInCustomer(tag);

type Seed = MessageFields & { key: string; createdAt: string; status: MessageStatus; body: string };
async function seed(accountId: string, rows: Seed[]) {
  const ids: Record<string, string> = {};
  for (const { key, ...fields } of rows) {
    ids[key] = await makeMessage(accountId, { recipient: "+5511970000001", segments: 1, coding: "GSM7", price: 8, type: "text", currency: "BRL", ...fields });
  }
  return ids;
}

const visible = (html: string) => {
  expect(html.includes("\u0000"), "NUL byte in the HTML").toBe(false);
  return html.replace(/<script[\s\S]*?<\/script>/g, "");
};
async function pageOf(client: WebClient, path: string) {
  const { res, html } = await client.page(path);
  return { res, html: visible(html) };
}
/** The ids of the history rows shown, in order. */
const rowIds = (html: string) => [...html.matchAll(/data-message-id="([0-9a-f-]{36})"/g)].map((m) => m[1]);
function rowOf(html: string, attr: string, value: string) {
  const start = html.indexOf(`${attr}="${value}"`);
  return start < 0 ? "" : html.slice(start, html.indexOf("</tr>", start));
}

async function waitFor<T>(what: string, fn: () => Promise<T | null | undefined | false>, ms = 20_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

let owner: Awaited<ReturnType<typeof freshCustomer>>;
let c: WebClient;
let ids: Record<string, string>;
let today: string;
let yesterday: string;
let before: string;

beforeAll(async () => {
  owner = await freshCustomer("smshistweb");
  c = owner.client;
  today = spToday();
  yesterday = addDays(today, -1);
  before = addDays(today, -2);
  ids = await seed(owner.accountId, [
    { key: "t1", createdAt: sp(today, 0, 0, 1), status: "delivered", body: "Hoje cedo" },
    { key: "y0", createdAt: sp(yesterday, 0, 0), status: "delivered", body: "Ontem primeiro instante", carrier: "Vivo" },
    {
      key: "y1",
      createdAt: sp(yesterday, 12, 30, 15),
      sentAt: sp(yesterday, 12, 30, 17),
      status: "failed",
      body: "Promoção de verão com acentuação",
      segments: 2,
      coding: "UCS2",
      price: 16,
      errorCode: "UNDELIV",
      errorMessage: "The handset rejected the message (simulated)",
      recipient: "+5521970000002",
      carrier: "Claro",
    },
    { key: "y2", createdAt: sp(yesterday, 23, 59, 59, "999999"), status: "failed", body: "Ontem último instante", errorCode: "EXPIRED" },
    { key: "y3", createdAt: sp(yesterday, 14, 0), status: "sent", body: "Estamos aqui", type: "location", latitude: -23.55052, longitude: -46.633308 },
    { key: "b1", createdAt: sp(yesterday, 0, 0).replace("T03:00:00.000000Z", "T02:59:59.999999Z"), status: "failed", body: "Anteontem último instante" },
  ]);
  await makeMessageEvents(owner.accountId, ids.y1, [
    { status: "queued", createdAt: sp(yesterday, 12, 30, 15) },
    { status: "sent", createdAt: sp(yesterday, 12, 30, 17) },
    { status: "failed", source: "provider", payload: { error_code: "UNDELIV" }, createdAt: sp(yesterday, 12, 31, 0) },
  ]);
});

describe("SMS history screens (JavaScript off)", () => {
  it("the sidebar has the SMS group; /sms/history defaults to today in São Paulo", async () => {
    const { res, html } = await pageOf(c, "/sms/history");
    expect(res.status).toBe(200);
    for (const href of ["/sms/dashboard", "/sms/history", "/sms/exports", "/sms/reports/stat", "/sms/insights", "/sms/usage", "/sms/queue"]) {
      expect(html).toContain(`href="${href}"`);
    }
    expect(html).toContain("Histórico de SMS");
    expect(html).toMatch(new RegExp(`name="start"[^>]*value="${today}"|value="${today}"[^>]*name="start"`));
    expect(rowIds(html)).toEqual([ids.t1]);
    expect(html).toContain("Entregue");
    expect(html).toContain(`action="/sms/history?index"`); // the Export button's form
  });

  it("days are São Paulo days: yesterday 00:00:00 to 23:59:59.999999, newest first", async () => {
    const { html } = await pageOf(c, `/sms/history?start=${yesterday}&end=${yesterday}`);
    expect(rowIds(html)).toEqual([ids.y2, ids.y3, ids.y1, ids.y0]);
    const two = await pageOf(c, `/sms/history?start=${before}&end=${yesterday}`);
    expect(rowIds(two.html)).toEqual([ids.y2, ids.y3, ids.y1, ids.y0, ids.b1]);
    // The table: date (São Paulo), type, sender, recipient, message, parts, status badge.
    const row = rowOf(html, "data-message-id", ids.y1);
    expect(row).toContain(`${yesterday.slice(8, 10)}/${yesterday.slice(5, 7)}/${yesterday.slice(2, 4)} 12:30`);
    expect(row).toContain("Texto");
    expect(row).toContain("+5521970000002");
    expect(row).toContain("Promoção de verão com acentuação");
    expect(row).toContain("Falhou");
    expect(rowOf(html, "data-message-id", ids.y3)).toContain("Localização");
  });

  it("filters by status (and by recipient); the 31-day limit is said on the page", async () => {
    const failed = await pageOf(c, `/sms/history?start=${before}&end=${today}&status=failed`);
    expect(rowIds(failed.html)).toEqual([ids.y2, ids.y1, ids.b1]);
    expect(failed.html).toMatch(/<option[^>]*value="failed"[^>]*selected|<option[^>]*selected[^>]*value="failed"/);
    const to = await pageOf(c, `/sms/history?start=${yesterday}&end=${yesterday}&to=${encodeURIComponent("(21) 97000-0002")}`);
    expect(rowIds(to.html)).toEqual([ids.y1]);
    const over = await pageOf(c, `/sms/history?start=${addDays(today, -31)}&end=${today}`);
    expect(over.res.status).toBe(200);
    expect(over.html).toContain("Intervalo máximo de 31 dias");
    expect(rowIds(over.html)).toEqual([]);
    const badPhone = await pageOf(c, `/sms/history?to=123`);
    expect(badPhone.html).toContain('aria-invalid="true"');
  });

  it("the detail shows dates in São Paulo, cost in R$, coding, direction, parts, the error reason and the timeline", async () => {
    const { res, html } = await pageOf(c, `/sms/history/${ids.y1}`);
    expect(res.status).toBe(200);
    const field = (k: string) => {
      const i = html.indexOf(`data-field="${k}"`);
      return i < 0 ? "" : html.slice(i, html.indexOf("</div>", i));
    };
    expect(field("id")).toContain(ids.y1);
    expect(field("createdAt")).toContain("12:30:15");
    expect(field("createdAt")).toContain(`${yesterday.slice(8, 10)}/${yesterday.slice(5, 7)}/${yesterday.slice(0, 4)}`);
    expect(field("sentAt")).toContain("12:30:17");
    expect(field("cost")).toMatch(/R\$\s0,16/);
    expect(field("coding")).toContain("UCS-2 (Unicode)");
    expect(field("direction")).toContain("Enviada");
    expect(field("parts")).toContain(">2<");
    expect(field("type")).toContain("Texto");
    expect(field("carrier")).toContain("Claro");
    expect(field("error")).toContain("UNDELIV — O aparelho ou a operadora não aceitou a mensagem");
    expect(html).toContain("Promoção de verão com acentuação");
    const timeline = [...html.matchAll(/data-event-status="([a-z]+)"/g)].map((m) => m[1]);
    expect(timeline).toEqual(["queued", "sent", "failed"]);
    expect(html).toContain("informado pelo fornecedor");
    expect(html).not.toContain("openstreetmap.org");

    const loc = await pageOf(c, `/sms/history/${ids.y3}`);
    expect(loc.html).toContain("https://www.openstreetmap.org/export/embed.html?bbox=");
    expect(loc.html).toContain("mlat=-23.550520&amp;mlon=-46.633308");
    expect(loc.html).toContain("Localização");
    // The same screen under the reports.
    expect((await pageOf(c, `/sms/reports/history/${ids.y1}`)).html).toContain("UNDELIV — O aparelho");

    const stranger = await freshCustomer("smshistweb2");
    expect((await stranger.client.get(`/sms/history/${ids.y1}`)).status).toBe(404);
    expect((await stranger.client.get(`/sms/history/nao-e-um-id`)).status).toBe(404);
  });

  it("Export (a plain form post) queues the filtered export, goes to /sms/exports, and the CSV downloads; other accounts get 404", async () => {
    const res = await c.post("/sms/history?index", { start: yesterday, end: yesterday, status: "failed", id: "", from: "", to: "" });
    expect(res.status, await res.clone().text()).toBe(302);
    expect(location(res)).toBe("/sms/exports");
    const [row] = await query<{ id: string; filter: any }>("SELECT id, filter FROM sms_exports WHERE account_id = $1 ORDER BY created_at DESC LIMIT 1", [owner.accountId]);
    expect(row.filter).toEqual({ id: "", from: "", to: "", status: "failed", sent_at: { from: yesterday, to: yesterday } });
    await waitFor("export done", async () => (await query<{ status: string }>("SELECT status FROM sms_exports WHERE id = $1", [row.id]))[0].status === "done");

    const list = await pageOf(c, "/sms/exports");
    expect(list.html).toContain("Relatório solicitado"); // the toast of the redirect
    const line = rowOf(list.html, "data-export-id", row.id);
    expect(line).toContain("Pronto");
    expect(line).toContain(`href="/sms/exports/${row.id}/file"`);
    expect(line).toContain("Falhou"); // the filter, described
    expect(list.html).not.toContain('http-equiv="refresh"');
    expect((await pageOf(c, "/sms/reports/exports")).html).toContain(`data-export-id="${row.id}"`);

    const file = await c.get(`/sms/exports/${row.id}/file`);
    expect(file.status).toBe(200);
    expect(file.headers.get("content-disposition")).toContain("attachment");
    const lines = (await file.text()).trim().split("\n");
    expect(lines[0]).toBe("id,created_at,sent_at,delivered_at,direction,type,sender,recipient,body,segments,coding,status,error_code,error_message,carrier,price,currency");
    expect(lines.slice(1).map((l) => l.split(",")[0])).toEqual([ids.y2, ids.y1]);
    expect(lines[2]).toBe(
      `${ids.y1},${yesterday} 12:30:15,${yesterday} 12:30:17,,outbound,text,LOJA,+5521970000002,Promoção de verão com acentuação,2,UCS2,failed,UNDELIV,The handset rejected the message (simulated),Claro,0.16,BRL`,
    );

    const stranger = await freshCustomer("smshistweb3");
    expect((await stranger.client.get(`/sms/exports/${row.id}/file`)).status).toBe(404);
    expect((await pageOf(stranger.client, "/sms/exports")).html).not.toContain(row.id);
    // While one is being prepared, the list refreshes itself (no JavaScript needed).
    await makeSmsExport(stranger.accountId, { status: "processing", filter: { id: "", from: "", to: "", status: "", sent_at: { from: today, to: today } } });
    const busy = await stranger.client.page("/sms/exports");
    expect(busy.html).toMatch(/<meta http-equiv="refresh" content="3"/);
    expect(busy.html).toContain("Preparando");
  });

  it("a bad export filter is said on the history page", async () => {
    const res = await c.post("/sms/history?index", { start: addDays(today, -40), end: today, status: "", id: "", from: "", to: "" });
    expect(res.status).toBe(422);
    expect(visible(await res.text())).toContain("Intervalo máximo de 31 dias");
  });

  it("usage, stat, dashboard, insights, queue and campaign screens show the account's figures", async () => {
    const usage = await pageOf(c, `/sms/usage?from=${before}&to=${yesterday}`);
    const y = rowOf(usage.html, "data-day", yesterday);
    expect(y).toMatch(/data-col="messages">4</);
    expect(y).toMatch(/data-col="segments">5</);
    expect(y).toMatch(/data-col="cost">R\$\s0,40</);
    expect(rowOf(usage.html, "data-day", "total")).toMatch(/R\$\s0,48/);
    expect((await pageOf(c, `/sms/usage?from=${addDays(today, -40)}&to=${today}`)).html).toContain("Intervalo máximo de 31 dias");
    expect((await pageOf(c, `/sms/reports/usage?from=${yesterday}&to=${yesterday}`)).html).toMatch(/data-col="messages">4</);

    const stat = await pageOf(c, `/sms/reports/stat?from=${yesterday}&to=${yesterday}`);
    const s = rowOf(stat.html, "data-day", yesterday);
    expect(s).toMatch(/data-col="delivered">1</);
    expect(s).toMatch(/data-col="failed">2</);
    expect(s).toMatch(/data-col="inFlight">1</);
    expect(stat.html).toContain('data-chart-days="1"');

    const dash = await pageOf(c, "/sms/dashboard");
    expect(dash.html).toContain('data-chart-days="7"');
    expect(dash.html).toContain(`data-bar-day="${yesterday}" data-total="4"`);
    expect((await pageOf(c, "/sms/dashboard?days=30")).html).toContain('data-chart-days="30"');
    expect(rowOf(dash.html, "data-carrier", "Claro")).toContain("0,0%");

    const ins = await pageOf(c, `/sms/insights?from=${before}&to=${today}`);
    const fig = (k: string) => {
      const i = ins.html.indexOf(`data-figure="${k}"`);
      return ins.html.slice(i, ins.html.indexOf("</div></div>", i));
    };
    expect(fig("messages")).toContain(">6<");
    expect(fig("failed")).toContain(">3<");
    expect(fig("deliveryRate")).toContain("40,0%");
    expect(ins.html).toContain('data-error-code="UNDELIV"');

    const camp = { id: await makeCampaign(owner.accountId, { name: "Natal", total: 2 }) };
    await setMessages([ids.t1, ids.y1], { campaignId: camp.id });
    const campaign = await pageOf(c, "/sms/reports/campaign");
    const cr = rowOf(campaign.html, "data-campaign-id", camp.id);
    expect(cr).toContain("Natal");
    expect(cr).toMatch(/data-col="total">2</);
    expect(cr).toMatch(/data-col="delivered">1</);
    expect(cr).toMatch(/data-col="failed">1</);

    const queue = await pageOf(c, "/sms/queue");
    expect(queue.res.status).toBe(200);
    expect(queue.html).toContain("Nenhuma mensagem aguardando");
  });
});

describe("money in the account's currency, in the reader's language", () => {
  it("an account in USD sees US$ (pt-BR) or $ (en) on the dashboard, the campaign report and the campaign page — never R$", async () => {
    const usd = await freshCustomer("smsusd");
    await setAccount(usd.accountId, { currency: "USD" });
    const day = spToday();
    const m = await seed(usd.accountId, [
      { key: "a", createdAt: sp(day, 0, 0, 2), status: "delivered", body: "Hello", price: 150, currency: "USD" },
      { key: "b", createdAt: sp(day, 0, 0, 3), status: "failed", body: "Hello again", price: 25, currency: "USD" },
    ]);
    const camp = { id: await makeCampaign(usd.accountId, { name: "Spring", total: 2, status: "completed" }) };
    await setMessages([m.a, m.b], { campaignId: camp.id });
    const figure = (html: string, k: string) => {
      const i = html.indexOf(`data-figure="${k}"`);
      return i < 0 ? "" : html.slice(i, html.indexOf("</div></div>", i));
    };
    const info = (html: string, k: string) => /<dd[^>]*data-info="([^"]+)"[^>]*>([^<]*)</g.exec(html.slice(html.indexOf(`data-info="${k}"`) - 40))?.[2] ?? "";

    for (const [locale, money] of [
      ["pt-BR", /US\$\s1,75/],
      ["en", /(?<![A-Z])\$1\.75/],
    ] as const) {
      await setUser(usd.userId, { locale });
      const dash = await pageOf(usd.client, "/sms/dashboard");
      expect(figure(dash.html, "cost"), locale).toMatch(money);
      expect(rowOf(dash.html, "data-day", day), locale).toMatch(new RegExp(`data-col="cost">${money.source}<`));
      const report = await pageOf(usd.client, "/sms/reports/campaign");
      expect(rowOf(report.html, "data-campaign-id", camp.id), locale).toMatch(new RegExp(`data-col="cost">${money.source}<`));
      const page = await pageOf(usd.client, `/sms/campaigns/${camp.id}`);
      expect(info(page.html, "cost"), locale).toMatch(money);
      for (const html of [dash.html, report.html, page.html]) expect(html, locale).not.toMatch(/R\$/);
    }
  });
});
