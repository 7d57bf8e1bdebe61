/**
 * RCS accept (issue 21, ADR 055): POST /api/rcs/messages for every content type of spec section 3,
 * priced basic (a plain text under 160 characters) or rich at accept and debited in the account's
 * currency; bad content refused naming the rule with nothing written or charged; an agent not
 * launched refused; opted-out handsets written at price 0; the Idempotency-Key honoured; the
 * quote; GET /api/rcs/messages/{id}.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { api, login, registerPerson } from "../support/api";
import { query } from "../support/db";
import { balanceOf, makeRcsAgent, setAccount } from "../support/factories";

/** An accepted message's status once the dispatcher may have taken it (the peer delivers and reads it). */
const onItsWay = expect.stringMatching(/^(queued|sending|sent|delivered|read)$/);
let token: string;
let accountId: string;
let agentId: string;
const as = (path: string, o: { method?: string; body?: unknown; lang?: string; headers?: Record<string, string> } = {}) => api(path, { token, ...o });
const phone = () =>
  `+55119${String(Math.floor(Math.random() * 1e8))
    .padStart(8, "0")
    .replace(/0000$/, "0001")}`;
const send = (content: unknown, extra: Record<string, unknown> = {}, lang = "en") => as("/api/rcs/messages", { body: { agent_id: agentId, to: phone(), content, ...extra }, lang });

const card = (n: number) => ({ uri: `https://loja.example/p${n}.jpg`, title: `Produto ${n}`, description: "Em oferta", suggestions: [{ type: "reply", text: "Quero" }] });

beforeAll(async () => {
  const p = await registerPerson("rcs-send");
  accountId = p.accountId;
  token = (await login(p.email, p.password)).token;
  agentId = (await makeRcsAgent(accountId)).id;
});

