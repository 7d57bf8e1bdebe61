/**
 * The e-mail history and its exports (issue 17), on real data: e-mails accepted by POST
 * /api/email/messages, sent by the worker to the simulator's local SMTP peer, which delivers,
 * bounces (550 at RCPT) or blocks (554 5.7.1) them by local part, so each status below was
 * reached through the real pipeline.
 * - GET /api/email/messages filters (status incl. e-mail's, from, to, id, day range), the
 *   31-day limit; GET /api/email/{id}/preview serves the sent HTML sandboxed, 404 for another account.
 * - /mail/history (no JavaScript): the rows, the failed one's error code in its tooltip, the
 *   filter errors; /mail/history/{id}: fields, events, opens/clicks, the sandboxed preview frame.
 * - Exports: POST /api/email/reports/export and the history's Export button queue a job; the CSV
 *   holds exactly the filtered rows with e-mail's columns; another account and the SMS exports
 *   do not reach it.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { api, login, registerPerson } from "../support/api";
import { query } from "../support/db";
import { rand, validatedDomain } from "../support/email";
import { DEMO_PASSWORD, location, signedInCustomer, type WebClient } from "../support/web";

const spToday = () => new Intl.DateTimeFormat("en-CA", { timeZone: "America/Sao_Paulo", year: "numeric", month: "2-digit", day: "2-digit" }).format(new Date());
const settle = { timeout: 25_000, interval: 250 };

let c: WebClient;
let token: string;
let accountId: string;
let domain: string;
let today: string;
const sent: Record<"delivered" | "bounced" | "blocked" | "other", { id: string; to: string }> = {} as never;

async function send(to: string, from: string, subject: string, html: string) {
  const res = await api("/api/email/messages", { token, body: { from, to, subject, html, text: subject } });
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  return res.body.data.messages[0].id as string;
}
const statusOf = async (id: string) => (await query<{ status: string }>("SELECT status FROM messages WHERE id = $1", [id]))[0]?.status;
const strip = (html: string) => html.replace(/<script[\s\S]*?<\/script>/g, "");

async function exportDone(id: string) {
  await expect.poll(async () => (await query<{ status: string }>("SELECT status FROM sms_exports WHERE id = $1", [id]))[0]?.status, settle).toBe("done");
}
const csvLines = (text: string) =>
  text
    .replace(/^\uFEFF/, "")
    .trim()
    .split("\n");

beforeAll(async () => {
  const person = await signedInCustomer("email-reports", { balance: 1_000 });
  c = person.client;
  accountId = person.accountId;
  token = (await login(person.email, DEMO_PASSWORD)).token;
  domain = (await validatedDomain(token)).domain;
  today = spToday();
  for (const [key, local] of [
    ["delivered", "ana"],
    ["bounced", "bounce"],
    ["blocked", "block"],
  ] as const) {
    const to = `${local}-${rand()}@destino.test`;
    sent[key] = { id: await send(to, `loja@${domain}`, `Pedido ${key}`, `<h1 id="title">Pedido ${key}</h1><p>Olá <b>cliente</b>!</p><script>parent.x=1</script>`), to };
  }
  const other = `bia-${rand()}@destino.test`;
  sent.other = { id: await send(other, `avisos@${domain}`, "Aviso", "<p>Aviso</p>"), to: other };
  // Bounded wait for the worker and the peer (expect.poll works inside tests only).
  const want = JSON.stringify(["delivered", "bounced", "blocked", "delivered"]);
  for (const until = Date.now() + settle.timeout; ; ) {
    const now = JSON.stringify(await Promise.all(Object.values(sent).map((m) => statusOf(m.id))));
    if (now === want) break;
    if (Date.now() > until) throw new Error(`the e-mails did not settle: ${now}`);
    await new Promise((r) => setTimeout(r, settle.interval));
  }
}, 60_000);

describe("GET /api/email/messages and the preview", () => {
  it("filters by e-mail status, sender, recipient and id over the day range; refuses more than 31 days", async () => {
    const ids = async (q: string) => {
      const res = await api(`/api/email/messages?${q}`, { token });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return (res.body.data as Array<{ id: string }>).map((m) => m.id);
    };
    expect(await ids("status=bounced")).toEqual([sent.bounced.id]);
    expect(await ids("status=blocked")).toEqual([sent.blocked.id]);
    expect(new Set(await ids("status=delivered"))).toEqual(new Set([sent.delivered.id, sent.other.id]));
    expect(await ids(`from=avisos@${domain}`)).toEqual([sent.other.id]);
    expect(await ids(`to=${encodeURIComponent(sent.delivered.to.toUpperCase())}`)).toEqual([sent.delivered.id]);
    expect(await ids(`id=${sent.blocked.id}`)).toEqual([sent.blocked.id]);
    expect(await ids(`created_at[gte]=2020-01-01&created_at[lte]=2020-01-02`)).toEqual([]);
    const paged = await api("/api/email/messages?limit=3", { token });
    expect(paged.body.data).toHaveLength(3);
    const rest = await api(`/api/email/messages?limit=3&cursor=${paged.body.next_cursor}`, { token });
    expect(rest.body.data.map((m: { id: string }) => m.id)).toEqual([sent.delivered.id]);
    expect(rest.body.next_cursor).toBeNull();
    const blocked = (await api(`/api/email/messages?id=${sent.blocked.id}`, { token })).body.data[0];
    expect(blocked.error_code).toBeTruthy();

    const long = await api("/api/email/messages?created_at[gte]=2026-01-01&created_at[lte]=2026-03-01", { token, lang: "en" });
    expect(long.status).toBe(422);
    expect(long.body.error.fields["created_at.lte"]).toBeDefined();
    const bad = await api("/api/email/messages?to=nao-e-email", { token });
    expect(bad.status).toBe(422);
    expect(bad.body.error.fields.to).toBeDefined();
  });

  it("GET /api/email/{id}/preview: the sent HTML as one document, served sandboxed; another account gets 404", async () => {
    const preview = await api(`/api/email/${sent.delivered.id}/preview`, { token });
    expect(preview.status).toBe(200);
    expect(preview.headers.get("content-type")).toContain("text/html");
    expect(preview.headers.get("content-security-policy")).toMatch(/^sandbox /);
    expect(preview.headers.get("content-security-policy")).toContain("default-src 'none'");
    expect(preview.body).toContain('<h1 id="title">Pedido delivered</h1>');
    expect(preview.body).toContain('<base target="_blank">');
    const stranger = await signedInCustomer("email-reports-other");
    const otherToken = (await login(stranger.email, DEMO_PASSWORD)).token;
    expect((await api(`/api/email/${sent.delivered.id}/preview`, { token: otherToken })).status).toBe(404);
    expect((await api(`/api/email/${sent.delivered.id}/preview`, { token: null })).status).toBe(401);
  });
});

describe("/mail/history without JavaScript", () => {
  it("lists the day's e-mails with their statuses; the bounced one's tooltip names its error; bad filters are named", async () => {
    const { res, html } = await c.page("/mail/history");
    expect(res.status).toBe(200);
    const page = strip(html);
    for (const m of Object.values(sent)) expect(page).toContain(`data-message-id="${m.id}"`);
    const row = page.slice(page.indexOf(`data-message-id="${sent.bounced.id}"`));
    const bounced = row.slice(0, row.indexOf("</tr>"));
    expect(bounced).toContain('data-status="bounced"');
    expect(bounced).toMatch(/role="tooltip"[^>]*>[\s\S]*O servidor do destinatário recusa/);
    expect(bounced).toMatch(/Erro smtp_550/);
    const filtered = strip((await c.page(`/mail/history?status=blocked&start=${today}&end=${today}`)).html);
    expect(filtered).toContain(`data-message-id="${sent.blocked.id}"`);
    expect(filtered).not.toContain(`data-message-id="${sent.delivered.id}"`);
    const wrong = strip((await c.page("/mail/history?start=2026-01-01&end=2026-03-01&to=x")).html);
    expect(wrong).toContain('id="mail-history-end-error"');
    expect(wrong).toContain('id="mail-history-to-error"');
  });

  it("/mail/history/{id}: fields, events, opens and clicks, and the e-mail in a sandboxed frame without its script", async () => {
    const { res, html } = await c.page(`/mail/history/${sent.delivered.id}`);
    expect(res.status).toBe(200);
    const page = strip(html);
    expect(page).toContain(`data-field="to"`);
    expect(page).toContain(sent.delivered.to);
    expect(page).toContain('data-event-status="queued"');
    expect(page).toContain('data-event-status="delivered"');
    expect(page).toMatch(/data-field="opens"[\s\S]*?<dd>0<\/dd>/);
    const frame = page.match(/<iframe[^>]*data-testid="email-preview"[^>]*>/)?.[0] ?? "";
    expect(frame).toContain('sandbox="allow-popups allow-popups-to-escape-sandbox"');
    expect(frame).toContain("Pedido delivered");
    const failed = strip((await c.page(`/mail/history/${sent.bounced.id}`)).html);
    expect(failed).toContain('data-error-code="smtp_550"');
    expect((await c.get(`/mail/history/00000000-0000-4000-8000-000000000000`)).status).toBe(404);
  });
});

describe("e-mail exports", () => {
  it("POST /api/email/reports/export queues a job; the CSV holds exactly the filtered rows with e-mail's columns; GET lists it; another account gets 404", async () => {
    const res = await api("/api/email/reports/export", { token, body: { status: "delivered", sent_at: { from: today, to: today } } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.headers.get("location")).toBe(`/api/email/reports/${res.body.data.id}`);
    expect(res.body.data).toMatchObject({ status: "queued", filter: { status: "delivered", from: "", to: "", id: "", sent_at: { from: today, to: today } } });
    const id = res.body.data.id as string;
    expect((await api(`/api/email/reports/${id}/file`, { token })).status).toBeOneOf([200, 409]);
    await exportDone(id);
    const list = await api("/api/email/reports", { token });
    expect(list.body.data.map((e: { id: string }) => e.id)).toContain(id);
    expect((await api("/api/sms/reports", { token })).body.data.map((e: { id: string }) => e.id)).not.toContain(id);
    const file = await api(`/api/email/reports/${id}/file`, { token });
    expect(file.status).toBe(200);
    expect(file.headers.get("content-disposition")).toContain(`email-${today}_${today}`);
    const lines = csvLines(file.body as string);
    expect(lines[0]).toBe("id,created_at,sent_at,delivered_at,opened_at,sender,recipient,subject,status,error_code,error_message,price,currency");
    expect(new Set(lines.slice(1).map((l) => l.split(",")[0]))).toEqual(new Set([sent.delivered.id, sent.other.id]));
    const line = lines.find((l) => l.startsWith(sent.delivered.id)) ?? "";
    expect(line).toContain(`,loja@${domain},${sent.delivered.to},Pedido delivered,delivered,`);
    expect((await api(`/api/sms/reports/${id}/file`, { token })).status).toBe(404);

    const stranger = await signedInCustomer("email-reports-stranger");
    const otherToken = (await login(stranger.email, DEMO_PASSWORD)).token;
    expect((await api(`/api/email/reports/${id}/file`, { token: otherToken })).status).toBe(404);
    expect((await api(`/api/email/reports/${id}`, { token: otherToken })).status).toBe(404);

    const bad = await api("/api/email/reports", { token, body: { to: "+5511999999999", sent_at: { from: "2026-01-01", to: "2026-03-01" } } });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.error.fields).sort()).toEqual(["sent_at.to", "to"]);
  });

  it("the Export button of /mail/history queues the filters shown; /mail/exports lists it with its download, a CSV of the bounced e-mail only", async () => {
    const history = strip((await c.page(`/mail/history?status=bounced&start=${today}&end=${today}`)).html);
    expect(history).toContain('action="/mail/history?index"');
    const res = await c.post("/mail/history?index", { start: today, end: today, status: "bounced", id: "", from: "", to: "" });
    expect(res.status, await res.clone().text()).toBe(302);
    expect(location(res)).toBe("/mail/exports");
    const [row] = await query<{ id: string; kind: string }>("SELECT id, kind FROM sms_exports WHERE account_id = $1 ORDER BY created_at DESC LIMIT 1", [accountId]);
    expect(row.kind).toBe("email");
    await exportDone(row.id);
    const list = strip((await c.page("/mail/exports")).html);
    expect(list).toContain(`data-export-id="${row.id}"`);
    expect(list).toContain(`href="/mail/exports/${row.id}/file"`);
    expect(strip((await c.page("/sms/exports")).html)).not.toContain(row.id);
    const file = await c.get(`/mail/exports/${row.id}/file`);
    expect(file.status).toBe(200);
    const lines = csvLines(await file.text());
    expect(lines.slice(1).map((l) => l.split(",")[0])).toEqual([sent.bounced.id]);
    expect(lines[1]).toContain(",bounced,smtp_550,");
    expect((await c.get(`/sms/exports/${row.id}/file`)).status).toBe(404);
  });
});

describe("/mail/optouts and /mail/denylist without JavaScript", () => {
  const send1 = async (to: string) => {
    const res = await api("/api/email/messages", { token, body: { from: `loja@${domain}`, to, subject: "Oi", text: "Oi" } });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    return res.body.data.messages[0] as { status: string; price: number };
  };

  it("an address denied by the form is rejected at the next send (not charged), listed with its reason, found by search, removed; a bad address is named", async () => {
    const to = `Nega-${rand()}@Destino.test`;
    const added = await c.post("/mail/denylist", { intent: "add", recipient: to, reason: "Pediu por telefone" });
    expect(added.status, await added.clone().text()).toBe(302);
    expect(location(added)).toBe("/mail/denylist");
    expect(await send1(to)).toMatchObject({ status: "rejected", price: 0 });
    const page = strip((await c.page(`/mail/denylist?q=${encodeURIComponent(to.slice(0, 9).toUpperCase())}`)).html);
    expect(page).toContain(`data-address="${to.toLowerCase()}"`);
    expect(page).toContain("Pediu por telefone");
    // The SMS deny list's numbers are not e-mail's.
    await query("INSERT INTO deny_list (account_id, recipient, reason) VALUES ($1, '+5511911112222', 'sms') ON CONFLICT DO NOTHING", [accountId]);
    expect(strip((await c.page("/mail/denylist")).html)).not.toContain("+5511911112222");
    const [entry] = await query<{ id: string }>("SELECT id FROM deny_list WHERE account_id = $1 AND recipient = $2", [accountId, to.toLowerCase()]);
    const [number] = await query<{ id: string }>("SELECT id FROM deny_list WHERE account_id = $1 AND recipient = '+5511911112222'", [accountId]);
    expect((await c.post("/mail/denylist", { intent: "delete", id: number.id })).status).toBe(404);
    const removed = await c.post("/mail/denylist", { intent: "delete", id: entry.id });
    expect(removed.status).toBe(302);
    expect(await query("SELECT 1 FROM deny_list WHERE id = $1", [entry.id])).toEqual([]);
    expect((await send1(to)).status).toBe("queued");

    const wrong = await c.post("/mail/denylist", { intent: "add", recipient: "nao-e-email", reason: "" });
    expect(wrong.status).toBe(422);
    expect(await wrong.text()).toContain("E-mail inválido");
  });

  it("an address opted out by the form ends optout (not charged); a spam complaint through the peer opts out by itself; removing lets it receive again", async () => {
    const to = `sair-${rand()}@destino.test`;
    expect((await c.post("/mail/optouts", { intent: "add", recipient: to })).status).toBe(302);
    expect(await send1(to)).toMatchObject({ status: "optout", price: 0 });
    const complainer = `complain-${rand()}@destino.test`;
    await send1(complainer);
    await expect.poll(async () => strip((await c.page("/mail/optouts")).html).includes(`data-address="${complainer}"`), settle).toBe(true);
    const page = strip((await c.page("/mail/optouts")).html);
    expect(page).toContain(`data-address="${to}"`);
    const complaintRow = page.slice(page.indexOf(`data-address="${complainer}"`));
    expect(complaintRow.slice(0, complaintRow.indexOf("</tr>"))).toContain("Denúncia de spam");
    // An SMS opt-out of the same account is not e-mail's.
    const [sms] = await query<{ id: string }>("INSERT INTO optouts (account_id, channel, recipient, source) VALUES ($1, 'sms', '+5511933334444', 'manual') RETURNING id", [
      accountId,
    ]);
    expect(page).not.toContain("+5511933334444");
    expect((await c.post("/mail/optouts", { intent: "delete", id: sms.id })).status).toBe(404);
    const [own] = await query<{ id: string }>("SELECT id FROM optouts WHERE account_id = $1 AND channel = 'email' AND recipient = $2", [accountId, to]);
    expect((await c.post("/mail/optouts", { intent: "delete", id: own.id })).status).toBe(302);
    expect((await send1(to)).status).toBe("queued");
  });

  it("the same lists over the API: /api/email/optouts and /api/email/blacklist add (201 + Location, then 200), list, remove; a bad address is named; another account's entry is 404", async () => {
    const out = `api-sair-${rand()}@Destino.test`;
    const first = await api("/api/email/optouts", { token, body: { to: out } });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(first.headers.get("Location")).toBe(`/api/email/optouts/${first.body.data.id}`);
    expect(first.body).toMatchObject({ created: true, data: { channel: "email", to: out.toLowerCase(), source: "api" } });
    expect((await api("/api/email/optouts", { token, body: { to: out } })).status).toBe(200);
    expect(await send1(out)).toMatchObject({ status: "optout", price: 0 });
    const listed = await api(`/api/email/optouts?q=${encodeURIComponent("api-sair")}`, { token });
    expect(listed.body.data.map((o: { id: string }) => o.id)).toContain(first.body.data.id);
    expect(listed.body).toHaveProperty("next_cursor");
    const bad = await api("/api/email/optouts", { token, body: { to: "nao-e-email" }, lang: "en" });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.error.fields)).toEqual(["to"]);

    const deny = `api-nega-${rand()}@destino.test`;
    const denied = await api("/api/email/blacklist", { token, body: { to: deny, reason: "Pediu" } });
    expect(denied.status, JSON.stringify(denied.body)).toBe(201);
    expect(await send1(deny)).toMatchObject({ status: "rejected", price: 0 });
    expect((await api("/api/email/blacklist", { token })).body.data.map((d: { id: string }) => d.id)).toContain(denied.body.data.id);

    const stranger = await registerPerson("emaillistsapi");
    const other = (await login(stranger.email, stranger.password)).token;
    expect((await api(`/api/email/optouts/${first.body.data.id}`, { token: other, method: "DELETE" })).status).toBe(404);
    expect((await api(`/api/email/blacklist/${denied.body.data.id}`, { token: other, method: "DELETE" })).status).toBe(404);
    expect((await api("/api/email/optouts", { token: other })).body.data).toEqual([]);
    expect((await api(`/api/email/optouts/${first.body.data.id}`, { token, method: "DELETE" })).status).toBe(200);
    expect((await api(`/api/email/blacklist/${denied.body.data.id}`, { token, method: "DELETE" })).status).toBe(200);
    expect((await send1(out)).status).toBe("queued");
    expect((await send1(deny)).status).toBe("queued");
  });
});

describe("GET /api/email/messages/charts and GET/PUT /api/email/prices/{id}", () => {
  it("charts: today's e-mails per status and cost, the same as the messages table; 7 or 30 days only", async () => {
    // The e-mails of the tests above settle first (the last ones may still be on their way).
    await expect
      .poll(
        async () =>
          (
            await query<{ n: number }>("SELECT count(*)::int AS n FROM messages WHERE account_id = $1 AND channel = 'email' AND status IN ('queued','sending','sent')", [accountId])
          )[0].n,
        settle,
      )
      .toBe(0);
    const res = await api("/api/email/messages/charts?days=7", { token });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toHaveLength(7);
    const day = res.body.data.at(-1);
    expect(day.day).toBe(today);
    const counted = await query<{ status: string; n: number; cost: number }>(
      "SELECT status, count(*)::int AS n, sum(price)::int AS cost FROM messages WHERE account_id = $1 AND channel = 'email' GROUP BY status",
      [accountId],
    );
    expect(day.statuses).toEqual(Object.fromEntries(counted.map((r) => [r.status, r.n])));
    expect(day.statuses.bounced).toBeGreaterThanOrEqual(1);
    expect(day.statuses.blocked).toBeGreaterThanOrEqual(1);
    expect(day.cost).toBe(counted.reduce((a, r) => a + r.cost, 0));
    expect(res.body.totals.total).toBe(counted.reduce((a, r) => a + r.n, 0));
    expect((await api("/api/email/messages/charts?days=30", { token })).body.data).toHaveLength(30);
    // /mail/dashboard (no JavaScript) shows the same day: its total and its bounced-or-blocked band.
    const dash = strip((await c.page("/mail/dashboard")).html);
    const row = dash.slice(dash.indexOf(`data-day="${today}"`));
    const cellOf = (col: string) => row.slice(0, row.indexOf("</tr>")).match(new RegExp(`data-col="${col}"[^>]*>([^<]*)<`))?.[1];
    expect(cellOf("total")).toBe(String(day.total));
    expect(cellOf("bounced")).toBe(String((day.statuses.bounced ?? 0) + (day.statuses.blocked ?? 0) + (day.statuses.failed ?? 0)));
    expect(dash).toContain('data-figure="opened"');
    expect((await api("/api/email/messages/charts?days=9", { token })).status).toBe(422);
  });

  it("prices: the account reads its e-mail price; PUT is refused to the account's owner and done by platform staff; another account gets 404", async () => {
    const [price] = await query<{ id: string }>(
      "INSERT INTO email_prices (account_id, route, price_per_segment, currency) VALUES ($1, 'T1', 3, 'BRL') ON CONFLICT (account_id, route) DO UPDATE SET price_per_segment = 3 RETURNING id",
      [accountId],
    );
    const own = await api(`/api/email/prices/${price.id}`, { token });
    expect(own.status, JSON.stringify(own.body)).toBe(200);
    expect(own.body.data).toMatchObject({ id: price.id, route: "T1", price_per_segment: 3, currency: "BRL" });
    const refused = await api(`/api/email/prices/${price.id}`, { token, method: "PUT", body: { price_per_segment: 0 } });
    expect(refused.status).toBe(403);
    expect((await query<{ p: string }>("SELECT price_per_segment AS p FROM email_prices WHERE id = $1", [price.id]))[0].p).toBe("3");
    const stranger = await signedInCustomer("email-prices-other");
    expect((await api(`/api/email/prices/${price.id}`, { token: (await login(stranger.email, DEMO_PASSWORD)).token })).status).toBe(404);

    const staff = (await login("staff@demo.example", DEMO_PASSWORD)).token;
    const bad = await api(`/api/email/prices/${price.id}`, { token: staff, method: "PUT", body: { price_per_segment: "1.5" } });
    expect(bad.status).toBe(422);
    const changed = await api(`/api/email/prices/${price.id}`, { token: staff, method: "PUT", body: { price_per_segment: 5 } });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body.data.price_per_segment).toBe(5);
    // The next e-mail is charged the new price.
    const sent = await api("/api/email/messages", { token, body: { from: `loja@${domain}`, to: `preco-${rand()}@destino.test`, subject: "Preço", text: "Preço" } });
    expect(sent.body.data.messages[0].price).toBe(5);
  });
});
