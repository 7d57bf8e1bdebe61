/**
 * The URL shortener through the API and the redirect host (issue 22, ADR 057): a link is created
 * with a generated base62 slug or the account's own, unique per domain (409, translated); an
 * original URL that is not http(s) of a public host is a 422 naming it; another account neither
 * reads, deletes, draws the QR code of, nor reports on a link (404); the short host answers 302 to
 * the original URL, never cached, and counts each GET click (user agent class, country, referrer
 * host) through the clicks stream into PostgreSQL — 1,000 concurrent redirects give exactly 1,000
 * clicks — and a click already written is not counted again when its entry comes back; a deleted
 * link answers 404 at once, a slug visited before it existed works as soon as it is created.
 */
import http from "node:http";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { api, login, registerPerson } from "../support/api";
import { query } from "../support/db";
import { keysOf, openRedis } from "../support/redis";

const HOST = "short.localhost";
type Token = { token: string; accountId: string; userId: string };
let owner: Token;
let other: Token;
const redis = openRedis(inject("redisUrl"));
afterAll(() => redis.quit());

async function person(tag: string): Promise<Token> {
  const p = await registerPerson(tag);
  return { token: (await login(p.email, p.password)).token, accountId: p.accountId, userId: p.userId };
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 200 });
afterAll(() => agent.destroy());
/** A request to the web process on the short host (fetch cannot set Host). */
function visit(path: string, opts: { method?: string; headers?: Record<string, string> } = {}): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  const url = new URL(path, inject("webUrl"));
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: opts.method ?? "GET", agent, headers: { Host: `${HOST}:${url.port}`, ...opts.headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString("utf8") }));
    });
    req.on("error", reject);
    req.end();
  });
}

