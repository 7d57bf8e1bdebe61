/**
 * Integrations: Nuvemshop (issue 23, ADR 066). Against the simulator's Nuvemshop store (its own
 * process, api/simulator/nuvemshop.ts) and the real API, worker and web: a store installed through
 * the web form (its webhooks then registered at the store; a token the store refuses is a
 * translated error beside the field), its rules configured through the form; an order paid at the
 * store → an SMS to the buyer with the rule's text filled from the order read at the store,
 * priced and debited, and delivered as the simulated carrier decides; an order shipped → an e-mail
 * with the tracking code at the SMTP peer; a retried webhook sends nothing twice; a bad signature
 * is 401 and an unknown store 404; another account sees and changes nothing (404); roles are
 * refused per policy; the test button makes the store post an order/created for the tester's own
 * number; uninstall removes the store's webhooks.
 */
import { createHmac } from "node:crypto";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { simulatedOutcome } from "../../api/simulator/outcome";
import { api, login } from "../support/api";
import { query } from "../support/db";
import { balanceOf } from "../support/campaigns";
import { sim as emailSim, validatedDomain } from "../support/email";
import { DEMO_PASSWORD, location, signedInCustomer, type WebCustomer } from "../support/web";

const simUrl = inject("simulatorUrl");
const simKey = inject("simulatorApiKey");
const apiUrl = inject("apiUrl");

type Store = { store_id: string; access_token: string; app_secret: string };

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
const hook = (body: string, signature: string) =>
  fetch(new URL("/api/webhooks/integrations/nuvemshop", apiUrl), { method: "POST", headers: { "Content-Type": "application/json", "x-linkedstore-hmac-sha256": signature }, body });
const sign = (body: string, secret: string) => createHmac("sha256", secret).update(body).digest("hex");

type EventRow = { id: string; status: string; channel: string | null; recipient: string | null; text: string | null; message_id: string | null; error: string | null };
const eventsOf = (integrationId: string, event: string) =>
  query<EventRow>(
    `SELECT id::text, status, channel, recipient, text, message_id::text, error FROM integration_events WHERE integration_id = $1 AND event = $2 ORDER BY received_at`,
    [integrationId, event],
  );
const processed = async (integrationId: string, event: string, n = 1) => {
  await expect.poll(async () => (await eventsOf(integrationId, event)).filter((e) => e.status !== "queued").length, { timeout: 20_000, interval: 200 }).toBe(n);
  return eventsOf(integrationId, event);
};
const message = async (id: string) =>
  (
    await query<{ status: string; body: string; recipient: string; price: number; channel: string }>(
      `SELECT status, body, recipient, price::int AS price, channel FROM messages WHERE id = $1`,
      [id],
    )
  )[0];

let seq = 30_000_000 + Math.floor(Math.random() * 60_000_000);
const nextPhone = () => `+55119${String(seq++).padStart(8, "0")}`;

let owner: WebCustomer;
let ownerToken: string;
let store: Store;
let integrationId: string;
let emailFrom: string;

beforeAll(async () => {
  owner = await signedInCustomer("integ", { balance: 100_000 });
  ownerToken = (await login(owner.email, DEMO_PASSWORD)).token;
  store = (await simPost("/stores", { name: "Loja da Joana" })) as Store;
  emailFrom = `pedidos@${(await validatedDomain(ownerToken)).domain}`;
});
afterAll(async () => {
  const { closeDb } = await import("../../models/db");
  await closeDb().catch(() => undefined);
});

