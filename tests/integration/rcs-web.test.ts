/**
 * The RCS send and history screens through the web process, as a browser without JavaScript
 * (issue 21): "Preview" posts and the page shows the phone preview and the price with nothing
 * written; "Send" accepts and redirects to /rcs/success with the message, its preview, price and
 * status; a bad carousel (11 cards, a card's bad image link in a later slot) shows the translated
 * error at its input and charges nothing; /rcs/history lists every content type with the SMS
 * fallback badge and inbound messages, its filters work, and each detail renders its content.
 * GET /api/rcs/messages answers the same list.
 */
import { Value } from "@sinclair/typebox/value";
import { beforeAll, describe, expect, it } from "vitest";
import { RcsMessages } from "../../api/rcs/history-routes";
import { api, login } from "../support/api";
import { query } from "../support/db";
import { balanceOf, makeMessageEvents, makeRcsAgent, mobileNumber, setAccount } from "../support/factories";
import { DEMO_PASSWORD, location, signedInCustomer, type WebCustomer } from "../support/web";

let owner: WebCustomer;
let agent: { id: string; rbmAgentId: string | null };
const strip = (html: string) => html.replace(/<script[\s\S]*?<\/script>/g, "");
/** The HTML of the element whose opening tag carries `marker` (up to its own closing tag of the same name, nesting counted). */
function element(html: string, marker: string): string {
  const at = html.indexOf(marker);
  if (at < 0) return "";
  const start = html.lastIndexOf("<", at);
  const tag = /^<(\w+)/.exec(html.slice(start))![1];
  const re = new RegExp(`<${tag}[\\s>]|</${tag}>`, "g");
  re.lastIndex = start + 1;
  let depth = 1;
  for (let m = re.exec(html); m; m = re.exec(html)) {
    depth += m[0].startsWith("</") ? -1 : 1;
    if (depth === 0) return html.slice(start, m.index + m[0].length);
  }
  return html.slice(start);
}
const messagesOf = async (accountId: string) => (await query<{ n: number }>(`SELECT count(*)::int AS n FROM messages WHERE account_id = $1 AND channel = 'rcs'`, [accountId]))[0].n;

const carousel = (n: number, extra: Record<string, string> = {}) => {
  const f: Record<string, string> = { agent_id: agent.id, "content.type": "card-carousel", ...extra };
  for (let i = 0; i < n; i++) {
    f[`content.images.${i}.title`] = `Produto ${i + 1}`;
    f[`content.images.${i}.description`] = `Oferta ${i + 1}`;
    f[`content.images.${i}.uri`] = `https://loja.example/p${i + 1}.jpg`;
    f[`content.images.${i}.suggestions.0.type`] = "url";
    f[`content.images.${i}.suggestions.0.text`] = `Comprar ${i + 1}`;
    f[`content.images.${i}.suggestions.0.url`] = `https://loja.example/p${i + 1}`;
  }
  return f;
};

beforeAll(async () => {
  owner = await signedInCustomer("rcsweb", { balance: 10_000 });
  agent = await makeRcsAgent(owner.accountId, { name: "Loja Aurora" });
});

