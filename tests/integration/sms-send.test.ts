/**
 * The send paths of SMS over the real processes (API, worker, simulator, PostgreSQL, Redis):
 * templates with {{variables}}, per-recipient variables, scheduling and its release sweep
 * (also raced by two more sweepers), lists and contact groups that create a campaign with
 * exact counts and one debit, opt-outs inside a group, insufficient balance on a group, and the
 * set-based bulk accept of a 20,000-contact group. Effects are checked in the database.
 */
import { spawn } from "node:child_process";
import { resolve } from "node:path";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { simulatedOutcome } from "../../api/simulator/outcome";
import { smsSegments } from "../../api/sms/segments";
import { api, giveShortCode, login, registerPerson, type Person } from "../support/api";
import { query } from "../support/db";
import { addToGroup, makeContact, makeGroupWithContacts, makeMessage, makeShortCode, makeSmsPrice, setAccount, setContactByMobile } from "../support/factories";

const DEFAULT_T1 = 8;
const FINAL = ["delivered", "failed", "unavailable"];
type Who = Person & { token: string };

async function person(tag: string, balance: number): Promise<Who> {
  const p = await registerPerson(tag);
  await setAccount(p.accountId, { balance });
  return { ...p, token: (await login(p.email, p.password)).token };
}
const balanceOf = async (accountId: string) => Number((await query<{ balance: string }>("SELECT balance FROM account_balances WHERE account_id = $1", [accountId]))[0].balance);
const send = (who: Who, body: unknown) => api("/api/sms/messages", { token: who.token, body });

let seq = 10_000_000 + Math.floor(Math.random() * 50_000_000);
const nextNumber = () => `+55119${String(seq++).padStart(8, "0")}`;

/** A group of `n` contacts with mobiles (and first names, a custom field) inserted set-based. */
async function groupOf(who: Who, n: number, name = `Grupo ${Math.random().toString(36).slice(2, 8)}`) {
  const start = seq;
  seq += n;
  const numbers = Array.from({ length: n }, (_, i) => `+55119${String(start + i).padStart(8, "0")}`);
  const contacts = numbers.map((mobileNumber, i) => ({ mobileNumber, firstName: `Pessoa${i}`, custom: { codigo: `C${i}` } }));
  const g = { id: (await makeGroupWithContacts(who.accountId, name, contacts)).groupId };
  return { id: g.id, numbers };
}