describe("install and configure through the web forms", () => {
  it("a token the store refuses is shown beside its field, translated, and nothing is installed", async () => {
    const res = await owner.client.post("/integrations?index", { kind: "nuvemshop", store_id: store.store_id, access_token: "wrong-token", app_secret: store.app_secret });
    expect(res.status).toBe(422);
    const html = await res.text();
    expect(html).toContain("A Nuvemshop recusou este token");
    expect(html).not.toContain(store.app_secret);
    expect(await query(`SELECT 1 FROM integrations WHERE external_id = $1`, [store.store_id])).toHaveLength(0);
  });

  it("installs: the store's name, the secrets sealed, the three rules, and the store's order webhooks pointed at us", async () => {
    const res = await owner.client.post("/integrations?index", { kind: "nuvemshop", store_id: store.store_id, access_token: store.access_token, app_secret: store.app_secret });
    expect(res.status).toBe(302);
    const to = location(res)!;
    expect(to).toMatch(/^\/integrations\/[0-9a-f-]{36}$/);
    integrationId = to.split("/")[2];
    const [row] = await query<{ name: string; secrets: string; account_id: string }>(`SELECT name, secrets, account_id::text FROM integrations WHERE id = $1`, [integrationId]);
    expect(row).toMatchObject({ name: "Loja da Joana", account_id: owner.accountId });
    expect(row.secrets).not.toContain(store.access_token);
    expect(row.secrets).not.toContain(store.app_secret);
    const rules = await query<{ event: string; channel: string; enabled: boolean }>(
      `SELECT event, channel, enabled FROM integration_rules WHERE integration_id = $1 ORDER BY event`,
      [integrationId],
    );
    expect(rules).toEqual([
      { event: "order/created", channel: "sms", enabled: true },
      { event: "order/fulfilled", channel: "sms", enabled: true },
      { event: "order/paid", channel: "sms", enabled: true },
    ]);
    const hooks = await fetch(new URL(`/nuvemshop/v1/${store.store_id}/webhooks`, simUrl), { headers: { Authentication: `bearer ${store.access_token}` } }).then((r) => r.json());
    expect(hooks.map((h: { event: string }) => h.event).sort()).toEqual(["order/created", "order/fulfilled", "order/paid"]);
    expect(new Set(hooks.map((h: { url: string }) => h.url))).toEqual(new Set([`${apiUrl}/api/webhooks/integrations/nuvemshop`]));
    const page = await owner.client.page(to);
    expect(page.res.status).toBe(200);
    expect(page.html).toContain("Loja da Joana");
  });

  it("the same store again is refused on store_id", async () => {
    const res = await owner.client.post("/integrations?index", { kind: "nuvemshop", store_id: store.store_id, access_token: store.access_token, app_secret: store.app_secret });
    expect(res.status).toBe(422);
    expect(await res.text()).toContain("Esta loja já está conectada");
  });

  it("configures the rules: order created off, paid by SMS, shipped by e-mail (a blank text refused beside it)", async () => {
    const fields = (text: string) => ({
      intent: "settings",
      sms_from: "",
      email_from: emailFrom,
      "rules[0].event": "order/created",
      "rules[0].channel": "sms",
      "rules[0].text": "Pedido {{order_number}} recebido",
      "rules[1].event": "order/paid",
      "rules[1].channel": "sms",
      "rules[1].enabled": "on",
      "rules[1].text": "Oi {{first_name}}! Pagamento do pedido {{order_number}} de {{total}} confirmado na {{store}}.",
      "rules[2].event": "order/fulfilled",
      "rules[2].channel": "email",
      "rules[2].enabled": "on",
      "rules[2].subject": "Pedido {{order_number}} enviado",
      "rules[2].text": text,
    });
    const bad = await owner.client.post(`/integrations/${integrationId}`, fields(""));
    expect(bad.status).toBe(422);
    expect(await bad.text()).toMatch(/role="alert"[^>]*>[^<]+</);
    const res = await owner.client.post(`/integrations/${integrationId}`, fields("{{first_name}}, seu pedido saiu. Rastreio: {{tracking_code}}"));
    expect(res.status).toBe(302);
    const rules = await query<{ event: string; channel: string; enabled: boolean }>(
      `SELECT event, channel, enabled FROM integration_rules WHERE integration_id = $1 ORDER BY event`,
      [integrationId],
    );
    expect(rules).toEqual([
      { event: "order/created", channel: "sms", enabled: false },
      { event: "order/fulfilled", channel: "email", enabled: true },
      { event: "order/paid", channel: "sms", enabled: true },
    ]);
  });
});

