/**
 * The older WhatsApp integration (issue 16, ADR 035): numbers of a BSP's WhatsApp Business API
 * client in the On-Premises shape, against the simulator's loopback peer
 * (api/simulator/whatsapp-onprem.ts; real HTTP both ways, the real processes and database):
 * connecting logs in with the number's credentials through the outbound guard and points the
 * client's callbacks at our URL with a token of ours; templates go to the BSP's template API and
 * their review is read from its list; the dispatcher sends through the onprem adapter (login token
 * renewed after a 401, a contact checked when the client asks) and the client's webhooks move the
 * messages; a contact's message opens the 24-hour window; a webhook without the number's token
 * changes nothing.
 */
import { beforeAll, describe, expect, inject, it } from "vitest";
import { ONPREM_SIM_PASSWORD, ONPREM_SIM_USERNAME } from "../../api/simulator/whatsapp-onprem";
import { api, login, registerPerson } from "../support/api";
import { query } from "../support/db";
import { giveOmni, setAccount } from "../support/factories";
import { freePort } from "../support/net";
import { handset } from "../support/whatsapp";

const digits = (n: number) => Array.from({ length: n }, () => Math.floor(Math.random() * 10)).join("");
const sim = () => inject("simulatorUrl");
const control = { Authorization: `Bearer ${inject("simulatorApiKey")}`, "Content-Type": "application/json" };

let token: string;
let accountId: string;
let numberId: string;
/** The number's digits: also the peer's client name (its base URL is SIMULATOR_URL/whatsapp-onprem/{client}). */
let client: string;
let phone: string;

const baseUrl = (name: string, origin = sim()) => `${origin}/whatsapp-onprem/${name}`;
const connectForm = (over: Record<string, unknown> = {}) => ({
  integration: "onprem",
  base_url: baseUrl(client),
  username: ONPREM_SIM_USERNAME,
  password: ONPREM_SIM_PASSWORD,
  phone_number: phone,
  ...over,
});

/** The peer's own view of a client, through its On-Premises API (logged in with the demo credentials, as the BSP's customer would). */
async function atClient(name: string, path: string): Promise<any> {
  const loginRes = await fetch(`${baseUrl(name)}/v1/users/login`, {
    method: "POST",
    headers: { Authorization: `Basic ${Buffer.from(`${ONPREM_SIM_USERNAME}:${ONPREM_SIM_PASSWORD}`).toString("base64")}` },
  });
  const { users } = await loginRes.json();
  return (await fetch(`${baseUrl(name)}${path}`, { headers: { Authorization: `Bearer ${users[0].token}` } })).json();
}
const webhookUrlAtClient = async () => (await atClient(client, "/v1/settings/application")).settings.application.webhooks.url as string;

const templateRow = async (id: string) =>
  (
    await query<{ status: string; reason: string | null; provider_template_id: string | null }>(
      "SELECT status, reason, provider_template_id FROM whatsapp_templates WHERE id = $1",
      [id],
    )
  )[0];
const templateBody = (over: Record<string, unknown> = {}) => ({
  number_id: numberId,
  name: `pedido_${digits(6)}`,
  category: "utility",
  language: "pt_BR",
  body: "Olá {{1}}, seu pedido {{2}} saiu para entrega.",
  body_examples: ["Ana", "4321"],
  ...over,
});
/** A template submitted and approved at the BSP (its review read from the BSP's list when the template is read). */
async function approvedTemplate() {
  const created = await api("/api/whatsapp/templates", { token, body: templateBody() });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  await expect.poll(async () => (await api(`/api/whatsapp/templates/${created.body.data.id}`, { token })).body.data.status, { timeout: 15_000 }).toBe("approved");
  return created.body.data as { id: string; name: string };
}
const sendTemplate = (name: string, to: string) =>
  api("/api/whatsapp/messages", { token, body: { from: numberId, to, type: "template", template: { name, language: "pt_BR", variables: ["Ana", "4321"] } } });
const message = async (id: string) => (await api(`/api/whatsapp/messages/${id}`, { token })).body.data;
const balance = async () => (await query<{ balance: string }>("SELECT balance FROM account_balances WHERE account_id = $1", [accountId]))[0].balance;

/** A post to the number's onprem webhook as the client makes it, with `token` in the URL (or none). */
async function postWebhook(payload: unknown, tokenParam: string | null, id = numberId) {
  const url = new URL(`/api/webhooks/whatsapp-onprem/${id}`, inject("apiUrl"));
  if (tokenParam !== null) url.searchParams.set("token", tokenParam);
  const res = await fetch(url, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(payload) });
  return { status: res.status, body: await res.json() };
}