describe("the RCS composer without JavaScript", () => {
  it("shows the agent's launched agents, and Preview shows the phone preview and the price with nothing written or charged", async () => {
    const { res, html } = await owner.client.page("/rcs/send");
    expect(res.status).toBe(200);
    expect(html).toContain("Loja Aurora");
    expect(html).toContain('name="content.images.9.title"'); // every card slot is a plain input
    expect(html).toContain('name="content.suggestions.10.text"');

    const to = mobileNumber();
    const preview = await owner.client.post("/rcs/send", {
      ...carousel(3, { to }),
      "content.suggestions.0.type": "dial",
      "content.suggestions.0.text": "Ligar",
      "content.suggestions.0.phoneNumber": "+551130000000",
      intent: "preview",
    });
    expect(preview.status).toBe(200);
    const page = strip(await preview.text());
    const phone = element(page, 'data-testid="rcs-preview"');
    expect(phone).toContain('data-type="card-carousel"');
    expect(phone).toContain("Loja Aurora");
    for (const n of [1, 2, 3]) {
      expect(phone).toContain(`Produto ${n}`);
      expect(phone).toContain(`Comprar ${n}`);
      expect(phone).toContain(`p${n}.jpg`);
    }
    expect(phone).toContain("Ligar");
    expect(element(page, 'data-testid="rcs-price"')).toMatch(/Mensagem Rica: R\$\s0,18/);
    // The form comes back as posted.
    expect(page).toContain('value="Produto 3"');
    expect(await messagesOf(owner.accountId)).toBe(0);
    expect(await balanceOf(owner.accountId)).toBe(10_000);

    const basic = await owner.client.post("/rcs/send", {
      agent_id: agent.id,
      to,
      "content.type": "text",
      "content.messageText": "Seu pedido saiu para entrega",
      intent: "preview",
    });
    expect(element(strip(await basic.text()), 'data-testid="rcs-price"')).toMatch(/Mensagem Básica: R\$\s0,06/);
  });

  it("a template of the account loads into the composer (?template=), drawn in the preview; another account's is not offered", async () => {
    const content = {
      type: "card",
      messageText: "Cupom de 10%",
      messageDescription: "Válido hoje",
      imageUrl: "https://loja.example/cupom.png",
      suggestions: [{ type: "reply", text: "Quero o cupom" }],
    };
    const [tpl] = await query<{ id: string }>(`INSERT INTO rcs_templates (account_id, name, content) VALUES ($1, 'Cupom', $2::jsonb) RETURNING id`, [
      owner.accountId,
      JSON.stringify(content),
    ]);
    const other = await signedInCustomer("rcsweb-tpl");
    const [foreign] = await query<{ id: string }>(`INSERT INTO rcs_templates (account_id, name, content) VALUES ($1, 'Alheio', $2::jsonb) RETURNING id`, [
      other.accountId,
      JSON.stringify({ type: "text", messageText: "De outra conta" }),
    ]);
    const page = strip((await owner.client.page(`/rcs/send?template=${tpl.id}`)).html);
    expect(page).toContain(">Cupom</option>");
    expect(page).not.toContain("Alheio");
    expect(page).toContain('value="Quero o cupom"');
    const phone = element(page, 'data-testid="rcs-preview"');
    expect(phone).toContain('data-type="card"');
    for (const s of ["Cupom de 10%", "Válido hoje", "cupom.png", "Quero o cupom"]) expect(phone).toContain(s);
    const foreignPage = strip((await owner.client.page(`/rcs/send?template=${foreign.id}`)).html);
    expect(foreignPage).not.toContain("De outra conta");
  });

  it("Send accepts the message and redirects to /rcs/success, which shows it with its preview, price and status", async () => {
    const to = mobileNumber();
    const res = await owner.client.post("/rcs/send", { ...carousel(2, { to }), fallback_sms: "on", intent: "send" });
    expect(res.status).toBe(302);
    const where = location(res)!;
    expect(where).toMatch(/^\/rcs\/success\?id=[0-9a-f-]{36}$/);
    const id = where.split("=")[1];
    const [row] = await query<{ recipient: string; type: string; route: string; price: string; content: any }>(
      `SELECT recipient, type, route, price, content FROM messages WHERE id = $1 AND account_id = $2`,
      [id, owner.accountId],
    );
    expect(row).toMatchObject({ recipient: to, type: "card-carousel", route: "rich" });
    expect(Number(row.price)).toBe(18);
    expect(row.content.fallbackSms).toBe(true);
    expect(row.content.images).toHaveLength(2);
    expect(await balanceOf(owner.accountId)).toBe(10_000 - 18);

    const { res: ok, html } = await owner.client.page(where);
    expect(ok.status).toBe(200);
    const page = strip(html);
    expect(page).toContain(id);
    // The page shows the message's status now: the worker may already have taken it from the queue.
    expect(page).toMatch(/data-status="(queued|sending|sent|delivered|read)"/);
    expect(page).toMatch(/R\$\s0,18 · Rica/);
    const phone = element(page, 'data-testid="rcs-preview"');
    expect(phone).toContain("Produto 2");
    expect(phone).toContain("Comprar 1");
    // Another account's message is not found.
    const other = await signedInCustomer("rcsweb2");
    expect((await other.client.get(where)).status).toBe(404);
  });

  it("refuses 11 cards with the translated error at the cards and charges nothing; a later slot's bad image link shows at that input", async () => {
    await setAccount(owner.accountId, { balance: 5_000 });
    const before = await messagesOf(owner.accountId);
    const res = await owner.client.post("/rcs/send", { ...carousel(11, { to: mobileNumber() }), intent: "send" });
    expect(res.status).toBe(422);
    const page = strip(await res.text());
    expect(element(page, 'id="rcs-content-images-error"')).toContain("No máximo 10 cards em um carrossel");
    expect(page).toContain('value="Produto 11"'); // the 11th card posted comes back in its own slot
    expect(await messagesOf(owner.accountId)).toBe(before);
    expect(await balanceOf(owner.accountId)).toBe(5_000);

    // Slots 0 and 3 filled, 1 and 2 empty: the send's content.images.1.uri is slot 3's input.
    const f = carousel(4, { to: mobileNumber() });
    for (const k of Object.keys(f)) if (/^content\.images\.[12]\./.test(k)) delete f[k];
    f["content.images.3.uri"] = "https://loja.example/p4.txt";
    const bad = await owner.client.post("/rcs/send", { ...f, intent: "send" });
    expect(bad.status).toBe(422);
    const badPage = strip(await bad.text());
    expect(element(badPage, 'id="rcs-content-images-3-uri-error"')).toContain("URL de mídia inválida");
    expect(badPage).not.toContain('id="rcs-content-images-1-uri-error"');
    // A bad handset shows at its input.
    const phoneless = await owner.client.post("/rcs/send", { ...carousel(2), to: "123", intent: "preview" });
    expect(element(strip(await phoneless.text()), 'id="rcs-to-error"')).toContain("Número de telefone inválido");
    expect(await messagesOf(owner.accountId)).toBe(before);
    expect(await balanceOf(owner.accountId)).toBe(5_000);
  });
});

