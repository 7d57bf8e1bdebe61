/**
 * /sms/send, /sms/send/success and /sms/templates without JavaScript (plain form posts through
 * the web process): each recipient mode (one number, a list, a CSV file, a group), template and
 * variables, schedule in São Paulo time, translated errors per field, the success page's counts,
 * and template create / edit / delete / bulk delete. Effects are checked in the database.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { giveShortCode } from "../support/api";
import { query } from "../support/db";
import { location, signedInCustomer, signIn, type WebCustomer } from "../support/web";
import { makeGroupWithContacts, makeOptout, makeShortCode, makeSmsTemplate } from "../support/factories";

const DEFAULT_T1 = 8;
let seq = 60_000_000 + Math.floor(Math.random() * 30_000_000);
const nextNational = () => `11 9${String(seq++)}`;
const e164 = (national: string) => `+55${national.replace(/\D/g, "")}`;

type Customer = WebCustomer;

const freshCustomer = (tag: string, balance: number): Promise<Customer> => signedInCustomer(tag, { balance, lastName: "Envio", company: "Envio" });

const balanceOf = async (accountId: string) => Number((await query<{ balance: string }>("SELECT balance FROM account_balances WHERE account_id = $1", [accountId]))[0].balance);
const count = async (sql: string, params: unknown[]) => (await query<{ n: number }>(sql, params))[0].n;

/** The send form as a browser without JavaScript posts it: multipart, CSRF first, then mode, then the rest. */
function sendForm(fields: Record<string, string>, file?: { name: string; text: string }) {
  const form = new FormData();
  form.append("mode", fields.mode ?? "single");
  for (const [k, v] of Object.entries(fields)) if (k !== "mode") form.append(k, v);
  form.append("file", file ? new Blob([file.text], { type: "text/csv" }) : new Blob([]), file?.name ?? "");
  return form;
}

const decode = (html: string) =>
  html
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&amp;/g, "&")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/\u00a0/g, " ");

/** The error FormField shows under the control named `name` (its id + "-error"), decoded. */
function fieldError(html: string, name: string) {
  const input = new RegExp(`<(?:input|select|textarea)[^>]*name="${name}"[^>]*>`).exec(html)?.[0] ?? "";
  const id = /id="([^"]+)"/.exec(input)?.[1];
  if (!id) return "";
  const esc = id.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return decode(new RegExp(`<div[^>]*id="${esc}-error"[^>]*>(.*?)</div>`, "s").exec(html)?.[1] ?? "");
}

let owner: Customer;
/** owner's own short code: the sender its sends use. */
let ownerCode: string;
beforeAll(async () => {
  owner = await freshCustomer("smsweb", 100_000);
  ownerCode = await giveShortCode(owner.accountId);
});

