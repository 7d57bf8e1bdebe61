/**
 * E-mail campaigns (issue 17, ADR 038; POST/GET/PUT/DELETE /api/email/campaigns): one content to a
 * contact group (variables filled per contact, HTML-escaped), a CSV file (the e-mail column found
 * by header; a file without one refused naming the field, nothing written or charged), and pause /
 * resume / cancel with the refund of the unsent. The 10,000-address campaign is
 * ./email-campaign-10k.test.ts (it runs alone: it loads the e-mail pipeline for a minute or more).
 * The content is kept once on the campaign; each message holds only its recipient and variables.
 */
import { beforeAll, describe, expect, inject, it } from "vitest";
import { api, login, registerPerson } from "../support/api";
import { query } from "../support/db";
import { rand, validatedDomain } from "../support/email";
import { balanceOf, makeGroupWithContacts, setAccount } from "../support/factories";
import { signIn } from "../support/web";

let token: string;
let accountId: string;
let domain: string;
const settle = { timeout: 30_000, interval: 250 };

const campaign = (body: Record<string, unknown>, opts: { key?: string; lang?: string } = {}) =>
  api("/api/email/campaigns", { token, body, lang: opts.lang ?? "en", headers: opts.key ? { "Idempotency-Key": opts.key } : undefined });
const peer = (path: string) =>
  fetch(new URL(path, inject("simulatorUrl")), { headers: { Authorization: `Bearer ${inject("simulatorApiKey")}` } }).then((r) => r.json() as Promise<{ data: any }>);
const atPeer = async (to: string) =>
  (await peer(`/email/_sim/messages?to=${encodeURIComponent(to)}`)).data as Array<{ id: string; headers: { subject: string }; dkim: { result: string } }>;
const rawAtPeer = async (id: string) => (await peer(`/email/_sim/messages/${id}`)).data.raw as string;
const campaignMessages = (id: string) =>
  query<{ id: string; recipient: string; status: string; price: string; body: string; content: any }>(
    "SELECT id, recipient, status, price, body, content FROM messages WHERE campaign_id = $1 ORDER BY recipient",
    [id],
  );
const emailRows = async () => (await query<{ n: number }>("SELECT count(*)::int AS n FROM messages WHERE account_id = $1 AND channel = 'email'", [accountId]))[0].n;

async function postFile(parts: Array<[string, string] | [string, { name: string; text: string }]>, lang = "en") {
  const form = new FormData();
  for (const [name, v] of parts) {
    if (typeof v === "string") form.append(name, v);
    else form.append(name, new Blob([v.text], { type: "text/csv" }), v.name);
  }
  const res = await fetch(new URL("/api/email/campaigns", inject("apiUrl")), {
    method: "POST",
    headers: { Authorization: `Bearer ${token}`, "Accept-Language": lang },
    body: form,
  });
  return { status: res.status, body: (await res.json()) as any };
}

let owner: { email: string; password: string };

beforeAll(async () => {
  const p = await registerPerson("emailcamp");
  owner = p;
  accountId = p.accountId;
  token = (await login(p.email, p.password)).token;
  await setAccount(accountId, { balance: 100_000 });
  domain = (await validatedDomain(token)).domain;
});

