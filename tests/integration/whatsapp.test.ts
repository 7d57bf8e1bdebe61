/**
 * WhatsApp, first part (issue 16): numbers of Meta's Cloud API and their templates, against the
 * simulator's loopback Graph peer (api/simulator/whatsapp-cloud.ts): connecting checks the number
 * with the token and subscribes the WABA's webhooks through Meta's handshake to our URL; templates
 * are checked against Meta's rules (each refusal names the rule, translated), submitted, and moved
 * by the peer's signed template webhooks (approved, rejected with the reason, paused,
 * reinstated); an unsigned, wrongly signed or replayed webhook changes nothing.
 */
import { createHmac } from "node:crypto";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { simulatedAppSecret } from "../../api/simulator/whatsapp-cloud";
import { api, login, registerPerson } from "../support/api";
import { query } from "../support/db";
import { giveOmni, setAccount } from "../support/factories";
import { connectCloudNumber, handset } from "../support/whatsapp";

const appSecret = () => simulatedAppSecret(inject("simulatorApiKey"));
const digits = (n: number) => Array.from({ length: n }, () => Math.floor(Math.random() * 10)).join("");
let token: string;
let accountId: string;
let numberId: string;
let wabaId: string;

async function connect(t: string, body: Record<string, unknown>, lang = "en") {
  return api("/api/whatsapp/numbers", { token: t, body, lang });
}
const template = (over: Record<string, unknown> = {}) => ({
  number_id: numberId,
  name: `pedido_${digits(6)}`,
  category: "utility",
  language: "pt_BR",
  header: { type: "text", text: "Pedido {{1}}", example: "4321" },
  body: "Olá {{1}}, seu pedido {{2}} saiu para entrega.",
  body_examples: ["Ana", "4321"],
  footer: "Loja Exemplo",
  buttons: [
    { type: "quick_reply", text: "Obrigado" },
    { type: "url", text: "Acompanhar", url: "https://loja.example/pedido/{{1}}", example: "https://loja.example/pedido/4321" },
  ],
  ...over,
});
const templateRow = async (id: string) =>
  (
    await query<{ status: string; reason: string | null; provider_template_id: string }>("SELECT status, reason, provider_template_id FROM whatsapp_templates WHERE id = $1", [id])
  )[0];

/** A Graph webhook as Meta posts it, signed with `secret` (the app's, by default). */
async function postWebhook(id: string, value: Record<string, unknown>, opts: { secret?: string | null; time?: number; field?: string } = {}) {
  const raw = JSON.stringify({
    object: "whatsapp_business_account",
    entry: [{ id: wabaId, time: opts.time ?? Math.floor(Date.now() / 1000), changes: [{ field: opts.field ?? "message_template_status_update", value }] }],
  });
  const secret = opts.secret === undefined ? appSecret() : opts.secret;
  const headers: Record<string, string> = { "Content-Type": "application/json" };
  if (secret) headers["X-Hub-Signature-256"] = `sha256=${createHmac("sha256", secret).update(raw).digest("hex")}`;
  const res = await fetch(new URL(`/api/webhooks/whatsapp/${id}`, inject("apiUrl")), { method: "POST", headers, body: raw });
  return { status: res.status, body: await res.json() };
}

beforeAll(async () => {
  const p = await registerPerson("whatsapp");
  accountId = p.accountId;
  await giveOmni(accountId); // the plan's `whatsapp` permission (templates)
  token = (await login(p.email, p.password)).token;
});