describe("/sms/send without JavaScript", () => {
  it("shows the form with every mode, the routes with their price, the counter and the sidebar entry", async () => {
    const { res, html } = await owner.client.page("/sms/send");
    expect(res.status).toBe(200);
    for (const text of ["Enviar SMS", "Um número", "Lista de números", "Arquivo CSV", "Grupo de contatos", "T1 — R$ 0,08 por segmento", "Agendar para"]) {
      expect(decode(html)).toContain(text);
    }
    expect(html).toMatch(/<form[^>]*id="sms-send"[^>]*enctype="multipart\/form-data"/i);
    expect(html).toContain('href="/sms/templates"');
    expect(decode(html)).toContain("0 caracteres · 1 segmento · GSM-7");
  });

  it("offers the account's short codes (with their nickname) as senders", async () => {
    const number = String(10_000_000 + Math.floor(Math.random() * 89_999_999));
    await makeShortCode(owner.accountId, { number, nickname: "Promoções" });
    const { html } = await owner.client.page("/sms/send");
    const list = /<datalist id="sms-send-senders"[^>]*>(.*?)<\/datalist>/s.exec(html)?.[1] ?? "";
    expect(decode(list)).toContain(`value="${number}" label="Short code · Promoções"`);
    expect(html).toMatch(/<input[^>]*list="sms-send-senders"[^>]*name="from"|<input[^>]*name="from"[^>]*list="sms-send-senders"/);
  });

  it("one number: accepted, debited, and the success page tells what was accepted", async () => {
    const to = nextNational();
    const before = await balanceOf(owner.accountId);
    const res = await owner.client.postMultipart("/sms/send?index", sendForm({ mode: "single", to, from: ownerCode, route: "T1", body: "Seu pedido saiu para entrega" }));
    expect(res.status, await res.clone().text()).toBe(302);
    const where = location(res)!;
    expect(where).toMatch(/^\/sms\/send\/success\?message=[0-9a-f-]{36}$/);
    const id = where.split("=")[1];
    const [m] = await query<{ recipient: string; sender: string; status: string; price: string }>("SELECT recipient, sender, status, price FROM messages WHERE id = $1", [id]);
    expect(m).toMatchObject({ recipient: e164(to), sender: ownerCode, price: String(DEFAULT_T1) });
    expect(await balanceOf(owner.accountId)).toBe(before - DEFAULT_T1);
    const { html } = await owner.client.page(where);
    const text = decode(html);
    for (const s of ["Envio aceito", "Mensagens", "Segmentos cobrados", "R$ 0,08", "Ver a mensagem", `/sms/history/${id}`]) expect(text).toContain(s);
  });

  it("a list (newlines, commas, semicolons) creates a campaign; repeated numbers once; campaign name kept", async () => {
    const [a, b, c] = [nextNational(), nextNational(), nextNational()];
    const res = await owner.client.postMultipart(
      "/sms/send?index",
      sendForm({ mode: "list", to_list: `${a}\n${b}, ${c}; ${a}`, route: "T1", body: "Oferta relâmpago", campaign_name: "Relâmpago" }),
    );
    expect(res.status, await res.clone().text()).toBe(302);
    const where = location(res)!;
    expect(where).toMatch(/^\/sms\/send\/success\?campaign=/);
    const campaignId = where.split("=")[1];
    expect(await count("SELECT count(*)::int AS n FROM messages WHERE campaign_id = $1", [campaignId])).toBe(3);
    const [cmp] = await query<{ name: string; total: number }>("SELECT name, total FROM campaigns WHERE id = $1", [campaignId]);
    expect(cmp).toEqual({ name: "Relâmpago", total: 3 });
    const text = decode((await owner.client.page(where)).html);
    expect(text).toContain("Relâmpago");
    expect(text).toContain("Ver a campanha");
  });

  it("a CSV file: phone column found by header, other columns as variables, invalid rows counted, opt-out blocked", async () => {
    const p = await freshCustomer("smswebfile", 10_000);
    const rows = Array.from({ length: 30 }, (_, i) => [`Cliente ${i}`, nextNational(), `P${i}`]);
    await makeOptout(p.accountId, e164(rows[0][1]), { channel: "sms", source: "manual" });
    const csv = ["Nome;Celular;Código", ...rows.map((r) => r.join(";")), "Sem número;123;X"].join("\n");
    const res = await p.client.postMultipart(
      "/sms/send?index",
      sendForm({ mode: "file", route: "T1", body: "Olá {{nome}}, pedido {{codigo}}" }, { name: "clientes.csv", text: csv }),
    );
    expect(res.status, await res.clone().text()).toBe(302);
    const campaignId = location(res)!.split("=")[1];
    const msgs = await query<{ recipient: string; body: string; status: string }>("SELECT recipient, body, status FROM messages WHERE campaign_id = $1", [campaignId]);
    expect(msgs).toHaveLength(30);
    expect(msgs.find((m) => m.recipient === e164(rows[5][1]))!.body).toBe("Olá Cliente 5, pedido P5");
    expect(msgs.find((m) => m.recipient === e164(rows[0][1]))!.status).toBe("optout");
    expect(await balanceOf(p.accountId)).toBe(10_000 - 29 * DEFAULT_T1);
    const [cmp] = await query<{ source: Record<string, unknown> }>("SELECT source FROM campaigns WHERE id = $1", [campaignId]);
    expect(cmp.source).toMatchObject({ kind: "file", file_name: "clientes.csv", rows: 31, invalid: 1 });
    expect(await count("SELECT count(*)::int AS n FROM sms_send_rows", [])).toBe(0);
    const text = decode((await p.client.page(location(res)!)).html);
    expect(text).toContain("Descadastradas (opt-out): não enviadas nem cobradas");
    expect(text).toContain("Linhas do arquivo sem número válido (ignoradas)");
    expect(text).toContain("R$ 2,32");
  });

  it("a file without a header: the first column holding phones is used", async () => {
    const p = await freshCustomer("smswebnohdr", 1_000);
    const csv = [`x,${nextNational()},a`, `y,${nextNational()},b`].join("\n");
    const res = await p.client.postMultipart("/sms/send?index", sendForm({ mode: "file", route: "T1", body: "Oi {{col3}}" }, { name: "numeros.csv", text: csv }));
    expect(res.status, await res.clone().text()).toBe(302);
    const bodies = await query<{ body: string }>("SELECT body FROM messages WHERE account_id = $1 ORDER BY body", [p.accountId]);
    expect(bodies.map((b) => b.body)).toEqual(["Oi a", "Oi b"]);
  });

  it("a group with a template: contact names filled in; scheduled in São Paulo time", async () => {
    const p = await freshCustomer("smswebgroup", 10_000);
    const numbers = [nextNational(), nextNational(), nextNational()].map(e164);
    const g = {
      id: (
        await makeGroupWithContacts(
          p.accountId,
          "VIP",
          numbers.map((n, i) => ({ mobileNumber: n, firstName: `Ana${i}` })),
        )
      ).groupId,
    };
    const tpl = { id: await makeSmsTemplate(p.accountId, { name: "VIP", body: "Oi {{first_name}}, {{oferta}}" }) };
    const form = await p.client.page(`/sms/send?template=${tpl.id}`);
    expect(form.html).toMatch(new RegExp(`<option data-slot="native-select-option" value="${tpl.id}"[^>]* selected="">`));
    expect(decode(form.html)).toContain("VIP (3 contatos)");

    const res = await p.client.postMultipart(
      "/sms/send?index",
      sendForm({ mode: "group", group_id: g.id, route: "T1", template_id: tpl.id, body: "", variables: "oferta=10% off", scheduled_at: "2099-01-01T09:30" }),
    );
    expect(res.status).toBe(422); // more than 90 days ahead
    expect(decode(await res.text())).toContain("No máximo 90 dias à frente");

    const at = new Date(Date.now() + 2 * 86_400_000);
    const local = new Intl.DateTimeFormat("en-CA", {
      timeZone: "America/Sao_Paulo",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
    })
      .format(at)
      .replace(", ", "T");
    const ok = await p.client.postMultipart(
      "/sms/send?index",
      sendForm({ mode: "group", group_id: g.id, route: "T1", template_id: tpl.id, body: "", variables: "oferta=10% off", scheduled_at: local }),
    );
    expect(ok.status, await ok.clone().text()).toBe(302);
    const campaignId = location(ok)!.split("=")[1];
    const msgs = await query<{ body: string; status: string; scheduled_at: Date }>("SELECT body, status, scheduled_at FROM messages WHERE campaign_id = $1 ORDER BY body", [
      campaignId,
    ]);
    expect(msgs.map((m) => [m.body, m.status])).toEqual([0, 1, 2].map((i) => [`Oi Ana${i}, 10% off`, "scheduled"]));
    // The São Paulo wall-clock time (UTC-3) as an instant.
    const expected = new Date(`${local}:00-03:00`);
    expect(msgs[0].scheduled_at.getTime()).toBe(expected.getTime());
    const text = decode((await p.client.page(location(ok)!)).html);
    expect(text).toContain("Envio agendado");
    expect(text).toContain("Agendado para");
  });

  it("errors are translated and shown on their field; nothing is written", async () => {
    const p = await freshCustomer("smsweberr", 5);
    const before = await count("SELECT count(*)::int AS n FROM messages WHERE account_id = $1", [p.accountId]);
    const bad = await p.client.postMultipart("/sms/send?index", sendForm({ mode: "single", to: "123", route: "T1", body: "Oi" }));
    expect(bad.status).toBe(422);
    expect(decode(await bad.text())).toContain("Número de telefone inválido");
    const noBody = await p.client.postMultipart("/sms/send?index", sendForm({ mode: "single", to: nextNational(), route: "T1", body: "" }));
    expect(decode(await noBody.text())).toContain("Campo obrigatório");
    const missing = await p.client.postMultipart("/sms/send?index", sendForm({ mode: "single", to: nextNational(), route: "T1", body: "Oi {{nome}}" }));
    expect(missing.status).toBe(422);
    expect(decode(await missing.text())).toContain("Preencha todos os parâmetros: falta o valor de nome");
    const noFile = await p.client.postMultipart("/sms/send?index", sendForm({ mode: "file", route: "T1", body: "Oi" }));
    expect(noFile.status).toBe(422);
    const poor = await p.client.postMultipart("/sms/send?index", sendForm({ mode: "single", to: nextNational(), route: "T1", body: "Oi" }));
    expect(poor.status).toBe(402);
    expect(decode(await poor.text())).toContain("Saldo insuficiente para este envio");
    const noCsrf = await p.client.postMultipart("/sms/send?index", sendForm({ mode: "single", to: nextNational(), route: "T1", body: "Oi" }), { csrf: null });
    expect(noCsrf.status).toBe(403);
    expect(await count("SELECT count(*)::int AS n FROM messages WHERE account_id = $1", [p.accountId])).toBe(before);
    expect(await balanceOf(p.accountId)).toBe(5);
  });

  it("a sender the account does not own: the translated error shows on the sender field; nothing is sent, also for a CSV file", async () => {
    const p = await freshCustomer("smswebsender", 10_000);
    const other = await freshCustomer("smswebsender-other", 0);
    const theirs = await giveShortCode(other.accountId);
    for (const from of ["40404", theirs]) {
      const res = await p.client.postMultipart("/sms/send?index", sendForm({ mode: "single", to: nextNational(), from, route: "T1", body: "Seu código é 1234" }));
      expect(res.status, from).toBe(422);
      const html = await res.text();
      expect(fieldError(html, "from")).toContain("Este remetente não é um dos remetentes da sua conta");
      expect(html).toMatch(new RegExp(`<input[^>]*name="from"[^>]*value="${from}"|<input[^>]*value="${from}"[^>]*name="from"`));
    }
    const csv = ["Nome;Celular", `Ana;${nextNational()}`, `Bia;${nextNational()}`].join("\n");
    const file = await p.client.postMultipart("/sms/send?index", sendForm({ mode: "file", from: "40404", route: "T1", body: "Oi {{nome}}" }, { name: "lista.csv", text: csv }));
    expect(file.status).toBe(422);
    expect(fieldError(await file.text(), "from")).toContain("Este remetente não é um dos remetentes da sua conta");
    expect(await count("SELECT count(*)::int AS n FROM messages WHERE account_id = $1", [p.accountId])).toBe(0);
    expect(await count("SELECT count(*)::int AS n FROM campaigns WHERE account_id = $1", [p.accountId])).toBe(0);
    expect(await balanceOf(p.accountId)).toBe(10_000);
  });

  it("is closed to a developer (no send) and the success page only shows the account's own sends", async () => {
    const developer = await signIn("developer@demo.example");
    const res = await developer.get("/sms/send");
    expect(location(res)).toBe("/403");
    const [m] = await query<{ id: string }>("SELECT id FROM messages WHERE account_id = $1 LIMIT 1", [owner.accountId]);
    const stranger = await freshCustomer("smswebstranger", 0);
    const page = await stranger.client.get(`/sms/send/success?message=${m.id}`);
    expect(page.status).toBe(404);
  });
});

