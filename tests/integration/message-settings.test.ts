/**
 * Account-wide message settings (issue 23, ADR 071): /settings/resources (default sender per
 * channel) and /settings/messages (signature, opt-out text, marketing window) through the API and
 * the screens without JavaScript, and their effect where SMS sends are accepted — the one-number
 * fast path and a campaign — over the real api and web processes.
 */
import { formatInTimeZone } from "date-fns-tz";
import { beforeAll, describe, expect, it } from "vitest";
import { api, giveShortCode, login, registerPerson, type Person } from "../support/api";
import { query } from "../support/db";
import { giveOmni, makeGroupWithContacts, makeRcsAgent, setAccount } from "../support/factories";
import { validatedDomain } from "../support/email";
import { approvedTemplate, connectCloudNumber, contactWrites } from "../support/whatsapp";
import { DEMO_PASSWORD, location, signIn, signedInCustomer } from "../support/web";

type Who = Person & { token: string };
const ZONE = "America/Sao_Paulo";

async function person(tag: string): Promise<Who> {
  const p = await registerPerson(tag);
  await setAccount(p.accountId, { balance: 100_000 });
  return { ...p, token: (await login(p.email, p.password)).token };
}

let seq = 20_000_000 + Math.floor(Math.random() * 50_000_000);
const nextNumber = () => `+55119${String(seq++).padStart(8, "0")}`;
const WINDOW_OPEN_ALL_DAY = { window_enabled: true, window_start: "00:00", window_end: "24:00", window_days: [0, 1, 2, 3, 4, 5, 6] };

/** A message accepted to go now, read at any moment after: the dispatcher may have taken it already. */
const DISPATCHED = ["queued", "sending", "sent", "delivered", "read"];

async function message(id: string) {
  const [m] = await query<{ sender: string; body: string; status: string; scheduled_at: Date | null }>(`SELECT sender, body, status, scheduled_at FROM messages WHERE id = $1`, [
    id,
  ]);
  return m;
}

