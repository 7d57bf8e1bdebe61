/**
 * RCS campaigns (issue 21): POST /api/rcs/campaigns to a contact group of 3,000 and to a CSV file —
 * exact counts, one price class and price for every message (basic for a short text, rich for a
 * card or a template's carousel), ONE debit, opted-out and denied handsets at price 0, the outbox
 * rows; cancel refunds every unsent message; pause holds the queued messages and resume hands
 * them to the dispatcher again; a CSV file's row without a valid number is kept with its line;
 * an 11-card carousel or a card without title and media refused naming the rule with nothing
 * written or charged; another account's group, agent and campaigns out of reach.
 */
import { beforeAll, describe, expect, inject, it } from "vitest";
import { api, login, registerPerson } from "../support/api";
import { query } from "../support/db";
import { balanceOf, makeGroupWithContacts, makeRcsAgent, setAccount } from "../support/factories";

let token: string;
let accountId: string;
let agentId: string;
const as = (path: string, o: { method?: string; body?: unknown; lang?: string; headers?: Record<string, string> } = {}) => api(path, { token, ...o });
const campaign = async (id: string) => (await as(`/api/rcs/campaigns/${id}`)).body.data;
let seq = Math.floor(Math.random() * 8_000_000);
/** Distinct Brazilian mobiles (never ending in 0001, which simulators fail). */
const mobiles = (n: number) => Array.from({ length: n }, () => `+55119${String(10_000_000 + ((seq++ * 7) % 89_999_999)).padStart(8, "0")}`.replace(/0001$/, "0002"));
const debits = async (id: string) =>
  (await query<{ n: number }>(`SELECT count(*)::int AS n FROM ledger_entries WHERE account_id = $1 AND book = 'customer' AND reference = $2`, [accountId, `campaign:${id}`]))[0].n;
/**
 * What one campaign's accept debited (the customer book's entry under its reference). The balance
 * itself moves under later tests too: an earlier campaign sent now keeps being dispatched, its
 * failures refunded and its SMS fallbacks charged (a CI run saw a refund of 10 land mid-test).
 */
const debitedFor = async (id: string) =>
  Number(
    (
      await query<{ s: string }>(`SELECT COALESCE(-sum(amount), 0)::bigint AS s FROM ledger_entries WHERE account_id = $1 AND book = 'customer' AND reference = $2`, [
        accountId,
        `campaign:${id}`,
      ])
    )[0].s,
  );
/** Every campaign accept's debit of the account so far (refunds and fallbacks of messages left out). */
const campaignDebits = async () =>
  Number(
    (
      await query<{ s: string }>(
        `SELECT COALESCE(-sum(amount), 0)::bigint AS s FROM ledger_entries WHERE account_id = $1 AND book = 'customer' AND kind = 'message' AND reference LIKE 'campaign:%'`,
        [accountId],
      )
    )[0].s,
  );
const card = (n: number) => ({ uri: `https://loja.example/p${n}.jpg`, title: `Produto ${n}`, suggestions: [{ type: "reply", text: "Quero" }] });

async function upload(fields: Record<string, string>, csv: string, lang = "en") {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append("file", new Blob([csv]), "clientes.csv");
  const res = await fetch(new URL("/api/rcs/campaigns", inject("apiUrl")), { method: "POST", headers: { Authorization: `Bearer ${token}`, "Accept-Language": lang }, body: form });
  return { status: res.status, body: (await res.json()) as any };
}

beforeAll(async () => {
  const p = await registerPerson("rcs-bulk");
  accountId = p.accountId;
  token = (await login(p.email, p.password)).token;
  agentId = (await makeRcsAgent(accountId, { name: "Loja Bulk" })).id;
});

