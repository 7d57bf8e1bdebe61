/**
 * The shortener's screens driven like a browser with JavaScript off (plain GETs and form posts
 * with the CSRF field), in pt-BR: /shortener/links creates a link from the form (a custom slug
 * already taken is refused next to the field, translated; a javascript: URL too), lists it with
 * its short URL, QR code (an SVG drawn on the server) and clicks, downloads the QR code, deletes
 * it; another account gets 404 for its QR code and does not see it; /shortener/reports/stat shows
 * the clicks per day, per link, by device class, country and referrer.
 */
import http from "node:http";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { query } from "../support/db";
import { location, signedInCustomer, type WebCustomer } from "../support/web";

const visible = (html: string) => html.replace(/<script[\s\S]*?<\/script>/g, "");
let owner: WebCustomer;
let other: WebCustomer;
let linkId: string;
let slug: string;

function click(path: string, headers: Record<string, string>) {
  const url = new URL(path, inject("webUrl"));
  return new Promise<number>((resolve, reject) => {
    const req = http.request(url, { headers: { Host: `short.localhost:${url.port}`, ...headers } }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
    });
    req.on("error", reject);
    req.end();
  });
}

beforeAll(async () => {
  owner = await signedInCustomer("shortweb");
  other = await signedInCustomer("shortwebother");
});

describe("/shortener/links (JavaScript off)", () => {
  it("starts empty, with the create form", async () => {
    const { res, html } = await owner.client.page("/shortener/links");
    expect(res.status).toBe(200);
    expect(visible(html)).toContain('data-empty="links"');
    expect(html).toContain("Novo link curto");
  });

  it("creates a link with a custom slug from the form; the list shows its short URL, QR code and clicks", async () => {
    slug = `web${Date.now().toString(36)}`;
    const res = await owner.client.post("/shortener/links", { intent: "create", title: "Promoção de Natal", original_url: "https://loja.example.com/natal", slug });
    expect(res.status, await res.clone().text()).toBe(302);
    expect(location(res)).toBe("/shortener/links");
    const [row] = await query<{ id: string }>("SELECT id FROM shortener_links WHERE account_id = $1 AND slug = $2", [owner.accountId, slug]);
    linkId = row.id;
    const html = visible((await owner.client.page("/shortener/links")).html);
    expect(html).toContain(`data-link-id="${linkId}"`);
    expect(html).toContain("Promoção de Natal");
    expect(html).toMatch(new RegExp(`value="http://short\\.localhost:\\d+/${slug}"`));
    expect(html).toMatch(/<svg[^>]*data-qr[^>]*>\s*<path d="M/);
    expect(html).toContain('data-clicks="0"');
    expect(html).toContain("0 cliques");
  });

  it("refuses a taken slug and a javascript: URL next to the field, in Portuguese; nothing written", async () => {
    const taken = await other.client.post("/shortener/links", { intent: "create", title: "Cópia", original_url: "https://example.com/", slug });
    expect(taken.status).toBe(409);
    expect(visible(await taken.text())).toContain("Este endereço curto já está em uso neste domínio");
    const js = await other.client.post("/shortener/links", { intent: "create", title: "XSS", original_url: "javascript:alert(1)" });
    expect(js.status).toBe(422);
    expect(visible(await js.text())).toContain("Use um endereço http:// ou https://");
    expect(await query("SELECT 1 FROM shortener_links WHERE account_id = $1", [other.accountId])).toEqual([]);
  });

  it("downloads the QR code (SVG, PNG); another account gets 404 and an empty list", async () => {
    const svg = await owner.client.get(`/shortener/links/${linkId}/qr?format=svg`);
    expect(svg.status).toBe(200);
    expect(svg.headers.get("content-type")).toContain("image/svg+xml");
    expect(svg.headers.get("content-disposition")).toBe(`attachment; filename="qr-${slug}.svg"`);
    const png = await owner.client.get(`/shortener/links/${linkId}/qr?format=png`);
    expect(png.headers.get("content-type")).toBe("image/png");
    expect(new Uint8Array(await png.arrayBuffer()).slice(1, 4)).toEqual(new Uint8Array([0x50, 0x4e, 0x47]));
    expect((await other.client.get(`/shortener/links/${linkId}/qr?format=svg`)).status).toBe(404);
    const list = visible((await other.client.page("/shortener/links")).html);
    expect(list).not.toContain(linkId);
  });

  it("the report shows the clicks per day, per link, by device class, country and referrer", async () => {
    const phone = { "User-Agent": "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile/15E148", "Accept-Language": "pt-BR", Referer: "https://t.co/abc" };
    expect(await click(`/${slug}`, phone)).toBe(302);
    expect(await click(`/${slug}`, phone)).toBe(302);
    await expect.poll(async () => (await query("SELECT 1 FROM shortener_clicks WHERE link_id = $1", [linkId])).length, { timeout: 15_000 }).toBe(2);
    const { res, html } = await owner.client.page(`/shortener/reports/stat?link_id=${linkId}`);
    expect(res.status).toBe(200);
    const page = visible(html);
    expect(page).toContain('data-total="2"');
    expect(page).toContain("2 cliques no período");
    expect(page).toMatch(new RegExp(`data-key="${linkId}" data-clicks="2"`));
    expect(page).toContain('data-key="mobile" data-clicks="2"');
    expect(page).toContain("Celular");
    expect(page).toContain('data-key="BR" data-clicks="2"');
    expect(page).toContain("Brasil");
    expect(page).toContain('data-key="t.co" data-clicks="2"');
    const list = visible((await owner.client.page("/shortener/links")).html);
    expect(list).toContain('data-clicks="2"');
    expect((await other.client.get(`/shortener/reports/stat?link_id=${linkId}`)).status).toBe(404);
  });

  it("deletes the link behind its confirmation; the short URL stops answering", async () => {
    const res = await owner.client.post("/shortener/links", { intent: "delete", id: linkId });
    expect(res.status).toBe(302);
    expect(await query("SELECT 1 FROM shortener_links WHERE id = $1", [linkId])).toEqual([]);
    expect(await click(`/${slug}`, {})).toBe(404);
  });
});
