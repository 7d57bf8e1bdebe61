/**
 * Integrations: WhatsApp as a rule channel (issue 23, ADR 072). Against the simulator's Nuvemshop
 * store and Meta Cloud API peer, and the real API, worker and web: the rule form offers the
 * account's approved templates; a rule on a template that is not approved, or with the wrong
 * number of values, is refused naming the field (form and API), translated; a saved rule (the
 * account's default WhatsApp number, ADR 071) sends the buyer of a paid order the template with its
 * parameters filled from the order, priced, dispatched to Graph and delivered; the store posting
 * the event again sends nothing twice; an order without a usable mobile is recorded failed with
 * the reason; an e-mail rule of an integration without its own sender goes from the account's
 * default address.
 */
import { createHmac } from "node:crypto";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { api, login } from "../support/api";
import { query } from "../support/db";
import { balanceOf, giveOmni } from "../support/factories";
import { sim as emailSim, validatedDomain } from "../support/email";
import { waitUntil } from "../support/loopback-peer";
import { DEMO_PASSWORD, signedInCustomer, type WebCustomer } from "../support/web";
import { approvedTemplate, type CloudNumber, connectCloudNumber, digits, peerMessages, handset } from "../support/whatsapp";

const simUrl = inject("simulatorUrl");
const simKey = inject("simulatorApiKey");
const apiUrl = inject("apiUrl");