describe("order events to the buyer", () => {
  const buyerPhone = nextPhone();
  const buyerEmail = `joana.${Date.now().toString(36)}@cliente.example`;
  let orderId: string;
  let orderNumber: string;

  it("order/created with its rule off is recorded and sends nothing", async () => {
    const order = await simPost(`/${store.store_id}/orders`, { customer: { name: "Joana Silva", email: buyerEmail, phone: buyerPhone }, total: "149.90" });
    orderId = String(order.id);
    orderNumber = String(order.number);
    const [e] = await processed(integrationId, "order/created");
    expect(e).toMatchObject({ status: "skipped", message_id: null, error: "integrations.skip.ruleOff" });
  });

  it("order/paid → one SMS to the buyer with the rule filled from the order, priced, debited and delivered as the carrier decides", async () => {
    const before = Number(await balanceOf(owner.accountId));
    await simPost(`/${store.store_id}/orders/${orderId}/paid`);
    const [e] = await processed(integrationId, "order/paid");
    const text = `Oi Joana! Pagamento do pedido ${orderNumber} de R$\u00a0149,90 confirmado na Loja da Joana.`;
    expect(e).toMatchObject({ status: "sent", channel: "sms", recipient: buyerPhone, text });
    const m = await message(e.message_id!);
    expect(m).toMatchObject({ channel: "sms", recipient: buyerPhone, body: text });
    expect(m.price).toBeGreaterThan(0);
    expect(Number(await balanceOf(owner.accountId))).toBe(before - m.price);
    // The simulated carrier's outcome for this message (90% delivered); the receipt reaches the message.
    await expect.poll(async () => (await message(e.message_id!)).status, { timeout: 20_000, interval: 200 }).toBe(simulatedOutcome(e.message_id!));
    const stats = await fetch(new URL(`/v1/stats?reference=${e.message_id}`, simUrl), { headers: { Authorization: `Bearer ${simKey}` } }).then((r) => r.json());
    expect(JSON.stringify(stats)).toContain(e.message_id!);
  });

  it("the store retrying order/paid sends nothing twice (duplicate, one event, one message)", async () => {
    await simPost(`/${store.store_id}/orders/${orderId}/resend`, { event: "order/paid" });
    await expect
      .poll(async () => (await deliveries(store.store_id)).filter((d) => d.event === "order/paid" && d.order_id === orderId).map((d) => d.status), {
        timeout: 10_000,
        interval: 100,
      })
      .toEqual([200, 200]);
    const raw = JSON.stringify({ store_id: Number(store.store_id), event: "order/paid", id: Number(orderId) });
    const again = await hook(raw, sign(raw, store.app_secret));
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual({ result: "duplicate", event_id: null });
    expect(await eventsOf(integrationId, "order/paid")).toHaveLength(1);
    const sent = await query(`SELECT 1 FROM messages WHERE account_id = $1 AND recipient = $2 AND channel = 'sms'`, [owner.accountId, buyerPhone]);
    expect(sent).toHaveLength(1);
  });

  it("a bad signature is 401 and stores nothing; an unknown store is 404", async () => {
    await simPost(`/${store.store_id}/orders/${orderId}/resend`, { event: "order/fulfilled", bad_signature: true });
    await expect.poll(async () => (await deliveries(store.store_id)).find((d) => d.event === "order/fulfilled")?.status, { timeout: 10_000, interval: 100 }).toBe(401);
    const raw = JSON.stringify({ store_id: Number(store.store_id), event: "order/fulfilled", id: Number(orderId) });
    expect((await hook(raw, sign(raw, "not-the-secret"))).status).toBe(401);
    expect((await hook(raw, "")).status).toBe(401);
    expect(await eventsOf(integrationId, "order/fulfilled")).toHaveLength(0);
    const unknown = JSON.stringify({ store_id: 1, event: "order/paid", id: 5 });
    expect((await hook(unknown, sign(unknown, store.app_secret))).status).toBe(404);
  });

  it("order/fulfilled → an e-mail to the buyer with the tracking code, at the SMTP peer", async () => {
    const order = await simPost(`/${store.store_id}/orders/${orderId}/fulfilled`);
    const [e] = await processed(integrationId, "order/fulfilled");
    expect(e).toMatchObject({ status: "sent", channel: "email", recipient: buyerEmail, text: `Joana, seu pedido saiu. Rastreio: ${order.shipping_tracking_number}` });
    expect(order.shipping_tracking_number).toMatch(/^BR\d+SIM$/);
    await expect.poll(async () => (await emailSim(`/email/_sim/messages?to=${encodeURIComponent(buyerEmail)}`)).data.length, { timeout: 20_000, interval: 200 }).toBe(1);
    const page = await owner.client.page(`/integrations/${integrationId}`);
    expect(page.html).toContain(`Rastreio: ${order.shipping_tracking_number}`);
    expect(page.html).toContain("Pedido pago");
  });

  it("an opted-out buyer is not sent to (the message is written opted out, not charged)", async () => {
    const phone = nextPhone();
    await query(`INSERT INTO optouts (account_id, channel, recipient, source) VALUES ($1, 'sms', $2, 'manual')`, [owner.accountId, phone]);
    const order = await simPost(`/${store.store_id}/orders`, { customer: { name: "Rui Lima", email: null, phone } });
    await simPost(`/${store.store_id}/orders/${order.id}/paid`);
    await expect.poll(async () => (await eventsOf(integrationId, "order/paid")).filter((x) => x.recipient === phone && x.status === "sent").length, { timeout: 20_000 }).toBe(1);
    const e = (await eventsOf(integrationId, "order/paid")).find((x) => x.recipient === phone)!;
    expect(await message(e.message_id!)).toMatchObject({ status: "optout", price: 0 });
  });
});

