/**
 * WhatsApp sends beyond one template (issue 16), against the simulator's loopback Graph peer:
 * media by link, places and interactive buttons inside the contact's window (each refused with the
 * rule it breaks), and campaigns — an approved template to a contact group of 10,000 with its
 * variables filled from the contacts, priced by category and debited once, opted-out and denied
 * contacts written at price 0, exact counts, canceled with every price back; a campaign of 300
 * dispatched and followed to its final statuses with exact counts and balance; pause (nothing more
 * is sent, the live counters hold), resume; a scheduled campaign canceled and refunded.
 */
import { beforeAll, describe, expect, inject, it } from "vitest";
import { api, login, registerPerson } from "../support/api";
import { query } from "../support/db";
import { balanceOf, giveOmni, makeGroupWithContacts, setAccount } from "../support/factories";
import { waitUntil } from "../support/loopback-peer";
import { inDispatchStream } from "../support/wait";
import { type CloudNumber, connectCloudNumber, contactWrites, digits, handset } from "../support/whatsapp";

let token: string;
let accountId: string;
let numberId: string;
let n: CloudNumber;
let templateName: string;
const as = (path: string, o: { method?: string; body?: unknown; lang?: string } = {}) => api(path, { token, ...o });
const campaign = async (id: string) => (await as(`/api/whatsapp/campaigns/${id}`)).body.data;