describe("message settings API", () => {
  let owner: Who;
  let other: Who;
  let code: string;
  let otherCode: string;
  beforeAll(async () => {
    [owner, other] = await Promise.all([person("msgset"), person("msgset-other")]);
    code = await giveShortCode(owner.accountId, { nickname: "Avisos" });
    otherCode = await giveShortCode(other.accountId);
  });

  it("answers the defaults before anything is saved, with the account's own choices only", async () => {
    const res = await api("/api/settings/resources", { token: owner.token });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ sms_sender: "", whatsapp_number_id: null, rcs_agent_id: null, email_from: null, updated_at: null });
    expect(res.body.choices.sms).toEqual([{ value: code, label: `${code} · Avisos` }]);
    expect(res.body.editable).toBe(true);
    const msgs = await api("/api/settings/messages", { token: owner.token });
    expect(msgs.body.data).toMatchObject({ signature: "", signature_channels: [], optout_text: "", window_enabled: false });
  });

  it("refuses another account's short code, an address off its validated domains and a bad window, naming the field, translated; nothing saved", async () => {
    const foreign = await api("/api/settings/resources", { method: "PUT", token: owner.token, body: { sms_sender: otherCode }, lang: "en" });
    expect(foreign.status).toBe(422);
    expect(foreign.body.error.fields.sms_sender[0]).toBe("Choose an active short code of this account.");
    const mail = await api("/api/settings/resources", { method: "PUT", token: owner.token, body: { email_from: "news@nao-validado.example" }, lang: "en" });
    expect(mail.status).toBe(422);
    expect(mail.body.error.fields.email_from[0]).toBe("The address must be on a validated domain of this account.");
    const win = await api("/api/settings/messages", {
      method: "PUT",
      token: owner.token,
      body: { window_enabled: true, window_start: "20:00", window_end: "08:00", window_days: [], signature: "{{nome}}", signature_channels: ["sms"] },
      lang: "en",
    });
    expect(win.status).toBe(422);
    expect(win.body.error.fields.window_end[0]).toBe("The end must be after the start.");
    expect(win.body.error.fields.window_days[0]).toBe("Choose at least one day.");
    expect(win.body.error.fields.signature[0]).toBe("Variables ({{ }}) are not accepted here.");
    expect(await query("SELECT 1 FROM account_message_settings WHERE account_id = $1", [owner.accountId])).toHaveLength(0);
  });

  it("a one-number SMS with no sender goes from the default short code, signed; a named sender wins; the signature stays off WhatsApp-only", async () => {
    const saved = await api("/api/settings/resources", { method: "PUT", token: owner.token, body: { sms_sender: code } });
    expect(saved.status).toBe(200);
    expect(saved.body.data.sms_sender).toBe(code);
    const sig = await api("/api/settings/messages", {
      method: "PUT",
      token: owner.token,
      body: { signature: "Loja Exemplo", signature_channels: ["sms"], optout_text: "Para sair, responda SAIR", window_start: "08:00", window_end: "20:00" },
    });
    expect(sig.status).toBe(200);
    const one = await api("/api/sms/messages", { token: owner.token, body: { to: nextNumber(), body: "Seu código é 4321" } });
    expect(one.status).toBe(200);
    // Not a campaign: signed, without the opt-out text; the price counts the signature.
    const first = await message(one.body.data[0].id);
    expect(first).toMatchObject({ sender: code, body: "Seu código é 4321\nLoja Exemplo", scheduled_at: null });
    // Not held: queued, or already taken by the dispatcher.
    expect(DISPATCHED).toContain(first.status);
    const named = await api("/api/sms/messages", { token: owner.token, body: { to: nextNumber(), body: "Oi", from: "" } });
    expect((await message(named.body.data[0].id)).sender).toBe(code);

    await api("/api/settings/messages", {
      method: "PUT",
      token: owner.token,
      body: { signature: "Loja Exemplo", signature_channels: ["whatsapp"], window_start: 480, window_end: 1200 },
    });
    const unsigned = await api("/api/sms/messages", { token: owner.token, body: { to: nextNumber(), body: "Sem assinatura" } });
    expect((await message(unsigned.body.data[0].id)).body).toBe("Sem assinatura");
  });

  it("a campaign gets the signature and the opt-out text on every message, and waits for the marketing window's next opening", async () => {
    // The window: every day but today (São Paulo), 08:00 to 20:00 — so a campaign now waits for tomorrow 08:00.
    const today = Number(formatInTimeZone(new Date(), ZONE, "i")) % 7;
    const days = [0, 1, 2, 3, 4, 5, 6].filter((d) => d !== today);
    const put = await api("/api/settings/messages", {
      method: "PUT",
      token: owner.token,
      body: {
        signature: "Loja Exemplo",
        signature_channels: ["sms", "whatsapp"],
        optout_text: "Para sair, responda SAIR",
        window_enabled: true,
        window_start: "08:00",
        window_end: "20:00",
        window_days: days,
      },
    });
    expect(put.status).toBe(200);
    const to = [nextNumber(), nextNumber()];
    const res = await api("/api/sms/messages", { token: owner.token, body: { to, body: "Promoção de sexta" } });
    expect(res.status).toBe(200);
    const tomorrow = formatInTimeZone(new Date(Date.now() + 86_400_000), ZONE, "yyyy-MM-dd");
    expect(formatInTimeZone(new Date(res.body.scheduled_at), ZONE, "yyyy-MM-dd HH:mm")).toBe(`${tomorrow} 08:00`);
    for (const m of res.body.data) {
      expect(m.status).toBe("scheduled");
      const row = await message(m.id);
      expect(row.body).toBe("Promoção de sexta\nLoja Exemplo\nPara sair, responda SAIR");
      expect(row.scheduled_at?.toISOString()).toBe(new Date(res.body.scheduled_at).toISOString());
    }
    const [campaign] = await query<{ status: string }>("SELECT status FROM campaigns WHERE id = $1", [res.body.campaign_id]);
    expect(campaign.status).toBe("scheduled");
    // A one-number send is not a campaign: it goes now, whatever the window.
    const now = await api("/api/sms/messages", { token: owner.token, body: { to: nextNumber(), body: "Seu pedido saiu" } });
    expect(now.body.data[0].status).toBe("queued");
    // Inside the window (all day, every day) a campaign goes at once.
    await api("/api/settings/messages", {
      method: "PUT",
      token: owner.token,
      body: { ...WINDOW_OPEN_ALL_DAY, signature: "", signature_channels: [], optout_text: "Para sair, responda SAIR" },
    });
    const open = await api("/api/sms/messages", { token: owner.token, body: { to: [nextNumber(), nextNumber()], body: "Agora" } });
    expect(open.body.data.map((m: { status: string }) => m.status)).toEqual(["queued", "queued"]);
    expect((await message(open.body.data[0].id)).body).toBe("Agora\nPara sair, responda SAIR");
  });

  it("a default sender no longer active refuses a send that names none, saying why; the audit keeps before and after", async () => {
    await query("UPDATE short_codes SET status = 'inactive' WHERE account_id = $1 AND number = $2", [owner.accountId, code]);
    const res = await api("/api/sms/messages", { token: owner.token, body: { to: nextNumber(), body: "Oi" }, lang: "en" });
    expect(res.status).toBe(422);
    expect(res.body.error.fields.from[0]).toContain("default sender is no longer active");
    await query("UPDATE short_codes SET status = 'active' WHERE account_id = $1 AND number = $2", [owner.accountId, code]);
    const [audit] = await query<{ meta: { before: { sms_sender: string }; after: { sms_sender: string } } }>(
      "SELECT meta FROM audit_logs WHERE account_id = $1 AND action = 'settings.resources.updated' ORDER BY created_at DESC LIMIT 1",
      [owner.accountId],
    );
    expect(audit.meta.before.sms_sender).toBe("");
    expect(audit.meta.after.sms_sender).toBe(code);
  });

  it("roles: a sales person reads but may not change; the demo agent is refused; another account's settings never show", async () => {
    const sales = await signedInCustomer("msgset-sales", { role: "sales" });
    const token = (await login(sales.email, DEMO_PASSWORD)).token;
    const read = await api("/api/settings/messages", { token });
    expect(read.status).toBe(200);
    expect(read.body.editable).toBe(false);
    expect((await api("/api/settings/messages", { method: "PUT", token, body: WINDOW_OPEN_ALL_DAY })).status).toBe(403);
    const agent = (await login("agent@demo.example", DEMO_PASSWORD)).token;
    expect((await api("/api/settings/resources", { token: agent })).status).toBe(403);
    const theirs = await api("/api/settings/resources", { token: other.token });
    expect(theirs.body.data.sms_sender).toBe("");
    expect(theirs.body.choices.sms.map((c: { value: string }) => c.value)).toEqual([otherCode]);
  });
});

