/**
 * Step 1 of the message pipeline for SMS over the real processes: POST /api/sms/messages prices
 * the send (segments × price per segment × recipients), debits it in the same transaction that
 * writes the messages and their outbox rows, and the worker + simulator carry each message to
 * the final status the simulator's mix predicts. Idempotency-Key, balance, validation, tenancy
 * and permission are checked by their effects on the database.
 */
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { simulatedOutcome } from "../../api/simulator/outcome";
import { api, giveShortCode, login, registerPerson, type Person } from "../support/api";
import { query } from "../support/db";
import { DEMO_PASSWORD } from "../support/web";
import { makeSmsPrice, setAccount, setMember } from "../support/factories";

const FINAL = ["delivered", "failed", "unavailable"];
const DEFAULT_T1 = 8; // centavos per segment (api/sms/pricing.ts)

async function person(tag: string, balance: number, creditLimit = 0) {
  const p = await registerPerson(tag);
  await setAccount(p.accountId, { balance, creditLimit });
  return { ...p, token: (await login(p.email, p.password)).token };
}

async function balanceOf(accountId: string) {
  const [row] = await query<{ balance: string }>("SELECT balance FROM account_balances WHERE account_id = $1", [accountId]);
  return Number(row.balance);
}

async function counts(accountId: string) {
  const [row] = await query<{ messages: string; outbox: string; events: string; keys: string }>(
    `SELECT (SELECT count(*) FROM messages WHERE account_id = $1) AS messages,
            (SELECT count(*) FROM outbox WHERE payload->>'message_id' IN (SELECT id::text FROM messages WHERE account_id = $1)) AS outbox,
            (SELECT count(*) FROM message_events WHERE account_id = $1 AND status = 'queued') AS events,
            (SELECT count(*) FROM idempotency_keys WHERE account_id = $1) AS keys`,
    [accountId],
  );
  return { messages: Number(row.messages), outbox: Number(row.outbox), queuedEvents: Number(row.events), keys: Number(row.keys) };
}

function send(token: string, body: unknown, opts: { key?: string; lang?: string } = {}) {
  return fetch(new URL("/api/sms/messages", inject("apiUrl")), {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      Authorization: `Bearer ${token}`,
      ...(opts.key ? { "Idempotency-Key": opts.key } : {}),
      ...(opts.lang ? { "Accept-Language": opts.lang } : {}),
    },
    body: JSON.stringify(body),
  }).then(async (res) => ({ status: res.status, body: (await res.json()) as any }));
}