beforeAll(async () => {
  const p = await registerPerson("whatsapp-onprem");
  accountId = p.accountId;
  await giveOmni(accountId); // the plan's `whatsapp` permission (templates)
  token = (await login(p.email, p.password)).token;
  phone = handset();
  client = phone.slice(1);
});

describe("WhatsApp On-Premises numbers", () => {
  it("a refused login is 422 on password; an address the guard refuses, one that does not answer, or a client not connected to WhatsApp is 422 on base_url (translated); nothing is kept", async () => {
    const wrong = await api("/api/whatsapp/numbers", { token, lang: "en", body: connectForm({ password: "not-the-password" }) });
    expect(wrong.status).toBe(422);
    expect(wrong.body.error.fields).toEqual({ password: ["The WhatsApp API refused this username and password"] });

    // Credentials inside the URL: the outbound guard refuses it before any connection (api/lib/outbound.ts checkUrl).
    const refusedUrl = baseUrl(client, sim().replace("http://", "http://user:pw@"));
    const refused = await api("/api/whatsapp/numbers", { token, lang: "pt-BR", body: connectForm({ base_url: refusedUrl }) });
    expect(refused.status).toBe(422);
    expect(refused.body.error.fields).toEqual({ base_url: ["Não foi possível acessar uma API do WhatsApp neste endereço"] });

    const closed = await freePort(); // nothing listens there
    const silent = await api("/api/whatsapp/numbers", { token, lang: "en", body: connectForm({ base_url: `http://127.0.0.1:${closed}/whatsapp` }) });
    expect(silent.status).toBe(422);
    expect(silent.body.error.fields).toEqual({ base_url: ["Could not reach a WhatsApp API at this address"] });

    const notWhatsapp = await api("/api/whatsapp/numbers", { token, lang: "en", body: connectForm({ base_url: `${inject("apiUrl")}/api` }) });
    expect(notWhatsapp.status).toBe(422);
    expect(notWhatsapp.body.error.fields).toEqual({ base_url: ["Could not reach a WhatsApp API at this address"] });

    const unregistered = await api("/api/whatsapp/numbers", { token, lang: "en", body: connectForm({ base_url: baseUrl(`unregistered-${digits(6)}`) }) });
    expect(unregistered.status).toBe(422);
    expect(unregistered.body.error.fields).toEqual({ base_url: ["The WhatsApp client at this address is not connected to WhatsApp (unregistered)"] });

    const empty = await api("/api/whatsapp/numbers", { token, body: { integration: "onprem", base_url: "ftp://x", username: "", password: "", phone_number: "11 9999" } });
    expect(empty.status).toBe(422);
    expect(Object.keys(empty.body.error.fields).sort()).toEqual(["base_url", "password", "phone_number", "username"]);
    expect(await query("SELECT 1 FROM whatsapp_numbers WHERE account_id = $1", [accountId])).toHaveLength(0);
  });

  it("connects: logged in at the client, its health read, its callbacks pointed at the number's URL with a token of ours; base URL and credentials sealed, never answered", async () => {
    const res = await api("/api/whatsapp/numbers", { token, body: connectForm() });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    numberId = res.body.data.id;
    expect(res.headers.get("location")).toBe(`/api/whatsapp/numbers/${numberId}`);
    expect(res.body.data).toMatchObject({
      integration: "onprem",
      phone_number_id: client,
      waba_id: null,
      display_phone_number: phone,
      webhook_url: `${inject("webUrl")}/api/webhooks/whatsapp-onprem/${numberId}`,
    });
    const answered = JSON.stringify(res.body);
    expect(answered).not.toContain(ONPREM_SIM_PASSWORD);
    expect(answered).not.toContain(`whatsapp-onprem/${client}`);
    expect(answered).not.toMatch(/token/);

    // What the client was told: our URL for this number, with a token that is not stored in clear.
    const registered = await webhookUrlAtClient();
    expect(registered).toMatch(new RegExp(`^${inject("webUrl")}/api/webhooks/whatsapp-onprem/${numberId}\\?token=[\\w-]{40,}$`));
    const [stored] = await query<{ secrets_sealed: string; base_url: string; account_id: string }>(
      "SELECT secrets_sealed, base_url, account_id FROM whatsapp_numbers WHERE id = $1",
      [numberId],
    );
    expect(stored.account_id).toBe(accountId);
    expect(stored.base_url).toBe(new URL(sim()).origin);
    for (const secret of [ONPREM_SIM_PASSWORD, new URL(registered).searchParams.get("token")!, client]) expect(stored.secrets_sealed).not.toContain(secret);
    // Meta's webhook route does not take an onprem number.
    expect((await fetch(new URL(`/api/webhooks/whatsapp/${numberId}`, inject("apiUrl")), { method: "POST", body: "{}" })).status).toBe(404);

    const again = await api("/api/whatsapp/numbers", { token, body: connectForm() });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe("NUMBER_ALREADY_REGISTERED");
  });
});