describe("the RCS history", () => {
  it("lists every content type both ways with the SMS fallback badge, filters, and renders each one's detail", async () => {
    const c = await signedInCustomer("rcshist", { balance: 10_000 });
    const a = await makeRcsAgent(c.accountId, { name: "Agente Sol" });
    const to = mobileNumber();
    const sends: Array<[string, Record<string, string>, string[]]> = [
      ["text", { "content.messageText": "Olá do RCS" }, ["Olá do RCS"]],
      [
        "link",
        {
          "content.messageText": "Veja a loja",
          "content.suggestions.0.type": "url",
          "content.suggestions.0.text": "Abrir loja",
          "content.suggestions.0.url": "https://loja.example",
        },
        ["Veja a loja", "Abrir loja"],
      ],
      ["midia", { "content.fileUrl": "https://loja.example/catalogo.pdf", "content.messageText": "Nosso catálogo" }, ["catalogo.pdf", "Nosso catálogo", 'data-preview="file"']],
      [
        "card",
        {
          "content.messageText": "Tênis Azul",
          "content.messageDescription": "Só hoje",
          "content.imageUrl": "https://loja.example/tenis.png",
          "content.suggestions.0.text": "Quero",
        },
        ["Tênis Azul", "Só hoje", "tenis.png", 'data-preview="chip"', "Quero"],
      ],
      ["card-carousel", carousel(2), ["Produto 1", "Produto 2", "Comprar 2", 'data-preview="card-button"']],
    ];
    const ids: Record<string, string> = {};
    for (const [type, fields, _] of sends) {
      const res = await c.client.post("/rcs/send", { ...fields, agent_id: a.id, to, "content.type": type, intent: "send" });
      expect(res.status, `${type}: ${res.status === 422 ? await res.text() : ""}`).toBe(302);
      ids[type] = location(res)!.split("=")[1];
    }
    // The text one failed (not RCS-capable) and an SMS stood in; the handset answered the card by tapping "Quero".
    await query(`UPDATE messages SET status = 'failed', error_code = 'RCS_NOT_CAPABLE', error_message = 'Not RCS-capable', failed_at = now() WHERE id = $1`, [ids.text]);
    await makeMessageEvents(c.accountId, ids.text, [{ status: "failed", source: "provider", payload: { error_code: "RCS_NOT_CAPABLE", error_message: "Not RCS-capable" } }]);
    await query(
      `INSERT INTO messages (account_id, channel, direction, sender, recipient, body, segments, status, price, currency, fallback_of)
       VALUES ($1, 'sms', 'outbound', 'LOJA', $2, 'Olá do RCS', 1, 'delivered', 7, 'BRL', $3)`,
      [c.accountId, to, ids.text],
    );
    const [tap] = await query<{ id: string }>(
      `INSERT INTO messages (account_id, channel, direction, sender, recipient, body, segments, status, price, currency, type)
       VALUES ($1, 'rcs', 'inbound', $2, $3, 'Quero', 1, 'received', 0, 'BRL', 'text') RETURNING id`,
      [c.accountId, to, a.rbmAgentId],
    );

    const { res, html } = await c.client.page("/rcs/history");
    expect(res.status).toBe(200);
    const list = strip(html);
    for (const id of [...Object.values(ids), tap.id]) expect(list).toContain(`data-message-id="${id}"`);
    const textRow = element(list, `data-message-id="${ids.text}"`);
    expect(textRow).toContain("SMS de contingência: Entregue");
    expect(textRow).toContain("Agente Sol");
    expect(element(list, `data-message-id="${tap.id}"`)).toContain('data-direction="inbound"');
    // The SMS leg is not a row of its own.
    expect((list.match(/data-message-id=/g) ?? []).length).toBe(6);

    const cards = strip((await c.client.page("/rcs/history?type=card-carousel")).html);
    expect((cards.match(/data-message-id=/g) ?? []).length).toBe(1);
    expect(cards).toContain(ids["card-carousel"]);
    const tooLong = strip((await c.client.page("/rcs/history?start=2026-01-01&end=2026-03-01")).html);
    expect(element(tooLong, 'id="rcs-history-end-error"')).toContain("31");

    for (const [type, _, shows] of sends) {
      const { res: r, html: h } = await c.client.page(`/rcs/history/${ids[type]}`);
      expect(r.status).toBe(200);
      const phone = element(strip(h), 'data-testid="rcs-preview"');
      expect(phone, type).toContain(`data-type="${type}"`);
      expect(phone).toContain("Agente Sol");
      for (const s of shows) expect(phone, `${type}: ${s}`).toContain(s);
    }
    const failed = strip((await c.client.page(`/rcs/history/${ids.text}`)).html);
    expect(failed).toContain('data-error-code="RCS_NOT_CAPABLE"');
    expect(element(failed, 'data-testid="sms-fallback"')).toContain('data-status="delivered"');
    expect(element(failed, 'data-testid="sms-fallback"')).toMatch(/R\$\s0,07/);
    const card = strip((await c.client.page(`/rcs/history/${ids.card}`)).html);
    expect(element(card, 'data-testid="rcs-responses"')).toContain("Quero");
    // Its picture comes through our origin (/rcs/media, fetched by the guarded client); what a handset
    // would not show as a picture, or a host that cannot be reached, is not served (the tile stays).
    expect(element(card, 'data-testid="rcs-preview"')).toMatch(/<img[^>]+src="\/rcs\/media\?u=https%3A%2F%2F[^"]+"/);
    for (const u of ["https://loja.example/x.svg", "http://loja.example/x.png", "https://127.0.0.1/x.png", "https://10.1.2.3/x.jpg", "https://nowhere.invalid/x.png"]) {
      expect((await c.client.get(`/rcs/media?u=${encodeURIComponent(u)}`)).status, u).toBe(404);
    }
    // Another account's message is not found.
    expect((await owner.client.get(`/rcs/history/${ids.card}`)).status).toBe(404);

    // The API's list: the same rows, the fallback leg on the RCS row, filtered by type and handset.
    const { token } = await login(c.email, DEMO_PASSWORD);
    const all = await api("/api/rcs/messages", { token });
    expect(all.status).toBe(200);
    expect(all.body.data).toHaveLength(6);
    // The documented answer is the real one.
    expect([...Value.Errors(RcsMessages, all.body)].map((e) => `${e.path}: ${e.message}`)).toEqual([]);
    expect(all.body.data.find((m: { id: string }) => m.id === ids.text)).toMatchObject({ status: "failed", agent_name: "Agente Sol", fallback: { status: "delivered", price: 7 } });
    const one = await api(`/api/rcs/messages?type=card&to=${encodeURIComponent(to)}`, { token });
    expect(one.body.data.map((m: { id: string }) => m.id)).toEqual([ids.card]);
    const paged = await api("/api/rcs/messages?limit=4", { token });
    const next = await api(`/api/rcs/messages?limit=4&cursor=${encodeURIComponent(paged.body.next_cursor)}`, { token });
    expect([...paged.body.data, ...next.body.data].map((m: { id: string }) => m.id).sort()).toEqual([...Object.values(ids), tap.id].sort());
    expect((await api("/api/rcs/messages?type=fax", { token })).status).toBe(422);
  });
});
