/**
 * Requests for a WhatsApp number (issue 16, /whatsapp/request) through the API: a request is
 * written `requested` with what the person typed normalized (CNPJ without its mask, phones in
 * E.164), audited, and announced to the platform's staff; every field is checked and a wrong one
 * is a 422 naming it, translated (a CNPJ's check digits, Meta's display name rules); a number
 * connected to WhatsApp here by any account is 'Number already registered'; one pending request
 * per number in the account; the list is the account's own, newest first — another account can
 * neither read nor cancel it; a cancel keeps the request, canceled, and only while it is pending.
 */
import { beforeAll, describe, expect, inject, it } from "vitest";
import { simulatedAppSecret } from "../../api/simulator/whatsapp-cloud";
import { api, login, registerPerson } from "../support/api";
import { query } from "../support/db";
import { setMember } from "../support/factories";
import { handset } from "../support/whatsapp";

const digits = (n: number) => Array.from({ length: n }, () => Math.floor(Math.random() * 10)).join("");
/** A Brazilian mobile number no other test uses (E.164). */
const mobile = () => handset();
const request = (over: Record<string, unknown> = {}) => ({
  legal_name: "Padaria Pão Quente Ltda",
  cnpj: "11.222.333/0001-81",
  website: "https://paoquente.com.br",
  email: "Contato@PaoQuente.com.br",
  business_phone: "(11) 3456-7890",
  address: "Rua das Flores, 10 - São Paulo",
  display_name: "Pão Quente",
  vertical: "RESTAURANT",
  phone_number: mobile(),
  integration: "cloud",
  description: "Padaria de bairro: pedidos e avisos de entrega",
  ...over,
});

let owner: { token: string; accountId: string; userId: string };
let other: { token: string; accountId: string };