describe("POST /api/email/campaigns", () => {
  it("sends to a contact group's contacts with an e-mail, each variable filled from its contact (HTML-escaped), opt-outs not charged; the content kept once on the campaign", async () => {
    const tag = rand();
    const optedOut = `saiu-${tag}@destino.test`;
    const { groupId } = await makeGroupWithContacts(accountId, `Clientes ${tag}`, [
      { firstName: "Ana", email: `ana-${tag}@destino.test` },
      { firstName: "Bia & <Cia>", email: `bia-${tag}@destino.test` },
      { firstName: "Sem E-mail", mobileNumber: `+55119${String(Math.floor(Math.random() * 1e8)).padStart(8, "0")}` },
      { firstName: "Caio", email: optedOut },
    ]);
    await query("INSERT INTO optouts (account_id, channel, recipient, source) VALUES ($1, 'email', $2, 'manual')", [accountId, optedOut]);
    const before = await balanceOf(accountId);
    const res = await campaign(
      {
        from: `ofertas@${domain}`,
        from_name: "Loja",
        group_id: groupId,
        subject: "Oi {{first_name}}, temos novidades",
        html: "<p>Olá {{ first_name }}!</p>",
        text: "Olá {{first_name}}!",
      },
      { key: `grp-${tag}` },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.headers.get("Location")).toBe(`/api/email/campaigns/${res.body.data.campaign_id}`);
    expect(res.body.data).toMatchObject({ status: "running", total_price: 2, currency: "BRL", summary: { messages: 3, sendable: 2, optout: 1, rejected: 0 } });
    expect(await balanceOf(accountId)).toBe(before - 2);
    const id = res.body.data.campaign_id;
    // The same key answers the same campaign; nothing new is written or charged.
    const again = await campaign(
      {
        from: `ofertas@${domain}`,
        from_name: "Loja",
        group_id: groupId,
        subject: "Oi {{first_name}}, temos novidades",
        html: "<p>Olá {{ first_name }}!</p>",
        text: "Olá {{first_name}}!",
      },
      { key: `grp-${tag}` },
    );
    expect(again.body.data.campaign_id).toBe(id);
    expect(await balanceOf(accountId)).toBe(before - 2);

    const [stored] = await query<{ channel: string; content: any }>("SELECT channel, content FROM campaigns WHERE id = $1", [id]);
    expect(stored).toMatchObject({
      channel: "email",
      content: { subject: "Oi {{first_name}}, temos novidades", html: "<p>Olá {{ first_name }}!</p>", text: "Olá {{first_name}}!", domain },
    });
    const rows = await campaignMessages(id);
    expect(rows.map((r) => [r.recipient, r.status, Number(r.price)])).toEqual([
      [`ana-${tag}@destino.test`, expect.stringMatching(/queued|sending|sent|delivered/), 1],
      [`bia-${tag}@destino.test`, expect.stringMatching(/queued|sending|sent|delivered/), 1],
      [optedOut, "optout", 0],
    ]);
    // Per message only what differs: no HTML, no text body.
    expect(rows[0].body).toBe("");
    expect(rows[0].content).toEqual({ campaign_id: id, domain, subject: "Oi {{first_name}}, temos novidades", vars: { first_name: "Ana" } });

    await expect.poll(async () => (await atPeer(`bia-${tag}@destino.test`)).length, settle).toBe(1);
    const [bia] = await atPeer(`bia-${tag}@destino.test`);
    expect(bia.headers.subject).toBe("Oi Bia & <Cia>, temos novidades");
    expect(bia.dkim.result).toBe("pass");
    const raw = await rawAtPeer(bia.id);
    expect(raw).toContain("Bia &amp; &lt;Cia&gt;");
    await expect.poll(async () => (await atPeer(`ana-${tag}@destino.test`))[0]?.headers.subject, settle).toBe("Oi Ana, temos novidades");
    expect(await atPeer(optedOut)).toEqual([]);

    const got = await api(`/api/email/campaigns/${id}`, { token });
    expect(got.body.data).toMatchObject({ id, channel: "email", from: `ofertas@${domain}`, total: 3, cost: 2 });
    const list = await api("/api/email/campaigns", { token });
    expect(list.body.data.map((c: { id: string }) => c.id)).toContain(id);
    // Another channel's list does not show it.
    expect((await api("/api/sms/campaigns", { token })).body.data.map((c: { id: string }) => c.id)).not.toContain(id);
  });

  it("sends a template to a group: its subject and compiled HTML kept once on the campaign, filled per contact and delivered; an inactive template is refused on template_id, nothing charged", async () => {
    const tag = rand();
    const { groupId } = await makeGroupWithContacts(accountId, `Modelo ${tag}`, [
      { firstName: "Duda", email: `duda-${tag}@destino.test` },
      { firstName: "Edu", email: `edu-${tag}@destino.test` },
    ]);
    const created = await api("/api/email/templates", {
      token,
      body: {
        name: `Boas-vindas ${tag}`,
        subject: "Bem-vindo, {{first_name}}",
        mjml: "<mjml><mj-body><mj-section><mj-column><mj-text>Olá {{first_name}}</mj-text></mj-column></mj-section></mj-body></mjml>",
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const templateId = created.body.data.id as string;
    const res = await campaign({ from: `ofertas@${domain}`, group_id: groupId, template_id: templateId });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const id = res.body.data.campaign_id as string;
    const [stored] = await query<{ content: { subject: string; html: string; template_id: string } }>("SELECT content FROM campaigns WHERE id = $1", [id]);
    expect(stored.content).toMatchObject({ subject: "Bem-vindo, {{first_name}}", template_id: templateId });
    expect(stored.content.html).toContain("Olá {{first_name}}");
    for (const name of ["Duda", "Edu"]) {
      const to = `${name.toLowerCase()}-${tag}@destino.test`;
      await expect.poll(async () => (await atPeer(to))[0]?.headers.subject, settle).toBe(`Bem-vindo, ${name}`);
      expect(await rawAtPeer((await atPeer(to))[0].id)).toContain(`Ol=C3=A1 ${name}`);
    }
    // History shows what was sent: the message's subject and HTML rendered from its campaign.
    const [first] = await campaignMessages(id);
    expect(first.recipient).toBe(`duda-${tag}@destino.test`);
    const detail = await api(`/api/email/messages/${first.id}`, { token });
    expect(detail.body.data.subject).toBe("Bem-vindo, Duda");
    expect(detail.body.data.html).toContain("Olá Duda");
    const preview = await fetch(new URL(`/api/email/${first.id}/preview`, inject("apiUrl")), { headers: { Authorization: `Bearer ${token}` } });
    expect(preview.status).toBe(200);
    expect(await preview.text()).toContain("Olá Duda");
    expect((await api(`/api/email/templates/${templateId}`, { token, method: "PUT", body: { active: false } })).status).toBe(200);
    const before = await balanceOf(accountId);
    const rows = await emailRows();
    const refused = await campaign({ from: `ofertas@${domain}`, group_id: groupId, template_id: templateId });
    expect(refused.status).toBe(422);
    expect(refused.body.error.fields.template_id).toEqual(["This template is not active"]);
    expect([await balanceOf(accountId), await emailRows()]).toEqual([before, rows]);
  });

  it("refuses a variable a recipient has no value for, naming it; nothing written or charged", async () => {
    const tag = rand();
    const { groupId } = await makeGroupWithContacts(accountId, `Sem empresa ${tag}`, [{ firstName: "Ana", email: `x-${tag}@destino.test` }]);
    const before = [await balanceOf(accountId), await emailRows()];
    const res = await campaign({ from: `ofertas@${domain}`, group_id: groupId, subject: "Oi", html: "<p>{{company}}</p>" });
    expect(res.status).toBe(422);
    expect(res.body.error.fields).toEqual({ "variables.company": ["Please fill all parameters: company has no value"] });
    expect([await balanceOf(accountId), await emailRows()]).toEqual(before);
  });

  it("sends to a CSV file: the e-mail column found by its header, the other columns fill the variables, invalid rows counted and not sent", async () => {
    const tag = rand();
    const csv = `nome;Email;cidade\nAna;ana-${tag}@destino.test;Recife\nBia;BIA-${tag}@Destino.test;Natal\nSem;nao-e-email;Natal\nAna de novo;ana-${tag}@destino.test;Recife\nVazio;;Natal\n`;
    const before = await balanceOf(accountId);
    const res = await postFile([
      ["from", `ofertas@${domain}`],
      ["subject", "{{nome}}, ofertas em {{cidade}}"],
      ["text", "Olá {{nome}}"],
      ["file", { name: "clientes.csv", text: csv }],
    ]);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data.summary).toEqual({ messages: 2, sendable: 2, optout: 0, rejected: 0, invalid: 2 });
    expect(await balanceOf(accountId)).toBe(before - 2);
    const rows = await campaignMessages(res.body.data.campaign_id);
    expect(rows.map((r) => [r.recipient, r.content.vars])).toEqual([
      [`ana-${tag}@destino.test`, { nome: "Ana", cidade: "Recife" }],
      [`bia-${tag}@destino.test`, { nome: "Bia", cidade: "Natal" }],
    ]);
    await expect.poll(async () => (await atPeer(`bia-${tag}@destino.test`))[0]?.headers.subject, settle).toBe("Bia, ofertas em Natal");
    expect((await query<{ n: number }>("SELECT count(*)::int AS n FROM sms_send_rows WHERE recipient LIKE $1", [`%${tag}%`]))[0].n).toBe(0);

    // The invalid rows stay with the campaign: its report (line, the cell as written, why) in the reader's language.
    const id = res.body.data.campaign_id as string;
    expect((await api(`/api/email/campaigns/${id}`, { token })).body.data.invalid_rows).toBe(2);
    const report = async (lang: string, who = token) => {
      const r = await fetch(new URL(`/api/email/campaigns/${id}/invalid_rows`, inject("apiUrl")), { headers: { Authorization: `Bearer ${who}`, "Accept-Language": lang } });
      return { status: r.status, type: r.headers.get("Content-Type"), text: (await r.text()).replace(/^\uFEFF/, "").trim() };
    };
    const en = await report("en");
    expect(en.type).toMatch(/^text\/csv/);
    expect(en.text.split("\r\n")).toEqual(["Line,Value,Reason", "4,nao-e-email,Invalid address", "6,,Blank address"]);
    expect((await report("pt-BR")).text.split("\r\n")[1]).toBe("4,nao-e-email,Endereço inválido");
    // Not another account's, and not through the SMS path.
    const stranger = await registerPerson("emailcampinv");
    expect((await report("en", (await login(stranger.email, stranger.password)).token)).status).toBe(404);
    expect((await fetch(new URL(`/api/sms/campaigns/${id}/invalid_rows`, inject("apiUrl")), { headers: { Authorization: `Bearer ${token}` } })).status).toBe(404);
    // The web: the campaign page names them and links the report, which downloads.
    const web = await signIn(owner.email, owner.password);
    const { html } = await web.page(`/mail/campaigns/${id}`);
    expect(html).toContain(`href="/mail/campaigns/${id}/invalid-rows"`);
    expect(html).toContain("Linhas do arquivo sem endereço válido (não enviadas): 2");
    const download = await web.request(`/mail/campaigns/${id}/invalid-rows`);
    expect(download.status).toBe(200);
    expect((await download.text()).replace(/^\uFEFF/, "").split("\r\n")[1]).toBe("4,nao-e-email,Endereço inválido");
  });

  it("refuses a file without an e-mail column with a translated error naming the field; nothing charged, written or left staged", async () => {
    const tag = rand();
    const before = [await balanceOf(accountId), await emailRows()];
    const parts = (name: string): Array<[string, string] | [string, { name: string; text: string }]> => [
      ["from", `ofertas@${domain}`],
      ["subject", "Oi"],
      ["text", "Olá"],
      ["file", { name, text: `nome;telefone\nAna ${tag};11999990000\nBia ${tag};11999990001\n` }],
    ];
    const en = await postFile(parts("sem-email.csv"));
    expect(en.status).toBe(422);
    expect(en.body.error.fields).toEqual({ file: ["No column with e-mail addresses was found"] });
    const pt = await postFile(parts("sem-email.csv"), "pt-BR");
    expect(pt.body.error.fields).toEqual({ file: ["Nenhuma coluna com endereços de e-mail foi encontrada"] });
    expect([await balanceOf(accountId), await emailRows()]).toEqual(before);
    expect((await query<{ n: number }>("SELECT count(*)::int AS n FROM sms_send_rows WHERE vars::text LIKE $1", [`%${tag}%`]))[0].n).toBe(0);
  });

  it("refuses a from address of a domain not validated, and two sources at once", async () => {
    const bad = await campaign({ from: `x@nao-${rand()}.com`, to: ["a@destino.test"], subject: "Oi", text: "Olá" });
    expect(bad.body.error.fields).toEqual({ from: ["You need to register a domain and verify it before submitting"] });
    const both = await campaign({ from: `x@${domain}`, to: ["a@destino.test"], group_id: "7d0a6c6e-8f52-4f5e-9a59-6d7e2f1c1a11", subject: "Oi", text: "Olá" });
    expect(both.status).toBe(422);
    expect(Object.keys(both.body.error.fields)).toEqual(["group_id"]);
  });
});

describe("pause, resume and cancel", () => {
  it("a paused campaign holds its messages when they come due; resumed, they are sent; canceled (DELETE), the unsent fail as canceled and are refunded", async () => {
    const tag = rand();
    const at = new Date(Date.now() + 3_600_000).toISOString();
    const a = await campaign({ from: `news@${domain}`, to: [`p1-${tag}@destino.test`, `p2-${tag}@destino.test`], subject: "Agendada", text: "Olá", scheduled_at: at });
    expect(a.body.data).toMatchObject({ status: "scheduled", total_price: 2 });
    const id = a.body.data.campaign_id;
    const paused = await api(`/api/email/campaigns/${id}`, { token, method: "PUT", body: { status: "paused" } });
    expect(paused.status).toBe(200);
    expect(paused.body.data.status).toBe("paused");
    // They come due while paused: not released. A campaign beside it, due at the same moment and not paused, shows the release sweep ran.
    const beside = await campaign({ from: `news@${domain}`, to: [`ao-lado-${tag}@destino.test`], subject: "Ao lado", text: "Olá", scheduled_at: at });
    await query("UPDATE messages SET scheduled_at = now() - interval '1 second' WHERE campaign_id = ANY($1::uuid[])", [[id, beside.body.data.campaign_id]]);
    await expect.poll(async () => (await campaignMessages(beside.body.data.campaign_id))[0].status, settle).not.toBe("scheduled");
    expect((await campaignMessages(id)).map((m) => m.status)).toEqual(["scheduled", "scheduled"]);
    expect(await atPeer(`p1-${tag}@destino.test`)).toEqual([]);
    const resumed = await api(`/api/email/campaigns/${id}`, { token, method: "PUT", body: { status: "running" } });
    expect(resumed.body.meta).toMatchObject({ changed: true });
    await expect.poll(async () => (await atPeer(`p2-${tag}@destino.test`)).length, settle).toBe(1);
    await expect.poll(async () => (await campaignMessages(id)).every((m) => ["sent", "delivered"].includes(m.status)), settle).toBe(true);

    const b = await campaign({
      from: `news@${domain}`,
      to: [`c1-${tag}@destino.test`, `c2-${tag}@destino.test`, `c3-${tag}@destino.test`],
      subject: "Cancelar",
      text: "Olá",
      scheduled_at: at,
    });
    const before = await balanceOf(accountId);
    const canceled = await api(`/api/email/campaigns/${b.body.data.campaign_id}`, { token, method: "DELETE" });
    expect(canceled.status).toBe(200);
    expect(canceled.body.meta).toMatchObject({ changed: true, canceled: 3, refunded: 3 });
    expect(canceled.body.data.status).toBe("canceled");
    expect(await balanceOf(accountId)).toBe(before + 3);
    expect((await campaignMessages(b.body.data.campaign_id)).map((m) => m.status)).toEqual(["failed", "failed", "failed"]);
    const again = await api(`/api/email/campaigns/${b.body.data.campaign_id}`, { token, method: "PUT", body: { status: "running" } });
    expect(again.status).toBe(409);
    expect(await balanceOf(accountId)).toBe(before + 3);
  });
});
