/**
 * Links of SMS campaigns shortened per recipient (issue 22, ADR 060), over the real processes:
 * with `shorten_links` a group send turns each address of its text into a short link of the
 * account and gives each recipient its own code of each ("_" and 12 characters), in the body that
 * is counted and priced; the short host leads each code to the address and counts the click with
 * its code; the campaign's clicks say who clicked (with the contact's name), per link; another
 * account reads none. A list send does the same from the process. An address that cannot be
 * shortened refuses the send with 'Failure to shorten a link' naming it, nothing written. Without
 * the option the text goes as written. A custom slug may not take the codes' "_" start. On the web,
 * without JavaScript: the send form's checkbox, and the campaign's "Who clicked" card. A WhatsApp
 * campaign shortens the addresses in its variables' values the same way, in the text and in
 * Graph's template object. An e-mail campaign's links are tracked per message already (ADR 039):
 * its clicks say who clicked the same way.
 */
import http from "node:http";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { smsSegments } from "../../api/sms/segments";
import { api, login, registerPerson, type Person } from "../support/api";
import { query } from "../support/db";
import { giveOmni, makeGroupWithContacts, setAccount } from "../support/factories";
import { waitUntil } from "../support/loopback-peer";
import { connectCloudNumber, digits } from "../support/whatsapp";
import { rand, receivedHtml, validatedDomain } from "../support/email";
import { location, signedInCustomer } from "../support/web";

const HOST = "short.localhost";
const CODE_URL = /http:\/\/short\.localhost:\d+\/(_[A-Za-z0-9_-]{12})/g;
type Who = Person & { token: string };

async function person(tag: string, balance: number): Promise<Who> {
  const p = await registerPerson(tag);
  await setAccount(p.accountId, { balance });
  return { ...p, token: (await login(p.email, p.password)).token };
}
const send = (who: Who, body: unknown, lang?: string) => api("/api/sms/messages", { token: who.token, body, lang });
const balanceOf = async (accountId: string) => Number((await query<{ balance: string }>("SELECT balance FROM account_balances WHERE account_id = $1", [accountId]))[0].balance);

let seq = 20_000_000 + Math.floor(Math.random() * 50_000_000);
const nextNumbers = (n: number) => Array.from({ length: n }, () => `+55119${String(seq++).padStart(8, "0")}`);

const agent = new http.Agent({ keepAlive: true });
afterAll(() => agent.destroy());
/** A GET on the short host of the web process (fetch cannot set Host). */
function visit(path: string): Promise<{ status: number; location?: string }> {
  const url = new URL(path, inject("webUrl"));
  return new Promise((resolve, reject) => {
    const req = http.request(url, { agent, headers: { Host: `${HOST}:${url.port}`, "User-Agent": "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile" } }, (res) => {
      res.resume();
      res.on("end", () => resolve({ status: res.statusCode ?? 0, location: res.headers.location }));
    });
    req.on("error", reject);
    req.end();
  });
}