describe("the API, other accounts and roles", () => {
  it("the owner reads it over the API (no secrets) with its events", async () => {
    const got = await api(`/api/integrations/${integrationId}`, { token: ownerToken });
    expect(got.status).toBe(200);
    expect(got.body.data).toMatchObject({ id: integrationId, kind: "nuvemshop", store_id: store.store_id, name: "Loja da Joana" });
    expect(JSON.stringify(got.body)).not.toContain(store.access_token);
    const events = await api(`/api/integrations/${integrationId}/events`, { token: ownerToken });
    expect(events.status).toBe(200);
    expect(events.body.data.find((e: { event: string }) => e.event === "order/paid")).toMatchObject({ status: "sent", channel: "sms" });
    const list = await api("/api/integrations", { token: ownerToken });
    expect(list.body.data.map((i: { id: string }) => i.id)).toEqual([integrationId]);
  });

  it("another account neither sees nor changes it (404)", async () => {
    const other = await signedInCustomer("integother");
    const token = (await login(other.email, DEMO_PASSWORD)).token;
    expect((await api(`/api/integrations/${integrationId}`, { token })).status).toBe(404);
    expect((await api(`/api/integrations/${integrationId}/events`, { token })).status).toBe(404);
    expect((await api(`/api/integrations/${integrationId}`, { token, method: "PATCH", body: { sms_from: "" } })).status).toBe(404);
    expect((await api(`/api/integrations/${integrationId}`, { token, method: "DELETE" })).status).toBe(404);
    expect((await api(`/api/integrations/${integrationId}/test`, { token, method: "POST" })).status).toBe(404);
    expect((await other.client.get(`/integrations/${integrationId}`)).status).toBe(404);
    expect((await api("/api/integrations", { token })).body.data).toEqual([]);
  });

  it("roles (spec section 6 and WRITE_ROLES.integrations): sales reads but may not install or change; an agent and an analyst may not open integrations", async () => {
    const sales = await signedInCustomer("integsales", { role: "sales" });
    const salesToken = (await login(sales.email, DEMO_PASSWORD)).token;
    expect((await api("/api/integrations", { token: salesToken })).status).toBe(200);
    expect((await api("/api/integrations", { token: salesToken, body: { kind: "nuvemshop", store_id: "1", access_token: "x", app_secret: "y" } })).status).toBe(403);
    expect((await sales.client.get("/integrations")).status).toBe(200);
    const refused = await sales.client.post("/integrations?index", { kind: "nuvemshop", store_id: "1", access_token: "x", app_secret: "y" });
    expect(refused.status).toBe(403);
    for (const role of ["agent", "analyst"] as const) {
      const who = await signedInCustomer(`integ${role}`, { role });
      const token = (await login(who.email, DEMO_PASSWORD)).token;
      expect((await api("/api/integrations", { token })).status, role).toBe(403);
      expect(location(await who.client.get("/integrations")), role).toBe("/403");
    }
  });
});

describe("test and uninstall", () => {
  it("the test button: the store posts an order/created for the tester's own number, and its rule sends them the SMS", async () => {
    const mine = nextPhone();
    await query(`UPDATE users SET mobile = $1 WHERE id = $2`, [mine, owner.userId]);
    const on = await api(`/api/integrations/${integrationId}`, {
      token: ownerToken,
      method: "PATCH",
      body: { rules: [{ event: "order/created", channel: "sms", text: "Teste da {{store}}: pedido {{order_number}}", enabled: true }] },
    });
    expect(on.status, JSON.stringify(on.body)).toBe(200);
    const res = await owner.client.post(`/integrations/${integrationId}`, { intent: "test" });
    expect(res.status).toBe(302);
    await expect.poll(async () => (await eventsOf(integrationId, "order/created")).find((e) => e.recipient === mine)?.status, { timeout: 20_000, interval: 200 }).toBe("sent");
    const e = (await eventsOf(integrationId, "order/created")).find((x) => x.recipient === mine)!;
    expect(e.text).toMatch(/^Teste da Loja da Joana: pedido \d+$/);
    expect((await message(e.message_id!)).recipient).toBe(mine);
  });

  it("uninstall through the form: the store's webhooks removed, the integration gone", async () => {
    const res = await owner.client.post(`/integrations/${integrationId}`, { intent: "uninstall" });
    expect(res.status).toBe(302);
    expect(location(res)).toBe("/integrations/installed");
    expect(await query(`SELECT 1 FROM integrations WHERE id = $1`, [integrationId])).toHaveLength(0);
    const hooks = await fetch(new URL(`/nuvemshop/v1/${store.store_id}/webhooks`, simUrl), { headers: { Authentication: `bearer ${store.access_token}` } }).then((r) => r.json());
    expect(hooks).toEqual([]);
    const audit = await query<{ action: string }>(`SELECT action FROM audit_logs WHERE account_id = $1 AND action LIKE 'integration.%' ORDER BY id`, [owner.accountId]);
    expect(audit.map((a) => a.action)).toEqual(["integration.installed", "integration.updated", "integration.updated", "integration.tested", "integration.uninstalled"]);
  });
});