async function waitFinal(token: string, id: string, ms = 20_000) {
  const until = Date.now() + ms;
  for (;;) {
    const res = await api(`/api/sms/messages/${id}`, { token });
    if (res.status === 200 && FINAL.includes(res.body.data.status)) return res.body.data;
    if (Date.now() > until) throw new Error(`message ${id} not final: ${JSON.stringify(res.body)}`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

let rich: Person & { token: string };
/** rich's own short code: the sender its sends use. */
let richCode: string;
const number = (n: number) => `11 9${String(70000000 + n)}`;
let seq = Math.floor(Math.random() * 9_000_000);
const nextNumber = () => number(seq++);
const e164 = (national: string) => `+55${national.replace(/\D/g, "")}`;

beforeAll(async () => {
  rich = await person("smsaccept", 100_000);
  richCode = await giveShortCode(rich.accountId);
});

describe("POST /api/sms/messages (accept)", () => {
  it("debits segments × price, writes message + outbox + queued event, and reaches the simulator's outcome", async () => {
    const to = nextNumber();
    const before = await balanceOf(rich.accountId);
    const res = await send(rich.token, { to, body: "Seu pedido 4821 é entregue às 18h", from: richCode });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({
      data: [{ id: expect.any(String), to: e164(to), status: "queued", segments: 1, coding: "GSM7", price: DEFAULT_T1 }],
      total_price: DEFAULT_T1,
      currency: "BRL",
    });
    expect(await balanceOf(rich.accountId)).toBe(before - DEFAULT_T1);

    const id = res.body.data[0].id;
    const [row] = await query<Record<string, unknown>>("SELECT * FROM messages WHERE id = $1", [id]);
    expect(row).toMatchObject({
      account_id: rich.accountId,
      channel: "sms",
      direction: "outbound",
      sender: richCode,
      recipient: e164(to),
      body: "Seu pedido 4821 é entregue às 18h",
      segments: 1,
      coding: "GSM7",
      route: "T1",
      price: String(DEFAULT_T1),
      currency: "BRL",
      provider: "simulator",
    });
    expect(row.queued_at).toBeInstanceOf(Date);
    const outbox = await query("SELECT topic FROM outbox WHERE payload->>'message_id' = $1", [id]);
    expect(outbox).toEqual([{ topic: "messages:sms" }]);

    const final = await waitFinal(rich.token, id);
    expect(final.status).toBe(simulatedOutcome(id));
    expect(final.events.map((e: { source: string; status: string }) => [e.source, e.status])).toEqual([
      ["system", "queued"],
      ["system", "sent"],
      ["provider", simulatedOutcome(id)],
    ]);
    expect(final).toMatchObject({ id, to: e164(to), from: richCode, coding: "GSM7", segments: 1, price: DEFAULT_T1, currency: "BRL", route: "T1" });

    const [audit] = await query<{ meta: Record<string, unknown> }>("SELECT meta FROM audit_logs WHERE account_id = $1 AND action = 'sms.accepted' ORDER BY id DESC LIMIT 1", [
      rich.accountId,
    ]);
    expect(audit.meta).toMatchObject({ messages: 1, segments: 1, total_price: DEFAULT_T1 });
    expect(JSON.stringify(audit.meta)).not.toContain(e164(to).slice(3));
    expect(JSON.stringify(audit.meta)).not.toContain("4821");
  });

  it("a 161-character GSM text is 2 segments and debits twice", async () => {
    const before = await balanceOf(rich.accountId);
    const res = await send(rich.token, { to: nextNumber(), body: "a".repeat(161) });
    expect(res.status).toBe(200);
    expect(res.body.data[0]).toMatchObject({ segments: 2, coding: "GSM7", price: 2 * DEFAULT_T1 });
    expect(res.body.total_price).toBe(2 * DEFAULT_T1);
    expect(await balanceOf(rich.accountId)).toBe(before - 2 * DEFAULT_T1);
  });

  it("accented and emoji text is UCS-2 (70 units per SMS, 67 per part)", async () => {
    const one = await send(rich.token, { to: nextNumber(), body: "Olá, sua promoção chegou 😀" });
    expect(one.status).toBe(200);
    expect(one.body.data[0]).toMatchObject({ coding: "UCS2", segments: 1 });
    const before = await balanceOf(rich.accountId);
    const three = await send(rich.token, { to: nextNumber(), body: "ã".repeat(135) });
    expect(three.body.data[0]).toMatchObject({ coding: "UCS2", segments: 3, price: 3 * DEFAULT_T1 });
    expect(await balanceOf(rich.accountId)).toBe(before - 3 * DEFAULT_T1);
    const [row] = await query<{ coding: string; segments: number }>("SELECT coding, segments FROM messages WHERE id = $1", [three.body.data[0].id]);
    expect(row).toEqual({ coding: "UCS2", segments: 3 });
  });

  it("3 recipients create 3 messages (and 3 outbox rows) and debit 3×", async () => {
    const p = await person("smsthree", 1_000);
    const to = [nextNumber(), nextNumber(), nextNumber()];
    const res = await send(p.token, { to, body: "Promoção de hoje", route: "T1" });
    expect(res.status).toBe(200);
    expect(res.body.data.map((d: { to: string }) => d.to)).toEqual(to.map(e164));
    expect(new Set(res.body.data.map((d: { id: string }) => d.id)).size).toBe(3);
    expect(res.body.total_price).toBe(3 * DEFAULT_T1);
    expect(await balanceOf(p.accountId)).toBe(1_000 - 3 * DEFAULT_T1);
    expect(await counts(p.accountId)).toEqual({ messages: 3, outbox: 3, queuedEvents: 3, keys: 0 });
  });

  it("an account's own price per segment wins over the default", async () => {
    const p = await person("smsprice", 1_000);
    await makeSmsPrice(p.accountId, { route: "T2", pricePerSegment: 5, currency: "BRL" });
    const res = await send(p.token, { to: nextNumber(), body: "b".repeat(200), route: "T2" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ total_price: 10, data: [{ segments: 2, price: 10 }] });
    expect(await balanceOf(p.accountId)).toBe(990);
    // A route with neither a price of the account nor a default is not offered.
    const t4 = await send(p.token, { to: nextNumber(), body: "x", route: "T4" });
    expect(t4.status).toBe(422);
    expect(Object.keys(t4.body.error.fields)).toEqual(["route"]);
  });

  it("the demo tenant is seeded with its own T1 price of 7 centavos", async () => {
    const rows = await query<{ route: string; price_per_segment: string; currency: string }>(
      "SELECT route, price_per_segment, currency FROM sms_prices WHERE account_id = (SELECT id FROM accounts WHERE name = 'Demo Comércio Ltda')",
    );
    expect(rows).toEqual([{ route: "T1", price_per_segment: "7", currency: "BRL" }]);
  });

  it("an invalid recipient is a 422 naming its index; nothing is debited or written", async () => {
    const p = await person("smsinvalid", 1_000);
    const res = await send(p.token, { to: [nextNumber(), "123", nextNumber()], body: "Oi" });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe("VALIDATION");
    expect(res.body.error.fields).toEqual({ "to.1": ["Número de telefone inválido"] });
    expect(await balanceOf(p.accountId)).toBe(1_000);
    expect(await counts(p.accountId)).toEqual({ messages: 0, outbox: 0, queuedEvents: 0, keys: 0 });

    const empty = await send(p.token, { to: nextNumber(), body: "   " });
    expect(empty.status).toBe(422);
    expect(Object.keys(empty.body.error.fields)).toEqual(["body"]);
    const long = await send(p.token, { to: nextNumber(), body: "a".repeat(1601), from: "NOME_LONGO_DEMAIS" });
    expect(long.status).toBe(422);
    expect(Object.keys(long.body.error.fields).sort()).toEqual(["body", "from"]);
    const many = await send(p.token, { to: Array.from({ length: 1001 }, () => nextNumber()), body: "x" });
    expect(many.status).toBe(422);
    expect(Object.keys(many.body.error.fields)).toEqual(["to"]);
    // A schedule in the past (or not ISO 8601 with an offset) is refused (scheduling: tests/integration/sms-send.test.ts).
    const scheduled = await send(p.token, { to: nextNumber(), body: "x", scheduled_at: new Date(Date.now() - 60_000).toISOString() });
    expect(scheduled.status).toBe(422);
    expect(Object.keys(scheduled.body.error.fields)).toEqual(["scheduled_at"]);
    const noOffset = await send(p.token, { to: nextNumber(), body: "x", scheduled_at: "2030-01-01T10:00" });
    expect(noOffset.status).toBe(422);
    expect(Object.keys(noOffset.body.error.fields)).toEqual(["scheduled_at"]);
    expect(await counts(p.accountId)).toEqual({ messages: 0, outbox: 0, queuedEvents: 0, keys: 0 });
  });

  it("a sender the account does not own is a translated 422 on from; nothing is stored or charged; its own active short code and no sender are accepted", async () => {
    const p = await person("smssender", 1_000);
    const other = await registerPerson("smssender-other");
    const theirs = await giveShortCode(other.accountId);
    const retired = await giveShortCode(p.accountId, { status: "inactive" });
    // "40404": the case, a short code that is not the account's; then another account's code, its own inactive code, a brand name.
    for (const from of ["40404", theirs, retired, "LOJA"]) {
      const res = await send(p.token, { to: nextNumber(), body: "Seu código é 1234", from }, { key: `k-${randomUUID()}`, lang: "en" });
      expect(res.status, from).toBe(422);
      expect(res.body.error).toMatchObject({ code: "VALIDATION", fields: { from: ["This sender is not one of your account's senders"] } });
    }
    const pt = await send(p.token, { to: [nextNumber(), nextNumber()], body: "Oi", from: "40404" });
    expect(pt.body.error.fields).toEqual({ from: ["Este remetente não é um dos remetentes da sua conta"] });
    expect(await balanceOf(p.accountId)).toBe(1_000);
    expect(await counts(p.accountId)).toEqual({ messages: 0, outbox: 0, queuedEvents: 0, keys: 0 });
    expect(await query("SELECT id FROM campaigns WHERE account_id = $1", [p.accountId])).toEqual([]);

    const own = await giveShortCode(p.accountId);
    const ok = await send(p.token, { to: nextNumber(), body: "Seu código é 1234", from: own });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    const blank = await send(p.token, { to: nextNumber(), body: "Seu código é 1234" });
    expect(blank.status, JSON.stringify(blank.body)).toBe(200);
    const rows = await query<{ id: string; sender: string }>("SELECT id, sender FROM messages WHERE account_id = $1", [p.accountId]);
    expect(Object.fromEntries(rows.map((r) => [r.id, r.sender]))).toEqual({ [ok.body.data[0].id]: own, [blank.body.data[0].id]: "" });
    expect(await balanceOf(p.accountId)).toBe(1_000 - 2 * DEFAULT_T1);
  });

  it("insufficient balance is 402 with the translated message and writes nothing; the credit limit counts", async () => {
    const p = await person("smspoor", 10);
    const res = await send(p.token, { to: [nextNumber(), nextNumber()], body: "Oferta" }, { key: `k-${randomUUID()}` });
    expect(res.status).toBe(402);
    expect(res.body.error).toMatchObject({ code: "INSUFFICIENT_BALANCE", message: "Saldo insuficiente para este envio" });
    const en = await send(p.token, { to: [nextNumber(), nextNumber()], body: "Oferta" }, { lang: "en" });
    expect(en.body.error.message).toBe("Insufficient balance for this send");
    expect(await balanceOf(p.accountId)).toBe(10);
    expect(await counts(p.accountId)).toEqual({ messages: 0, outbox: 0, queuedEvents: 0, keys: 0 });

    // balance 10 + credit limit 6 covers 2 × 8: the balance goes negative within the limit.
    await setAccount(p.accountId, { creditLimit: 6 });
    const ok = await send(p.token, { to: [nextNumber(), nextNumber()], body: "Oferta" });
    expect(ok.status).toBe(200);
    expect(await balanceOf(p.accountId)).toBe(-6);
    const over = await send(p.token, { to: nextNumber(), body: "Oferta" });
    expect(over.status).toBe(402);
    expect(await balanceOf(p.accountId)).toBe(-6);
  });

  it("the same Idempotency-Key twice: one set of messages, one debit, the same answer; another request under it is 409", async () => {
    const p = await person("smsidem", 1_000);
    const key = `order-${randomUUID()}`;
    const to = [nextNumber(), nextNumber()];
    const first = await send(p.token, { to, body: "Pedido confirmado" }, { key });
    expect(first.status).toBe(200);
    // The same request written differently (formatting of the numbers) is the same request.
    const again = await send(p.token, { to: to.map(e164), body: "Pedido confirmado" }, { key });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(await balanceOf(p.accountId)).toBe(1_000 - 2 * DEFAULT_T1);
    expect(await counts(p.accountId)).toEqual({ messages: 2, outbox: 2, queuedEvents: 2, keys: 1 });

    const conflict = await send(p.token, { to, body: "Pedido cancelado" }, { key });
    expect(conflict.status).toBe(409);
    expect(conflict.body.error.code).toBe("IDEMPOTENCY_CONFLICT");
    expect(await balanceOf(p.accountId)).toBe(1_000 - 2 * DEFAULT_T1);
    expect(await counts(p.accountId)).toEqual({ messages: 2, outbox: 2, queuedEvents: 2, keys: 1 });

    // Concurrent uses of a fresh key: still one set and one debit.
    const key2 = `order-${randomUUID()}`;
    const to2 = nextNumber();
    const answers = await Promise.all([1, 2, 3].map(() => send(p.token, { to: to2, body: "Outro" }, { key: key2 })));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    expect(new Set(answers.map((a) => a.body.data[0].id)).size).toBe(1);
    expect(await balanceOf(p.accountId)).toBe(1_000 - 3 * DEFAULT_T1);
    expect((await counts(p.accountId)).messages).toBe(3);

    // Keys belong to an account: another account may use the same key.
    const other = await person("smsidem2", 100);
    const elsewhere = await send(other.token, { to, body: "Pedido cancelado" }, { key });
    expect(elsewhere.status).toBe(200);
    expect(await balanceOf(other.accountId)).toBe(100 - 2 * DEFAULT_T1);
  });

  it("GET /api/sms/messages/:id: the account's own message; 404 for another account or a bad id", async () => {
    const res = await send(rich.token, { to: nextNumber(), body: "Só para mim" });
    const id = res.body.data[0].id;
    const own = await api(`/api/sms/messages/${id}`, { token: rich.token });
    expect(own.status).toBe(200);
    expect(own.body.data).toMatchObject({ id, body: "Só para mim", direction: "outbound" });
    expect(own.body.data.events[0]).toMatchObject({ status: "queued", source: "system" });

    const stranger = await person("smsstranger", 0);
    const theirs = await api(`/api/sms/messages/${id}`, { token: stranger.token });
    expect(theirs.status).toBe(404);
    expect(JSON.stringify(theirs.body)).not.toContain("Só para mim");
    expect((await api(`/api/sms/messages/not-a-uuid`, { token: rich.token })).status).toBe(404);
    expect((await api(`/api/sms/messages/${randomUUID()}`, { token: rich.token })).status).toBe(404);
    expect((await api(`/api/sms/messages/${id}`)).status).toBe(401);
  });

  it("permission /sms/send: an agent may send, a developer may not", async () => {
    // Demo users (their account's balance is shared by other tests): an agent passes the
    // permission check and reaches validation; a developer is refused before anything.
    const agent = (await login("agent@demo.example", DEMO_PASSWORD)).token;
    const developer = (await login("developer@demo.example", DEMO_PASSWORD)).token;
    const invalid = { to: "123", body: "Oi" };
    expect((await send(agent, invalid)).status).toBe(422);
    const refused = await send(developer, { to: nextNumber(), body: "Oi" });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe("FORBIDDEN");

    // A real send by an agent, in a fresh account whose person is made an agent.
    const p = await person("smsagent", 1_000);
    await setMember(p.accountId, p.userId, { role: "agent" });
    const asAgent = await send(p.token, { to: nextNumber(), body: "Enviado pelo atendente" });
    expect(asAgent.status, JSON.stringify(asAgent.body)).toBe(200);
    expect(await balanceOf(p.accountId)).toBe(1_000 - DEFAULT_T1);

    await setMember(p.accountId, p.userId, { role: "developer" });
    const asDeveloper = await send(p.token, { to: nextNumber(), body: "Não pode" });
    expect(asDeveloper.status).toBe(403);
    expect(await balanceOf(p.accountId)).toBe(1_000 - DEFAULT_T1);
    expect((await counts(p.accountId)).messages).toBe(1);
  });
});