const clicksOf = async (linkId: string) => Number((await query<{ n: string }>("SELECT count(*) AS n FROM shortener_clicks WHERE link_id = $1", [linkId]))[0].n);
const unique = () => `t${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

beforeAll(async () => {
  owner = await person("shortener");
  other = await person("shortenerother");
});

describe("short links", () => {
  let linkId: string;
  let slug: string;

  it("creates a link with a generated 7-character base62 slug: 201 with Location, short_url on the short host, audited; read with 0 clicks, listed", async () => {
    const res = await api("/api/shortener/links", { token: owner.token, body: { title: "Ofertas de verão", original_url: "https://loja.example.com.br/verao?utm_source=sms" } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const link = res.body.data;
    linkId = link.id;
    slug = link.slug;
    expect(res.headers.get("location")).toBe(`/api/shortener/links/${linkId}`);
    expect(link).toMatchObject({ title: "Ofertas de verão", original_url: "https://loja.example.com.br/verao?utm_source=sms", domain: HOST, custom_slug: false, clicks: 0 });
    expect(slug).toMatch(/^[0-9A-Za-z]{7}$/);
    expect(link.short_url).toBe(`http://${HOST}:${new URL(inject("webUrl")).port}/${slug}`);
    const audit = await query("SELECT user_id FROM audit_logs WHERE account_id = $1 AND action = 'shortener.link_created' AND meta->>'id' = $2", [owner.accountId, linkId]);
    expect(audit).toEqual([{ user_id: owner.userId }]);

    const one = await api(`/api/shortener/links/${linkId}`, { token: owner.token });
    expect(one.status).toBe(200);
    expect(one.body.data).toMatchObject({ id: linkId, slug, clicks: 0 });
    const list = await api("/api/shortener/links", { token: owner.token });
    expect(list.body.data.map((l: { id: string }) => l.id)).toContain(linkId);
  });

  it("a custom slug is the account's own; the same slug on the same domain is a 409 on `slug`, translated, for any account", async () => {
    const custom = unique();
    const res = await api("/api/shortener/links", { token: owner.token, body: { title: "Cardápio", original_url: "https://restaurante.example.com/menu", slug: custom } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data).toMatchObject({ slug: custom, custom_slug: true });

    for (const who of [owner, other]) {
      const again = await api("/api/shortener/links", { token: who.token, lang: "en", body: { title: "Outro", original_url: "https://example.com/", slug: custom } });
      expect(again.status).toBe(409);
      expect(again.body.error.code).toBe("SLUG_TAKEN");
      expect(again.body.error.fields.slug).toEqual(["This short address is already in use on this domain"]);
    }
    const pt = await api("/api/shortener/links", { token: other.token, lang: "pt-BR", body: { title: "Outro", original_url: "https://example.com/", slug: custom } });
    expect(pt.body.error.fields.slug).toEqual(["Este endereço curto já está em uso neste domínio"]);
    expect(await query("SELECT 1 FROM shortener_links WHERE account_id = $1", [other.accountId])).toEqual([]);
  });

  it("each wrong field is a 422 naming it, translated: slug shape, title, scheme (javascript:, ftp:), private and loopback addresses, intranet names, a domain the platform does not serve; nothing written", async () => {
    const before = await query("SELECT count(*)::int AS n FROM shortener_links WHERE account_id = $1", [owner.accountId]);
    const cases: Array<[Record<string, string>, string, string]> = [
      [{ title: "x", original_url: "https://example.com", slug: "a b" }, "slug", "Use 3 to 50 letters, digits, _ or -, not starting with _"],
      [{ title: "x", original_url: "https://example.com", slug: "ab" }, "slug", "Use 3 to 50 letters, digits, _ or -, not starting with _"],
      [{ title: "", original_url: "https://example.com" }, "title", ""],
      [{ title: "x", original_url: "javascript:alert(document.cookie)" }, "original_url", "Use an http:// or https:// address"],
      [{ title: "x", original_url: "ftp://example.com/file" }, "original_url", "Use an http:// or https:// address"],
      [{ title: "x", original_url: "http://169.254.169.254/latest/meta-data" }, "original_url", "The address must point to a public site (not an internal or private network)"],
      [{ title: "x", original_url: "http://127.0.0.1:8080/" }, "original_url", "The address must point to a public site (not an internal or private network)"],
      [{ title: "x", original_url: "http://localhost/" }, "original_url", "The address must point to a public site (not an internal or private network)"],
      [{ title: "x", original_url: "https://user:secret@example.com/" }, "original_url", "The address cannot contain a user name or password"],
      [{ title: "x", original_url: `http://${HOST}/abc1234` }, "original_url", "The address cannot be another short link"],
      [{ title: "x", original_url: "https://example.com", domain: "evil.example" }, "domain", "Choose an available short domain"],
    ];
    for (const [body, field, message] of cases) {
      const res = await api("/api/shortener/links", { token: owner.token, lang: "en", body });
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(Object.keys(res.body.error.fields), JSON.stringify(body)).toEqual([field]);
      if (message) expect(res.body.error.fields[field]).toEqual([message]);
      else expect(res.body.error.fields[field][0]).toMatch(/\w/);
    }
    expect(await query("SELECT count(*)::int AS n FROM shortener_links WHERE account_id = $1", [owner.accountId])).toEqual(before);
  });

  it("another account's link is not found: read, delete, QR code, report; its list does not show it", async () => {
    expect((await api(`/api/shortener/links/${linkId}`, { token: other.token })).status).toBe(404);
    expect((await api(`/api/shortener/links/${linkId}`, { token: other.token, method: "DELETE" })).status).toBe(404);
    expect((await api(`/api/shortener/links/${linkId}/qr`, { token: other.token })).status).toBe(404);
    expect((await api(`/api/shortener/reports/stat?link_id=${linkId}`, { token: other.token })).status).toBe(404);
    const list = await api("/api/shortener/links", { token: other.token });
    expect(list.body.data.map((l: { id: string }) => l.id)).not.toContain(linkId);
    expect((await api("/api/shortener/links/not-a-uuid", { token: owner.token })).status).toBe(404);
    expect((await query("SELECT 1 AS one FROM shortener_links WHERE id = $1", [linkId])).length).toBe(1);
  });

  it("the QR code of the short URL, SVG and PNG", async () => {
    const svg = await fetch(new URL(`/api/shortener/links/${linkId}/qr`, inject("apiUrl")), { headers: { Authorization: `Bearer ${owner.token}` } });
    expect(svg.status).toBe(200);
    expect(svg.headers.get("content-type")).toContain("image/svg+xml");
    expect(await svg.text()).toMatch(/^<svg[\s\S]*<path[\s\S]*<\/svg>\s*$/);
    const png = await fetch(new URL(`/api/shortener/links/${linkId}/qr?format=png`, inject("apiUrl")), { headers: { Authorization: `Bearer ${owner.token}` } });
    expect(png.status).toBe(200);
    expect(png.headers.get("content-type")).toBe("image/png");
    const bytes = new Uint8Array(await png.arrayBuffer());
    expect([...bytes.slice(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  });

  it("the short host answers 302 to the original URL, not cached, and counts the click with its device class, country and referrer host; HEAD counts nothing", async () => {
    const head = await visit(`/${slug}`, { method: "HEAD" });
    expect(head.status).toBe(302);
    const res = await visit(`/${slug}`, {
      headers: {
        "User-Agent": "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148",
        "Accept-Language": "pt-BR,pt;q=0.9",
        Referer: "https://l.instagram.com/?u=private-path",
      },
    });
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe("https://loja.example.com.br/verao?utm_source=sms");
    expect(res.headers["cache-control"]).toBe("private, no-store");
    await expect.poll(() => clicksOf(linkId), { timeout: 15_000 }).toBe(1);
    const [click] = await query<{ ua_class: string; country: string; referrer: string; account_id: string }>(
      "SELECT ua_class, country, referrer, account_id FROM shortener_clicks WHERE link_id = $1",
      [linkId],
    );
    expect(click).toEqual({ ua_class: "mobile", country: "BR", referrer: "l.instagram.com", account_id: owner.accountId });
    expect((await api(`/api/shortener/links/${linkId}`, { token: owner.token })).body.data.clicks).toBe(1);
  });

  it("the short host serves nothing else: an unknown slug and other paths are 404 (translated), other methods 405", async () => {
    const missing = await visit("/zzzzzzzzzz", { headers: { "Accept-Language": "en" } });
    expect(missing.status).toBe(404);
    expect(missing.body).toBe("Link not found");
    expect((await visit("/zzzzzzzzzz", { headers: { "Accept-Language": "pt-BR" } })).body).toBe("Link não encontrado");
    expect((await visit("/login")).status).toBe(404);
    expect((await visit("/api/shortener/links")).status).toBe(404);
    expect((await visit(`/${slug}/x`)).status).toBe(404);
    expect((await visit(`/${slug}`, { method: "POST" })).status).toBe(405);
  });

  it("a slug visited before its link existed works as soon as the link is created; a deleted link answers 404 at once", async () => {
    const custom = unique();
    expect((await visit(`/${custom}`)).status).toBe(404);
    const created = await api("/api/shortener/links", { token: owner.token, body: { title: "Depois", original_url: "https://example.com/depois", slug: custom } });
    expect(created.status).toBe(201);
    const hit = await visit(`/${custom}`);
    expect(hit.status).toBe(302);
    expect(hit.headers.location).toBe("https://example.com/depois");
    const del = await api(`/api/shortener/links/${created.body.data.id}`, { token: owner.token, method: "DELETE" });
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ deleted: 1 });
    expect((await visit(`/${custom}`)).status).toBe(404);
    expect((await api(`/api/shortener/links/${created.body.data.id}`, { token: owner.token })).status).toBe(404);
  });
});