async function waitFor<T>(what: string, probe: () => Promise<T | null | undefined | false>, ms = 20_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

const codesIn = (body: string) => [...body.matchAll(CODE_URL)].map((m) => m[1]);

let owner: Who;
let other: Who;
beforeAll(async () => {
  owner = await person("shortcamp", 100_000);
  other = await person("shortcamp2", 100_000);
});

describe("campaign links shortened per recipient", () => {
  let campaignId: string;
  let numbers: string[];
  const promo = "https://loja.example.com.br/promo?utm_source=sms&x=1";
  const app = "https://app.example.com.br/baixar";

  it("a group send: each recipient's body carries its own code of each link, counted and priced; the codes and the links are written", async () => {
    numbers = nextNumbers(3);
    const { groupId } = await makeGroupWithContacts(
      owner.accountId,
      "Clientes VIP",
      numbers.map((mobileNumber, i) => ({ mobileNumber, firstName: `Cliente${i}` })),
    );
    const body = `Oi {{first_name}}, ofertas em ${promo} e o app: ${app}. Até!`;
    const res = await send(owner, { group_id: groupId, body, shorten_links: true, campaign_name: "Black Friday VIP" });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    campaignId = res.body.campaign_id;

    const messages = await query<{ recipient: string; body: string; segments: number; price: string }>(
      "SELECT recipient, body, segments, price FROM messages WHERE campaign_id = $1 ORDER BY recipient",
      [campaignId],
    );
    expect(messages.map((m) => m.recipient)).toEqual([...numbers].sort());
    const all: string[] = [];
    for (const m of messages) {
      const codes = codesIn(m.body);
      expect(codes, m.body).toHaveLength(2);
      all.push(...codes);
      // The text around the links is kept, the sentence's final "." included; the addresses are gone.
      expect(m.body).toMatch(/^Oi Cliente\d, ofertas em http:\/\/short\.localhost:\d+\/_\S{12} e o app: http:\/\/short\.localhost:\d+\/_\S{12}\. Até!$/);
      expect(m.body).not.toContain("loja.example");
      // Counted and priced on what the recipient gets.
      expect(m.segments).toBe(smsSegments(m.body).segments);
    }
    expect(new Set(all).size).toBe(6);
    const total = messages.reduce((s, m) => s + Number(m.price), 0);
    expect(res.body.total_price).toBe(total);
    expect(res.body.summary.segments).toBe(messages.reduce((s, m) => s + m.segments, 0));

    const codes = await query<{ slug: string; recipient: string; url: string; title: string }>(
      `SELECT c.slug, c.recipient, l.original_url AS url, l.title FROM shortener_codes c JOIN shortener_links l ON l.id = c.link_id
        WHERE c.campaign_id = $1 AND c.account_id = $2 ORDER BY c.slug`,
      [campaignId, owner.accountId],
    );
    expect(codes.map((c) => c.slug)).toEqual([...all].sort());
    expect(new Set(codes.map((c) => c.url))).toEqual(new Set([promo, app]));
    expect(new Set(codes.map((c) => c.title))).toEqual(new Set(["Black Friday VIP"]));
    // The code of each recipient's message is its own.
    for (const m of messages) for (const code of codesIn(m.body)) expect(codes.find((c) => c.slug === code)?.recipient).toBe(m.recipient);
    // The two links are the account's, listed on /shortener/links.
    const listed = await api("/api/shortener/links?q=Black", { token: owner.token });
    expect(listed.body.data.map((l: { original_url: string }) => l.original_url).sort()).toEqual([app, promo].sort());
    // The campaign keeps the text as written.
    expect((await query<{ body: string }>("SELECT body FROM campaigns WHERE id = $1", [campaignId]))[0].body).toBe(body);
  });

  it("the short host leads each code to its address and counts the click with it; the campaign's clicks say who clicked, with the contact's name, per link", async () => {
    const [first, second] = await Promise.all(
      [numbers[0], numbers[1]].map(async (n) => (await query<{ body: string }>("SELECT body FROM messages WHERE campaign_id = $1 AND recipient = $2", [campaignId, n]))[0].body),
    );
    const [firstPromo] = codesIn(first);
    const [, secondApp] = codesIn(second);
    expect(await visit(`/${firstPromo}`)).toEqual({ status: 302, location: promo });
    expect(await visit(`/${firstPromo}`)).toEqual({ status: 302, location: promo });
    expect(await visit(`/${secondApp}`)).toEqual({ status: 302, location: app });
    // A code nobody was given leads nowhere.
    expect((await visit("/_AAAAAAAAAAAA")).status).toBe(404);

    const clicks = await waitFor("the three clicks written", async () => {
      const res = await api(`/api/sms/campaigns/${campaignId}/clicks`, { token: owner.token });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.data?.clicks === 3 ? res.body.data : null;
    });
    expect(clicks).toMatchObject({ recipients: 3, clicked: 2, clicks: 3 });
    expect(clicks.links).toEqual([expect.objectContaining({ url: promo, clicks: 2, clicked: 1 }), expect.objectContaining({ url: app, clicks: 1, clicked: 1 })]);
    expect(clicks.people.map((p: { recipient: string; name: string; clicks: number }) => [p.recipient, p.name, p.clicks])).toEqual(
      expect.arrayContaining([
        [numbers[0], "Cliente0", 2],
        [numbers[1], "Cliente1", 1],
      ]),
    );
    expect(clicks.people).toHaveLength(2);
    const rows = await query<{ code: string; ua_class: string }>("SELECT code, ua_class FROM shortener_clicks WHERE account_id = $1 ORDER BY code", [owner.accountId]);
    expect(rows.map((r) => r.code).sort()).toEqual([firstPromo, firstPromo, secondApp].sort());
    expect(new Set(rows.map((r) => r.ua_class))).toEqual(new Set(["mobile"]));
    // The links' own counts include their recipients' clicks.
    const links = await api("/api/shortener/links?q=Black", { token: owner.token });
    expect(Object.fromEntries(links.body.data.map((l: { original_url: string; clicks: number }) => [l.original_url, l.clicks]))).toEqual({ [promo]: 2, [app]: 1 });
  });

  it("another account reads no campaign's clicks (404); a campaign without shortened links has none (data null)", async () => {
    expect((await api(`/api/sms/campaigns/${campaignId}/clicks`, { token: other.token })).status).toBe(404);
    const to = nextNumbers(2);
    const plain = await send(owner, { to, body: `Veja ${promo}` });
    expect(plain.status, JSON.stringify(plain.body)).toBe(200);
    // Without the option the text goes as written, and nothing is shortened.
    const bodies = await query<{ body: string }>("SELECT body FROM messages WHERE campaign_id = $1", [plain.body.campaign_id]);
    expect(bodies.map((b) => b.body)).toEqual([`Veja ${promo}`, `Veja ${promo}`]);
    expect((await query("SELECT 1 FROM shortener_codes WHERE campaign_id = $1", [plain.body.campaign_id])).length).toBe(0);
    const none = await api(`/api/sms/campaigns/${plain.body.campaign_id}/clicks`, { token: owner.token });
    expect(none.status).toBe(200);
    expect(none.body.data).toBeNull();
  });

  it("a list send shortens per recipient too (codes drawn in the process); one number alone is no campaign and is sent as written", async () => {
    const to = nextNumbers(2);
    const res = await send(owner, { messages: to.map((n, i) => ({ to: n, variables: { nome: `N${i}` } })), body: "{{nome}}: https://example.com/a", shorten_links: true });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const bodies = await query<{ recipient: string; body: string }>("SELECT recipient, body FROM messages WHERE campaign_id = $1 ORDER BY recipient", [res.body.campaign_id]);
    const codes = bodies.map((b) => codesIn(b.body));
    expect(codes.map((c) => c.length)).toEqual([1, 1]);
    expect(codes[0][0]).not.toBe(codes[1][0]);
    const written = await query<{ slug: string; recipient: string }>("SELECT slug, recipient FROM shortener_codes WHERE campaign_id = $1 ORDER BY recipient", [
      res.body.campaign_id,
    ]);
    expect(written).toEqual(bodies.map((b, i) => ({ slug: codes[i][0], recipient: b.recipient })));
    expect(await visit(`/${codes[1][0]}`)).toEqual({ status: 302, location: "https://example.com/a" });
    // Each answer entry is priced on its own body.
    for (const entry of res.body.data) expect(entry.segments).toBe(smsSegments(bodies.find((b) => b.recipient === entry.to)!.body).segments);

    const [alone] = nextNumbers(1);
    const single = await send(owner, { to: alone, body: "https://example.com/a", shorten_links: true });
    expect(single.status, JSON.stringify(single.body)).toBe(200);
    expect((await query<{ body: string }>("SELECT body FROM messages WHERE id = $1", [single.body.data[0].id]))[0].body).toBe("https://example.com/a");
  });

  it("an address that cannot be shortened refuses the send: 'Failure to shorten a link' naming it on body, translated; nothing written, nothing debited", async () => {
    const { groupId } = await makeGroupWithContacts(
      owner.accountId,
      "Falha",
      nextNumbers(2).map((mobileNumber) => ({ mobileNumber, firstName: "X" })),
    );
    const before = {
      balance: await balanceOf(owner.accountId),
      campaigns: (await query("SELECT 1 FROM campaigns WHERE account_id = $1", [owner.accountId])).length,
      links: (await query("SELECT 1 FROM shortener_links WHERE account_id = $1", [owner.accountId])).length,
    };
    // The first address is fine and would be created first: the whole send rolls back.
    const body = "Veja https://example.com/ok e http://192.168.0.10/intranet";
    const en = await send(owner, { group_id: groupId, body, shorten_links: true }, "en");
    expect(en.status).toBe(422);
    expect(en.body.error.fields).toEqual({ body: ["Failure to shorten a link: http://192.168.0.10/intranet"] });
    const pt = await send(owner, { group_id: groupId, body, shorten_links: true }, "pt-BR");
    expect(pt.body.error.fields).toEqual({ body: ["Falha ao encurtar um link: http://192.168.0.10/intranet"] });
    const six = await send(owner, { group_id: groupId, body: [1, 2, 3, 4, 5, 6].map((i) => `https://example.com/${i}`).join(" "), shorten_links: true }, "en");
    expect(six.status).toBe(422);
    expect(six.body.error.fields).toEqual({ body: ["A campaign can shorten at most 5 different links"] });
    expect({
      balance: await balanceOf(owner.accountId),
      campaigns: (await query("SELECT 1 FROM campaigns WHERE account_id = $1", [owner.accountId])).length,
      links: (await query("SELECT 1 FROM shortener_links WHERE account_id = $1", [owner.accountId])).length,
    }).toEqual(before);
  });

  it("a custom slug may not start with _ (the codes' own start)", async () => {
    const res = await api("/api/shortener/links", { token: owner.token, lang: "en", body: { title: "x", original_url: "https://example.com", slug: "_AbCdEfGhIjKl" } });
    expect(res.status).toBe(422);
    expect(res.body.error.fields).toEqual({ slug: ["Use 3 to 50 letters, digits, _ or -, not starting with _"] });
  });

  it("on the web without JavaScript: /sms/send's checkbox shortens a list's links; the campaign's page shows who clicked", async () => {
    const web = await signedInCustomer("shortcampweb", { balance: 100_000 });
    const form = await web.client.page("/sms/send");
    expect(form.html).toContain('name="shorten_links"');
    expect(form.html).toContain("Encurtar os links e ver quem clicou");
    const to = nextNumbers(2);
    const fields = new FormData();
    for (const [k, v] of Object.entries({ mode: "list", to_list: to.join("\n"), body: "Cupom em https://example.com/cupom", shorten_links: "on", campaign_name: "Cupons" }))
      fields.append(k, v);
    const res = await web.client.postMultipart("/sms/send?index", fields);
    expect(res.status, await res.clone().text()).toBe(302);
    const campaign = /campaign=([0-9a-f-]{36})/.exec(location(res) ?? "")?.[1];
    expect(campaign).toBeTruthy();
    const before = await web.client.page(`/sms/campaigns/${campaign}`);
    expect(before.html).toContain("Quem clicou");
    expect(before.html).toContain("0 de 2 destinatários clicaram");
    expect(before.html).toContain("Ninguém clicou ainda.");
    const [m] = await query<{ body: string }>("SELECT body FROM messages WHERE campaign_id = $1 AND recipient = $2", [campaign, to[1]]);
    expect(await visit(`/${codesIn(m.body)[0]}`)).toEqual({ status: 302, location: "https://example.com/cupom" });
    const after = await waitFor("the click on the campaign's page", async () => {
      const p = await web.client.page(`/sms/campaigns/${campaign}`);
      return p.html.includes("1 de 2 destinatários clicaram") ? p.html : null;
    });
    expect(after).toContain(`data-recipient="${to[1]}"`);
    expect(after).not.toContain(`data-recipient="${to[0]}"`);
  });
});

describe("WhatsApp campaign links shortened per recipient", () => {
  it("the address in a variable's value: each recipient's text and template parameter carry its own code; who clicked; an address that cannot be shortened is refused on template.variables", async () => {
    const p = await registerPerson("shortcampwa");
    await giveOmni(p.accountId);
    await setAccount(p.accountId, { balance: 100_000 });
    const token = (await login(p.email, p.password)).token;
    const n = await connectCloudNumber(token);
    const name = `pedido_${digits(6)}`;
    const created = await api("/api/whatsapp/templates", {
      token,
      body: { number_id: n.numberId, name, category: "utility", language: "pt_BR", body: "Olá {{1}}, acompanhe em {{2}}", body_examples: ["Ana", "https://x.example/1"] },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    await waitUntil("template approved", async () => (await api(`/api/whatsapp/templates/${created.body.data.id}`, { token })).body.data.status === "approved");
    const to = nextNumbers(2);
    const track = "https://loja.example.com.br/rastreio";
    const res = await api("/api/whatsapp/campaigns", {
      token,
      body: { from: n.numberId, to, template: { name, language: "pt_BR", variables: ["Ana", track] }, shorten_links: true, name: "Rastreio" },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const id = res.body.data.campaign_id;
    const messages = await query<{ recipient: string; body: string; content: { template: { components: Array<{ parameters: Array<{ text: string }> }> } } }>(
      "SELECT recipient, body, content FROM messages WHERE campaign_id = $1 ORDER BY recipient",
      [id],
    );
    const codes = messages.map((m) => codesIn(m.body));
    expect(codes.map((c) => c.length)).toEqual([1, 1]);
    expect(codes[0][0]).not.toBe(codes[1][0]);
    for (const [i, m] of messages.entries()) {
      expect(m.body).toMatch(/^Olá Ana, acompanhe em http:\/\/short\.localhost:\d+\/_\S{12}$/);
      // What Meta is sent is the same short URL.
      expect(m.content.template.components[0].parameters[1].text).toBe(m.body.slice("Olá Ana, acompanhe em ".length));
      expect(codesIn(m.content.template.components[0].parameters[1].text)).toEqual(codes[i]);
    }
    expect(await visit(`/${codes[0][0]}`)).toEqual({ status: 302, location: track });
    const clicks = await waitFor("the click written", async () => {
      const r = await api(`/api/whatsapp/campaigns/${id}/clicks`, { token });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      return r.body.data?.clicks === 1 ? r.body.data : null;
    });
    expect(clicks).toMatchObject({ recipients: 2, clicked: 1, clicks: 1, links: [expect.objectContaining({ url: track })] });
    expect(clicks.people.map((x: { recipient: string }) => x.recipient)).toEqual([messages[0].recipient]);
    // The SMS campaigns' route does not read a WhatsApp campaign.
    expect((await api(`/api/sms/campaigns/${id}/clicks`, { token })).status).toBe(404);

    const bad = await api("/api/whatsapp/campaigns", {
      token,
      lang: "en",
      body: { from: n.numberId, to, template: { name, language: "pt_BR", variables: ["Ana", "http://10.0.0.1/x"] }, shorten_links: true },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.error.fields).toEqual({ "template.variables": ["Failure to shorten a link: http://10.0.0.1/x"] });
  });
});

describe("e-mail campaign: who clicked its tracked links", () => {
  it("a group's e-mail campaign: a recipient's click on its signed link is named on the campaign's clicks (with the contact's name); nothing before a click", async () => {
    const p = await registerPerson("shortcampmail");
    await setAccount(p.accountId, { balance: 10_000 });
    const token = (await login(p.email, p.password)).token;
    const { domain } = await validatedDomain(token);
    const tag = rand();
    const [ana, bia] = [`ana-${tag}@destino.test`, `bia-${tag}@destino.test`];
    const { groupId } = await makeGroupWithContacts(p.accountId, `Mail ${tag}`, [
      { firstName: "Ana", email: ana },
      { firstName: "Bia", email: bia },
    ]);
    const res = await api("/api/email/campaigns", {
      token,
      body: {
        from: `ofertas@${domain}`,
        group_id: groupId,
        subject: "Novidades",
        html: '<p>Olá {{first_name}}! <a href="https://loja.example/novidades">Ver</a></p>',
        text: "Olá",
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const id = res.body.data.campaign_id;
    expect((await api(`/api/email/campaigns/${id}/clicks`, { token })).body).toEqual({ data: null });
    const html = await receivedHtml(bia);
    const link = [...html.matchAll(/href\s*=\s*["']([^"']+)["']/g)].map((m) => m[1].replaceAll("&amp;", "&")).find((h) => h.includes("/e/c/"))!;
    const click = await fetch(link, { redirect: "manual" });
    expect(click.status).toBe(302);
    expect(click.headers.get("location")).toBe("https://loja.example/novidades");
    const clicks = await waitFor("the e-mail click recorded", async () => (await api(`/api/email/campaigns/${id}/clicks`, { token })).body.data);
    expect(clicks).toMatchObject({ recipients: 2, clicked: 1, clicks: 1, links: [{ url: "https://loja.example/novidades", short_url: null, clicks: 1, clicked: 1 }] });
    expect(clicks.people.map((x: { recipient: string; name: string }) => [x.recipient, x.name])).toEqual([[bia, "Bia"]]);
  });
});