describe("WhatsApp Cloud API numbers", () => {
  it("connects a number: checked at Meta with the token, Meta's facts kept, the WABA's webhooks subscribed through the handshake; secrets never answered", async () => {
    const phoneNumberId = `1${digits(14)}`;
    wabaId = `2${digits(14)}`;
    const res = await connect(token, { phone_number_id: phoneNumberId, waba_id: wabaId, access_token: `EAAG${digits(20)}`, app_secret: appSecret() });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    numberId = res.body.data.id;
    expect(res.headers.get("location")).toBe(`/api/whatsapp/numbers/${numberId}`);
    expect(res.body.data).toMatchObject({
      integration: "cloud",
      phone_number_id: phoneNumberId,
      waba_id: wabaId,
      display_phone_number: `+55 11 9${phoneNumberId.slice(-8, -4)}-${phoneNumberId.slice(-4)}`,
      verified_name: `Simulated Business ${phoneNumberId.slice(-4)}`,
      quality_rating: "GREEN",
      messaging_limit: "TIER_1K",
      webhook_url: `${inject("webUrl")}/api/webhooks/whatsapp/${numberId}`,
    });
    expect(JSON.stringify(res.body)).not.toMatch(/EAAG|secret|verify_token/);
    const [stored] = await query<{ secrets_sealed: string; account_id: string }>("SELECT secrets_sealed, account_id FROM whatsapp_numbers WHERE id = $1", [numberId]);
    expect(stored.account_id).toBe(accountId);
    expect(stored.secrets_sealed).not.toContain("EAAG");
    expect((await api("/api/whatsapp/numbers", { token })).body.data.map((n: { id: string }) => n.id)).toEqual([numberId]);

    // The same number again, from this or another account: 409.
    const again = await connect(token, { phone_number_id: phoneNumberId, waba_id: wabaId, access_token: `EAAG${digits(20)}`, app_secret: appSecret() });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe("NUMBER_ALREADY_REGISTERED");
  });

  it("a wrong token, an unknown number and missing fields are 422 naming the field (translated); nothing is kept", async () => {
    const wrongToken = await connect(token, { phone_number_id: `3${digits(10)}`, waba_id: `4${digits(10)}`, access_token: "not-a-meta-token", app_secret: "x" });
    expect(wrongToken.status).toBe(422);
    expect(wrongToken.body.error.fields).toEqual({ access_token: ["Meta refused this access token (wrong or expired)"] });
    const unknown = await connect(token, { phone_number_id: `3${digits(6)}404404`, waba_id: `4${digits(10)}`, access_token: `EAAG${digits(20)}`, app_secret: "x" }, "pt-BR");
    expect(unknown.status).toBe(422);
    expect(unknown.body.error.fields).toEqual({ phone_number_id: ["A Meta não reconhece este id de número com este token"] });
    const empty = await connect(token, { phone_number_id: "12a", waba_id: "", access_token: "", app_secret: "" });
    expect(empty.status).toBe(422);
    expect(Object.keys(empty.body.error.fields).sort()).toEqual(["access_token", "app_secret", "phone_number_id", "waba_id"]);
    expect(await query("SELECT 1 FROM whatsapp_numbers WHERE account_id = $1", [accountId])).toHaveLength(1);
  });
});