const simPost = async (path: string, body: unknown = {}) => {
  const res = await fetch(new URL(`/nuvemshop/_sim${path}`, simUrl), {
    method: "POST",
    headers: { Authorization: `Bearer ${simKey}`, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  expect(res.status, path).toBeLessThan(300);
  return res.json();
};
const deliveries = async (store: string) =>
  (await (await fetch(new URL(`/nuvemshop/_sim/${store}/deliveries`, simUrl), { headers: { Authorization: `Bearer ${simKey}` } })).json()) as Array<{
    event: string;
    order_id: string;
    status: number | null;
  }>;

type EventRow = {
  id: string;
  order_id: string;
  status: string;
  channel: string | null;
  recipient: string | null;
  text: string | null;
  message_id: string | null;
  error: string | null;
};
const eventsOf = (integrationId: string, event: string) =>
  query<EventRow>(
    `SELECT id::text, order_id, status, channel, recipient, text, message_id::text, error FROM integration_events WHERE integration_id = $1 AND event = $2 ORDER BY received_at`,
    [integrationId, event],
  );
const eventOf = async (integrationId: string, event: string, orderId: string) => {
  await expect
    .poll(async () => (await eventsOf(integrationId, event)).find((e) => e.order_id === orderId)?.status, { timeout: 20_000, interval: 200 })
    .toMatch(/^(sent|skipped|failed)$/);
  return (await eventsOf(integrationId, event)).find((e) => e.order_id === orderId)!;
};
type MessageRow = { status: string; body: string; recipient: string; sender: string; price: number; channel: string; type: string; content: any };
const message = async (id: string) =>
  (await query<MessageRow>(`SELECT status, body, recipient, sender, price::int AS price, channel, type, content FROM messages WHERE id = $1`, [id]))[0];

let owner: WebCustomer;
let ownerToken: string;
let n: CloudNumber;
let template: string;
let rejected: string;
let integrationId: string;
let store: { store_id: string; access_token: string; app_secret: string };
let defaultEmail: string;

/** The rules form as the screen posts it: order/created off on SMS, order/paid on WhatsApp (`paid`), order/fulfilled by e-mail. */
const form = (paid: Record<string, string>) => ({
  intent: "settings",
  sms_from: "",
  email_from: "",
  "rules[0].event": "order/created",
  "rules[0].channel": "sms",
  "rules[0].text": "Pedido {{order_number}} recebido",
  "rules[1].event": "order/paid",
  "rules[1].channel": "whatsapp",
  "rules[1].enabled": "on",
  "rules[1].text": "",
  "rules[1].number_id": "",
  ...Object.fromEntries(Object.entries(paid).map(([k, v]) => [`rules[1].${k}`, v])),
  "rules[2].event": "order/fulfilled",
  "rules[2].channel": "email",
  "rules[2].enabled": "on",
  "rules[2].subject": "Pedido {{order_number}} enviado",
  "rules[2].text": "{{first_name}}, seu pedido saiu. Rastreio: {{tracking_code}}",
  // Without JavaScript a text rule posts the WhatsApp fields too (blank): they are not part of it.
  "rules[2].template.key": "",
});

beforeAll(async () => {
  owner = await signedInCustomer("intwa", { balance: 100_000 });
  await giveOmni(owner.accountId);
  ownerToken = (await login(owner.email, DEMO_PASSWORD)).token;
  n = await connectCloudNumber(ownerToken);
  template = `pagamento_${digits(8)}`;
  await approvedTemplate(n, { name: template, body: "Olá {{1}}, o pagamento do pedido {{2}} ({{3}}) foi confirmado.", body_examples: ["Ana", "42", "R$ 10,00"] });
  // The peer rejects a template whose name says so.
  rejected = `aviso_reject_${digits(8)}`;
  const created = await api("/api/whatsapp/templates", {
    token: ownerToken,
    body: { number_id: n.numberId, name: rejected, category: "utility", language: "pt_BR", body: "Pedido {{1}}", body_examples: ["42"] },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  await waitUntil("template rejected", async () => (await api(`/api/whatsapp/templates/${created.body.data.id}`, { token: ownerToken })).body.data.status === "rejected");
  // The account's defaults (ADR 071): this WhatsApp number, and an address of a validated domain.
  defaultEmail = `loja@${(await validatedDomain(ownerToken)).domain}`;
  const defaults = await api("/api/settings/resources", { method: "PUT", token: ownerToken, body: { whatsapp_number_id: n.numberId, email_from: defaultEmail } });
  expect(defaults.status, JSON.stringify(defaults.body)).toBe(200);
  store = await simPost("/stores", { name: "Loja do Bento" });
  const installed = await api("/api/integrations", { token: ownerToken, body: { kind: "nuvemshop", ...store } });
  expect(installed.status, JSON.stringify(installed.body)).toBe(201);
  integrationId = installed.body.data.id;
});
afterAll(async () => {
  const { closeDb } = await import("../../models/db");
  await closeDb().catch(() => undefined);
});

describe("a WhatsApp rule through the form", () => {
  it("the form offers WhatsApp and the account's approved templates only, with the default number", async () => {
    const page = await owner.client.page(`/integrations/${integrationId}`);
    expect(page.res.status).toBe(200);
    expect(page.html).toMatch(/<option[^>]*value="whatsapp"/);
    expect(page.html).toContain(`value="${template}|pt_BR"`);
    expect(page.html).not.toContain(rejected);
    expect(page.html).toContain("O padrão da conta (");
  });

  it("a template not approved on the number, or the wrong number of values, is refused beside its field, translated; nothing saved", async () => {
    const notApproved = await owner.client.post(`/integrations/${integrationId}`, form({ "template.key": `${rejected}|pt_BR`, "template.variables[0]": "{{order_number}}" }));
    expect(notApproved.status).toBe(422);
    expect(await notApproved.text()).toMatch(/role="alert"[^>]*>Este modelo não está aprovado no número de envio</);

    // Chosen without JavaScript, the template's fields are not on the page yet: the save says how many values it takes, and shows their fields.
    const chosen = await owner.client.post(`/integrations/${integrationId}`, form({ "template.key": `${template}|pt_BR` }));
    expect(chosen.status).toBe(422);
    const html = await chosen.text();
    expect(html).toMatch(/role="alert"[^>]*>Um valor para cada variável do modelo \(3 no total\)</);
    for (const i of [0, 1, 2]) expect(html).toContain(`name="rules[1].template.variables[${i}]"`);
    expect(html).toContain("Olá {{1}}, o pagamento do pedido {{2}} ({{3}}) foi confirmado.");

    const unknown = await owner.client.post(
      `/integrations/${integrationId}`,
      form({ "template.key": `${template}|pt_BR`, "template.variables[0]": "{{nome}}", "template.variables[1]": "{{order_number}}", "template.variables[2]": "{{total}}" }),
    );
    expect(unknown.status).toBe(422);
    expect(await unknown.text()).toContain("Variável desconhecida");

    const [rule] = await query<{ channel: string }>(`SELECT channel FROM integration_rules WHERE integration_id = $1 AND event = 'order/paid'`, [integrationId]);
    expect(rule.channel).toBe("sms");
  });

  it("the API names the same fields (rules.<n>.template…), translated", async () => {
    const patch = (tpl: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
      api(`/api/integrations/${integrationId}`, {
        token: ownerToken,
        method: "PATCH",
        lang: "en",
        body: { rules: [{ event: "order/paid", channel: "whatsapp", template: tpl, enabled: true, ...extra }] },
      });
    const notApproved = await patch({ name: rejected, language: "pt_BR", variables: ["{{order_number}}"] });
    expect(notApproved.status).toBe(422);
    expect(notApproved.body.error.fields["rules.0.template.name"]).toEqual(["This template is not approved on the sending number"]);
    const wrongCount = await patch({ name: template, language: "pt_BR", variables: ["{{first_name}}", "{{order_number}}"] });
    expect(wrongCount.status).toBe(422);
    expect(wrongCount.body.error.fields["rules.0.template.variables"]).toEqual(["One value for each of the template's variables (3 in all)"]);
    const missing = await patch({ name: "nao_existe", language: "pt_BR", variables: [] });
    expect(missing.body.error.fields["rules.0.template.name"]).toEqual(["This template does not exist on the sending number"]);
    const foreignNumber = await patch({ name: template, language: "pt_BR", variables: ["a", "b", "c"] }, { number_id: "00000000-0000-4000-8000-000000000000" });
    expect(foreignNumber.body.error.fields["rules.0.number_id"]).toEqual(["Choose one of the options"]);
  });

  it("saves order/paid on the template with the order's values, from the account's default number", async () => {
    const res = await owner.client.post(
      `/integrations/${integrationId}`,
      form({ "template.key": `${template}|pt_BR`, "template.variables[0]": "{{first_name}}", "template.variables[1]": "{{order_number}}", "template.variables[2]": "{{total}}" }),
    );
    expect(res.status).toBe(302);
    const rules = await query<{ event: string; channel: string; template: unknown; number_id: string | null; enabled: boolean }>(
      `SELECT event, channel, template, number_id::text, enabled FROM integration_rules WHERE integration_id = $1 ORDER BY event`,
      [integrationId],
    );
    expect(rules).toEqual([
      { event: "order/created", channel: "sms", template: null, number_id: null, enabled: false },
      { event: "order/fulfilled", channel: "email", template: null, number_id: null, enabled: true },
      {
        event: "order/paid",
        channel: "whatsapp",
        template: { name: template, language: "pt_BR", variables: ["{{first_name}}", "{{order_number}}", "{{total}}"] },
        number_id: null,
        enabled: true,
      },
    ]);
    const page = await owner.client.page(`/integrations/${integrationId}`);
    expect(page.html).toMatch(/name="rules\[1\]\.template\.variables\[2\]"[^>]*value="\{\{total\}\}"|value="\{\{total\}\}"[^>]*name="rules\[1\]\.template\.variables\[2\]"/);
  });
});

describe("order events to the buyer on WhatsApp", () => {
  const buyer = handset();
  const storePhone = `(11) 9${buyer.slice(6, 10)}-${buyer.slice(10)}`;
  const buyerEmail = `bento.${Date.now().toString(36)}@cliente.example`;
  let orderId: string;
  let orderNumber: string;

  it("order/paid → the template to the buyer's mobile, its parameters the order's values, priced, dispatched to Graph and delivered", async () => {
    const before = Number(await balanceOf(owner.accountId));
    const order = await simPost(`/${store.store_id}/orders`, { customer: { name: "Bento Alves", email: buyerEmail, phone: storePhone }, total: "89.90" });
    orderId = String(order.id);
    orderNumber = String(order.number);
    await simPost(`/${store.store_id}/orders/${orderId}/paid`);
    const e = await eventOf(integrationId, "order/paid", orderId);
    const body = `Olá Bento, o pagamento do pedido ${orderNumber} (R$\u00a089,90) foi confirmado.`;
    expect(e).toMatchObject({ status: "sent", channel: "whatsapp", recipient: buyer, text: body, error: null });
    const m = await message(e.message_id!);
    expect(m).toMatchObject({ channel: "whatsapp", type: "template", recipient: buyer, sender: n.phoneNumberId, body });
    expect(m.content.template).toEqual({
      name: template,
      language: { code: "pt_BR" },
      components: [{ type: "body", parameters: ["Bento", orderNumber, "R$\u00a089,90"].map((text) => ({ type: "text", text })) }],
    });
    expect(m.price).toBeGreaterThan(0);
    expect(Number(await balanceOf(owner.accountId))).toBe(before - m.price);
    // At Graph (the peer), from the default number, as Meta's template message.
    await expect.poll(async () => (await peerMessages(buyer)).length, { timeout: 20_000, interval: 200 }).toBe(1);
    const [atPeer] = await peerMessages(buyer);
    expect(atPeer).toMatchObject({ from: n.phoneNumberId, type: "template" });
    expect(atPeer.content.template.components[0].parameters.map((p: { text: string }) => p.text)).toEqual(["Bento", orderNumber, "R$\u00a089,90"]);
    // Meta's status webhooks move it: delivered (then read).
    await expect.poll(async () => (await message(e.message_id!)).status, { timeout: 30_000, interval: 200 }).toMatch(/^(delivered|read)$/);
    const statuses = await query<{ status: string }>(`SELECT status FROM message_events WHERE message_id = $1 AND source = 'provider'`, [e.message_id]);
    expect(statuses.map((s) => s.status)).toContain("delivered");
  });

  it("the store posting order/paid again sends nothing twice (duplicate, one event, one message at Graph)", async () => {
    await simPost(`/${store.store_id}/orders/${orderId}/resend`, { event: "order/paid" });
    await expect
      .poll(async () => (await deliveries(store.store_id)).filter((d) => d.event === "order/paid" && d.order_id === orderId).map((d) => d.status), {
        timeout: 10_000,
        interval: 100,
      })
      .toEqual([200, 200]);
    const raw = JSON.stringify({ store_id: Number(store.store_id), event: "order/paid", id: Number(orderId) });
    const again = await fetch(new URL("/api/webhooks/integrations/nuvemshop", apiUrl), {
      method: "POST",
      headers: { "Content-Type": "application/json", "x-linkedstore-hmac-sha256": createHmac("sha256", store.app_secret).update(raw).digest("hex") },
      body: raw,
    });
    expect(await again.json()).toEqual({ result: "duplicate", event_id: null });
    expect((await eventsOf(integrationId, "order/paid")).filter((e) => e.order_id === orderId)).toHaveLength(1);
    expect(await query(`SELECT 1 FROM messages WHERE account_id = $1 AND recipient = $2 AND channel = 'whatsapp'`, [owner.accountId, buyer])).toHaveLength(1);
    expect(await peerMessages(buyer)).toHaveLength(1);
  });

  it("an order without a usable mobile is recorded failed with the reason, shown translated; nothing sent", async () => {
    for (const phone of [null, "1234"]) {
      const order = await simPost(`/${store.store_id}/orders`, { customer: { name: "Caio Reis", email: null, phone } });
      await simPost(`/${store.store_id}/orders/${order.id}/paid`);
      const e = await eventOf(integrationId, "order/paid", String(order.id));
      expect(e).toMatchObject({ status: "failed", channel: "whatsapp", recipient: null, message_id: null, error: "integrations.errors.noRecipient.whatsapp" });
      // What it would have sent: the template and its values.
      expect(e.text).toMatch(new RegExp(`^${template} \\(pt_BR\\): Caio · ${order.number} · R\\$`));
    }
    const page = await owner.client.page(`/integrations/${integrationId}`);
    expect(page.html).toContain("O pedido não tem celular do comprador para o WhatsApp");
  });

  it("order/fulfilled by e-mail with no sender of the integration goes from the account's default address", async () => {
    const order = await simPost(`/${store.store_id}/orders/${orderId}/fulfilled`);
    const e = await eventOf(integrationId, "order/fulfilled", orderId);
    expect(e).toMatchObject({ status: "sent", channel: "email", recipient: buyerEmail, text: `Bento, seu pedido saiu. Rastreio: ${order.shipping_tracking_number}` });
    expect((await message(e.message_id!)).sender).toBe(defaultEmail);
    await expect
      .poll(async () => (await emailSim(`/email/_sim/messages?to=${encodeURIComponent(buyerEmail)}`)).data[0]?.headers?.from ?? null, { timeout: 20_000, interval: 200 })
      .toContain(defaultEmail);
  });

  it("without a default number and none named, the rule is refused on number_id", async () => {
    const cleared = await api("/api/settings/resources", { method: "PUT", token: ownerToken, body: { whatsapp_number_id: null, email_from: defaultEmail } });
    expect(cleared.status).toBe(200);
    const res = await api(`/api/integrations/${integrationId}`, {
      token: ownerToken,
      method: "PATCH",
      lang: "en",
      body: { rules: [{ event: "order/created", channel: "whatsapp", template: { name: template, language: "pt_BR", variables: ["a", "b", "c"] }, enabled: true }] },
    });
    expect(res.status).toBe(422);
    expect(res.body.error.fields["rules.0.number_id"][0]).toMatch(/^No WhatsApp number/);
    // Naming the number saves it.
    const named = await api(`/api/integrations/${integrationId}`, {
      token: ownerToken,
      method: "PATCH",
      body: {
        rules: [{ event: "order/created", channel: "whatsapp", number_id: n.numberId, template: { name: template, language: "pt_BR", variables: ["a", "b", "c"] }, enabled: true }],
      },
    });
    expect(named.status, JSON.stringify(named.body)).toBe(200);
    expect(named.body.data.rules.find((r: { event: string }) => r.event === "order/created")).toMatchObject({ channel: "whatsapp", number_id: n.numberId });
  });

  it("with the account's default number gone, a rule that names none is recorded failed with the reason", async () => {
    const phone = handset();
    const order = await simPost(`/${store.store_id}/orders`, { customer: { name: "Ema Souza", email: null, phone } });
    await simPost(`/${store.store_id}/orders/${order.id}/paid`);
    const e = await eventOf(integrationId, "order/paid", String(order.id));
    expect(e).toMatchObject({ status: "failed", channel: "whatsapp", recipient: phone, message_id: null, error: "integrations.errors.whatsappNumberMissing" });
    const restored = await api("/api/settings/resources", { method: "PUT", token: ownerToken, body: { whatsapp_number_id: n.numberId, email_from: defaultEmail } });
    expect(restored.status).toBe(200);
  });

  it("a template Meta paused after the rule was saved: the next paid order is recorded failed with the reason, nothing sent", async () => {
    const [t] = await query<{ provider_template_id: string }>(`SELECT provider_template_id FROM whatsapp_templates WHERE account_id = $1 AND name = $2`, [
      owner.accountId,
      template,
    ]);
    const paused = await fetch(new URL(`/whatsapp/_sim/templates/${t.provider_template_id}`, simUrl), {
      method: "POST",
      headers: { Authorization: `Bearer ${simKey}`, "Content-Type": "application/json" },
      body: JSON.stringify({ event: "PAUSED" }),
    });
    expect(paused.status).toBe(202);
    await expect
      .poll(async () => (await query<{ status: string }>(`SELECT status FROM whatsapp_templates WHERE account_id = $1 AND name = $2`, [owner.accountId, template]))[0].status, {
        timeout: 10_000,
      })
      .toBe("paused");
    const phone = handset();
    const order = await simPost(`/${store.store_id}/orders`, { customer: { name: "Dora Lima", email: null, phone } });
    await simPost(`/${store.store_id}/orders/${order.id}/paid`);
    const e = await eventOf(integrationId, "order/paid", String(order.id));
    expect(e).toMatchObject({ status: "failed", channel: "whatsapp", recipient: phone, message_id: null, error: "integrations.errors.templateNotApproved" });
    expect(await query(`SELECT 1 FROM messages WHERE account_id = $1 AND recipient = $2`, [owner.accountId, phone])).toHaveLength(0);
  });
});
