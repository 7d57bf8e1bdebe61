/**
 * SMS reports over the real processes: exports (POST /api/sms/reports → the worker writes the CSV
 * with PostgreSQL's COPY → GET /api/sms/reports/:id/file), charts, carriers, insights, usage, the
 * queue and per-campaign counts. Figures are checked exactly against rows seeded here on known
 * São Paulo days and against messages sent through POST /api/sms/messages (whose final status and
 * carrier the simulator derives deterministically).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { simulatedCarrier } from "../../api/simulator/carrier";
import { simulatedOutcome } from "../../api/simulator/outcome";
import { api, giveShortCode, login, registerPerson, type Person } from "../support/api";
import { query } from "../support/db";
import { translate } from "../../api/lib/i18n";
import { ago, makeCampaign, makeMessage, makeSmsExport, type MessageFields, type MessageStatus, setAccount, setUser, sql } from "../support/factories";

const spToday = () => new Intl.DateTimeFormat("en-CA", { timeZone: "America/Sao_Paulo", year: "numeric", month: "2-digit", day: "2-digit" }).format(new Date());
const addDays = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
/** A São Paulo wall-clock time (UTC-3) as a UTC ISO string with microseconds. */
const sp = (day: string, h: number, m: number, s = 0, micro = "000000") =>
  new Date(Date.parse(`${day}T00:00:00-03:00`) + ((h * 60 + m) * 60 + s) * 1000).toISOString().replace(/\.\d{3}Z$/, `.${micro}Z`);

type Seed = {
  key: string;
  created_at: string;
  sent_at?: string;
  delivered_at?: string;
  direction?: "outbound" | "inbound";
  sender: string;
  recipient: string;
  body: string;
  segments: number;
  coding?: "GSM7" | "UCS2" | null;
  status: MessageStatus;
  error_code?: string | null;
  error_message?: string | null;
  carrier?: string | null;
  price: number;
  campaign_id?: string | null;
  scheduled_at?: string | null;
};

async function person(tag: string, balance = 0) {
  const p = await registerPerson(tag);
  if (balance) await setAccount(p.accountId, { balance });
  return { ...p, token: (await login(p.email, p.password)).token };
}