describe("WhatsApp On-Premises templates and messages", () => {
  it("a template goes to the BSP's template API and its review is read from the BSP's list: approved, or rejected with the BSP's reason; the number learns its namespace", async () => {
    const created = await api("/api/whatsapp/templates", { token, body: templateBody() });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const t = created.body.data;
    expect(t).toMatchObject({ status: "pending", reason: null });
    expect(t.provider_template_id).toMatch(/^\d+$/);
    const atBsp = await atClient(client, "/v1/configs/templates");
    const mine = atBsp.waba_templates.find((x: { name: string }) => x.name === t.name);
    expect(mine).toMatchObject({ language: "pt_BR", category: "UTILITY", components: t.components });
    await expect.poll(async () => (await api(`/api/whatsapp/templates/${t.id}`, { token })).body.data.status, { timeout: 15_000 }).toBe("approved");
    const [{ template_namespace }] = await query<{ template_namespace: string }>("SELECT template_namespace FROM whatsapp_numbers WHERE id = $1", [numberId]);
    expect(template_namespace).toBe(mine.namespace);

    const rejected = await api("/api/whatsapp/templates", { token, body: templateBody({ name: `promo_reject_${digits(4)}`, category: "marketing" }) });
    expect(rejected.status).toBe(201);
    await expect
      .poll(async () => (await api(`/api/whatsapp/templates?number_id=${numberId}&status=rejected`, { token })).body.data.map((x: { id: string }) => x.id), { timeout: 15_000 })
      .toEqual([rejected.body.data.id]);
    expect(await templateRow(rejected.body.data.id)).toMatchObject({ status: "rejected", reason: "INVALID_FORMAT" });
  });

  it("the worker reads a pending template's review at the BSP without anyone opening the templates", async () => {
    const created = await api("/api/whatsapp/templates", { token, body: templateBody() });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    // Only the database is read here: no GET of the templates that would poll the BSP itself.
    await expect.poll(async () => (await templateRow(created.body.data.id)).status, { timeout: 15_000 }).toBe("approved");
  });

  it("a template send goes through the onprem adapter (the new contact checked when the client asks, the template with its namespace and the deterministic policy) and the client's webhooks move it to sent, delivered and read; after the client forgets our token the adapter logs in again", async () => {
    await setAccount(accountId, { balance: 10_000 });
    const t = await approvedTemplate();
    const to = handset();
    const accepted = await sendTemplate(t.name, to);
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(202);
    expect(accepted.body.data).toMatchObject({ status: "queued", price: 6, category: "utility" });
    const id = accepted.body.data.id;
    await expect.poll(async () => (await message(id)).status, { timeout: 20_000 }).toBe("read");
    const m = await message(id);
    expect(m.sent_at && m.delivered_at && m.read_at).toBeTruthy();
    expect(m.error_code).toBeNull();
    const events = await query<{ status: string }>("SELECT status FROM message_events WHERE message_id = $1 AND source = 'provider'", [id]);
    expect(events.map((e) => e.status).sort()).toEqual(["delivered", "read", "sent"]);
    // Which provider took it: no client sees this (the dispatcher picked the number's integration's adapter).
    expect((await query<{ provider: string }>("SELECT provider FROM messages WHERE id = $1", [id]))[0].provider).toBe("whatsapp_onprem");

    // What the client received, once: the On-Premises template message.
    const [{ template_namespace: namespace }] = await query<{ template_namespace: string }>("SELECT template_namespace FROM whatsapp_numbers WHERE id = $1", [numberId]);
    const received = await (await fetch(`${sim()}/whatsapp-onprem/_sim/${client}/messages?to=${encodeURIComponent(to)}`, { headers: control })).json();
    expect(received.data).toHaveLength(1);
    expect(received.data[0].id).toBe(m.provider_message_id);
    expect(received.data[0].body).toEqual({
      type: "template",
      template: {
        namespace,
        name: t.name,
        language: { policy: "deterministic", code: "pt_BR" },
        components: [
          {
            type: "body",
            parameters: [
              { type: "text", text: "Ana" },
              { type: "text", text: "4321" },
            ],
          },
        ],
      },
    });

    // The client ends every token (a restart): the next send's 401 makes the adapter log in again.
    expect((await fetch(`${sim()}/whatsapp-onprem/_sim/${client}/expire-tokens`, { method: "POST", headers: control })).status).toBe(202);
    const next = await sendTemplate(t.name, to);
    expect(next.status).toBe(202);
    await expect.poll(async () => (await message(next.body.data.id)).status, { timeout: 20_000 }).toBe("read");
  });

  it("a recipient the client says is not a WhatsApp user fails with the client's code and is refunded", async () => {
    await setAccount(accountId, { balance: 10_000 });
    const t = await approvedTemplate();
    const res = await sendTemplate(t.name, `+55119${digits(4)}0001`);
    expect(res.status).toBe(202);
    await expect.poll(async () => (await message(res.body.data.id)).status, { timeout: 20_000 }).toBe("failed");
    const m = await message(res.body.data.id);
    expect(m.error_code).toBe("whatsapp_1013");
    expect(m.error_message).toMatch(/User is not valid/);
    expect(await balance()).toBe("10000");
  });

  it("a contact's message from the client is stored and opens the 24-hour window: free text is then accepted and delivered", async () => {
    await setAccount(accountId, { balance: 10_000 });
    const contact = handset();
    const text = () => api("/api/whatsapp/messages", { token, lang: "en", body: { from: numberId, to: contact, type: "text", text: { body: "Seu pedido saiu para entrega" } } });
    const closed = await text();
    expect(closed.status).toBe(422);
    expect(closed.body.error.fields).toEqual({ template: ["Please provide a template before sending (the contact's 24-hour window is closed)"] });

    const sent = await fetch(`${sim()}/whatsapp-onprem/_sim/${client}/inbound`, {
      method: "POST",
      headers: control,
      body: JSON.stringify({ from: contact, text: "Oi, meu pedido chegou?" }),
    });
    expect(sent.status).toBe(202);
    const { id: providerId } = await sent.json();
    const stored = () =>
      query<{ body: string; status: string; recipient: string; provider: string; provider_message_id: string }>(
        "SELECT body, status, recipient, provider, provider_message_id FROM messages WHERE account_id = $1 AND channel = 'whatsapp' AND direction = 'inbound' AND sender = $2",
        [accountId, contact],
      );
    await expect.poll(async () => (await stored()).length, { timeout: 15_000 }).toBe(1);
    expect((await stored())[0]).toEqual({ body: "Oi, meu pedido chegou?", status: "received", recipient: client, provider: "whatsapp_onprem", provider_message_id: providerId });
    // The window opens right after the message is stored (the same webhook): waited on, not read at once.
    await expect
      .poll(async () => (await api(`/api/whatsapp/window?number_id=${numberId}&to=${encodeURIComponent(contact)}`, { token })).body.data.open, { timeout: 15_000 })
      .toBe(true);

    const ok = await text();
    expect(ok.status, JSON.stringify(ok.body)).toBe(202);
    expect(ok.body.data).toMatchObject({ status: "queued", price: 0, category: "service" });
    await expect.poll(async () => (await message(ok.body.data.id)).status, { timeout: 20_000 }).toBe("read");
    const received = await (await fetch(`${sim()}/whatsapp-onprem/_sim/${client}/messages?to=${encodeURIComponent(contact)}`, { headers: control })).json();
    expect(received.data.map((x: { body: unknown }) => x.body)).toEqual([{ type: "text", text: { body: "Seu pedido saiu para entrega" } }]);
  });

  it("a webhook without the number's token or with a wrong one is 401 and changes nothing; with it, a repeated status changes nothing and a status of an unknown message asks for a retry", async () => {
    await setAccount(accountId, { balance: 10_000 });
    const t = await approvedTemplate();
    const res = await sendTemplate(t.name, handset());
    const id = res.body.data.id;
    await expect.poll(async () => (await message(id)).status, { timeout: 20_000 }).toBe("read");
    const before = await message(id);
    const providerId = before.provider_message_id as string;
    const stranger = handset();
    const forged = {
      contacts: [{ profile: { name: "Intruso" }, wa_id: stranger.slice(1) }],
      messages: [{ from: stranger.slice(1), id: `gBEGforged${digits(8)}`, timestamp: String(Math.floor(Date.now() / 1000)), type: "text", text: { body: "forjada" } }],
      statuses: [
        {
          id: providerId,
          recipient_id: before.to.slice(1),
          status: "failed",
          timestamp: String(Math.floor(Date.now() / 1000)),
          errors: [{ code: 1026, title: "Receiver incapable" }],
        },
      ],
    };
    const events = async () => (await query("SELECT 1 FROM message_events WHERE message_id = $1", [id])).length;
    const eventsBefore = await events();
    const missing = await postWebhook(forged, null);
    expect(missing.status).toBe(401);
    expect(missing.body.error.code).toBe("UNAUTHENTICATED");
    expect((await postWebhook(forged, "not-the-token")).status).toBe(401);
    const realToken = new URL(await webhookUrlAtClient()).searchParams.get("token")!;
    expect((await postWebhook(forged, realToken.slice(0, -1))).status).toBe(401);
    // Nothing was read: no message from the stranger, no window for it, the message as it was.
    expect(await query("SELECT 1 FROM messages WHERE account_id = $1 AND sender = $2", [accountId, stranger])).toHaveLength(0);
    expect((await api(`/api/whatsapp/window?number_id=${numberId}&to=${encodeURIComponent(stranger)}`, { token })).body.data.open).toBe(false);
    expect(await message(id)).toEqual(before);
    expect(await events()).toBe(eventsBefore);

    // With the token: the client posts `read` again (a retry) and a late `delivered`: nothing changes.
    const now = String(Math.floor(Date.now() / 1000));
    const repeat = await postWebhook(
      {
        statuses: [
          { id: providerId, recipient_id: before.to.slice(1), status: "read", timestamp: now },
          { id: providerId, recipient_id: before.to.slice(1), status: "delivered", timestamp: now },
        ],
      },
      realToken,
    );
    expect(repeat.status).toBe(200);
    expect(repeat.body.results).toEqual([
      { field: "statuses", result: "duplicate" },
      { field: "statuses", result: "duplicate" },
    ]);
    expect(await message(id)).toEqual(before);
    expect(await events()).toBe(eventsBefore);

    // A status of a message not recorded (yet): 503, so the client posts it again.
    const early = await postWebhook({ statuses: [{ id: `gBEGunknown${digits(8)}`, recipient_id: "5511999990000", status: "delivered", timestamp: now }] }, realToken);
    expect(early.status).toBe(503);
    expect(early.body.error.code).toBe("RETRY_LATER");
  });

  it("disconnecting clears the client's webhook URL and takes the templates with it", async () => {
    expect(await webhookUrlAtClient()).not.toBe("");
    const del = await api(`/api/whatsapp/new/numbers/${numberId}`, { token, method: "DELETE" });
    expect(del.body).toEqual({ deleted: 1 });
    expect(await webhookUrlAtClient()).toBe("");
    expect(await query("SELECT 1 FROM whatsapp_templates WHERE number_id = $1", [numberId])).toHaveLength(0);
    expect((await api(`/api/whatsapp/new/numbers/${numberId}`, { token, method: "DELETE" })).status).toBe(404);
  });
});