describe("WhatsApp, RCS and e-mail sends apply the settings", () => {
  let who: Who;
  /** Every day but today in São Paulo, 08:00–20:00: a campaign now waits for tomorrow 08:00. */
  const closedToday = () => {
    const today = Number(formatInTimeZone(new Date(), ZONE, "i")) % 7;
    return { window_enabled: true, window_start: "08:00", window_end: "20:00", window_days: [0, 1, 2, 3, 4, 5, 6].filter((d) => d !== today) };
  };
  const tomorrowAtEight = () => `${formatInTimeZone(new Date(Date.now() + 86_400_000), ZONE, "yyyy-MM-dd")} 08:00`;
  const inSaoPaulo = (iso: string) => formatInTimeZone(new Date(iso), ZONE, "yyyy-MM-dd HH:mm");
  beforeAll(async () => {
    who = await person("msgset-channels");
    await giveOmni(who.accountId);
  });

  it("WhatsApp: no `from` goes from the default number, text is signed; a campaign waits for the window; no default and no `from` names the field", async () => {
    const none = await api("/api/whatsapp/messages", { token: who.token, body: { to: nextNumber(), type: "text", text: { body: "Oi" } }, lang: "en" });
    expect(none.status).toBe(422);
    expect(Object.keys(none.body.error.fields)).toEqual(["from"]);
    const n = await connectCloudNumber(who.token);
    const put = await api("/api/settings/resources", { method: "PUT", token: who.token, body: { whatsapp_number_id: n.numberId } });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    await api("/api/settings/messages", { method: "PUT", token: who.token, body: { signature: "Loja Exemplo", signature_channels: ["whatsapp"], ...closedToday() } });
    const to = nextNumber();
    await contactWrites(n, to);
    const text = await api("/api/whatsapp/messages", { token: who.token, body: { to, type: "text", text: { body: "Seu pedido saiu" } } });
    expect(text.status, JSON.stringify(text.body)).toBe(202);
    const sent = await message(text.body.data.id);
    expect(sent).toMatchObject({ sender: n.phoneNumberId, body: "Seu pedido saiu\nLoja Exemplo", scheduled_at: null });
    expect(DISPATCHED).toContain(sent.status);
    const name = `aviso_${Math.random().toString(36).slice(2, 8)}`;
    await approvedTemplate(n, { name, body: "Novidades da semana" });
    const campaign = await api("/api/whatsapp/campaigns", { token: who.token, body: { to: [nextNumber(), nextNumber()], template: { name, language: "pt_BR" } } });
    expect(campaign.status, JSON.stringify(campaign.body)).toBe(201);
    expect(campaign.body.data.status).toBe("scheduled");
    expect(inSaoPaulo(campaign.body.data.scheduled_at)).toBe(tomorrowAtEight());
    const senders = await query<{ sender: string; status: string }>("SELECT sender, status FROM messages WHERE campaign_id = $1", [campaign.body.data.campaign_id]);
    expect(senders).toEqual([
      { sender: n.phoneNumberId, status: "scheduled" },
      { sender: n.phoneNumberId, status: "scheduled" },
    ]);
  });

  it("RCS: no agent_id goes from the default agent; a campaign waits for the window", async () => {
    const agent = await makeRcsAgent(who.accountId);
    expect((await api("/api/settings/resources", { method: "PUT", token: who.token, body: { rcs_agent_id: agent.id } })).status).toBe(200);
    await api("/api/settings/messages", { method: "PUT", token: who.token, body: closedToday() });
    const one = await api("/api/rcs/messages", { token: who.token, body: { to: nextNumber(), content: { type: "text", messageText: "Oi" } } });
    expect(one.status, JSON.stringify(one.body)).toBe(202);
    expect((await message(one.body.data.id)).sender).toBe(agent.rbmAgentId);
    const { groupId } = await makeGroupWithContacts(who.accountId, `RCS ${Date.now()}`, [{ mobileNumber: nextNumber() }, { mobileNumber: nextNumber() }]);
    const campaign = await api("/api/rcs/campaigns", { token: who.token, body: { group_id: groupId, content: { type: "text", messageText: "Promoção" } } });
    expect(campaign.status, JSON.stringify(campaign.body)).toBe(201);
    expect(campaign.body.data.status).toBe("scheduled");
    expect(inSaoPaulo(campaign.body.data.scheduled_at)).toBe(tomorrowAtEight());
  });

  it("e-mail: no `from` goes from the default address with its name; a campaign waits for the window", async () => {
    const { domain } = await validatedDomain(who.token);
    const put = await api("/api/settings/resources", { method: "PUT", token: who.token, body: { email_from: `Novidades@${domain}`, email_from_name: "Loja Exemplo" } });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(put.body.data.email_from).toBe(`novidades@${domain}`);
    await api("/api/settings/messages", { method: "PUT", token: who.token, body: closedToday() });
    const one = await api("/api/email/messages", { token: who.token, body: { to: "cliente@example.com", subject: "Pedido", text: "Seu pedido saiu" } });
    expect(one.status, JSON.stringify(one.body)).toBe(202);
    const id = one.body.data.messages[0].id;
    const [row] = await query<{ sender: string; content: { from_name: string | null } }>("SELECT sender, content FROM messages WHERE id = $1", [id]);
    expect(row.sender).toBe(`novidades@${domain}`);
    expect(row.content.from_name).toBe("Loja Exemplo");
    const campaign = await api("/api/email/campaigns", { token: who.token, body: { to: ["a@example.com", "b@example.com"], subject: "Promoção", text: "Só hoje" } });
    expect(campaign.status, JSON.stringify(campaign.body)).toBe(201);
    expect(campaign.body.data.status).toBe("scheduled");
    expect(inSaoPaulo(campaign.body.data.scheduled_at)).toBe(tomorrowAtEight());
  });
});