/** POST /api/whatsapp/requests with an Idempotency-Key (the support client sends no custom headers). */
async function postWithKey(token: string, key: string, body: unknown) {
  const res = await fetch(new URL("/api/whatsapp/requests", inject("apiUrl")), {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}`, "Idempotency-Key": key },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json(), headers: res.headers };
}

beforeAll(async () => {
  const a = await registerPerson("warequest");
  owner = { token: (await login(a.email, a.password)).token, accountId: a.accountId, userId: a.userId };
  const b = await registerPerson("warequestother");
  other = { token: (await login(b.email, b.password)).token, accountId: b.accountId };
});

describe("WhatsApp number requests", () => {
  it("creates a request: 201 with Location, normalized, requested; audited; the platform's staff notified; listed first and read by id", async () => {
    const body = request();
    const res = await api("/api/whatsapp/requests", { token: owner.token, body });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const id = res.body.data.id;
    expect(res.headers.get("location")).toBe(`/api/whatsapp/requests/${id}`);
    expect(res.body.data).toMatchObject({
      legal_name: "Padaria Pão Quente Ltda",
      cnpj: "11222333000181",
      website: "https://paoquente.com.br",
      email: "contato@paoquente.com.br",
      business_phone: "+551134567890",
      display_name: "Pão Quente",
      vertical: "RESTAURANT",
      phone_number: body.phone_number,
      integration: "cloud",
      status: "requested",
      reason: null,
    });
    expect(res.body.data.status_at).toBe(res.body.data.created_at);
    const [row] = await query<{ account_id: string; created_by: string }>("SELECT account_id, created_by FROM whatsapp_number_requests WHERE id = $1", [id]);
    expect(row).toEqual({ account_id: owner.accountId, created_by: owner.userId });
    const audit = await query<{ user_id: string }>("SELECT user_id FROM audit_logs WHERE account_id = $1 AND action = 'whatsapp.number_requested' AND meta->>'id' = $2", [
      owner.accountId,
      id,
    ]);
    expect(audit).toEqual([{ user_id: owner.userId }]);
    const told = await query<{ params: Record<string, string> }>(
      "SELECT n.params FROM notifications n JOIN accounts a ON a.id = n.account_id WHERE a.type = 'platform' AND n.kind = 'whatsapp_number_requested' AND n.params->>'number' = $1",
      [body.phone_number],
    );
    expect(told.length).toBeGreaterThan(0);
    expect(told[0].params).toMatchObject({ number: body.phone_number, name: "Pão Quente" });

    const list = await api("/api/whatsapp/requests", { token: owner.token });
    expect(list.status).toBe(200);
    expect(list.body.data[0].id).toBe(id);
    expect(list.body.next_cursor).toBeNull();
    const one = await api(`/api/whatsapp/requests/${id}`, { token: owner.token });
    expect(one.status).toBe(200);
    expect(one.body.data).toEqual(res.body.data);
  });

  it("an Idempotency-Key answers the first response for the same request, and 409 for another", async () => {
    const key = `req-${digits(10)}`;
    const body = request();
    const first = await postWithKey(owner.token, key, body);
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    const again = await postWithKey(owner.token, key, body);
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get("location")).toBe(`/api/whatsapp/requests/${first.body.data.id}`);
    expect(await query("SELECT 1 FROM whatsapp_number_requests WHERE phone_number = $1", [body.phone_number])).toHaveLength(1);
    const conflict = await postWithKey(owner.token, key, { ...body, display_name: "Pão Quente Entregas" });
    expect(conflict.status).toBe(409);
    expect(conflict.body.error.code).toBe("IDEMPOTENCY_CONFLICT");
  });

  it("each wrong field is a 422 naming it, translated (a bad CNPJ, Meta's display name rules); nothing is written", async () => {
    const before = await query("SELECT 1 FROM whatsapp_number_requests WHERE account_id = $1", [owner.accountId]);
    const bad = await api("/api/whatsapp/requests", {
      token: owner.token,
      lang: "pt-BR",
      body: request({
        legal_name: "",
        cnpj: "11.222.333/0001-80",
        website: "http://paoquente.com.br",
        email: "contato@",
        business_phone: "123",
        display_name: "Pão Quente 🍞",
        vertical: "BAKERY",
        phone_number: "0800",
        integration: "telegram",
        description: "x".repeat(513),
      }),
    });
    expect(bad.status).toBe(422);
    expect(bad.body.error.code).toBe("VALIDATION");
    expect(bad.body.error.fields).toEqual({
      legal_name: ["Campo obrigatório"],
      cnpj: ["CNPJ inválido: confira o número e os dígitos verificadores"],
      website: ["Use um endereço que comece com https://"],
      email: ["E-mail inválido"],
      business_phone: ["Número de telefone inválido"],
      display_name: ["O nome de exibição não pode ter emoji"],
      vertical: ["Escolha uma das opções"],
      phone_number: ["Número de telefone inválido"],
      integration: ["Escolha uma das opções"],
      description: ["Tamanho máximo 512"],
    });

    // Meta's display name rules, in English.
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ display_name: "paoquente.com.br" }, "The display name cannot be a web address"],
      [{ display_name: "PQ" }, "Minimum length 3"],
      [{ display_name: "PADARIA PÃO QUENTE" }, "Do not write the display name in capitals only (acronyms are fine)"],
      [{ display_name: "Pão Quente WhatsApp" }, "The display name cannot include WhatsApp"],
      [{ display_name: "12345" }, "The display name needs letters, not only digits or symbols"],
      [
        { display_name: "Sabor Divino", description: null },
        "The display name must relate to the business: use a name from the legal name or the website, or explain the relationship in the description",
      ],
    ];
    for (const [over, message] of cases) {
      const res = await api("/api/whatsapp/requests", { token: owner.token, lang: "en", body: request(over) });
      expect(res.status, JSON.stringify(over)).toBe(422);
      expect(res.body.error.fields, JSON.stringify(over)).toEqual({ display_name: [message] });
    }
    // Missing fields are each required.
    const empty = await api("/api/whatsapp/requests", { token: owner.token, lang: "en", body: {} });
    expect(empty.status).toBe(422);
    expect(Object.keys(empty.body.error.fields).sort()).toEqual(["business_phone", "cnpj", "display_name", "email", "legal_name", "phone_number", "vertical"]);
    expect(await query("SELECT 1 FROM whatsapp_number_requests WHERE account_id = $1", [owner.accountId])).toHaveLength(before.length);
  });

  it("a number connected to WhatsApp here, by any account, is 409 'Number already registered' on phone_number", async () => {
    const phoneNumberId = `1${digits(14)}`;
    const connected = await api("/api/whatsapp/numbers", {
      token: other.token,
      body: { phone_number_id: phoneNumberId, waba_id: `2${digits(14)}`, access_token: `EAAG${digits(20)}`, app_secret: simulatedAppSecret(inject("simulatorApiKey")) },
    });
    expect(connected.status, JSON.stringify(connected.body)).toBe(201);
    // The simulator's display number: +55 11 9XXXX-XXXX.
    const e164 = `+${connected.body.data.display_phone_number.replace(/\D/g, "")}`;
    expect(e164).toMatch(/^\+55119\d{8}$/);
    for (const [token, lang, message] of [
      [owner.token, "en", "Number already registered: it is already connected to WhatsApp on the platform"],
      [other.token, "pt-BR", "Número já cadastrado: ele já está conectado ao WhatsApp na plataforma"],
    ]) {
      const res = await api("/api/whatsapp/requests", { token, lang, body: request({ phone_number: e164 }) });
      expect(res.status).toBe(409);
      expect(res.body.error.code).toBe("NUMBER_ALREADY_REGISTERED");
      expect(res.body.error.fields).toEqual({ phone_number: [message] });
    }
    expect(await query("SELECT 1 FROM whatsapp_number_requests WHERE phone_number = $1", [e164])).toHaveLength(0);
  });

  it("one pending request per number in the account: a second is 409; another account may ask for it; after a cancel it can be asked again", async () => {
    const phone = mobile();
    const first = await api("/api/whatsapp/requests", { token: owner.token, body: request({ phone_number: phone }) });
    expect(first.status).toBe(201);
    // The same number typed another way is the same number.
    const twice = await api("/api/whatsapp/requests", { token: owner.token, lang: "en", body: request({ phone_number: phone.slice(3) }) });
    expect(twice.status).toBe(409);
    expect(twice.body.error.code).toBe("NUMBER_ALREADY_REQUESTED");
    expect(twice.body.error.fields).toEqual({ phone_number: ["There is already a pending request for this number"] });
    const elsewhere = await api("/api/whatsapp/requests", { token: other.token, body: request({ phone_number: phone }) });
    expect(elsewhere.status).toBe(201);
    // In review still holds the number; a decided request does not.
    await query("UPDATE whatsapp_number_requests SET status = 'in_review' WHERE id = $1", [first.body.data.id]);
    expect((await api("/api/whatsapp/requests", { token: owner.token, body: request({ phone_number: phone }) })).status).toBe(409);
    expect((await api(`/api/whatsapp/requests/${first.body.data.id}`, { method: "DELETE", token: owner.token })).status).toBe(200);
    expect((await api("/api/whatsapp/requests", { token: owner.token, body: request({ phone_number: phone }) })).status).toBe(201);
  });

  it("scoped by account: another account neither lists, reads nor cancels it (404); cancel keeps it listed, canceled, audited; a decided or canceled request is 409 REQUEST_STATE", async () => {
    const created = await api("/api/whatsapp/requests", { token: owner.token, body: request() });
    const id = created.body.data.id;
    const theirs = await api("/api/whatsapp/requests?limit=200", { token: other.token });
    expect(theirs.body.data.map((r: { id: string }) => r.id)).not.toContain(id);
    expect((await api(`/api/whatsapp/requests/${id}`, { token: other.token })).status).toBe(404);
    expect((await api(`/api/whatsapp/requests/${id}`, { method: "DELETE", token: other.token })).status).toBe(404);
    expect((await api("/api/whatsapp/requests/not-a-uuid", { token: owner.token })).status).toBe(404);
    expect((await api(`/api/whatsapp/requests/${id}`, { token: owner.token })).body.data.status).toBe("requested");

    const canceled = await api(`/api/whatsapp/requests/${id}`, { method: "DELETE", token: owner.token });
    expect(canceled.status).toBe(200);
    expect(canceled.body.data).toMatchObject({ id, status: "canceled" });
    expect(Date.parse(canceled.body.data.status_at)).toBeGreaterThan(Date.parse(canceled.body.data.created_at));
    const [row] = await query<{ canceled_by: string }>("SELECT canceled_by FROM whatsapp_number_requests WHERE id = $1", [id]);
    expect(row.canceled_by).toBe(owner.userId);
    expect(await query("SELECT 1 FROM audit_logs WHERE account_id = $1 AND action = 'whatsapp.number_request_canceled' AND meta->>'id' = $2", [owner.accountId, id])).toHaveLength(
      1,
    );
    const listed = await api("/api/whatsapp/requests?status=canceled", { token: owner.token });
    expect(listed.body.data.map((r: { id: string }) => r.id)).toContain(id);
    expect(listed.body.data.every((r: { status: string }) => r.status === "canceled")).toBe(true);
    const again = await api(`/api/whatsapp/requests/${id}`, { method: "DELETE", token: owner.token, lang: "en" });
    expect(again.status).toBe(409);
    expect(again.body.error).toMatchObject({ code: "REQUEST_STATE", message: "This request can no longer be canceled" });

    // Platform staff rejected one (with a reason): the account reads the reason and cannot cancel it.
    const rejected = await api("/api/whatsapp/requests", { token: owner.token, body: request() });
    await query("UPDATE whatsapp_number_requests SET status = 'rejected', reason = 'Nome de exibição genérico', status_at = now() WHERE id = $1", [rejected.body.data.id]);
    expect((await api(`/api/whatsapp/requests/${rejected.body.data.id}`, { token: owner.token })).body.data).toMatchObject({
      status: "rejected",
      reason: "Nome de exibição genérico",
    });
    expect((await api(`/api/whatsapp/requests/${rejected.body.data.id}`, { method: "DELETE", token: owner.token })).status).toBe(409);
  });

  it("newest first in keyset pages; a bad status or cursor is a 422", async () => {
    const p = await registerPerson("warequestpages");
    const token = (await login(p.email, p.password)).token;
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await api("/api/whatsapp/requests", { token, body: request() })).body.data.id);
    const page1 = await api("/api/whatsapp/requests?limit=2", { token });
    expect(page1.body.data.map((r: { id: string }) => r.id)).toEqual([ids[2], ids[1]]);
    const page2 = await api(`/api/whatsapp/requests?limit=2&cursor=${page1.body.next_cursor}`, { token });
    expect(page2.body).toMatchObject({ data: [{ id: ids[0] }], next_cursor: null });
    expect((await api("/api/whatsapp/requests?status=done", { token })).status).toBe(422);
    expect((await api("/api/whatsapp/requests?cursor=zzz", { token })).status).toBe(422);
  });

  it("roles of /whatsapp/request: a developer of the account is 403; a user (agent) may ask", async () => {
    const p = await registerPerson("warequestroles");
    await setMember(p.accountId, p.userId, { role: "developer" });
    const dev = (await login(p.email, p.password)).token;
    expect((await api("/api/whatsapp/requests", { token: dev, body: request() })).status).toBe(403);
    expect((await api("/api/whatsapp/requests", { token: dev })).status).toBe(403);
    await setMember(p.accountId, p.userId, { role: "agent" });
    const agent = (await login(p.email, p.password)).token;
    expect((await api("/api/whatsapp/requests", { token: agent, body: request() })).status).toBe(201);
  });
});