describe("RCS campaigns", () => {
  it("a short text to a group of 3,000, scheduled: basic price for all, one debit, opt-outs and the deny list at price 0, exact counts; canceled, every price comes back", async () => {
    const numbers = mobiles(3_000);
    const { groupId } = await makeGroupWithContacts(
      accountId,
      `Clientes ${seq}`,
      numbers.map((mobileNumber, i) => ({ firstName: `Cliente${i}`, mobileNumber })),
    );
    for (const r of numbers.slice(0, 3)) await query(`INSERT INTO optouts (account_id, channel, recipient, source) VALUES ($1, 'rcs', $2, 'manual')`, [accountId, r]);
    // An SMS opt-out is not an RCS one.
    await query(`INSERT INTO optouts (account_id, channel, recipient, source) VALUES ($1, 'sms', $2, 'manual')`, [accountId, numbers[10]]);
    for (const r of numbers.slice(3, 5)) await query(`INSERT INTO deny_list (account_id, recipient) VALUES ($1, $2)`, [accountId, r]);
    await setAccount(accountId, { balance: 1_000_000 });
    const before = await balanceOf(accountId);

    const res = await as("/api/rcs/campaigns", {
      body: {
        agent_id: agentId,
        group_id: groupId,
        name: "Black Friday RCS",
        content: { type: "text", messageText: "Black Friday: 30% em tudo hoje" },
        scheduled_at: new Date(Date.now() + 86_400_000).toISOString(),
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const { campaign_id, total_price, summary } = res.body.data;
    expect(res.headers.get("location")).toBe(`/api/rcs/campaigns/${campaign_id}`);
    expect(res.body.data).toMatchObject({ status: "scheduled", price_class: "basic", price: 6, currency: "BRL", fallback_sms: false });
    expect(summary).toEqual({ messages: 3_000, sendable: 2_995, optout: 3, rejected: 2, invalid: 0 });
    expect(total_price).toBe(2_995 * 6);
    expect(await balanceOf(accountId)).toBe(before - total_price);
    expect(await debits(campaign_id)).toBe(1);
    const prices = await query<{ status: string; price: string; route: string; n: number }>(
      `SELECT status, price, route, count(*)::int AS n FROM messages WHERE campaign_id = $1 GROUP BY status, price, route ORDER BY status`,
      [campaign_id],
    );
    expect(prices).toEqual([
      { status: "optout", price: "0", route: "basic", n: 3 },
      { status: "rejected", price: "0", route: "basic", n: 2 },
      { status: "scheduled", price: "6", route: "basic", n: 2_995 },
    ]);
    const [one] = await query<{ channel: string; type: string; body: string; content: any; sender: string; provider: string }>(
      `SELECT channel, type, body, content, sender, provider FROM messages WHERE campaign_id = $1 AND recipient = $2`,
      [campaign_id, numbers[10]],
    );
    expect(one).toMatchObject({ channel: "rcs", type: "text", body: "Black Friday: 30% em tudo hoje", provider: "rbm" });
    expect(one.content).toEqual({ type: "text", messageText: "Black Friday: 30% em tudo hoje", fallbackSms: false });
    expect(one.sender).toMatch(/@rbm\.goog$/);
    const c = await campaign(campaign_id);
    expect(c).toMatchObject({ channel: "rcs", name: "Black Friday RCS", status: "scheduled", total: 3_000, route: "basic", cost: 2_995 * 6 });
    expect(c.counts).toEqual({ scheduled: 2_995, optout: 3, rejected: 2 });
    // The list shows it; the SMS and WhatsApp campaigns do not.
    expect((await as("/api/rcs/campaigns")).body.data.map((x: { id: string }) => x.id)).toContain(campaign_id);
    expect((await as(`/api/sms/campaigns/${campaign_id}`)).status).toBe(404);
    expect((await as(`/api/whatsapp/campaigns/${campaign_id}`)).status).toBe(404);
    // Not finished: not deleted.
    expect((await as(`/api/rcs/campaigns/${campaign_id}`, { method: "DELETE" })).status).toBe(409);

    const canceled = await as(`/api/rcs/campaigns/${campaign_id}`, { method: "PUT", body: { status: "canceled" } });
    expect(canceled.status).toBe(200);
    expect(canceled.body.meta).toMatchObject({ changed: true, canceled: 2_995, refunded: total_price });
    expect(await balanceOf(accountId)).toBe(before);
    expect((await campaign(campaign_id)).counts).toEqual({ failed: 2_995, optout: 3, rejected: 2 });
    expect((await as(`/api/rcs/campaigns/${campaign_id}`, { method: "DELETE" })).body).toEqual({ ok: true });
    expect((await as(`/api/rcs/campaigns/${campaign_id}`)).status).toBe(404);
  }, 120_000);

  it("a template's carousel sent now: rich price for all, queued with one outbox row each; pause holds them, resume hands every queued one to the dispatcher again", async () => {
    await setAccount(accountId, { balance: 100_000 });
    const [tpl] = await query<{ id: string }>(`INSERT INTO rcs_templates (account_id, name, content) VALUES ($1, $2, $3::jsonb) RETURNING id`, [
      accountId,
      `Vitrine ${seq}`,
      JSON.stringify({ type: "card-carousel", images: [card(1), card(2), card(3)] }),
    ]);
    const numbers = mobiles(400);
    const { groupId } = await makeGroupWithContacts(
      accountId,
      `Vitrine ${seq}`,
      numbers.map((mobileNumber) => ({ mobileNumber })),
    );
    const res = await as("/api/rcs/campaigns", { body: { agent_id: agentId, group_id: groupId, template_id: tpl.id, fallback_sms: true } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const id = res.body.data.campaign_id;
    expect(res.body.data).toMatchObject({ status: "running", price_class: "rich", price: 18, total_price: 400 * 18, fallback_sms: true });
    // Its own debit (the balance moves on at once: sent now, its failures are refunded as they come).
    expect(await debitedFor(id)).toBe(400 * 18);
    expect(await debits(id)).toBe(1);
    const [m] = await query<{ type: string; content: any; n: number; outbox: number }>(
      `SELECT min(type) AS type, (array_agg(content))[1] AS content, count(*)::int AS n,
              (SELECT count(*)::int FROM outbox o WHERE o.topic = 'messages:rcs' AND o.payload->>'message_id' IN (SELECT id::text FROM messages WHERE campaign_id = $1)) AS outbox
         FROM messages WHERE campaign_id = $1 AND price = 18`,
      [id],
    );
    expect(m).toMatchObject({ type: "card-carousel", n: 400, outbox: 400 });
    expect(m.content.images).toHaveLength(3);
    expect(m.content.fallbackSms).toBe(true);

    const paused = await as(`/api/rcs/campaigns/${id}`, { method: "PUT", body: { status: "paused" } });
    expect(paused.status).toBe(200);
    expect(paused.body.data.status).toBe("paused");
    // Nothing is in the middle of a send once paused; what is still queued stays queued.
    await expect.poll(async () => (await campaign(id)).counts.sending ?? 0, { timeout: 30_000 }).toBe(0);
    const held = (await campaign(id)).counts.queued ?? 0;
    expect((await as(`/api/rcs/campaigns/${id}`, { method: "PUT", body: { status: "paused" } })).body.meta.changed).toBe(false);
    const resumed = await as(`/api/rcs/campaigns/${id}`, { method: "PUT", body: { status: "running" } });
    expect(resumed.body.data.status).toBe("running");
    expect(resumed.body.meta).toMatchObject({ changed: true, republished: held });
    // Every message is accounted for (none lost by the pause).
    const counts: Record<string, number> = (await campaign(id)).counts;
    expect(Object.values(counts).reduce((a, b) => a + b, 0)).toBe(400);
  }, 60_000);

  it("a CSV file: the SMS file send's rules, a row without a valid number kept with its line, the others sent at one price", async () => {
    await setAccount(accountId, { balance: 10_000 });
    const before = await campaignDebits();
    const [a, b, c] = mobiles(3);
    const csv = ["nome;celular", `Ana;${a}`, "Bia;12345", `Caio;${b}`, `Duda;${c}`, `Ana de novo;${a}`].join("\n");
    const res = await upload({ agent_id: agentId, content: JSON.stringify({ type: "card", messageText: "Oferta", imageUrl: "https://loja.example/oferta.png" }) }, csv);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data.summary).toEqual({ messages: 3, sendable: 3, optout: 0, rejected: 0, invalid: 1 });
    expect(res.body.data).toMatchObject({ price_class: "rich", total_price: 3 * 18 });
    const id = res.body.data.campaign_id;
    expect(await debitedFor(id)).toBe(3 * 18);
    const report = await fetch(new URL(`/api/rcs/campaigns/${id}/invalid_rows`, inject("apiUrl")), { headers: { Authorization: `Bearer ${token}`, "Accept-Language": "en" } });
    expect(report.status).toBe(200);
    const lines = (await report.text())
      .replace(/^\uFEFF/, "")
      .trim()
      .split(/\r\n/);
    expect(lines).toHaveLength(2);
    // Line 3 of the file (the header is line 1), the cell as written.
    expect(lines[1]).toMatch(/^3,12345,/);
    expect((await campaign(id)).invalid_rows).toBe(1);

    // A file and a group at once, or no file at all: refused.
    const none = await upload({ agent_id: agentId, content: JSON.stringify({ type: "text", messageText: "Oi" }) }, "nome\nsem numero\n");
    expect(none.status).toBe(422);
    expect(Object.keys(none.body.error.fields)).toEqual(["file"]);
    expect(await campaignDebits()).toBe(before + 3 * 18);
  });

  it("a CSV file over the JSON body limit (45,000 rows) is streamed, not refused: every row sent at one price", async () => {
    await setAccount(accountId, { balance: 1_000_000 });
    const csv = `nome;celular\n${Array.from({ length: 45_000 }, (_, i) => `Pessoa ${i};+55119${String(60_000_000 + i)}`).join("\n")}\n`;
    expect(csv.length).toBeGreaterThan(1024 * 1024);
    const res = await upload(
      { agent_id: agentId, content: JSON.stringify({ type: "text", messageText: "Arquivo grande" }), scheduled_at: new Date(Date.now() + 3_600_000).toISOString() },
      csv,
    );
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(201);
    expect(res.body.data.summary).toEqual({ messages: 45_000, sendable: 45_000, optout: 0, rejected: 0, invalid: 0 });
    expect(await debitedFor(res.body.data.campaign_id)).toBe(45_000 * 6);
    expect(await debits(res.body.data.campaign_id)).toBe(1);
  }, 60_000);

  it("an 11-card carousel, a card without title and media, an agent not launched: refused naming the rule, nothing written or charged", async () => {
    await setAccount(accountId, { balance: 50_000 });
    const numbers = mobiles(20);
    const { groupId } = await makeGroupWithContacts(
      accountId,
      `Poucos ${seq}`,
      numbers.map((mobileNumber) => ({ mobileNumber })),
    );
    const [{ n: messagesBefore }] = await query<{ n: number }>(`SELECT count(*)::int AS n FROM messages WHERE account_id = $1`, [accountId]);
    const [{ n: campaignsBefore }] = await query<{ n: number }>(`SELECT count(*)::int AS n FROM campaigns WHERE account_id = $1`, [accountId]);
    const send = (content: unknown, extra: Record<string, unknown> = {}) =>
      as("/api/rcs/campaigns", { body: { agent_id: agentId, group_id: groupId, content, ...extra }, lang: "en" });

    const eleven = await send({ type: "card-carousel", images: Array.from({ length: 11 }, (_, i) => card(i)) });
    expect(eleven.status).toBe(422);
    expect(eleven.body.error.fields["content.images"]).toEqual(["At most 10 cards in a carousel"]);
    const bare = await send({ type: "card", messageDescription: "Só descrição" });
    expect(bare.status).toBe(422);
    expect(bare.body.error.fields["content.messageText"].join(" ")).toContain("A card needs a title or a media");
    const pending = await makeRcsAgent(accountId, { status: "in_review" });
    const notLaunched = await as("/api/rcs/campaigns", { body: { agent_id: pending.id, group_id: groupId, content: { type: "text", messageText: "Oi" } }, lang: "en" });
    expect(notLaunched.body.error.fields.agent_id).toEqual(["The agent must be launched before it sends"]);
    const past = await send({ type: "text", messageText: "Oi" }, { scheduled_at: new Date(Date.now() - 60_000).toISOString() });
    expect(past.status).toBe(422);
    expect(Object.keys(past.body.error.fields)).toEqual(["scheduled_at"]);
    // Not enough balance: 402, nothing written.
    await setAccount(accountId, { balance: 10 });
    const debitedBefore = await campaignDebits();
    const poor = await send({ type: "text", messageText: "Oi" });
    expect(poor.status).toBe(402);

    expect(await campaignDebits()).toBe(debitedBefore);
    const [{ n: messagesAfter }] = await query<{ n: number }>(`SELECT count(*)::int AS n FROM messages WHERE account_id = $1`, [accountId]);
    const [{ n: campaignsAfter }] = await query<{ n: number }>(`SELECT count(*)::int AS n FROM campaigns WHERE account_id = $1`, [accountId]);
    expect([messagesAfter, campaignsAfter]).toEqual([messagesBefore, campaignsBefore]);
  });

  it("another account's group and agent are refused, its campaigns are not found; the same Idempotency-Key answers once", async () => {
    await setAccount(accountId, { balance: 10_000 });
    const other = await registerPerson("rcs-bulk-other");
    const otherToken = (await login(other.email, other.password)).token;
    const theirAgent = await makeRcsAgent(other.accountId);
    const { groupId: theirGroup } = await makeGroupWithContacts(
      other.accountId,
      "Deles",
      mobiles(5).map((mobileNumber) => ({ mobileNumber })),
    );
    const { groupId: ourGroup } = await makeGroupWithContacts(
      accountId,
      `Nossos ${seq}`,
      mobiles(5).map((mobileNumber) => ({ mobileNumber })),
    );
    const text = { type: "text", messageText: "Oi" };
    const foreignGroup = await as("/api/rcs/campaigns", { body: { agent_id: agentId, group_id: theirGroup, content: text } });
    expect(foreignGroup.status).toBe(422);
    expect(Object.keys(foreignGroup.body.error.fields)).toEqual(["group_id"]);
    const foreignAgent = await as("/api/rcs/campaigns", { body: { agent_id: theirAgent.id, group_id: ourGroup, content: text } });
    expect(foreignAgent.status).toBe(422);
    expect(Object.keys(foreignAgent.body.error.fields)).toEqual(["agent_id"]);

    const key = `rcs-bulk-${Math.random()}`;
    const body = { agent_id: agentId, group_id: ourGroup, content: text };
    const first = await as("/api/rcs/campaigns", { body, headers: { "Idempotency-Key": key } });
    const again = await as("/api/rcs/campaigns", { body, headers: { "Idempotency-Key": key } });
    expect(first.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(await debitedFor(first.body.data.campaign_id)).toBe(5 * 6);
    expect(await debits(first.body.data.campaign_id)).toBe(1);
    const conflict = await as("/api/rcs/campaigns", { body: { ...body, name: "outra" }, headers: { "Idempotency-Key": key } });
    expect(conflict.status).toBe(409);

    const id = first.body.data.campaign_id;
    const theirs = (path: string, o: { method?: string; body?: unknown } = {}) => api(path, { token: otherToken, ...o });
    expect((await theirs(`/api/rcs/campaigns/${id}`)).status).toBe(404);
    expect((await theirs(`/api/rcs/campaigns/${id}`, { method: "PUT", body: { status: "canceled" } })).status).toBe(404);
    expect((await theirs(`/api/rcs/campaigns/${id}`, { method: "DELETE" })).status).toBe(404);
    expect((await theirs("/api/rcs/campaigns")).body.data).toEqual([]);
    expect((await campaign(id)).status).toBe("running");
  });
});