describe("click counting", () => {
  it("1,000 concurrent redirects: 1,000 answers 302 and exactly 1,000 clicks written", async () => {
    const res = await api("/api/shortener/links", { token: owner.token, body: { title: "Carga", original_url: "https://example.com/carga" } });
    const { id, slug } = res.body.data;
    const answers = await Promise.all(Array.from({ length: 1000 }, () => visit(`/${slug}`, { headers: { "User-Agent": "Mozilla/5.0 (Windows NT 10.0; Win64; x64)" } })));
    expect(answers.filter((a) => a.status === 302).length).toBe(1000);
    await expect.poll(() => clicksOf(id), { timeout: 30_000, interval: 250 }).toBe(1000);
    expect((await api(`/api/shortener/links/${id}`, { token: owner.token })).body.data.clicks).toBe(1000);
    const ua = await query<{ ua_class: string; n: string }>("SELECT ua_class, count(*) AS n FROM shortener_clicks WHERE link_id = $1 GROUP BY 1", [id]);
    expect(ua).toEqual([{ ua_class: "desktop", n: "1000" }]);
  });

  it("a click entry whose row is already written (a worker died between INSERT and XACK) is not counted again", async () => {
    const res = await api("/api/shortener/links", { token: owner.token, body: { title: "Reentrega", original_url: "https://example.com/reentrega" } });
    const { id } = res.body.data;
    const stream = keysOf(inject("redisPrefix")).jobStream("shortener:clicks", 0);
    const fields = ["l", id, "a", owner.accountId, "s", "0", "t", String(Date.now()), "u", "desktop", "c", "", "r", ""];
    const entry = (await redis.xadd(stream, "*", ...fields))!;
    // The row as the first delivery wrote it (whichever comes first, the worker's insert or this one, one row stays).
    await query(
      `INSERT INTO shortener_clicks (account_id, link_id, stream_entry, clicked_at, ua_class) VALUES ($1, $2, $3, now(), 'desktop') ON CONFLICT (stream_entry) DO NOTHING`,
      [owner.accountId, id, `0-${entry}`],
    );
    // A second entry after it: once it is written, the worker has been past the first.
    await redis.xadd(stream, "*", ...fields);
    await expect.poll(() => clicksOf(id), { timeout: 15_000 }).toBe(2);
    const rows = await query<{ stream_entry: string }>("SELECT stream_entry FROM shortener_clicks WHERE link_id = $1 ORDER BY stream_entry", [id]);
    expect(rows.map((r) => r.stream_entry)).toContain(`0-${entry}`);
    // Both entries handled and deleted: nothing left to redeliver.
    await expect.poll(async () => (await redis.xrange(stream, "-", "+")).filter(([, f]) => f.includes(id)).length, { timeout: 15_000 }).toBe(0);
    expect(await clicksOf(id)).toBe(2);
  });
});