async function waitFor<T>(what: string, probe: () => Promise<T | null | undefined | false>, ms = 20_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

async function messageCounts(campaignId: string) {
  const rows = await query<{ status: string; n: number }>("SELECT status, count(*)::int AS n FROM messages WHERE campaign_id = $1 GROUP BY status", [campaignId]);
  return Object.fromEntries(rows.map((r) => [r.status, r.n]));
}

describe("SMS templates API", () => {
  let owner: Who;
  beforeAll(async () => {
    owner = await person("smstpl", 1_000);
  });

  it("creates, lists with variables, reads, edits, refuses a taken name, deletes one and several", async () => {
    const created = await api("/api/sms/templates", { token: owner.token, body: { name: "Boas-vindas", body: "Olá {{first_name}}, seu código é {{ codigo }}." } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({ name: "Boas-vindas", variables: ["first_name", "codigo"] });
    const id = created.body.id;
    // Location is the new template's URL: it reads back the same template.
    expect(created.headers.get("location")).toBe(`/api/sms/templates/${id}`);
    expect((await api(created.headers.get("location")!, { token: owner.token })).body).toEqual(created.body);

    const taken = await api("/api/sms/templates", { token: owner.token, body: { name: "boas-VINDAS", body: "x" } });
    expect(taken.status).toBe(422);
    expect(taken.body.error.fields).toEqual({ name: ["Já existe um modelo com este nome"] });
    const blank = await api("/api/sms/templates", { token: owner.token, body: { name: " ", body: "" } });
    expect(blank.status).toBe(422);
    expect(Object.keys(blank.body.error.fields).sort()).toEqual(["body", "name"]);

    const b = await api("/api/sms/templates", { token: owner.token, body: { name: "Aviso", body: "Aviso geral" } });
    const c = await api("/api/sms/templates", { token: owner.token, body: { name: "Cobrança", body: "Pague {{valor}}" } });
    const list = await api("/api/sms/templates", { token: owner.token });
    expect(list.body.data.map((t: { name: string }) => t.name)).toEqual(["Aviso", "Boas-vindas", "Cobrança"]);
    expect(list.body.next_cursor).toBeNull();
    // By name (ignoring case), `limit` a page: the cursor walks each template once.
    const first = await api("/api/sms/templates?limit=2", { token: owner.token });
    expect(first.body.data.map((t: { name: string }) => t.name)).toEqual(["Aviso", "Boas-vindas"]);
    const second = await api(`/api/sms/templates?limit=2&cursor=${first.body.next_cursor}`, { token: owner.token });
    expect(second.body).toMatchObject({ data: [{ name: "Cobrança" }], next_cursor: null });
    expect((await api("/api/sms/templates?cursor=bad", { token: owner.token })).status).toBe(422);

    const edited = await api(`/api/sms/templates/${id}`, { token: owner.token, method: "PUT", body: { name: "Boas-vindas 2", body: "Oi {{nome}}" } });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ name: "Boas-vindas 2", variables: ["nome"] });
    expect((await api(`/api/sms/templates/${id}`, { token: owner.token })).body.body).toBe("Oi {{nome}}");

    // Another account sees none of them and cannot touch them.
    const stranger = await person("smstpl2", 0);
    expect((await api("/api/sms/templates", { token: stranger.token })).body.data).toEqual([]);
    expect((await api(`/api/sms/templates/${id}`, { token: stranger.token })).status).toBe(404);
    expect((await api(`/api/sms/templates/${id}`, { token: stranger.token, method: "DELETE" })).status).toBe(404);
    const foreignBulk = await api("/api/sms/templates", { token: stranger.token, method: "DELETE", body: { ids: [id, b.body.id] } });
    expect(foreignBulk.body).toEqual({ deleted: 0, ids: [] });

    const one = await api(`/api/sms/templates/${id}`, { token: owner.token, method: "DELETE" });
    expect(one.status).toBe(200);
    const bulk = await api("/api/sms/templates", { token: owner.token, method: "DELETE", body: { ids: [b.body.id, c.body.id, "not-an-id"] } });
    expect(bulk.status).toBe(200);
    expect(bulk.body.deleted).toBe(2);
    expect((await api("/api/sms/templates", { token: owner.token })).body.data).toEqual([]);
  });

  it("a template send renders variables per recipient; a missing variable is 422 naming it and writes nothing", async () => {
    const p = await person("smsvars", 1_000);
    const tpl = await api("/api/sms/templates", { token: p.token, body: { name: "Pedido", body: "Olá {{nome}}, pedido {{pedido}} da {{loja}}" } });
    const [a, b] = [nextNumber(), nextNumber()];
    const missing = await send(p, {
      template_id: tpl.body.id,
      messages: [
        { to: a, variables: { nome: "Ana", pedido: 1 } },
        { to: b, variables: { nome: "Bia" } },
      ],
      variables: { loja: "Loja X" },
    });
    expect(missing.status).toBe(422);
    expect(missing.body.error.fields).toEqual({ "variables.pedido": ["Preencha todos os parâmetros: falta o valor de pedido"] });
    expect(await balanceOf(p.accountId)).toBe(1_000);
    expect((await query("SELECT 1 FROM messages WHERE account_id = $1", [p.accountId])).length).toBe(0);

    const long = "ã".repeat(60);
    const ok = await send(p, {
      template_id: tpl.body.id,
      body: "ignored",
      messages: [
        { to: a, variables: { nome: "Ana", pedido: 1 } },
        { to: b, variables: { nome: long, pedido: "77" } },
      ],
      variables: { loja: "Loja X" },
    });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    const bodies = ["Olá Ana, pedido 1 da Loja X", `Olá ${long}, pedido 77 da Loja X`];
    const segs = bodies.map((t) => smsSegments(t).segments);
    expect(segs).toEqual([1, 2]);
    expect(ok.body.data.map((d: { segments: number; price: number }) => [d.segments, d.price])).toEqual(segs.map((s) => [s, s * DEFAULT_T1]));
    expect(ok.body.total_price).toBe(3 * DEFAULT_T1);
    expect(ok.body.campaign_id).toEqual(expect.any(String));
    expect(await balanceOf(p.accountId)).toBe(1_000 - 3 * DEFAULT_T1);
    const rows = await query<{ recipient: string; body: string; coding: string }>("SELECT recipient, body, coding FROM messages WHERE account_id = $1 ORDER BY body", [
      p.accountId,
    ]);
    expect(rows).toEqual([
      { recipient: a, body: bodies[0], coding: "UCS2" }, // "á" is not in GSM 03.38
      { recipient: b, body: bodies[1], coding: "UCS2" },
    ]);
    const [campaign] = await query<Record<string, unknown>>("SELECT * FROM campaigns WHERE id = $1", [ok.body.campaign_id]);
    expect(campaign).toMatchObject({
      account_id: p.accountId,
      channel: "sms",
      status: "running",
      total: 2,
      template_id: tpl.body.id,
      source: { kind: "list", count: 2 },
      created_by: p.userId,
    });
    // A template of another account is not offered.
    const other = await person("smsvars2", 100);
    const foreign = await send(other, { template_id: tpl.body.id, to: nextNumber() });
    expect(foreign.status).toBe(422);
    expect(Object.keys(foreign.body.error.fields)).toEqual(["template_id"]);
  });
});

describe("scheduled sends", () => {
  it("a message scheduled 2.5 s ahead is held (debited once, no outbox) and released when due, then delivered by the simulator", async () => {
    const p = await person("smssched", 1_000);
    const to = nextNumber();
    const at = new Date(Date.now() + 2500);
    const res = await send(p, { to, body: "Lembrete agendado", scheduled_at: at.toISOString() });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data[0]).toMatchObject({ status: "scheduled", segments: 1, price: DEFAULT_T1 });
    expect(res.body.scheduled_at).toBe(at.toISOString());
    const id = res.body.data[0].id;
    expect(await balanceOf(p.accountId)).toBe(1_000 - DEFAULT_T1);
    const [held] = await query<{ status: string; scheduled_at: Date; queued_at: Date | null }>("SELECT status, scheduled_at, queued_at FROM messages WHERE id = $1", [id]);
    expect(held).toEqual({ status: "scheduled", scheduled_at: at, queued_at: null });
    expect(await query("SELECT 1 FROM outbox WHERE payload->>'message_id' = $1", [id])).toEqual([]);

    // Not before its time: proved below by queued_at >= at (the release sweep runs every 200 ms,
    // so an early release would show), with no sleep that a slow machine turns into nothing.
    const final = await waitFor("the scheduled message to finish", async () => {
      const [m] = await query<{ status: string; queued_at: Date | null }>("SELECT status, queued_at FROM messages WHERE id = $1", [id]);
      return FINAL.includes(m.status) ? m : null;
    });
    expect(final.status).toBe(simulatedOutcome(id));
    expect(final.queued_at!.getTime()).toBeGreaterThanOrEqual(at.getTime());
    const events = await query<{ status: string; source: string }>("SELECT status, source FROM message_events WHERE message_id = $1 ORDER BY id", [id]);
    expect(events).toEqual([
      { status: "scheduled", source: "system" },
      { status: "queued", source: "system" },
      { status: "sent", source: "system" },
      { status: simulatedOutcome(id), source: "provider" },
    ]);
    expect((await query("SELECT 1 FROM outbox WHERE payload->>'message_id' = $1", [id])).length).toBe(1);
    expect(await balanceOf(p.accountId)).toBe(1_000 - DEFAULT_T1);
  });

  it("refuses a time in the past or beyond 90 days, naming scheduled_at", async () => {
    const p = await person("smsschedbad", 100);
    const past = await send(p, { to: nextNumber(), body: "x", scheduled_at: new Date(Date.now() - 1000).toISOString() });
    expect(past.status).toBe(422);
    expect(past.body.error.fields).toEqual({ scheduled_at: ["Escolha um horário no futuro"] });
    const far = await send(p, { to: nextNumber(), body: "x", scheduled_at: new Date(Date.now() + 91 * 86_400_000).toISOString() });
    expect(far.body.error.fields).toEqual({ scheduled_at: ["No máximo 90 dias à frente"] });
    expect(await balanceOf(p.accountId)).toBe(100);
  });

  it("a scheduled group campaign is released once although three sweepers race for it", async () => {
    const p = await person("smsrace", 100_000);
    const group = await groupOf(p, 300);
    const at = new Date(Date.now() + 2000);
    const res = await send(p, { group_id: group.id, body: "Promoção {{first_name}}", scheduled_at: at.toISOString(), campaign_name: "Corrida" });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.summary).toMatchObject({ messages: 300, sendable: 300 });
    const campaignId = res.body.campaign_id;
    expect((await query<{ status: string }>("SELECT status FROM campaigns WHERE id = $1", [campaignId]))[0].status).toBe("scheduled");
    const debited = 100_000 - 300 * DEFAULT_T1;
    expect(await balanceOf(p.accountId)).toBe(debited);

    // Two more sweepers (separate processes, small batches) race the worker's own from just before the due time.
    await new Promise((r) => setTimeout(r, Math.max(0, at.getTime() - Date.now() - 300)));
    const root = resolve(__dirname, "..", "..");
    const sweeper = () =>
      new Promise<number>((done, fail) => {
        const child = spawn(resolve(root, "node_modules", ".bin", "bun"), ["tests/support/release-run.ts", "25", "3500"], {
          cwd: root,
          env: { ...process.env, DATABASE_URL: inject("databaseUrl"), NODE_ENV: "test" },
        });
        let out = "";
        child.stdout.on("data", (c) => (out += c));
        child.stderr.on("data", (c) => process.stderr.write(c));
        child.on("close", (code) => (code === 0 ? done(JSON.parse(out.trim().split("\n").pop()!).released) : fail(new Error(`sweeper exited ${code}`))));
      });
    const released = await Promise.all([sweeper(), sweeper()]);
    const rows = await query<{ outbox: number; queued_events: number; messages: number; dup: number }>(
      `SELECT (SELECT count(*)::int FROM outbox o JOIN messages m ON o.payload->>'message_id' = m.id::text WHERE m.campaign_id = $1) AS outbox,
              (SELECT count(*)::int FROM message_events e JOIN messages m ON m.id = e.message_id WHERE m.campaign_id = $1 AND e.status = 'queued') AS queued_events,
              (SELECT count(*)::int FROM messages WHERE campaign_id = $1 AND status <> 'scheduled') AS messages,
              (SELECT count(*)::int FROM (SELECT o.payload->>'message_id' FROM outbox o JOIN messages m ON o.payload->>'message_id' = m.id::text
                                           WHERE m.campaign_id = $1 GROUP BY 1 HAVING count(*) > 1) d) AS dup`,
      [campaignId],
    );
    expect(rows[0]).toEqual({ outbox: 300, queued_events: 300, messages: 300, dup: 0 });
    // Both helpers ran and, with the worker, released 300 in all (each message by exactly one of them).
    expect(released.reduce((s, n) => s + n, 0)).toBeLessThanOrEqual(300);
    const [c] = await query<{ status: string; started_at: Date | null }>("SELECT status, started_at FROM campaigns WHERE id = $1", [campaignId]);
    expect(c.status).not.toBe("scheduled");
    expect(c.started_at!.getTime()).toBeGreaterThanOrEqual(at.getTime() - 50);
    expect(await balanceOf(p.accountId)).toBe(debited);
  });
});