async function seed(accountId: string, rows: Seed[]) {
  const ids: Record<string, string> = {};
  for (const r of rows) {
    ids[r.key] = await makeMessage(accountId, {
      direction: r.direction ?? "outbound",
      sender: r.sender,
      recipient: r.recipient,
      body: r.body,
      segments: r.segments,
      coding: r.coding ?? null,
      status: r.status,
      errorCode: r.error_code ?? null,
      errorMessage: r.error_message ?? null,
      carrier: r.carrier ?? null,
      price: r.price,
      createdAt: r.created_at,
      sentAt: r.sent_at ?? null,
      deliveredAt: r.delivered_at ?? null,
      campaignId: r.campaign_id ?? null,
      scheduledAt: r.scheduled_at ?? null,
    });
  }
  return ids;
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

let owner: Person & { token: string };
let stranger: Person & { token: string };
let today: string;
let yesterday: string;
let before: string;
let seeded: Seed[];
let ids: Record<string, string>;
/** Sent through the API today: id, recipient, predicted outcome and carrier. */
let sent: Array<{ id: string; to: string; outcome: string; carrier: string }>;
/** owner's own short code: the sender of the messages sent through the API. */
let ownerCode: string;

beforeAll(async () => {
  owner = await person("smsreports", 10_000);
  stranger = await person("smsreports2", 10_000);
  today = spToday();
  yesterday = addDays(today, -1);
  before = addDays(today, -2);
  seeded = [
    // Yesterday's first instant in São Paulo (03:00 UTC) and its last microsecond (today 02:59:59.999999 UTC).
    {
      key: "r1",
      created_at: sp(yesterday, 0, 0),
      sent_at: sp(yesterday, 0, 0, 1),
      delivered_at: sp(yesterday, 0, 0, 5),
      sender: "LOJA",
      recipient: "+5511970000011",
      body: 'Olá, "cliente"\nlinha 2',
      segments: 1,
      coding: "UCS2",
      status: "delivered",
      carrier: "Vivo",
      price: 8,
    },
    {
      key: "r2",
      created_at: sp(yesterday, 12, 30),
      sent_at: sp(yesterday, 12, 30, 2),
      sender: "LOJA",
      recipient: "+5511970000012",
      body: "Promoção de verão",
      segments: 2,
      coding: "UCS2",
      status: "failed",
      error_code: "UNDELIV",
      error_message: "rejeitada",
      carrier: "Claro",
      price: 16,
    },
    {
      key: "r3",
      created_at: sp(yesterday, 23, 59, 59, "999999"),
      sent_at: sp(yesterday, 23, 59, 59, "999999"),
      sender: "AVISO",
      recipient: "+5521970000013",
      body: "Último aviso",
      segments: 1,
      coding: "UCS2",
      status: "unavailable",
      error_code: "EXPIRED",
      error_message: "expirou",
      price: 8,
    },
    {
      key: "r4",
      created_at: sp(yesterday, 10, 0),
      sender: "LOJA",
      recipient: "+5511970000014",
      body: "Bloqueada",
      segments: 1,
      coding: "GSM7",
      status: "rejected",
      error_code: "deny_list",
      error_message: "Na lista de bloqueio",
      price: 0,
    },
    {
      key: "r5",
      created_at: sp(yesterday, 11, 0),
      direction: "inbound",
      sender: "+5511970000011",
      recipient: "LOJA",
      body: "SAIR",
      segments: 1,
      coding: "GSM7",
      status: "received",
      price: 0,
    },
    {
      key: "r7",
      created_at: sp(yesterday, 15, 0),
      sent_at: sp(yesterday, 15, 0, 1),
      sender: "LOJA",
      recipient: "+5511970000015",
      body: "Falhou de novo",
      segments: 1,
      coding: "GSM7",
      status: "failed",
      error_code: "UNDELIV",
      error_message: "rejeitada",
      carrier: "Claro",
      price: 8,
    },
    {
      key: "r6",
      created_at: sp(before, 9, 0),
      sent_at: sp(before, 9, 0, 1),
      delivered_at: sp(before, 9, 0, 3),
      sender: "LOJA",
      recipient: "+5531970000016",
      body: "Anteontem",
      segments: 3,
      coding: "GSM7",
      status: "delivered",
      carrier: "TIM",
      price: 24,
    },
    // Just before yesterday's first instant: the day before.
    {
      key: "r8",
      created_at: sp(yesterday, 0, 0).replace(/T03:00:00\.000000Z$/, "T02:59:59.999999Z"),
      sent_at: sp(before, 23, 0),
      sender: "LOJA",
      recipient: "+5511970000017",
      body: "Fim de anteontem",
      segments: 1,
      coding: "GSM7",
      status: "sent",
      price: 8,
    },
  ];
  ids = await seed(owner.accountId, seeded);
  // Another account's message on the same day: never in this account's figures or files.
  await seed(stranger.accountId, [
    {
      key: "x",
      created_at: sp(yesterday, 12, 0),
      sender: "OUTRA",
      recipient: "+5511970000099",
      body: "De outra conta",
      segments: 5,
      status: "delivered",
      carrier: "Oi",
      price: 40,
    },
  ]);

  // Three messages through the real pipeline today, to numbers ending in 0, 1 and 2 (Vivo, Claro, TIM).
  sent = [];
  ownerCode = await giveShortCode(owner.accountId);
  for (const to of ["+5511970001230", "+5511970001231", "+5511970001232"]) {
    const res = await api("/api/sms/messages", { token: owner.token, body: { to, body: "Pedido enviado", from: ownerCode } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const id = res.body.data[0].id as string;
    sent.push({ id, to, outcome: simulatedOutcome(id), carrier: simulatedCarrier(to) });
  }
  for (const s of sent) {
    await waitFor(`final ${s.id}`, async () => {
      const [m] = await query<{ status: string; carrier: string | null }>("SELECT status, carrier FROM messages WHERE id = $1", [s.id]);
      return m.status === s.outcome && m.carrier ? m : null;
    });
  }
});

const r = (key: string) => seeded.find((s) => s.key === key)!;

describe("SMS figures", () => {
  it("simulator receipts store the carrier derived from the number", async () => {
    const rows = await query<{ id: string; carrier: string }>("SELECT id, carrier FROM messages WHERE id = ANY($1::uuid[])", [sent.map((s) => s.id)]);
    expect(Object.fromEntries(rows.map((x) => [x.id, x.carrier]))).toEqual(Object.fromEntries(sent.map((s) => [s.id, s.carrier])));
    expect(sent.map((s) => s.carrier)).toEqual(["Vivo", "Claro", "TIM"]);
  });

  it("charts: per São Paulo day of the last 7 or 30 days, counts per status, segments and cost", async () => {
    const res = await api(`/api/sms/messages/charts?days=7`, { token: owner.token });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.map((d: { day: string }) => d.day)).toEqual(Array.from({ length: 7 }, (_, i) => addDays(today, i - 6)));
    const day = (d: string) => res.body.data.find((x: { day: string }) => x.day === d);
    expect(day(yesterday)).toEqual({ day: yesterday, total: 5, segments: 6, cost: 40, statuses: { delivered: 1, failed: 2, unavailable: 1, rejected: 1 } });
    expect(day(before)).toEqual({ day: before, total: 2, segments: 4, cost: 32, statuses: { delivered: 1, sent: 1 } });
    const todayStatuses: Record<string, number> = {};
    for (const s of sent) todayStatuses[s.outcome] = (todayStatuses[s.outcome] ?? 0) + 1;
    expect(day(today)).toEqual({ day: today, total: 3, segments: 3, cost: 24, statuses: todayStatuses });
    expect(day(addDays(today, -3))).toEqual({ day: addDays(today, -3), total: 0, segments: 0, cost: 0, statuses: {} });
    expect(res.body.totals).toMatchObject({ total: 10, segments: 13, cost: 96 });
    const thirty = await api(`/api/sms/messages/charts?days=30`, { token: owner.token });
    expect(thirty.body.data).toHaveLength(30);
    expect(thirty.body.totals).toEqual(res.body.totals);
    const bad = await api(`/api/sms/messages/charts?days=10`, { token: owner.token });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.error.fields)).toEqual(["days"]);
  });

  it("carriers: outbound messages per carrier with delivery rate", async () => {
    const res = await api(`/api/sms/messages/carriers?days=7`, { token: owner.token });
    expect(res.status).toBe(200);
    const expected = new Map<string | null, { total: number; delivered: number; failed: number; unavailable: number }>();
    const add = (carrier: string | null, status: string) => {
      const e = expected.get(carrier) ?? { total: 0, delivered: 0, failed: 0, unavailable: 0 };
      e.total++;
      if (status === "delivered") e.delivered++;
      if (status === "failed") e.failed++;
      if (status === "unavailable") e.unavailable++;
      expected.set(carrier, e);
    };
    for (const s of seeded.filter((x) => (x.direction ?? "outbound") === "outbound")) add(s.carrier ?? null, s.status);
    for (const s of sent) add(s.carrier, s.outcome);
    const got = new Map(res.body.data.map((c: any) => [c.carrier, c]));
    expect(got.size).toBe(expected.size);
    for (const [carrier, e] of expected) {
      const finals = e.delivered + e.failed + e.unavailable;
      expect(got.get(carrier)).toEqual({ carrier, ...e, delivery_rate: finals ? Math.round((e.delivered / finals) * 10000) / 10000 : 0 });
    }
  });

  it("insights: totals of a period, delivery rate and top error codes; 31 days at most", async () => {
    const res = await api(`/api/sms/insights`, { token: owner.token, body: { from: before, to: yesterday } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect({ ...res.body, top_errors: undefined, carriers: undefined }).toEqual({
      from: before,
      to: yesterday,
      messages: 7,
      sent: 6,
      delivered: 2,
      failed: 2,
      unavailable: 1,
      rejected: 1,
      waiting: 0,
      delivery_rate: 0.4,
      segments: 10,
      cost: 72,
      currency: "BRL",
      received: 1,
      top_errors: undefined,
      carriers: undefined,
    });
    expect(res.body.top_errors[0]).toEqual({ error_code: "UNDELIV", count: 2 });
    expect([...res.body.top_errors.slice(1)].sort((a: any, b: any) => (a.error_code < b.error_code ? -1 : 1))).toEqual([
      { error_code: "EXPIRED", count: 1 },
      { error_code: "deny_list", count: 1 },
    ]);
    const def = await api(`/api/sms/insights`, { token: owner.token, body: {} });
    expect(def.body).toMatchObject({ from: today, to: today, messages: 3, segments: 3, cost: 24 });
    const over = await api(`/api/sms/insights`, { token: owner.token, body: { from: addDays(today, -31), to: today } });
    expect(over.status).toBe(422);
    expect(over.body.error.fields).toEqual({ to: ["Intervalo máximo de 31 dias"] });
  });

  it("usage: per day messages, segments and cost; default this month", async () => {
    const res = await api(`/api/sms/usage?from=${before}&to=${yesterday}`, { token: owner.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      from: before,
      to: yesterday,
      currency: "BRL",
      data: [
        { day: before, messages: 2, segments: 4, cost: 32 },
        { day: yesterday, messages: 5, segments: 6, cost: 40 },
      ],
      totals: { messages: 7, segments: 10, cost: 72 },
      next_cursor: null,
    });
    const def = await api(`/api/sms/usage`, { token: owner.token });
    expect(def.body.from).toBe(`${today.slice(0, 8)}01`);
    expect(def.body.to).toBe(today);
  });

  it("queue: counts of waiting statuses and the oldest waiting messages", async () => {
    const q = await person("smsqueue");
    const at = new Date(Date.now() - 3600_000).toISOString();
    const future = new Date(Date.now() + 86_400_000).toISOString();
    const qi = await seed(q.accountId, [
      { key: "s1", created_at: at, scheduled_at: future, sender: "LOJA", recipient: "+5511970000101", body: "Agendada", segments: 1, status: "scheduled", price: 8 },
      {
        key: "q1",
        created_at: new Date(Date.now() - 7200_000).toISOString(),
        sender: "LOJA",
        recipient: "+5511970000102",
        body: "Na fila",
        segments: 1,
        status: "queued",
        price: 8,
      },
      { key: "q2", created_at: at, sender: "LOJA", recipient: "+5511970000103", body: "Na fila 2", segments: 1, status: "queued", price: 8 },
      { key: "d1", created_at: at, sender: "LOJA", recipient: "+5511970000104", body: "Entregue", segments: 1, status: "delivered", price: 8 },
    ]);
    const res = await api(`/api/sms/queue`, { token: q.token });
    expect(res.status).toBe(200);
    expect(res.body.counts).toEqual({ scheduled: 1, pending: 0, queued: 2, sending: 0 });
    expect(res.body.oldest.map((m: { id: string }) => m.id)).toEqual([qi.q1, qi.q2, qi.s1]);
    // from/to are the spec's names; sender/recipient stay as deprecated aliases.
    expect(res.body.oldest[0]).toMatchObject({ from: "LOJA", to: "+5511970000102", sender: "LOJA", recipient: "+5511970000102" });
  });

  it("campaign report: per campaign, messages per status and cost", async () => {
    const c = { id: await makeCampaign(owner.accountId, { name: "Black Friday", status: "running", total: 4 }) };
    await seed(
      owner.accountId,
      (["delivered", "delivered", "failed", "queued"] as const).map((status, i) => ({
        key: `c${i}`,
        created_at: sp(addDays(today, -40), 10, i),
        sender: "LOJA",
        recipient: `+55119700002${i}0`,
        body: "Campanha",
        segments: 1,
        status,
        price: 8,
        campaign_id: c.id,
      })),
    );
    const res = await api(`/api/sms/reports/campaigns`, { token: owner.token });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([
      { id: c.id, name: "Black Friday", status: "running", total: 4, messages: 4, statuses: { delivered: 2, failed: 1, queued: 1 }, cost: 32, created_at: expect.any(String) },
    ]);
    expect(res.body.next_cursor).toBeNull();
    const other = await api(`/api/sms/reports/campaigns`, { token: stranger.token });
    expect(other.body.data).toEqual([]);

    // Pages by keyset, newest first: two more campaigns, one per page.
    const more = [
      { id: await makeCampaign(owner.accountId, { name: "Natal", status: "completed", total: 0, createdAt: ago("1 hour") }) },
      { id: await makeCampaign(owner.accountId, { name: "Ano novo", status: "completed", total: 0, createdAt: ago("2 hours") }) },
    ];
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { status: number; body: any } = await api(`/api/sms/reports/campaigns?limit=1${cursor ? `&cursor=${cursor}` : ""}`, { token: owner.token });
      expect(page.status, JSON.stringify(page.body)).toBe(200);
      expect(page.body.data).toHaveLength(1);
      seen.push(page.body.data[0].id);
      cursor = page.body.next_cursor;
    } while (cursor && seen.length < 5);
    expect(cursor).toBeNull();
    expect(seen).toEqual([c.id, ...more.map((m) => m.id)]);
    expect((await api(`/api/sms/reports/campaigns?cursor=${Buffer.from('["x","y"]').toString("base64url")}`, { token: owner.token })).status).toBe(422);
  });
});

const HEADER = "id,created_at,sent_at,delivered_at,direction,type,sender,recipient,body,segments,coding,status,error_code,error_message,carrier,price,currency";
/** São Paulo wall-clock 'YYYY-MM-DD HH:MM:SS' of a UTC ISO time (UTC-3). */
const spText = (iso?: string) => (iso ? new Date(Date.parse(iso) - 3 * 3600_000).toISOString().slice(0, 19).replace("T", " ") : "");
const csvCell = (v: string) => (/[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
function line(id: string, s: Seed) {
  return [
    id,
    spText(s.created_at),
    spText(s.sent_at),
    spText(s.delivered_at),
    s.direction ?? "outbound",
    "text",
    s.sender,
    s.recipient,
    csvCell(s.body),
    String(s.segments),
    s.coding ?? "",
    s.status,
    s.error_code ?? "",
    s.error_message ?? "",
    s.carrier ?? "",
    (s.price / 100).toFixed(2),
    "BRL",
  ].join(",");
}

async function exportDone(token: string, id: string) {
  return waitFor(`export ${id}`, async () => {
    const res = await api(`/api/sms/reports/${id}`, { token });
    return res.body.data.status === "done" || res.body.data.status === "failed" ? res.body.data : null;
  });
}

describe("SMS exports", () => {
  it("POST /api/sms/reports queues an export; the worker writes the exact CSV; GET lists it; the file is the account's only", async () => {
    const res = await api(`/api/sms/reports`, { token: owner.token, body: { sent_at: { from: yesterday, to: yesterday } } });
    // A create: 201, Location is the export's URL (its state is read there).
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.headers.get("location")).toBe(`/api/sms/reports/${res.body.data.id}`);
    expect(res.body.data).toMatchObject({ status: "queued", rows: 0, filter: { id: "", from: "", to: "", status: "", sent_at: { from: yesterday, to: yesterday } } });
    const id = res.body.data.id;
    const done = await exportDone(owner.token, id);
    expect(done).toMatchObject({ status: "done", rows: 6, error: null });

    const file = await fetch(new URL(`/api/sms/reports/${id}/file`, (await import("vitest")).inject("apiUrl")), { headers: { Authorization: `Bearer ${owner.token}` } });
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toContain("text/csv");
    expect(file.headers.get("content-disposition")).toContain(`sms-${yesterday}_${yesterday}`);
    const bytes = new Uint8Array(await file.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]); // UTF-8 byte-order mark for spreadsheet programs
    const text = new TextDecoder().decode(bytes); // (drops the mark)
    const order = ["r3", "r7", "r2", "r5", "r4", "r1"]; // created_at DESC
    expect(text).toBe(`${HEADER}\n${order.map((k) => line(ids[k], r(k))).join("\n")}\n`);

    const list = await api(`/api/sms/reports`, { token: owner.token });
    expect(list.body.data[0]).toMatchObject({ id, status: "done", rows: 6 });
    // Another account: not found, neither the export nor its file, and not listed.
    expect((await api(`/api/sms/reports/${id}`, { token: stranger.token })).status).toBe(404);
    expect((await api(`/api/sms/reports/${id}/file`, { token: stranger.token })).status).toBe(404);
    expect((await api(`/api/sms/reports`, { token: stranger.token })).body.data.map((e: { id: string }) => e.id)).not.toContain(id);
  });

  it("filters: status and sender and recipient; the API's messages of today with carrier and price", async () => {
    const failed = await api(`/api/sms/reports`, { token: owner.token, body: { status: "failed", from: "LOJA", sent_at: { from: before, to: yesterday } } });
    const done = await exportDone(owner.token, failed.body.data.id);
    expect(done.rows).toBe(2);
    const text = await (await api(`/api/sms/reports/${done.id}/file`, { token: owner.token })).body;
    expect(text).toBe(`${HEADER}\n${line(ids.r7, r("r7"))}\n${line(ids.r2, r("r2"))}\n`);

    const one = await api(`/api/sms/reports`, { token: owner.token, body: { to: "(11) 97000-1231" } });
    expect(one.body.data.filter).toMatchObject({ to: "+5511970001231", sent_at: { from: today, to: today } });
    const d2 = await exportDone(owner.token, one.body.data.id);
    expect(d2.rows).toBe(1);
    const csv = (await api(`/api/sms/reports/${d2.id}/file`, { token: owner.token })).body as string;
    const [, row] = csv.trim().split("\n");
    const cells = row.split(",");
    expect(cells[0]).toBe(sent[1].id);
    expect(cells.slice(4, 12)).toEqual(["outbound", "text", ownerCode, "+5511970001231", "Pedido enviado", "1", "GSM7", sent[1].outcome]);
    expect(cells.slice(14)).toEqual(["Claro", "0.08", "BRL"]);
  });

  it("a body a spreadsheet would run as a formula is exported as text (leading apostrophe); others untouched", async () => {
    const recipient = "+5511970009876";
    for (const body of ['=HYPERLINK("http://x.example";"Clique")', "@SUM(A1)", "-10% hoje", "Pedido = entregue"]) {
      await makeMessage(owner.accountId, { sender: "LOJA", recipient, body, segments: 1, coding: "GSM7", status: "delivered", price: 8 });
    }
    const res = await api(`/api/sms/reports`, { token: owner.token, body: { to: recipient } });
    const done = await exportDone(owner.token, res.body.data.id);
    expect(done.rows).toBe(4);
    const csv = (await api(`/api/sms/reports/${done.id}/file`, { token: owner.token })).body as string;
    expect(csv).toContain(`"'=HYPERLINK(""http://x.example"";""Clique"")"`);
    expect(csv).toContain(",'@SUM(A1),");
    expect(csv).toContain(",'-10% hoje,");
    expect(csv).toContain(",Pedido = entregue,");
    expect(csv).not.toMatch(/,=HYPERLINK|,@SUM/);
  });

  it("error_message is written in the language of the person who asked: our reasons translated, a provider's text as it came", async () => {
    const p = await person("smsexplang");
    await setUser(p.userId, { locale: "es" });
    const at = new Date().toISOString();
    const rows: MessageFields[] = [
      { recipient: "+5511970005551", status: "optout", errorCode: "optout", errorMessage: "errors.RECIPIENT_OPTED_OUT" },
      { recipient: "+5511970005552", status: "failed", errorCode: "canceled", errorMessage: "errors.MESSAGE_CANCELED" },
      { recipient: "+5511970005553", status: "failed", errorCode: "34", errorMessage: "Absent subscriber (carrier)" },
    ];
    for (const r of rows) await makeMessage(p.accountId, { sender: "LOJA", body: "Oi", segments: 1, coding: "GSM7", price: 0, createdAt: at, ...r });
    const res = await api(`/api/sms/reports`, { token: p.token, body: {} });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const done = await exportDone(p.token, res.body.data.id);
    expect(done.rows).toBe(3);
    const csv = (await api(`/api/sms/reports/${done.id}/file`, { token: p.token })).body as string;
    expect(csv).toContain(translate("es", "errors:RECIPIENT_OPTED_OUT"));
    expect(csv).toContain(translate("es", "errors:MESSAGE_CANCELED"));
    expect(csv).toContain(",Absent subscriber (carrier),");
    expect(csv).not.toMatch(/errors\.RECIPIENT_OPTED_OUT|errors\.MESSAGE_CANCELED/);
  });

  it("bad filters are 422 naming the field (31 days at most); a file not ready is 409", async () => {
    const over = await api(`/api/sms/reports`, { token: owner.token, body: { sent_at: { from: addDays(today, -31), to: today } } });
    expect(over.status).toBe(422);
    expect(over.body.error.fields).toEqual({ "sent_at.to": ["Intervalo máximo de 31 dias"] });
    const bad = await api(`/api/sms/reports`, { token: owner.token, body: { status: "lido", to: "12", sent_at: { from: "2026-02-30" } }, lang: "en" });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.error.fields).sort()).toEqual(["sent_at.from", "status", "to"]);
    const row = { id: await makeSmsExport(owner.accountId, { status: "failed" }) };
    const notReady = await api(`/api/sms/reports/${row.id}/file`, { token: owner.token });
    expect(notReady.status).toBe(409);
    expect(notReady.body.error.code).toBe("EXPORT_NOT_READY");
    expect((await api(`/api/sms/reports/not-a-uuid/file`, { token: owner.token })).status).toBe(404);
  });

  it("an export whose announcement was lost is picked up by the sweep", async () => {
    const row = {
      id: await makeSmsExport(owner.accountId, {
        status: "queued",
        filter: { id: "", from: "", to: "", status: "", sent_at: { from: before, to: before } },
        createdAt: sql("now()"),
        updatedAt: ago("2 minutes"),
      }),
    };
    const done = await waitFor(
      "sweep",
      async () => {
        const [e] = await query<{ status: string; rows: number }>("SELECT status, rows FROM sms_exports WHERE id = $1", [row.id]);
        return e.status === "done" ? e : null;
      },
      90_000,
    );
    expect(done.rows).toBe(2);
  }, 100_000);
});