describe("click report", () => {
  it("per day (every day of the period), per link, by device class, country and referrer; one link's; a wrong period is a 422", async () => {
    const res = await api("/api/shortener/links", { token: owner.token, body: { title: "Relatório", original_url: "https://example.com/relatorio" } });
    const { id, slug } = res.body.data;
    const phone = { "User-Agent": "Mozilla/5.0 (Linux; Android 14) Mobile", "Accept-Language": "es-AR,es;q=0.9", Referer: "https://www.facebook.com/x" };
    await visit(`/${slug}`, { headers: phone });
    await visit(`/${slug}`, { headers: phone });
    await visit(`/${slug}`, { headers: { "User-Agent": "WhatsApp/2.23", "CF-IPCountry": "PT" } });
    await expect.poll(() => clicksOf(id), { timeout: 15_000 }).toBe(3);

    const one = await api(`/api/shortener/reports/stat?link_id=${id}`, { token: owner.token });
    expect(one.status, JSON.stringify(one.body)).toBe(200);
    expect(one.body.total).toBe(3);
    expect(one.body.per_day).toHaveLength(30);
    expect(one.body.per_day.at(-1).clicks).toBe(3);
    expect(one.body.per_link).toEqual([{ id, title: "Relatório", slug, domain: HOST, clicks: 3 }]);
    expect(one.body.ua).toEqual([
      { key: "mobile", clicks: 2 },
      { key: "bot", clicks: 1 },
    ]);
    expect(one.body.countries).toEqual([
      { key: "AR", clicks: 2 },
      { key: "PT", clicks: 1 },
    ]);
    expect(one.body.referrers).toEqual([
      { key: "www.facebook.com", clicks: 2 },
      { key: "", clicks: 1 },
    ]);

    const all = await api("/api/shortener/reports/stat", { token: owner.token });
    expect(all.body.total).toBeGreaterThanOrEqual(3 + 1000);
    expect(all.body.per_link.map((l: { id: string }) => l.id)).toContain(id);
    const theirs = await api("/api/shortener/reports/stat", { token: other.token });
    expect(theirs.body.total).toBe(0);
    expect(theirs.body.per_link).toEqual([]);

    const bad = await api("/api/shortener/reports/stat?from=2026-01-01&to=2026-03-01", { token: owner.token, lang: "en" });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.error.fields)).toEqual(["to"]);
  });
});