describe("WhatsApp templates", () => {
  it("Meta's rules, each refused with a translated message naming it; nothing written", async () => {
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ name: "Pedido Saiu" }, "name", "Use only lowercase letters, digits and underscores"],
      [{ body: "Olá {{2}}", body_examples: ["x"] }, "body", "Number the variables in order, starting at 1 (1, 2, 3…)"],
      [{ body_examples: ["Ana"] }, "body_examples", "Give one example for each variable (2)"],
      [
        { header: { type: "image", url: "https://loja.example/banner.gif" } },
        "header.url",
        "Invalid media URL: an https address of a JPG/PNG image, an MP4 video or a PDF document",
      ],
      [
        { header: { type: "document", url: "http://loja.example/catalogo.pdf" } },
        "header.url",
        "Invalid media URL: an https address of a JPG/PNG image, an MP4 video or a PDF document",
      ],
      [{ footer: "Até {{1}}" }, "footer", "The footer cannot have variables"],
      [
        {
          buttons: [
            { type: "quick_reply", text: "Sim" },
            { type: "quick_reply", text: "Não" },
            { type: "quick_reply", text: "Talvez" },
            { type: "quick_reply", text: "Depois" },
          ],
        },
        "buttons",
        "At most 3 buttons",
      ],
      [
        {
          buttons: [
            { type: "quick_reply", text: "Sim" },
            { type: "quick_reply", text: "sim" },
          ],
        },
        "buttons",
        "Quick reply buttons cannot repeat text",
      ],
      [
        {
          buttons: [
            { type: "phone", text: "Ligar", phone: "+5511999990000" },
            { type: "phone", text: "Ligar 2", phone: "+5511999990001" },
          ],
        },
        "buttons",
        "Call to action: one phone, one website, or both",
      ],
      [
        { buttons: [{ type: "url", text: "Ver", url: "https://loja.example/{{1}}/pedido", example: "https://loja.example/1/pedido" }] },
        "buttons.0.url",
        "The URL takes at most one variable, at its end",
      ],
      [{ buttons: [{ type: "phone", text: "Ligar", phone: "11 99999-0000" }] }, "buttons.0.phone", "Invalid phone number"],
      [{ category: "promo" }, "category", "Choose one of the options"],
    ];
    for (const [over, field, message] of cases) {
      const res = await api("/api/whatsapp/templates", { token, body: template(over), lang: "en" });
      expect(res.status, JSON.stringify(over)).toBe(422);
      expect(res.body.error.fields[field], `${JSON.stringify(over)} -> ${JSON.stringify(res.body.error.fields)}`).toEqual([message]);
    }
    expect(await query("SELECT 1 FROM whatsapp_templates WHERE account_id = $1", [accountId])).toHaveLength(0);
  });

  it("submitted -> pending -> approved by Meta's signed webhook; a rejected one keeps Meta's reason; the same name twice is refused", async () => {
    const created = await api("/api/whatsapp/templates", { token, body: template() });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const t = created.body.data;
    expect(t).toMatchObject({ status: "pending", category: "utility", language: "pt_BR", reason: null });
    expect(t.provider_template_id).toMatch(/^\d+$/);
    expect(t.components).toEqual([
      { type: "HEADER", format: "TEXT", text: "Pedido {{1}}", example: { header_text: ["4321"] } },
      { type: "BODY", text: "Olá {{1}}, seu pedido {{2}} saiu para entrega.", example: { body_text: [["Ana", "4321"]] } },
      { type: "FOOTER", text: "Loja Exemplo" },
      {
        type: "BUTTONS",
        buttons: [
          { type: "QUICK_REPLY", text: "Obrigado" },
          { type: "URL", text: "Acompanhar", url: "https://loja.example/pedido/{{1}}", example: ["https://loja.example/pedido/4321"] },
        ],
      },
    ]);
    await expect.poll(async () => (await api(`/api/whatsapp/templates/${t.id}`, { token })).body.data.status, { timeout: 15_000 }).toBe("approved");

    const dup = await api("/api/whatsapp/templates", { token, body: template({ name: t.name }) });
    expect(dup.status).toBe(422);
    expect(dup.body.error.fields.name).toBeTruthy();

    const rejected = await api("/api/whatsapp/templates", { token, body: template({ name: `promo_reject_${digits(4)}`, category: "marketing" }) });
    expect(rejected.status).toBe(201);
    await expect.poll(async () => templateRow(rejected.body.data.id), { timeout: 15_000 }).toMatchObject({ status: "rejected", reason: "INVALID_FORMAT" });
    const listed = await api("/api/whatsapp/templates?status=approved", { token });
    expect(listed.body.data.map((x: { id: string }) => x.id)).toEqual([t.id]);
  });

  it("Meta pauses and reinstates a template; an unsigned, wrongly signed or older (replayed) webhook changes nothing", async () => {
    const created = await api("/api/whatsapp/templates", { token, body: template() });
    const t = created.body.data;
    await expect.poll(async () => (await templateRow(t.id)).status, { timeout: 15_000 }).toBe("approved");
    const control = (event: string) =>
      fetch(new URL(`/whatsapp/_sim/templates/${t.provider_template_id}`, inject("simulatorUrl")), {
        method: "POST",
        headers: { Authorization: `Bearer ${inject("simulatorApiKey")}`, "Content-Type": "application/json" },
        body: JSON.stringify({ event }),
      });
    expect((await control("PAUSED")).status).toBe(202);
    await expect.poll(async () => (await templateRow(t.id)).status, { timeout: 15_000 }).toBe("paused");

    const approve = { event: "APPROVED", message_template_id: Number(t.provider_template_id), message_template_name: t.name, message_template_language: "pt_BR", reason: "NONE" };
    expect((await postWebhook(numberId, approve, { secret: null })).status).toBe(401);
    expect((await postWebhook(numberId, approve, { secret: "not-the-app-secret" })).status).toBe(401);
    // A correctly signed event older than the pause (Meta retried it late, or someone replays it).
    const old = await postWebhook(numberId, approve, { time: Math.floor(Date.now() / 1000) - 3600 });
    expect(old.status).toBe(200);
    expect(old.body.results).toEqual([{ field: "message_template_status_update", result: "unchanged" }]);
    expect((await templateRow(t.id)).status).toBe("paused");

    expect((await control("REINSTATED")).status).toBe(202);
    await expect.poll(async () => (await templateRow(t.id)).status, { timeout: 15_000 }).toBe("approved");
    // A template the number does not have: acknowledged, nothing changed.
    const stranger = await postWebhook(numberId, { ...approve, message_template_id: 1 });
    expect(stranger.body.results).toEqual([{ field: "message_template_status_update", result: "unknown_template" }]);
  });

  it("the handshake echoes the challenge only for the number's verify token", async () => {
    const url = new URL(`/api/webhooks/whatsapp/${numberId}`, inject("apiUrl"));
    url.searchParams.set("hub.mode", "subscribe");
    url.searchParams.set("hub.verify_token", "wrong");
    url.searchParams.set("hub.challenge", "abc123");
    expect((await fetch(url)).status).toBe(403);
  });

  it("templates need the plan's whatsapp permission; deleting one removes it here and at Meta", async () => {
    const other = await registerPerson("whatsapp-noplan");
    const otherToken = (await login(other.email, other.password)).token;
    const refused = await api("/api/whatsapp/templates", { token: otherToken });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe("PLAN_REQUIRED");

    const created = await api("/api/whatsapp/templates", { token, body: template() });
    const t = created.body.data;
    const del = await api(`/api/whatsapp/templates/${t.id}`, { token, method: "DELETE" });
    expect(del.body).toEqual({ deleted: 1 });
    const atMeta = await fetch(new URL(`/whatsapp/v19.0/${wabaId}/message_templates`, inject("simulatorUrl")), { headers: { Authorization: "Bearer EAAGtest" } }).then((r) =>
      r.json(),
    );
    expect(atMeta.data.map((x: { name: string }) => x.name)).not.toContain(t.name);
    // Another account cannot see or delete this account's templates.
    expect((await api(`/api/whatsapp/templates/${t.id}`, { token: otherToken })).status).toBe(403);
  });

  it("a contact's message (Meta's messages webhook) is stored once and opens its 24-hour window; an older one does not move it back; the window closes 24 h later", async () => {
    const contact = handset();
    const windowNow = async () => (await api(`/api/whatsapp/window?number_id=${numberId}&to=${encodeURIComponent(contact)}`, { token })).body.data;
    expect(await windowNow()).toEqual({ open: false, last_inbound_at: null, expires_at: null });
    const [{ phone_number_id: phoneNumberId }] = await query<{ phone_number_id: string }>("SELECT phone_number_id FROM whatsapp_numbers WHERE id = $1", [numberId]);
    const sent = await fetch(new URL("/whatsapp/_sim/inbound", inject("simulatorUrl")), {
      method: "POST",
      headers: { Authorization: `Bearer ${inject("simulatorApiKey")}`, "Content-Type": "application/json" },
      body: JSON.stringify({ waba_id: wabaId, phone_number_id: phoneNumberId, from: contact, text: "Oi, meu pedido chegou?" }),
    });
    expect(sent.status).toBe(202);
    const { id: wamid } = await sent.json();
    const stored = async () =>
      query<{ body: string; status: string; sender: string; recipient: string; provider_message_id: string }>(
        "SELECT body, status, sender, recipient, provider_message_id FROM messages WHERE account_id = $1 AND channel = 'whatsapp' AND direction = 'inbound' AND sender = $2",
        [accountId, contact],
      );
    await expect.poll(async () => (await stored()).length, { timeout: 15_000 }).toBe(1);
    expect((await stored())[0]).toEqual({ body: "Oi, meu pedido chegou?", status: "received", sender: contact, recipient: phoneNumberId, provider_message_id: wamid });
    const open = await windowNow();
    expect(open.open).toBe(true);
    expect(Date.parse(open.expires_at) - Date.parse(open.last_inbound_at)).toBe(24 * 3600_000);

    // Meta delivers the same message again (a retry): acknowledged as a duplicate, nothing new.
    const value = (id: string, seconds: number, text = "Oi, meu pedido chegou?") => ({
      messaging_product: "whatsapp",
      metadata: { phone_number_id: phoneNumberId },
      messages: [{ from: contact.slice(1), id, timestamp: String(seconds), type: "text", text: { body: text } }],
    });
    const again = await postWebhook(numberId, value(wamid, Math.floor(Date.parse(open.last_inbound_at) / 1000)), { field: "messages" });
    expect(again.body.results).toEqual([{ field: "messages", result: "duplicate" }]);
    expect(await stored()).toHaveLength(1);
    // An older message arriving late is stored, but the window keeps its later start.
    const late = await postWebhook(numberId, value(`wamid.late${digits(6)}`, Math.floor(Date.now() / 1000) - 2 * 86400, "mensagem antiga"), { field: "messages" });
    expect(late.body.results).toEqual([{ field: "messages", result: "received" }]);
    expect((await windowNow()).last_inbound_at).toBe(open.last_inbound_at);

    // The clock: 25 hours later (the contact's last message moved back) the window is closed.
    await query("UPDATE whatsapp_windows SET last_inbound_at = now() - interval '25 hours' WHERE number_id = $1 AND contact = $2", [numberId, contact]);
    expect((await windowNow()).open).toBe(false);

    // SAIR on WhatsApp opts the contact out of WhatsApp (not SMS).
    const stop = await postWebhook(numberId, value(`wamid.stop${digits(6)}`, Math.floor(Date.now() / 1000), "SAIR"), { field: "messages" });
    expect(stop.body.results).toEqual([{ field: "messages", result: "received" }]);
    expect(await query("SELECT channel, source, keyword FROM optouts WHERE account_id = $1 AND recipient = $2", [accountId, contact])).toEqual([
      { channel: "whatsapp", source: "keyword", keyword: "SAIR" },
    ]);
    expect((await windowNow()).open).toBe(true); // and it is a message of the contact: the window is open again
  });

  it("sends an approved template with its variables: priced by category and debited at accept, dispatched to Graph, then sent, delivered and read by Meta's webhooks", async () => {
    await setAccount(accountId, { balance: 10_000 });
    const created = await api("/api/whatsapp/templates", { token, body: template() });
    const t = created.body.data;
    await expect.poll(async () => (await templateRow(t.id)).status, { timeout: 15_000 }).toBe("approved");
    const to = handset();
    const send = (over: Record<string, unknown> = {}, key?: string) =>
      fetch(new URL("/api/whatsapp/messages", inject("apiUrl")), {
        method: "POST",
        headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}`, "Accept-Language": "en", ...(key ? { "Idempotency-Key": key } : {}) },
        body: JSON.stringify({
          from: numberId,
          to,
          type: "template",
          template: { name: t.name, language: "pt_BR", variables: ["Ana", "4321"], header_variable: "4321", button_variable: "4321" },
          ...over,
        }),
      }).then(async (r) => ({ status: r.status, body: await r.json() }));

    const missing = await send({ template: { name: t.name, language: "pt_BR", variables: ["Ana"] } });
    expect(missing.status).toBe(422);
    expect(missing.body.error.fields).toEqual({ "template.variables": ["Please fill all parameters of the template"] });
    const key = `wa-${digits(8)}`;
    const accepted = await send({}, key);
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(202);
    expect(accepted.body.data).toMatchObject({ to, status: "queued", price: 6, currency: "BRL", category: "utility" });
    const id = accepted.body.data.id;
    // The same key and request: the same answer, nothing new; the balance moved once. Another request under the key: 409.
    expect((await send({}, key)).body).toEqual(accepted.body);
    expect((await query<{ balance: string }>("SELECT balance FROM account_balances WHERE account_id = $1", [accountId]))[0].balance).toBe("9994");
    expect((await send({ to: handset() }, key)).status).toBe(409);
    // A balance that does not cover the price: 402, nothing written.
    await setAccount(accountId, { balance: 5 });
    const poor = await send({ to: handset() });
    expect(poor.status).toBe(402);
    expect(poor.body.error.code).toBe("INSUFFICIENT_BALANCE");
    expect(await query("SELECT 1 FROM messages WHERE account_id = $1 AND channel = 'whatsapp' AND direction = 'outbound'", [accountId])).toHaveLength(1);
    await setAccount(accountId, { balance: 9994 });

    const read = async () => (await api(`/api/whatsapp/messages/${id}`, { token })).body.data;
    await expect.poll(async () => (await read()).status, { timeout: 20_000 }).toBe("read");
    const m = await read();
    expect(m).toMatchObject({ to, type: "template", body: "Olá Ana, seu pedido 4321 saiu para entrega.", price: 6, error_code: null });
    expect(m.provider_message_id).toMatch(/^wamid\./);
    expect(m.sent_at && m.delivered_at && m.read_at).toBeTruthy();
    const statuses = await query<{ status: string }>("SELECT status FROM message_events WHERE message_id = $1 AND source = 'provider'", [id]);
    expect(statuses.map((e) => e.status).sort()).toEqual(["delivered", "read", "sent"]);
    // A status that outran the recording of its send (Meta's id not known here yet): 503, so Meta posts it again.
    const early = await postWebhook(
      numberId,
      { messaging_product: "whatsapp", statuses: [{ id: `wamid.early${digits(8)}`, status: "delivered", timestamp: String(Math.floor(Date.now() / 1000)) }] },
      { field: "messages" },
    );
    expect(early.status).toBe(503);
    expect(early.body.error.code).toBe("RETRY_LATER");
    // Another number's webhook (same account, its own app) cannot move this number's message:
    // a recent status is of a message it does not know (retry), an old one is ignored; nothing is recorded.
    const other = await connectCloudNumber(token);
    const foreign = (timestamp: number) =>
      postWebhook(
        other.numberId,
        {
          messaging_product: "whatsapp",
          metadata: { phone_number_id: other.phoneNumberId },
          statuses: [{ id: m.provider_message_id, status: "failed", timestamp: String(timestamp), errors: [{ code: 131026, title: "Message undeliverable" }] }],
        },
        { field: "messages" },
      );
    expect((await foreign(Math.floor(Date.now() / 1000))).status).toBe(503);
    const old = await foreign(Math.floor(Date.now() / 1000) - 3600);
    expect(old.status).toBe(200);
    expect(old.body.results).toEqual([{ field: "messages", result: "ignored" }]);
    expect(await query("SELECT 1 FROM message_events WHERE message_id = $1 AND source = 'provider'", [id])).toHaveLength(3);
    expect((await read()).status).toBe("read");
    // What Graph received: Meta's template message with its components.
    const atMeta = await fetch(new URL(`/whatsapp/_sim/messages?to=${encodeURIComponent(to)}`, inject("simulatorUrl")), {
      headers: { Authorization: `Bearer ${inject("simulatorApiKey")}` },
    }).then((r) => r.json());
    expect(atMeta.data).toHaveLength(1);
    expect(atMeta.data[0].content).toEqual({
      type: "template",
      template: {
        name: t.name,
        language: { code: "pt_BR" },
        components: [
          { type: "header", parameters: [{ type: "text", text: "4321" }] },
          {
            type: "body",
            parameters: [
              { type: "text", text: "Ana" },
              { type: "text", text: "4321" },
            ],
          },
          { type: "button", sub_type: "url", index: "1", parameters: [{ type: "text", text: "4321" }] },
        ],
      },
    });
  });

  it("a template Meta paused between accept and dispatch (its webhook not yet here): the message fails with Meta's reason and is refunded", async () => {
    await setAccount(accountId, { balance: 10_000 });
    const created = await api("/api/whatsapp/templates", { token, body: template({ header: null, buttons: [] }) });
    const t = created.body.data;
    await expect.poll(async () => (await templateRow(t.id)).status, { timeout: 15_000 }).toBe("approved");
    const paused = await fetch(new URL(`/whatsapp/_sim/templates/${t.provider_template_id}`, inject("simulatorUrl")), {
      method: "POST",
      headers: { Authorization: `Bearer ${inject("simulatorApiKey")}`, "Content-Type": "application/json" },
      body: JSON.stringify({ event: "PAUSED", notify: false }),
    });
    expect(paused.status).toBe(202);
    const res = await api("/api/whatsapp/messages", {
      token,
      body: { from: numberId, to: handset(), type: "template", template: { name: t.name, language: "pt_BR", variables: ["Ana", "4321"] } },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    expect(res.body.data.price).toBe(6);
    await expect
      .poll(async () => (await api(`/api/whatsapp/messages/${res.body.data.id}`, { token })).body.data, { timeout: 20_000 })
      .toMatchObject({
        status: "failed",
        error_code: "whatsapp_132015",
      });
    const m = (await api(`/api/whatsapp/messages/${res.body.data.id}`, { token })).body.data;
    expect(m.error_message).toMatch(/Template is paused/);
    expect((await query<{ balance: string }>("SELECT balance FROM account_balances WHERE account_id = $1", [accountId]))[0].balance).toBe("10000");
  });

  it("free text only inside the contact's window (priced as service); a failure keeps Meta's code; an opted-out contact is not sent to", async () => {
    await setAccount(accountId, { balance: 10_000 });
    const [{ phone_number_id: phoneNumberId }] = await query<{ phone_number_id: string }>("SELECT phone_number_id FROM whatsapp_numbers WHERE id = $1", [numberId]);
    const text = (to: string, body = "Seu pedido saiu para entrega") =>
      api("/api/whatsapp/messages", { token, lang: "en", body: { from: numberId, to, type: "text", text: { body } } });
    const to = `+55119${digits(4)}2222`;
    const closed = await text(to);
    expect(closed.status).toBe(422);
    expect(closed.body.error.fields).toEqual({ template: ["Please provide a template before sending (the contact's 24-hour window is closed)"] });
    expect(await query("SELECT 1 FROM messages WHERE account_id = $1 AND recipient = $2", [accountId, to])).toHaveLength(0);

    const inbound = (from: string) =>
      fetch(new URL("/whatsapp/_sim/inbound", inject("simulatorUrl")), {
        method: "POST",
        headers: { Authorization: `Bearer ${inject("simulatorApiKey")}`, "Content-Type": "application/json" },
        body: JSON.stringify({ waba_id: wabaId, phone_number_id: phoneNumberId, from, text: "Oi" }),
      });
    expect((await inbound(to)).status).toBe(202);
    await expect.poll(async () => (await api(`/api/whatsapp/window?number_id=${numberId}&to=${encodeURIComponent(to)}`, { token })).body.data.open, { timeout: 15_000 }).toBe(true);
    const ok = await text(to);
    expect(ok.status, JSON.stringify(ok.body)).toBe(202);
    expect(ok.body.data).toMatchObject({ status: "queued", price: 0, category: "service" });
    await expect.poll(async () => (await api(`/api/whatsapp/messages/${ok.body.data.id}`, { token })).body.data.status, { timeout: 20_000 }).toBe("read");

    // Meta refuses delivery (the peer's number ending 0001): failed with Meta's code and title.
    const undeliverable = `+55119${digits(4)}0001`;
    expect((await inbound(undeliverable)).status).toBe(202);
    await expect
      .poll(async () => (await api(`/api/whatsapp/window?number_id=${numberId}&to=${encodeURIComponent(undeliverable)}`, { token })).body.data.open, { timeout: 15_000 })
      .toBe(true);
    const bad = await text(undeliverable);
    await expect
      .poll(async () => (await api(`/api/whatsapp/messages/${bad.body.data.id}`, { token })).body.data, { timeout: 20_000 })
      .toMatchObject({
        status: "failed",
        error_code: "131026",
        error_message: "Message undeliverable",
      });

    // A contact who wrote SAIR on WhatsApp: written as optout at price 0, never sent.
    await query("INSERT INTO optouts (account_id, channel, recipient, source) VALUES ($1, 'whatsapp', $2, 'manual')", [accountId, to]);
    const out = await text(to);
    expect(out.body.data).toMatchObject({ status: "optout", price: 0, error_code: "optout" });
  });

  it("the account's customer webhooks receive its WhatsApp statuses and its contacts' messages", async () => {
    const { startRecordingPeer } = await import("../support/loopback-peer");
    const receiver = await startRecordingPeer((_call, reply) => reply.send(200, { ok: true }));
    try {
      const hook = await api("/api/webhooks", { token, body: { url: `${receiver.url}/hook`, events: ["message.status_changed", "message.received"], description: "wa" } });
      expect(hook.status, JSON.stringify(hook.body)).toBe(201);
      await setAccount(accountId, { balance: 10_000 });
      const created = await api("/api/whatsapp/templates", { token, body: template({ header: null, buttons: [] }) });
      await expect.poll(async () => (await templateRow(created.body.data.id)).status, { timeout: 15_000 }).toBe("approved");
      const to = handset();
      const sent = await api("/api/whatsapp/messages", {
        token,
        body: { from: numberId, to, type: "template", template: { name: created.body.data.name, language: "pt_BR", variables: ["Ana", "1"] } },
      });
      expect(sent.status).toBe(202);
      const [{ phone_number_id: phoneNumberId }] = await query<{ phone_number_id: string }>("SELECT phone_number_id FROM whatsapp_numbers WHERE id = $1", [numberId]);
      await fetch(new URL("/whatsapp/_sim/inbound", inject("simulatorUrl")), {
        method: "POST",
        headers: { Authorization: `Bearer ${inject("simulatorApiKey")}`, "Content-Type": "application/json" },
        body: JSON.stringify({ waba_id: wabaId, phone_number_id: phoneNumberId, from: to, text: "Chegou, obrigado!" }),
      });
      const events = () => receiver.calls.map((c) => c.json).filter((j) => j?.data?.channel === "whatsapp");
      await expect
        .poll(
          () =>
            events()
              .filter((e) => e.type === "message.status_changed" && e.data.message_id === sent.body.data.id)
              .map((e) => e.data.status)
              .sort(),
          { timeout: 30_000 },
        )
        .toEqual(["delivered", "queued", "read", "sent"]);
      await expect
        .poll(() => events().find((e) => e.type === "message.received")?.data, { timeout: 30_000 })
        .toMatchObject({ from: to, to: phoneNumberId, body: "Chegou, obrigado!" });
      await api(`/api/webhooks/${hook.body.data.id}`, { token, method: "DELETE" });
    } finally {
      await receiver.close();
    }
  });

  it("disconnecting the number takes its templates with it", async () => {
    const del = await api(`/api/whatsapp/new/numbers/${numberId}`, { token, method: "DELETE" });
    expect(del.body).toEqual({ deleted: 1 });
    expect(await query("SELECT 1 FROM whatsapp_templates WHERE number_id = $1", [numberId])).toHaveLength(0);
    expect((await api(`/api/whatsapp/new/numbers/${numberId}`, { token, method: "DELETE" })).status).toBe(404);
  });
});

describe("npm start's demo WhatsApp number", () => {
  it("in development with the loopback peer, the worker connects the demo account's numbers (Cloud API and the older integration) and their templates are approved: a template send from each goes through at once", async () => {
    const { startStack } = await import("../support/stack");
    const stack = await startStack({ env: { NODE_ENV: "development" }, apiAsAppUrl: true });
    try {
      const numbers = () =>
        stack.query<{ id: string; phone_number_id: string; integration: string }>(
          "SELECT n.id, n.phone_number_id, n.integration FROM whatsapp_numbers n JOIN accounts a ON a.id = n.account_id WHERE a.name = 'Demo Comércio Ltda' ORDER BY n.integration",
        );
      // The Cloud API number and the older integration's (a client of the peer's On-Premises shape).
      await expect
        .poll(async () => (await numbers()).map((n) => `${n.integration}:${n.phone_number_id}`), { timeout: 60_000, interval: 500 })
        .toEqual(["cloud:551130000001", "onprem:551130000002"]);
      const [demo, onprem] = await numbers();
      const approved = async (id: string) =>
        (await stack.query<{ name: string }>("SELECT name FROM whatsapp_templates WHERE number_id = $1 AND status = 'approved' ORDER BY name", [id])).map((t) => t.name);
      await expect.poll(() => approved(demo.id), { timeout: 30_000, interval: 500 }).toEqual(["pedido_saiu", "promo_semana"]);

      const owner = await stack.signInDemoOwner();
      await setAccount(owner.accountId, { balance: 100000 }, stack.query);
      // The onprem number's template is approved at the peer's BSP, read from its list when the templates are listed.
      await expect
        .poll(
          async () => (await stack.api(`/api/whatsapp/templates?number_id=${onprem.id}&status=approved`, { token: owner.token })).body.data.map((t: { name: string }) => t.name),
          {
            timeout: 30_000,
            interval: 500,
          },
        )
        .toEqual(["pedido_saiu"]);
      for (const from of [demo.id, onprem.id]) {
        const sent = await stack.api("/api/whatsapp/messages", {
          token: owner.token,
          body: { from, to: "+5511988887777", type: "template", template: { name: "pedido_saiu", language: "pt_BR", variables: ["Ana", "4321"] } },
        });
        expect(sent.status, JSON.stringify(sent.body)).toBe(202);
        await expect
          .poll(async () => (await stack.api(`/api/whatsapp/messages/${sent.body.data.id}`, { token: owner.token })).body.data.status, { timeout: 30_000, interval: 300 })
          .toBe("read");
      }
    } finally {
      await stack.stop();
    }
  }, 180_000);
});
