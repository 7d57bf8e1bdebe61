/**
 * Accepting e-mail (issue 17, POST /api/email/messages): only from a validated domain of the
 * account; one message per distinct recipient, priced and debited at accept; opted-out and denied
 * addresses answered optout / rejected at price 0; header injection, missing content, oversized
 * HTML and bad addresses refused naming the field (translated), nothing written or charged; 402
 * writes nothing; the Idempotency-Key answers the first response; scheduled sends wait.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { api, login, registerPerson } from "../support/api";
import { query } from "../support/db";
import { rand, validatedDomain } from "../support/email";
import { balanceOf, setAccount, setMember } from "../support/factories";

let token: string;
let accountId: string;
let domain: string;
const send = (body: Record<string, unknown>, opts: { lang?: string; key?: string } = {}) =>
  api("/api/email/messages", { token, body, lang: opts.lang ?? "en", headers: opts.key ? { "Idempotency-Key": opts.key } : undefined });
const written = async () => (await query<{ n: number }>("SELECT count(*)::int AS n FROM messages WHERE account_id = $1 AND channel = 'email'", [accountId]))[0].n;

beforeAll(async () => {
  const p = await registerPerson("emailsend");
  accountId = p.accountId;
  token = (await login(p.email, p.password)).token;
  domain = (await validatedDomain(token)).domain;
});

describe("POST /api/email/messages", () => {
  it("refuses a from address whose domain is not validated with the spec's message; a registered but unchecked domain too", async () => {
    await setAccount(accountId, { balance: 1_000 });
    const none = await send({ from: `loja@naoregistrado-${rand()}.com`, to: "ana@example.com", subject: "Oi", text: "Olá" });
    expect(none.status).toBe(422);
    expect(none.body.error.fields).toEqual({ from: ["You need to register a domain and verify it before submitting"] });
    const pending = (await api("/api/email/domains", { token, body: { domain: `pendente-${rand()}.com` } })).body.data.domain;
    const unchecked = await send({ from: `loja@${pending}`, to: "ana@example.com", subject: "Oi", text: "Olá" }, { lang: "pt-BR" });
    expect(unchecked.body.error.fields).toEqual({ from: ["Você precisa registrar um domínio e verificá-lo antes de enviar"] });
    expect(await written()).toBe(0);
  });

  it("accepts one message per distinct recipient, debits the balance by the prices, answers an opted-out address optout and a denied one rejected, not charged", async () => {
    await setAccount(accountId, { balance: 1_000 });
    const optedOut = `saiu-${rand()}@example.com`;
    const denied = `negado-${rand()}@example.com`;
    await query("INSERT INTO optouts (account_id, channel, recipient, source) VALUES ($1, 'email', $2, 'manual')", [accountId, optedOut]);
    await query("INSERT INTO deny_list (account_id, recipient) VALUES ($1, $2)", [accountId, denied]);
    const before = await balanceOf(accountId);
    const res = await send({
      from: `Loja@${domain}`,
      from_name: "Loja Exemplo",
      to: ["Ana@Example.com", "bia@example.com", "ana@example.com", optedOut, denied],
      subject: "Seu pedido saiu para entrega",
      html: "<p>Olá! Seu pedido saiu.</p>",
      text: "Olá! Seu pedido saiu.",
    });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    const { messages, total_price, currency } = res.body.data;
    expect(messages.map((m: { to: string; status: string; price: number }) => [m.to, m.status, m.price])).toEqual([
      ["ana@example.com", "queued", 1],
      ["bia@example.com", "queued", 1],
      [optedOut, "optout", 0],
      [denied, "rejected", 0],
    ]);
    expect([total_price, currency]).toEqual([2, "BRL"]);
    expect(await balanceOf(accountId)).toBe(before - 2);
    const rows = await query<{
      sender: string;
      recipient: string;
      status: string;
      type: string;
      body: string;
      content: { subject: string; html: string; from_name: string; domain: string };
    }>("SELECT sender, recipient, status, type, body, content FROM messages WHERE id = ANY($1::uuid[]) ORDER BY recipient", [messages.map((m: { id: string }) => m.id)]);
    expect(rows[0]).toMatchObject({ sender: `loja@${domain}`, recipient: "ana@example.com", type: "email", body: "Olá! Seu pedido saiu." });
    expect(rows[0].content).toMatchObject({ subject: "Seu pedido saiu para entrega", html: "<p>Olá! Seu pedido saiu.</p>", from_name: "Loja Exemplo", domain });
    const outbox = await query("SELECT 1 FROM outbox WHERE payload->>'message_id' = ANY($1::text[])", [messages.map((m: { id: string }) => m.id)]);
    expect(outbox.length).toBeLessThanOrEqual(2); // relayed rows are removed; none for the blocked ones
    const events = await query<{ status: string }>("SELECT status FROM message_events WHERE message_id = ANY($1::uuid[]) ORDER BY status", [
      messages.map((m: { id: string }) => m.id),
    ]);
    expect(events.map((e) => e.status)).toEqual(["optout", "queued", "queued", "rejected"]);
  });

  it("refuses header injection, missing content, oversized HTML and bad addresses naming the field; nothing written or charged", async () => {
    await setAccount(accountId, { balance: 1_000 });
    const before = [await written(), await balanceOf(accountId)];
    const base = { from: `loja@${domain}`, to: "ana@example.com", subject: "Oi", text: "Olá" };
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ subject: "Oi\r\nBcc: todos@example.com" }, "subject", "No line breaks or control characters"],
      [{ from_name: "Loja\nBcc: x@example.com" }, "from_name", "No line breaks or control characters"],
      [{ text: undefined, html: "  " }, "html", "Give the content: HTML, text or both"],
      [{ html: `<p>${"x".repeat(512 * 1024)}</p>` }, "html", "The HTML can be at most 512 KB"],
      [{ subject: "" }, "subject", "Required field"],
      [{ to: "não é e-mail" }, "to", "Invalid e-mail"],
      [{ from: "loja" }, "from", "Invalid e-mail"],
    ];
    for (const [over, field, message] of cases) {
      const res = await send({ ...base, ...over });
      expect(res.status, field).toBe(422);
      expect(res.body.error.fields[field], `${field}: ${JSON.stringify(res.body.error.fields)}`).toEqual([message]);
    }
    const list = await send({ ...base, to: ["ana@example.com", "errado"] });
    expect(list.status).toBe(422);
    expect(Object.keys(list.body.error.fields)).toEqual(["to.1"]);
    expect([await written(), await balanceOf(accountId)]).toEqual(before);
  });

  it("402 when the balance does not cover the prices: nothing written; the Idempotency-Key answers the first response, another request under it 409", async () => {
    await setAccount(accountId, { balance: 1 });
    const before = await written();
    const two = await send({ from: `loja@${domain}`, to: ["a@example.com", "b@example.com"], subject: "Oi", text: "Olá" });
    expect(two.status).toBe(402);
    expect(await written()).toBe(before);
    await setAccount(accountId, { balance: 100 });
    const key = `mail-${rand()}`;
    const body = { from: `loja@${domain}`, to: "c@example.com", subject: "Oi", text: "Olá" };
    const first = await send(body, { key });
    expect(first.status).toBe(202);
    expect((await send(body, { key })).body).toEqual(first.body);
    expect(await balanceOf(accountId)).toBe(99);
    expect((await send({ ...body, subject: "Outro" }, { key })).status).toBe(409);
  });

  it("a scheduled send waits (no outbox row) and the developer role may not send", async () => {
    await setAccount(accountId, { balance: 100 });
    const at = new Date(Date.now() + 3_600_000).toISOString();
    const res = await send({ from: `loja@${domain}`, to: "d@example.com", subject: "Amanhã", text: "Olá", scheduled_at: at });
    expect(res.status).toBe(202);
    expect(res.body.data.messages[0].status).toBe("scheduled");
    expect(res.body.data.scheduled_at).toBe(at);
    expect(await query("SELECT 1 FROM outbox WHERE payload->>'message_id' = $1", [res.body.data.messages[0].id])).toHaveLength(0);
    const p = await registerPerson("emailsenddev");
    await setMember(p.accountId, p.userId, { role: "developer" });
    const dev = (await login(p.email, p.password)).token;
    expect((await api("/api/email/messages", { token: dev, body: { from: `a@${domain}`, to: "x@example.com", subject: "x", text: "x" } })).status).toBe(403);
  });
});