describe("the outbound guard on an onprem base URL", () => {
  it("with the guard on (as in production), a private address is refused (422 on base_url) while the operator's own peer is reached", async () => {
    const { startStack } = await import("../support/stack");
    const stack = await startStack({ env: { OUTBOUND_ALLOW_PRIVATE: "false" } });
    try {
      const owner = await stack.signInDemoOwner();
      const number = handset();
      const form = (base_url: string) => ({ ...connectForm(), phone_number: number, base_url });
      for (const privateUrl of ["https://10.20.30.40/", "https://169.254.169.254/latest", `http://127.0.0.1:${new URL(inject("apiUrl")).port}/api`]) {
        const refused = await stack.api("/api/whatsapp/numbers", { token: owner.token, body: form(privateUrl) });
        expect(refused.status, privateUrl).toBe(422);
        expect(refused.body.error.fields).toEqual({ base_url: ["Não foi possível acessar uma API do WhatsApp neste endereço"] });
      }
      // SIMULATOR_URL is an origin the operator configured (a platform origin, ADR 021): reached even with the guard on.
      const ok = await stack.api("/api/whatsapp/numbers", { token: owner.token, body: form(baseUrl(number.slice(1), stack.simulatorUrl)) });
      expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    } finally {
      await stack.stop();
    }
  }, 180_000);
});