describe("sends to many", () => {
  it("a list creates one campaign with exact message count and a single debit", async () => {
    const p = await person("smslist", 10_000);
    const to = Array.from({ length: 25 }, nextNumber);
    const res = await send(p, { to: [...to, to[0]], body: "Oferta da semana", campaign_name: "Semana" });
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(25);
    expect(res.body.summary).toEqual({ messages: 25, sendable: 25, optout: 0, rejected: 0, segments: 25 });
    expect(await balanceOf(p.accountId)).toBe(10_000 - 25 * DEFAULT_T1);
    const [campaign] = await query<Record<string, unknown>>("SELECT name, total, status, source FROM campaigns WHERE id = $1", [res.body.campaign_id]);
    expect(campaign).toEqual({ name: "Semana", total: 25, status: "running", source: { kind: "list", count: 25 } });
    expect(Object.values(await messageCounts(res.body.campaign_id)).reduce((s, n) => s + n, 0)).toBe(25);
    const [audit] = await query<{ n: number }>("SELECT count(*)::int AS n FROM audit_logs WHERE account_id = $1 AND action = 'sms.accepted'", [p.accountId]);
    expect(audit.n).toBe(1);
    // One number is one message and no campaign.
    const single = await send(p, { to: nextNumber(), body: "Só um" });
    expect(single.body.campaign_id).toBeUndefined();
  });

  it("a group send renders contact fields and custom keys, skips opted-out and denied members without charging them", async () => {
    const p = await person("smsgroup", 10_000);
    const group = await groupOf(p, 40);
    // A contact without a mobile is not a recipient.
    const noMobile = await makeContact(p.accountId, { firstName: "Sem", email: "sem@x.example" });
    await addToGroup(p.accountId, group.id, [noMobile]);
    for (const n of group.numbers.slice(0, 3)) expect((await api("/api/optouts", { token: p.token, body: { recipient: n } })).status).toBe(201);
    expect((await api("/api/blacklist", { token: p.token, body: { recipient: group.numbers[3] } })).status).toBe(201);
    // On both lists: the opt-out wins.
    expect((await api("/api/blacklist", { token: p.token, body: { recipient: group.numbers[0] } })).status).toBe(201);

    const res = await send(p, { group_id: group.id, body: "Oi {{first_name}}, seu cupom {{codigo}} vale em {{loja}}", variables: { loja: "Centro" } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toBeUndefined();
    expect(res.body.summary).toEqual({ messages: 40, sendable: 36, optout: 3, rejected: 1, segments: 36 });
    expect(res.body.total_price).toBe(36 * DEFAULT_T1);
    expect(await balanceOf(p.accountId)).toBe(10_000 - 36 * DEFAULT_T1);
    expect(await messageCounts(res.body.campaign_id)).toMatchObject({ optout: 3, rejected: 1 });
    const [m5] = await query<{ body: string; price: string; segments: number }>("SELECT body, price, segments FROM messages WHERE recipient = $1 AND account_id = $2", [
      group.numbers[5],
      p.accountId,
    ]);
    expect(m5).toEqual({ body: "Oi Pessoa5, seu cupom C5 vale em Centro", price: String(DEFAULT_T1), segments: 1 });
    const blocked = await query<{ recipient: string; status: string; price: string; error_code: string }>(
      "SELECT recipient, status, price, error_code FROM messages WHERE campaign_id = $1 AND status IN ('optout','rejected') ORDER BY recipient",
      [res.body.campaign_id],
    );
    expect(blocked).toEqual([
      ...group.numbers.slice(0, 3).map((r) => ({ recipient: r, status: "optout", price: "0", error_code: "optout" })),
      { recipient: group.numbers[3], status: "rejected", price: "0", error_code: "deny_list" },
    ]);
    expect((await query("SELECT 1 FROM outbox o JOIN messages m ON o.payload->>'message_id' = m.id::text WHERE m.campaign_id = $1", [res.body.campaign_id])).length).toBe(36);
    const [campaign] = await query<Record<string, unknown>>("SELECT total, source, name FROM campaigns WHERE id = $1", [res.body.campaign_id]);
    expect(campaign).toMatchObject({ total: 40, source: { kind: "group", group_id: group.id } });

    // A variable that some contacts lack (and no default): 422 naming it, nothing written.
    await setContactByMobile(p.accountId, group.numbers[7], { custom: {} });
    const before = await balanceOf(p.accountId);
    const gap = await send(p, { group_id: group.id, body: "Cupom {{codigo}}" });
    expect(gap.status).toBe(422);
    expect(gap.body.error.fields).toEqual({ "variables.codigo": ["Preencha todos os parâmetros: falta o valor de codigo"] });
    expect(await balanceOf(p.accountId)).toBe(before);
    expect((await query("SELECT 1 FROM campaigns WHERE account_id = $1", [p.accountId])).length).toBe(1);

    // Another account's group is not offered.
    const other = await person("smsgroup2", 10_000);
    const foreign = await send(other, { group_id: group.id, body: "x" });
    expect(foreign.status).toBe(422);
    expect(Object.keys(foreign.body.error.fields)).toEqual(["group_id"]);
  });

  it("insufficient balance on a group send is 402 and writes nothing", async () => {
    const p = await person("smsgrouppoor", 100);
    const group = await groupOf(p, 20);
    const res = await send(p, { group_id: group.id, body: "Oferta" });
    expect(res.status).toBe(402);
    expect(res.body.error.code).toBe("INSUFFICIENT_BALANCE");
    expect(await balanceOf(p.accountId)).toBe(100);
    expect((await query("SELECT 1 FROM messages WHERE account_id = $1", [p.accountId])).length).toBe(0);
    expect((await query("SELECT 1 FROM campaigns WHERE account_id = $1", [p.accountId])).length).toBe(0);
  });

  it("accepts a 20,000-contact group set-based (scheduled, so nothing is dispatched)", async () => {
    const p = await person("smsbulk", 1_000_000);
    const group = await groupOf(p, 20_000);
    const later = () => new Date(Date.now() + 80 * 86_400_000).toISOString();
    const started = performance.now();
    const res = await send(p, { group_id: group.id, body: "Aviso a todos", scheduled_at: later() });
    const ms = performance.now() - started;
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.summary).toMatchObject({ messages: 20_000, sendable: 20_000 });
    console.log(`20,000-contact group accepted in ${ms.toFixed(0)} ms (${Math.round(20_000 / (ms / 1000))} messages/s)`);
    // Set-based: a handful of INSERT … SELECT / UPDATE statements whatever the size (bench/sms-accept.mjs prints the rate;
    // 2.5-8 s were seen here on a 2-core runner at load average 15-25). A per-recipient version (60,000 statements) takes
    // far longer than 15 s, so this bound fails it while leaving room for a busy shared runner.
    expect(ms).toBeLessThan(15_000);
    expect(await balanceOf(p.accountId)).toBe(1_000_000 - 20_000 * DEFAULT_T1);
    expect(await messageCounts(res.body.campaign_id)).toEqual({ scheduled: 20_000 });
  });

  it("the SQL segment counter agrees with the TypeScript one", async () => {
    const samples = [
      "a".repeat(160),
      "a".repeat(161),
      "€".repeat(80),
      "€".repeat(81),
      `${"a".repeat(152)}€${"a".repeat(10)}`,
      "ã".repeat(70),
      "ã".repeat(71),
      "😀".repeat(36),
      `${"a".repeat(66)}😀b`,
    ];
    for (const s of samples) {
      const [row] = await query<{ coding: string; segments: number }>("SELECT * FROM sms_segment_info($1)", [s]);
      const ts = smsSegments(s);
      expect(row, s).toEqual({ coding: ts.coding, segments: ts.segments });
    }
  });
});

describe("senders, products, prices", () => {
  it("lists the senders the account may send from: its active short codes (used or not, with nickname); not senders found only in its history, never another account's codes", async () => {
    const p = await person("smssenders", 1_000);
    const other = await person("smssenders-other", 0);
    const code = () => String(10_000_000 + Math.floor(Math.random() * 89_999_999));
    const [used, unused, inactive, foreign] = [code(), code(), code(), code()];
    await makeShortCode(p.accountId, { number: used, nickname: "Avisos", status: "active" });
    await makeShortCode(p.accountId, { number: unused, nickname: "", status: "active" });
    await makeShortCode(p.accountId, { number: inactive, nickname: "Velho", status: "inactive" });
    await makeShortCode(other.accountId, { number: foreign, nickname: "Deles", status: "active" });
    expect((await send(p, { to: nextNumber(), body: "x", from: used })).status).toBe(200);
    // A sender in the history from before senders were checked: a send from it is refused now, so it is not offered.
    await makeMessage(p.accountId, { sender: "LOJA", recipient: nextNumber(), body: "antiga", status: "delivered" });
    const res = await api("/api/sms/senders", { token: p.token });
    expect(res.status).toBe(200);
    expect(res.body.data.map((s: { sender: string }) => s.sender)).toEqual([used, unused].sort());
    const bySender = Object.fromEntries(res.body.data.map((s: { sender: string }) => [s.sender, s]));
    expect(bySender[used]).toMatchObject({ type: "short_code", nickname: "Avisos", assigned: true, last_used_at: expect.any(String) });
    expect(bySender[unused]).toMatchObject({ type: "short_code", nickname: "", assigned: true, last_used_at: null });
    // The other account sees its own code, not these.
    const theirs = await api("/api/sms/senders", { token: other.token });
    expect(theirs.body.data.map((s: { sender: string }) => s.sender)).toEqual([foreign]);
  });

  it("a group campaign from a sender the account does not own is refused whole: 422 on from, no campaign, no message, no debit", async () => {
    const p = await person("smsgroupsender", 10_000);
    const other = await person("smsgroupsender-other", 0);
    const theirs = await giveShortCode(other.accountId);
    const group = await groupOf(p, 5);
    for (const from of ["40404", theirs, "LOJA"]) {
      const res = await api("/api/sms/messages", { token: p.token, body: { group_id: group.id, body: "Ofertas", from, campaign_name: "Falsa" }, lang: "en" });
      expect(res.status, from).toBe(422);
      expect(res.body.error.fields).toEqual({ from: ["This sender is not one of your account's senders"] });
    }
    expect(await query("SELECT id FROM campaigns WHERE account_id = $1", [p.accountId])).toEqual([]);
    expect(await query("SELECT id FROM messages WHERE account_id = $1", [p.accountId])).toEqual([]);
    expect(await balanceOf(p.accountId)).toBe(10_000);
    // Its own short code: the campaign is created.
    const own = await giveShortCode(p.accountId);
    const ok = await send(p, { group_id: group.id, body: "Ofertas", from: own });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect((await query<{ sender: string }>("SELECT sender FROM campaigns WHERE id = $1", [ok.body.campaign_id]))[0].sender).toBe(own);
  });

  it("lists the senders used, the routes with their price, and the account's price rows; only platform staff change a price", async () => {
    const p = await person("smscatalog", 1_000);
    await makeSmsPrice(p.accountId, { route: "T2", pricePerSegment: 5 });
    const [a, b] = [await giveShortCode(p.accountId), await giveShortCode(p.accountId)];
    expect((await send(p, { to: nextNumber(), body: "x", from: a })).status).toBe(200);
    expect((await send(p, { to: nextNumber(), body: "y", from: b })).status).toBe(200);
    const senders = await api("/api/sms/senders", { token: p.token });
    expect(senders.body.data.map((s: { sender: string; type: string; last_used_at: string | null }) => [s.sender, s.type, typeof s.last_used_at])).toEqual(
      [a, b].sort().map((n) => [n, "short_code", "string"]),
    );
    const products = await api("/api/sms/products", { token: p.token });
    expect(products.body.data[0].routes.map((r: { route: string; price_per_segment: number }) => [r.route, r.price_per_segment])).toEqual([
      ["T1", 8],
      ["T2", 5],
    ]);
    const prices = await api("/api/sms/prices", { token: p.token });
    expect(prices.body.data).toEqual([expect.objectContaining({ route: "T2", price_per_segment: 5, currency: "BRL" })]);
    const id = prices.body.data[0].id;
    expect((await api(`/api/sms/prices/${id}`, { token: p.token })).body.data.price_per_segment).toBe(5);
    const stranger = await person("smscatalog2", 0);
    expect((await api(`/api/sms/prices/${id}`, { token: stranger.token })).status).toBe(404);
    // The account's owner is not platform staff.
    expect((await api(`/api/sms/prices/${id}`, { token: p.token, method: "PUT", body: { price_per_segment: 1 } })).status).toBe(403);
    const staff = await person("smsstaff", 0);
    await setAccount(staff.accountId, { type: "platform" });
    const staffToken = (await login(staff.email, staff.password)).token;
    const put = await api(`/api/sms/prices/${id}`, { token: staffToken, method: "PUT", body: { price_per_segment: 6 } });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(put.body.data.price_per_segment).toBe(6);
    const bad = await api(`/api/sms/prices/${id}`, { token: staffToken, method: "PUT", body: { price_per_segment: "1.5" } });
    expect(bad.status).toBe(422);
    const after = await send(p, { to: nextNumber(), body: "z", route: "T2" });
    expect(after.body.total_price).toBe(6);
  });
});