describe("/settings/resources and /settings/messages screens (no JavaScript)", () => {
  it("the owner saves the window and texts by plain form posts; a refused post names the field; the screen shows the effect", async () => {
    const owner = await signedInCustomer("msgset-web");
    const c = owner.client;
    const first = await c.page("/settings/messages");
    expect(first.res.status).toBe(200);
    expect(first.html).toContain('data-testid="messages-form"');
    const bad = await c.post("/settings/messages", { signature: "Loja", optout_text: "", window_enabled: "on", window_start: "18:00", window_end: "09:00", window_days: "1" });
    expect(bad.status).toBe(422);
    expect(await bad.text()).toContain("O fim precisa ser depois do início.");
    const body = new URLSearchParams({ signature: "Padaria Boa", optout_text: "Para sair, responda SAIR", window_enabled: "on", window_start: "09:00", window_end: "18:00" });
    for (const [k, v] of [
      ["signature_channels", "sms"],
      ["window_days", "1"],
      ["window_days", "3"],
    ])
      body.append(k, v);
    body.set("csrf", c.csrf);
    const ok = await c.request("/settings/messages", { method: "POST", body, headers: { "Content-Type": "application/x-www-form-urlencoded" } });
    expect(ok.status).toBe(302);
    expect(location(ok)).toBe("/settings/messages");
    const [row] = await query<{ signature: string; signature_channels: string[]; window_days: number[]; window_start: number; window_end: number; window_enabled: boolean }>(
      "SELECT signature, signature_channels, window_days, window_start, window_end, window_enabled FROM account_message_settings WHERE account_id = $1",
      [owner.accountId],
    );
    expect(row).toEqual({ signature: "Padaria Boa", signature_channels: ["sms"], window_days: [1, 3], window_start: 540, window_end: 1080, window_enabled: true });
    const after = await c.page("/settings/messages");
    expect(after.html).toContain("Sua mensagem\nPadaria Boa\nPara sair, responda SAIR");
    expect(after.html).toMatch(/A janela está (aberta|fechada)/);

    // The SMS send screen says what the settings add, before anything is sent.
    const send = await c.page("/sms/send");
    expect(send.html).toContain('data-testid="sms-settings-note"');
    expect(send.html).toMatch(/A assinatura (&quot;|")Padaria Boa(&quot;|") é acrescentada/);

    const res = await c.page("/settings/resources");
    expect(res.res.status).toBe(200);
    expect(res.html).toContain("Remetente padrão da rota");
    const refused = await c.post("/settings/resources", { sms_sender: "99999", whatsapp_number_id: "", rcs_agent_id: "", email_from: "", email_from_name: "" });
    expect(refused.status).toBe(422);
    expect(await refused.text()).toContain("Escolha um short code ativo desta conta.");
  });

  it("the settings hub links both screens for the owner", async () => {
    const c = await signIn("owner@demo.example");
    const { html } = await c.page("/settings");
    expect(html).toContain('href="/settings/resources"');
    expect(html).toContain('href="/settings/messages"');
  });
});