describe("/sms/templates without JavaScript", () => {
  it("creates, shows variables, edits, refuses a taken name, deletes one and the checked ones", async () => {
    const p = await freshCustomer("smswebtpl", 0);
    const c = p.client;
    const created = await c.post("/sms/templates", { intent: "create", name: "Cobrança", body: "Olá {{nome}}, vence {{data}}" });
    expect(created.status).toBe(302);
    let html = decode((await c.page("/sms/templates")).html);
    expect(html).toContain("Modelo Cobrança criado");
    expect(html).toContain("{{nome}}");
    expect(html).toContain("{{data}}");
    const taken = await c.post("/sms/templates", { intent: "create", name: "cobrança", body: "x" });
    expect(taken.status).toBe(422);
    expect(decode(await taken.text())).toContain("Já existe um modelo com este nome");
    await c.post("/sms/templates", { intent: "create", name: "Aviso", body: "Aviso" });
    await c.post("/sms/templates", { intent: "create", name: "Lembrete", body: "Lembrete {{hora}}" });
    const ids = Object.fromEntries(
      (await query<{ id: string; name: string }>("SELECT id, name FROM sms_templates WHERE account_id = $1", [p.accountId])).map((r) => [r.name, r.id]),
    );

    html = decode((await c.page(`/sms/templates?edit=${ids["Cobrança"]}`)).html);
    expect(html).toContain("Editar modelo");
    const edited = await c.post("/sms/templates", { intent: "edit", id: ids["Cobrança"], name: "Cobrança mensal", body: "Oi {{nome}}" });
    expect(edited.status).toBe(302);
    expect((await query<{ name: string }>("SELECT name FROM sms_templates WHERE id = $1", [ids["Cobrança"]]))[0].name).toBe("Cobrança mensal");

    const deleted = await c.post("/sms/templates", { intent: "delete", id: ids["Aviso"] });
    expect(deleted.status).toBe(302);
    const none = await c.post("/sms/templates", { intent: "bulk" });
    expect(none.status).toBe(422);
    expect(decode(await none.text())).toContain("Selecione ao menos um modelo");
    const body = new URLSearchParams([
      ["intent", "bulk"],
      ["ids", ids["Cobrança"]],
      ["ids", ids["Lembrete"]],
      ["csrf", c.csrf],
    ]);
    const bulk = await c.request("/sms/templates", { method: "POST", body, headers: { "Content-Type": "application/x-www-form-urlencoded" } });
    expect(bulk.status).toBe(302);
    expect(decode((await c.page("/sms/templates")).html)).toContain("2 modelos excluídos");
    expect(await count("SELECT count(*)::int AS n FROM sms_templates WHERE account_id = $1", [p.accountId])).toBe(0);
  });
});