beforeAll(async () => {
  const p = await registerPerson("whatsapp-sends");
  accountId = p.accountId;
  await giveOmni(accountId);
  token = (await login(p.email, p.password)).token;
  n = await connectCloudNumber(token);
  numberId = n.numberId;
  templateName = `aviso_${digits(6)}`;
  const created = await as("/api/whatsapp/templates", {
    body: { number_id: numberId, name: templateName, category: "utility", language: "pt_BR", body: "Olá {{1}}, seu pedido {{2}} saiu.", body_examples: ["Ana", "42"] },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  await waitUntil("template approved", async () => (await as(`/api/whatsapp/templates/${created.body.data.id}`)).body.data.status === "approved");
});

describe("free-form WhatsApp messages inside the window", () => {
  it("an image by link, a place and reply buttons go to Graph as its objects; a bad link, a private address, repeated button titles and 11 list rows are refused naming the rule", async () => {
    await setAccount(accountId, { balance: 100_000 });
    const to = `+5511${digits(9).replace(/0001$/, "0002")}`;
    await contactWrites(n, to);
    await expect.poll(async () => (await as(`/api/whatsapp/window?number_id=${numberId}&to=${encodeURIComponent(to)}`)).body.data.open, { timeout: 10_000 }).toBe(true);
    const send = (body: Record<string, unknown>) => as("/api/whatsapp/messages", { body: { from: numberId, to, ...body }, lang: "en" });

    const image = await send({ type: "image", image: { link: "https://loja.example/produto.jpg", caption: "Nosso produto" } });
    expect(image.status, JSON.stringify(image.body)).toBe(202);
    expect(image.body.data).toMatchObject({ status: "queued", category: "service", price: 0 });
    const place = await send({ type: "location", location: { latitude: -23.5614, longitude: -46.6559, name: "Loja Paulista", address: "Av. Paulista, 1000" } });
    expect(place.status).toBe(202);
    const buttons = await send({
      type: "interactive",
      interactive: {
        type: "button",
        body: { text: "Confirma a entrega amanhã?" },
        action: {
          buttons: [
            { type: "reply", reply: { id: "sim", title: "Sim" } },
            { type: "reply", reply: { id: "nao", title: "Não" } },
          ],
        },
      },
    });
    expect(buttons.status).toBe(202);
    const rows = await query<{ id: string; type: string; body: string; content: any }>(`SELECT id, type, body, content FROM messages WHERE id = ANY($1::uuid[])`, [
      [image.body.data.id, place.body.data.id, buttons.body.data.id],
    ]);
    const byId = new Map(rows.map((r) => [r.id, r]));
    expect(byId.get(image.body.data.id)).toMatchObject({
      type: "image",
      body: "Nosso produto",
      content: { type: "image", image: { link: "https://loja.example/produto.jpg", caption: "Nosso produto" } },
    });
    expect(byId.get(place.body.data.id)).toMatchObject({ type: "location", body: "Loja Paulista — Av. Paulista, 1000 — -23.5614,-46.6559" });
    expect(byId.get(buttons.body.data.id)).toMatchObject({ type: "interactive", body: "Confirma a entrega amanhã?\n[Sim | Não]" });
    // At the peer, as Graph's objects.
    await expect
      .poll(
        async () => {
          const res = await fetch(new URL(`/whatsapp/_sim/messages?to=${to.slice(1)}`, inject("simulatorUrl")), {
            headers: { Authorization: `Bearer ${inject("simulatorApiKey")}` },
          });
          return ((await res.json()).data as Array<{ type: string }>).map((m) => m.type).sort();
        },
        { timeout: 15_000 },
      )
      .toEqual(["image", "interactive", "location"]);

    const refused: Array<[Record<string, unknown>, string, string]> = [
      [{ type: "image", image: { link: "ftp://loja.example/x.jpg" } }, "image.link", "Invalid media URL: use an https address the provider can download"],
      [{ type: "document", document: { link: "https://10.0.0.5/nota.pdf" } }, "document.link", "Invalid media URL: use an https address the provider can download"],
      [
        {
          type: "interactive",
          interactive: {
            type: "button",
            body: { text: "?" },
            action: {
              buttons: [
                { type: "reply", reply: { id: "a", title: "Sim" } },
                { type: "reply", reply: { id: "b", title: "sim" } },
              ],
            },
          },
        },
        "interactive.action.buttons",
        "Quick reply buttons cannot repeat text",
      ],
      [
        {
          type: "interactive",
          interactive: {
            type: "list",
            body: { text: "Escolha" },
            action: { button: "Opções", sections: [{ title: "A", rows: Array.from({ length: 11 }, (_, i) => ({ id: `r${i}`, title: `Opção ${i}` })) }] },
          },
        },
        "interactive.action.sections",
        "A list takes at most 10 options in all",
      ],
      [{ type: "location", location: { latitude: 95, longitude: 0 } }, "location.latitude", "Maximum value 90"],
    ];
    for (const [body, field, message] of refused) {
      const res = await send(body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.error.fields[field], JSON.stringify(res.body.error.fields)).toEqual([message]);
    }
  });

  it("`from` may name the number by its phone number id (a leading + too), for a message and a campaign; another account's number, or nonsense, is refused naming `from`", async () => {
    await setAccount(accountId, { balance: 100_000 });
    const tpl = { name: templateName, language: "pt_BR", variables: ["Ana", "9"] };
    const to = handset();
    const one = await as("/api/whatsapp/messages", { body: { from: n.phoneNumberId, to, type: "template", template: tpl } });
    expect(one.status, JSON.stringify(one.body)).toBe(202);
    const many = await as("/api/whatsapp/campaigns", {
      body: { from: `+${n.phoneNumberId}`, to: [handset()], template: tpl, scheduled_at: new Date(Date.now() + 86_400_000).toISOString() },
    });
    expect(many.status, JSON.stringify(many.body)).toBe(201);
    const sent = await query<{ sender: string }>(`SELECT sender FROM messages WHERE id = $1 OR campaign_id = $2`, [one.body.data.id, many.body.data.campaign_id]);
    expect(sent.map((m) => m.sender)).toEqual([n.phoneNumberId, n.phoneNumberId]);
    const stranger = await registerPerson("whatsapp-sends-other");
    await giveOmni(stranger.accountId);
    const theirs = await connectCloudNumber((await login(stranger.email, stranger.password)).token);
    for (const from of [theirs.phoneNumberId, theirs.numberId, "número"]) {
      const refused = await as("/api/whatsapp/messages", { body: { from, to, type: "template", template: tpl }, lang: "en" });
      expect(refused.status, from).toBe(422);
      expect(Object.keys(refused.body.error.fields)).toEqual(["from"]);
    }
  });

  it("outside the window media is refused like text: only a template", async () => {
    const res = await as("/api/whatsapp/messages", {
      body: { from: numberId, to: handset(), type: "image", image: { link: "https://loja.example/produto.jpg" } },
      lang: "en",
    });
    expect(res.status).toBe(422);
    expect(res.body.error.fields.template).toEqual(["Please provide a template before sending (the contact's 24-hour window is closed)"]);
  });
});

describe("WhatsApp campaigns", () => {
  it("a template to a group of 10,000, scheduled: variables from each contact, one debit at the category's price, opt-outs and the deny list at price 0, exact counts; canceled, every price comes back", async () => {
    // Distinct numbers ending in 3 (the peer fails those ending in 0001).
    const base = digits(3);
    const contacts = Array.from({ length: 10_000 }, (_, i) => ({ firstName: `Cliente${i}`, mobileNumber: `+5511${base}${String(i * 10 + 3).padStart(6, "0")}` }));
    const { groupId } = await makeGroupWithContacts(accountId, `Clientes ${digits(4)}`, contacts);
    const optedOut = contacts.slice(0, 3).map((c) => c.mobileNumber);
    const denied = contacts.slice(3, 5).map((c) => c.mobileNumber);
    for (const r of optedOut) await query(`INSERT INTO optouts (account_id, channel, recipient, source) VALUES ($1, 'whatsapp', $2, 'manual')`, [accountId, r]);
    for (const r of denied) await query(`INSERT INTO deny_list (account_id, recipient) VALUES ($1, $2)`, [accountId, r]);
    await setAccount(accountId, { balance: 1_000_000 });
    const before = await balanceOf(accountId);

    // A variable that a contact lacks is named (a custom field nobody has); nothing is written.
    const missing = await as("/api/whatsapp/campaigns", {
      body: { from: numberId, group_id: groupId, template: { name: templateName, language: "pt_BR", variables: ["{{loja_favorita}}", "7"] } },
      lang: "en",
    });
    expect(missing.status).toBe(422);
    expect(missing.body.error.fields).toEqual({ "template.variables.0": ["Please fill all parameters: 1 has no value"] });
    expect(await balanceOf(accountId)).toBe(before);

    const res = await as("/api/whatsapp/campaigns", {
      body: {
        from: numberId,
        group_id: groupId,
        name: "Black Friday",
        scheduled_at: new Date(Date.now() + 86_400_000).toISOString(),
        template: { name: templateName, language: "pt_BR", variables: ["{{first_name}}", "BF-2026"] },
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const { campaign_id, total_price, summary, category } = res.body.data;
    expect(res.headers.get("location")).toBe(`/api/whatsapp/campaigns/${campaign_id}`);
    expect(res.body.data.status).toBe("scheduled");
    expect(summary).toEqual({ messages: 10_000, sendable: 9_995, optout: 3, rejected: 2 });
    expect(category).toBe("utility");
    const [{ price }] = await query<{ price: string }>(`SELECT price FROM messages WHERE campaign_id = $1 AND status = 'scheduled' LIMIT 1`, [campaign_id]);
    expect(Number(price)).toBeGreaterThan(0);
    expect(total_price).toBe(9_995 * Number(price));
    expect(await balanceOf(accountId)).toBe(before - total_price);
    expect((await campaign(campaign_id)).counts).toEqual({ scheduled: 9_995, optout: 3, rejected: 2 });
    const [one] = await query<{ body: string; content: any }>(`SELECT body, content FROM messages WHERE campaign_id = $1 AND recipient = $2`, [
      campaign_id,
      contacts[10].mobileNumber,
    ]);
    expect(one.body).toBe("Olá Cliente10, seu pedido BF-2026 saiu.");
    expect(one.content.template.components).toEqual([
      {
        type: "body",
        parameters: [
          { type: "text", text: "Cliente10" },
          { type: "text", text: "BF-2026" },
        ],
      },
    ]);
    // The SMS campaigns do not see it; the WhatsApp list does.
    expect((await as(`/api/sms/campaigns/${campaign_id}`)).status).toBe(404);
    expect((await as("/api/whatsapp/campaigns")).body.data.map((c: { id: string }) => c.id)).toContain(campaign_id);

    const canceled = await as(`/api/whatsapp/campaigns/${campaign_id}`, { method: "PUT", body: { status: "canceled" } });
    expect(canceled.status).toBe(200);
    expect(canceled.body.meta).toMatchObject({ changed: true, canceled: 9_995, refunded: total_price });
    expect(await balanceOf(accountId)).toBe(before);
    expect((await campaign(campaign_id)).counts).toEqual({ failed: 9_995, optout: 3, rejected: 2 });
  }, 120_000);

  it("a campaign sent now: every message dispatched to Graph and followed to its final status, exact counts and balance; the one Meta fails keeps its code", async () => {
    await setAccount(accountId, { balance: 1_000_000 });
    const before = await balanceOf(accountId);
    const base = digits(3);
    const to = Array.from({ length: 299 }, (_, i) => `+5512${base}${String(i * 10 + 7).padStart(6, "0")}`);
    const failing = `+55128${digits(4)}0001`;
    to.push(failing);
    const res = await as("/api/whatsapp/campaigns", { body: { from: numberId, to, template: { name: templateName, language: "pt_BR", variables: ["cliente", "77"] } } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const id = res.body.data.campaign_id;
    expect(res.body.data.summary).toEqual({ messages: 300, sendable: 300, optout: 0, rejected: 0 });
    await expect.poll(async () => (await campaign(id)).counts, { timeout: 120_000, interval: 1_000 }).toEqual({ read: 299, failed: 1 });
    await expect.poll(async () => (await campaign(id)).status, { timeout: 30_000 }).toBe("completed");
    const [failed] = await query<{ error_code: string }>(`SELECT error_code FROM messages WHERE campaign_id = $1 AND recipient = $2`, [id, failing]);
    expect(failed.error_code).toBe("131026");
    // Meta charged the failed one too (it was sent): the balance moved by the accept's debit alone.
    expect(await balanceOf(accountId)).toBe(before - res.body.data.total_price);
  }, 180_000);

  it("pause stops the sending (live counters hold), resume sends the rest; a scheduled campaign canceled returns every message's price", async () => {
    await setAccount(accountId, { balance: 1_000_000 });
    const base = digits(3);
    const unique = Array.from({ length: 600 }, (_, i) => `+5513${base}${String(i * 10 + 3).padStart(6, "0")}`);
    const before = await balanceOf(accountId);
    const res = await as("/api/whatsapp/campaigns", { body: { from: numberId, to: unique, template: { name: templateName, language: "pt_BR", variables: ["cliente", "1"] } } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const id = res.body.data.campaign_id;
    const paused = await as(`/api/whatsapp/campaigns/${id}`, { method: "PUT", body: { status: "paused" } });
    expect(paused.status).toBe(200);
    expect(paused.body.data.status).toBe("paused");
    // Once the dispatchers have let go of every entry, nothing is sending and the queued ones stay.
    await expect.poll(async () => (await inDispatchStream(await queuedIds(id), "whatsapp")).length, { timeout: 30_000 }).toBe(0);
    await expect.poll(async () => (await campaign(id)).counts.sending ?? 0, { timeout: 30_000 }).toBe(0);
    // What was not sent before the pause stays queued (the live counters hold still).
    const held = (await campaign(id)).counts.queued ?? 0;
    expect((await campaign(id)).counts.queued ?? 0).toBe(held);
    expect(await queuedIds(id)).toHaveLength(held);

    const resumed = await as(`/api/whatsapp/campaigns/${id}`, { method: "PUT", body: { status: "running" } });
    expect(resumed.body.meta.republished).toBe(held);
    await expect.poll(async () => (await campaign(id)).counts, { timeout: 120_000, interval: 1_000 }).toEqual({ read: unique.length });
    expect(await balanceOf(accountId)).toBe(before - res.body.data.total_price);

    // Scheduled for tomorrow, then canceled: all failed as canceled, all refunded.
    const later = await as("/api/whatsapp/campaigns", {
      body: {
        from: numberId,
        to: unique.slice(0, 500),
        scheduled_at: new Date(Date.now() + 86_400_000).toISOString(),
        template: { name: templateName, language: "pt_BR", variables: ["x", "y"] },
      },
    });
    expect(later.status).toBe(201);
    expect(later.body.data).toMatchObject({ status: "scheduled", summary: { messages: 500, sendable: 500 } });
    const charged = await balanceOf(accountId);
    const canceled = await as(`/api/whatsapp/campaigns/${later.body.data.campaign_id}`, { method: "PUT", body: { status: "canceled" } });
    expect(canceled.body.meta).toMatchObject({ changed: true, canceled: 500, refunded: later.body.data.total_price });
    expect(await balanceOf(accountId)).toBe(charged + later.body.data.total_price);
    expect((await campaign(later.body.data.campaign_id)).counts).toEqual({ failed: 500 });
  }, 240_000);
});

async function queuedIds(campaignId: string) {
  return (await query<{ id: string }>(`SELECT id FROM messages WHERE campaign_id = $1 AND status = 'queued'`, [campaignId])).map((r) => r.id);
}