describe("accepting RCS messages", () => {
  it("takes every content type, stores the spec's content and its plain text, and prices by class: under 160 characters of plain text basic, 160 or any rich content rich", async () => {
    await setAccount(accountId, { balance: 10_000 });
    const cases = [
      { content: { type: "text", messageText: "a".repeat(159) }, cls: "basic", price: 6 },
      { content: { type: "text", messageText: "a".repeat(160) }, cls: "rich", price: 18 },
      { content: { type: "text", messageText: "Oi", suggestions: [{ type: "reply", text: "Sim" }] }, cls: "rich", price: 18 },
      { content: { type: "link", messageText: "Veja a loja", suggestions: [{ type: "url", text: "Abrir", url: "https://loja.example/ofertas" }] }, cls: "rich", price: 18 },
      { content: { type: "midia", fileUrl: "https://loja.example/catalogo.pdf", messageText: "Catálogo" }, cls: "rich", price: 18 },
      { content: { type: "card", messageText: "Tênis", messageDescription: "R$ 199", imageUrl: "https://loja.example/tenis.png" }, cls: "rich", price: 18 },
      {
        content: { type: "card-carousel", images: [card(1), card(2), card(3)], suggestions: [{ type: "dial", text: "Ligar", phoneNumber: "+551130000000" }] },
        cls: "rich",
        price: 18,
      },
    ];
    const ids: string[] = [];
    for (const c of cases) {
      const res = await send(c.content);
      expect(res.status, JSON.stringify(res.body)).toBe(202);
      expect(res.body.data).toMatchObject({ status: "queued", price_class: c.cls, price: c.price, currency: "BRL", fallback_sms: false });
      ids.push(res.body.data.id);
    }
    expect(await balanceOf(accountId)).toBe(10_000 - cases.reduce((n, c) => n + c.price, 0));
    const rows = await query<{ id: string; type: string; body: string; route: string; content: any; sender: string; provider: string; status: string }>(
      `SELECT id, type, body, route, content, sender, provider, status FROM messages WHERE id = ANY($1::uuid[])`,
      [ids],
    );
    const byId = new Map(rows.map((r) => [r.id, r]));
    const carousel = byId.get(ids[6])!;
    // The RBM adapter (api/channels/rcs/rbm.ts) dispatches it at once: queued, or already on its way.
    expect(carousel).toMatchObject({ type: "card-carousel", route: "rich", provider: "rbm", status: onItsWay });
    expect(carousel.sender).toMatch(/@rbm\.goog$/);
    expect(carousel.content.images).toHaveLength(3);
    expect(carousel.body).toBe(
      "Produto 1 — Em oferta\nhttps://loja.example/p1.jpg\nProduto 2 — Em oferta\nhttps://loja.example/p2.jpg\nProduto 3 — Em oferta\nhttps://loja.example/p3.jpg",
    );
    expect(byId.get(ids[3])!.body).toBe("Veja a loja\nhttps://loja.example/ofertas");
    // Each accepted message has its outbox row (topic messages:rcs).
    const outbox = await query<{ n: number }>(`SELECT count(*)::int AS n FROM outbox WHERE topic = 'messages:rcs' AND payload->>'message_id' = ANY($1::text[])`, [ids]);
    expect(outbox[0].n).toBe(ids.length);

    const one = await as(`/api/rcs/messages/${ids[5]}`);
    expect(one.status).toBe(200);
    expect(one.body.data).toMatchObject({ id: ids[5], agent_id: agentId, type: "card", price_class: "rich", status: onItsWay, fallback: null });
    expect(one.body.data.content).toMatchObject({ type: "card", messageText: "Tênis", imageUrl: "https://loja.example/tenis.png" });
  });

  it("refuses 11 cards, 12 suggestions, a card without title and media, a media link of another type, text over RBM's limit, naming the rule, and writes and charges nothing", async () => {
    await setAccount(accountId, { balance: 5_000 });
    const before = await query<{ n: number }>(`SELECT count(*)::int AS n FROM messages WHERE account_id = $1`, [accountId]);
    const twelve = Array.from({ length: 12 }, (_, i) => ({ type: "reply", text: `Opção ${i + 1}` }));
    const refused: Array<[unknown, string, string]> = [
      [{ type: "card-carousel", images: Array.from({ length: 11 }, (_, i) => card(i)) }, "content.images", "At most 10 cards in a carousel"],
      [{ type: "text", messageText: "Escolha", suggestions: twelve }, "content.suggestions", "At most 11 suggestions"],
      [{ type: "card", messageDescription: "Só descrição" }, "content.messageText", "A card needs a title or a media"],
      [{ type: "card-carousel", images: [card(1), { description: "sem título" }] }, "content.images.1.title", "A card needs a title or a media"],
      [{ type: "midia", imageUrl: "https://loja.example/foto.bmp" }, "content.imageUrl", "Invalid media URL"],
      [{ type: "midia", imageUrl: "http://127.0.0.1/foto.jpg" }, "content.imageUrl", "Invalid media URL"],
      [{ type: "text", messageText: "x".repeat(3073) }, "content.messageText", "maximum length 3072"],
      [{ type: "link", messageText: "Sem botão" }, "content.suggestions", "open URL"],
    ];
    for (const [content, field, words] of refused) {
      const res = await send(content);
      expect(res.status, JSON.stringify(content).slice(0, 80)).toBe(422);
      const said = (res.body.error.fields[field] ?? []).join(" ");
      expect(said.toLowerCase(), `${field}: ${JSON.stringify(res.body.error.fields)}`).toContain(words.toLowerCase());
    }
    // Translated.
    const pt = await send({ type: "card-carousel", images: Array.from({ length: 11 }, (_, i) => card(i)) }, {}, "pt-BR");
    expect(pt.body.error.fields["content.images"]).toEqual(["No máximo 10 cards em um carrossel"]);
    expect(await balanceOf(accountId)).toBe(5_000);
    const after = await query<{ n: number }>(`SELECT count(*)::int AS n FROM messages WHERE account_id = $1`, [accountId]);
    expect(after[0].n).toBe(before[0].n);
  });

  it("refuses an agent that is not launched or another account's; writes an opted-out handset at price 0; answers the same key's request once", async () => {
    await setAccount(accountId, { balance: 5_000 });
    const pending = await makeRcsAgent(accountId, { status: "in_review" });
    const notLaunched = await as("/api/rcs/messages", { body: { agent_id: pending.id, to: phone(), content: { type: "text", messageText: "Oi" } }, lang: "en" });
    expect(notLaunched.status).toBe(422);
    expect(notLaunched.body.error.fields.agent_id).toEqual(["The agent must be launched before it sends"]);
    const other = await registerPerson("rcs-send-other");
    const theirs = await makeRcsAgent(other.accountId);
    const foreign = await as("/api/rcs/messages", { body: { agent_id: theirs.id, to: phone(), content: { type: "text", messageText: "Oi" } } });
    expect(foreign.status).toBe(422);

    const optedOut = phone();
    await query(`INSERT INTO optouts (account_id, channel, recipient, source) VALUES ($1, 'rcs', $2, 'manual')`, [accountId, optedOut]);
    const blocked = await as("/api/rcs/messages", { body: { agent_id: agentId, to: optedOut, content: { type: "text", messageText: "Oi" } } });
    expect(blocked.status).toBe(202);
    expect(blocked.body.data).toMatchObject({ status: "optout", price: 0, error_code: "optout" });

    const key = `rcs-${Math.random()}`;
    const body = { agent_id: agentId, to: phone(), content: { type: "text", messageText: "Pedido 42 saiu" }, fallback_sms: true };
    const first = await as("/api/rcs/messages", { body, headers: { "Idempotency-Key": key } });
    const again = await as("/api/rcs/messages", { body, headers: { "Idempotency-Key": key } });
    expect(first.status).toBe(202);
    expect(again.body.data).toEqual(first.body.data);
    expect(first.body.data.fallback_sms).toBe(true);
    const conflict = await as("/api/rcs/messages", { body: { ...body, to: phone() }, headers: { "Idempotency-Key": key } });
    expect(conflict.status).toBe(409);
    expect(await balanceOf(accountId)).toBe(5_000 - 6);

    const quote = await as("/api/rcs/messages/quote", { body: { agent_id: agentId, to: phone(), content: { type: "card", messageText: "Oferta" } } });
    expect(quote.body.data).toEqual({ price_class: "rich", price: 18, currency: "BRL" });
  });
});
