/**
 * E-mail open and click tracking (issue 17, ADR 039), end to end: an e-mail accepted by the API is
 * sent by the worker through the adapter to the simulator's SMTP peer; the HTML the peer received
 * carries a pixel and signed click links, which the test fetches like a mail client, through the web
 * process (<APP_URL>/e/o/…, /e/c/…). The message moves delivered → opened → clicked (message_events,
 * customer webhooks' source), every open and click is counted, a tampered token never redirects,
 * the pixel is always a GIF, tracking turned off leaves the HTML untouched, and the insights'
 * figures are the ones recorded.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { verifyWebhook } from "../../api/channels/webhook-signature";
import { api, login, registerPerson } from "../support/api";
import { query } from "../support/db";
import { pixelOf, rand, receivedHtml, validatedDomain } from "../support/email";
import { setAccount } from "../support/factories";

const settle = { timeout: 20_000, interval: 200 };
const HTML = (n: string) =>
  `<html><body><p>Olá ${n}!</p><a href="https://loja.example/produto?a=1&amp;b=2">Ver produto</a> <a class="x" href='http://loja.example/ofertas'>Ofertas</a> <a href="mailto:ajuda@loja.example">Ajuda</a> <a href="#topo">Topo</a></body></html>`;

type Account = { token: string; accountId: string; domain: string };
async function account(tag: string): Promise<Account> {
  const p = await registerPerson(tag);
  const token = (await login(p.email, p.password)).token;
  await setAccount(p.accountId, { balance: 1_000 });
  return { token, accountId: p.accountId, domain: (await validatedDomain(token)).domain };
}

async function send(a: Account, to: string, html = HTML("Ana")) {
  const res = await api("/api/email/messages", { token: a.token, body: { from: `loja@${a.domain}`, to, subject: "Novidades", html, text: "Olá!" } });
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  return res.body.data.messages[0].id as string;
}

const hrefs = (html: string) => [...html.matchAll(/href\s*=\s*["']([^"']+)["']/g)].map((m) => m[1].replaceAll("&amp;", "&"));
const status = async (id: string) => (await query<{ status: string }>("SELECT status FROM messages WHERE id = $1", [id]))[0]?.status;
const events = async (id: string) => (await query<{ status: string }>("SELECT status FROM message_events WHERE message_id = $1 ORDER BY id", [id])).map((e) => e.status);
/** A mail client's request: no cookies, no redirects followed. */
const client = (url: string) => fetch(url, { redirect: "manual", headers: { "User-Agent": "Mozilla/5.0 (mail client)", "Accept-Language": "en" } });

let a: Account;
beforeAll(async () => {
  a = await account("emailtracking");
});

describe("open and click tracking", () => {
  it("the HTML gets a pixel and signed links (mailto and anchors untouched); opening and clicking move delivered → opened → clicked, every one counted", async () => {
    const to = `ana-${rand()}@destino.test`;
    const id = await send(a, to);
    const html = await receivedHtml(to);
    const web = inject("webUrl");
    const pixel = pixelOf(html)!;
    expect(pixel.startsWith(`${web}/e/o/`)).toBe(true);
    const links = hrefs(html);
    expect(links.slice(2)).toEqual(["mailto:ajuda@loja.example", "#topo"]);
    expect(links[0].startsWith(`${web}/e/c/`)).toBe(true);
    expect(links[1].startsWith(`${web}/e/c/`)).toBe(true);
    expect(html).not.toContain("loja.example/produto");
    await expect.poll(() => status(id), settle).toBe("delivered");

    const gif = await client(pixel);
    expect(gif.status).toBe(200);
    expect(gif.headers.get("content-type")).toBe("image/gif");
    expect(gif.headers.get("cache-control")).toContain("no-store");
    expect(
      Buffer.from(await gif.arrayBuffer())
        .subarray(0, 6)
        .toString(),
    ).toBe("GIF89a");
    await expect.poll(() => status(id), settle).toBe("opened");
    await client(pixel);

    const click = await client(links[0]);
    expect(click.status).toBe(302);
    expect(click.headers.get("location")).toBe("https://loja.example/produto?a=1&b=2");
    await expect.poll(() => status(id), settle).toBe("clicked");
    expect((await client(links[0])).headers.get("location")).toBe("https://loja.example/produto?a=1&b=2");
    expect((await client(links[1])).headers.get("location")).toBe("http://loja.example/ofertas");
    await client(pixel);

    expect(await events(id)).toEqual(["queued", "sent", "delivered", "opened", "clicked"]);
    const detail = await api(`/api/email/messages/${id}`, { token: a.token });
    expect(detail.body.data).toMatchObject({ status: "clicked", opens: 3, clicks: 3 });
    expect(detail.body.data.opened_at).not.toBeNull();
  });

  it("a tampered token never redirects (404 page), a changed message id neither; the pixel is a GIF whatever the token", async () => {
    const to = `bia-${rand()}@destino.test`;
    const id = await send(a, to);
    const html = await receivedHtml(to);
    const link = hrefs(html)[0];
    const [prefix, token] = link.split("/e/c/");
    const [kind, hex, url, mac] = token.split(".");
    const evil = Buffer.from("https://evil.example/phish", "utf8").toString("base64url");
    for (const bad of [
      `${kind}.${hex}.${evil}.${mac}`,
      `${kind}.${"0".repeat(32)}.${url}.${mac}`,
      `${kind}.${hex}.${url}.${mac.slice(0, -1)}${mac.endsWith("A") ? "B" : "A"}`,
      "nada",
      "c.x.y.z",
    ]) {
      const res = await client(`${prefix}/e/c/${bad}`);
      expect(res.status, bad).toBe(404);
      expect(res.headers.get("location")).toBeNull();
      expect(res.headers.get("content-type")).toContain("text/html");
      expect(await res.text()).toContain("This link is not valid");
    }
    for (const bad of ["nada", `o.${hex}.${"A".repeat(22)}`, `o.${"f".repeat(32)}.${mac}`, "%00%ff"]) {
      const res = await client(`${prefix}/e/o/${bad}`);
      expect(res.status, bad).toBe(200);
      expect(res.headers.get("content-type")).toBe("image/gif");
    }
    await expect.poll(() => status(id), settle).toBe("delivered");
    expect((await query("SELECT 1 FROM email_engagements WHERE message_id = $1", [id])).length).toBe(0);
  });

  it("tracking turned off (GET/PUT /api/email/subscription-tracking-settings): no pixel, links unchanged; on again for opens only", async () => {
    const b = await account("emailtrackingoff");
    expect((await api("/api/email/subscription-tracking-settings", { token: b.token })).body).toEqual({ data: { open_tracking: true, click_tracking: true } });
    const off = await api("/api/email/subscription-tracking-settings", { token: b.token, method: "PUT", body: { open_tracking: false, click_tracking: false } });
    expect(off.status, JSON.stringify(off.body)).toBe(200);
    expect(off.body).toEqual({ data: { open_tracking: false, click_tracking: false } });
    const to = `caio-${rand()}@destino.test`;
    await send(b, to);
    const html = await receivedHtml(to);
    expect(html).not.toContain("/e/o/");
    expect(html).not.toContain("/e/c/");
    expect(hrefs(html)).toEqual(["https://loja.example/produto?a=1&b=2", "http://loja.example/ofertas", "mailto:ajuda@loja.example", "#topo"]);

    const opensOnly = await api("/api/email/subscription-tracking-settings", { token: b.token, method: "PUT", body: { open_tracking: true } });
    expect(opensOnly.body).toEqual({ data: { open_tracking: true, click_tracking: false } });
    const to2 = `davi-${rand()}@destino.test`;
    await send(b, to2);
    const html2 = await receivedHtml(to2);
    expect(pixelOf(html2)).toBeTruthy();
    expect(hrefs(html2)[0]).toBe("https://loja.example/produto?a=1&b=2");
    const bad = await api("/api/email/subscription-tracking-settings", { token: b.token, method: "PUT", body: { open_tracking: "talvez" }, lang: "en" });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.error.fields)).toEqual(["open_tracking"]);
  });

  it("insights: totals, rates, by day, by recipient domain and the click map are what was recorded; the events are listed newest first", async () => {
    const c = await account("emailinsights");
    const [x, y] = [`eva-${rand()}@alfa.test`, `fabio-${rand()}@beta.test`];
    const idX = await send(c, x);
    const idY = await send(c, y);
    const [hx, hy] = [await receivedHtml(x), await receivedHtml(y)];
    await expect.poll(async () => [await status(idX), await status(idY)], settle).toEqual(["delivered", "delivered"]);
    await client(pixelOf(hx)!);
    await client(pixelOf(hx)!);
    await client(pixelOf(hy)!);
    await client(hrefs(hx)[0]);
    await client(hrefs(hx)[0]);
    await client(hrefs(hy)[0]);
    await client(hrefs(hy)[1]);
    await expect.poll(async () => [await status(idX), await status(idY)], settle).toEqual(["clicked", "clicked"]);

    const res = await api("/api/email/insights", { token: c.token, body: {} });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const d = res.body.data;
    expect(d.totals).toEqual({
      sent: 2,
      delivered: 2,
      opens: 3,
      unique_opens: 2,
      clicks: 4,
      unique_clicks: 2,
      open_rate: 1,
      click_rate: 1,
      click_to_open_rate: 1,
    });
    expect(d.days).toHaveLength(1);
    expect(d.days[0]).toMatchObject({ day: d.to, sent: 2, opens: 3, clicks: 4 });
    expect(d.domains).toEqual([
      { domain: "alfa.test", sent: 1, delivered: 1, opens: 2, unique_opens: 1, clicks: 2, unique_clicks: 1 },
      { domain: "beta.test", sent: 1, delivered: 1, opens: 1, unique_opens: 1, clicks: 2, unique_clicks: 1 },
    ]);
    expect(d.links).toEqual([
      { url: "https://loja.example/produto?a=1&b=2", clicks: 3, unique: 2 },
      { url: "http://loja.example/ofertas", clicks: 1, unique: 1 },
    ]);

    const page1 = await api("/api/email/insights/events", { token: c.token, body: { kind: "click", limit: 3 } });
    expect(page1.status, JSON.stringify(page1.body)).toBe(200);
    expect(page1.body.data.map((e: { kind: string }) => e.kind)).toEqual(["click", "click", "click"]);
    expect(page1.body.data[0]).toMatchObject({ message_id: idY, url: "http://loja.example/ofertas", recipient_domain: "beta.test" });
    const page2 = await api("/api/email/insights/events", { token: c.token, body: { kind: "click", limit: 3, cursor: page1.body.next_cursor } });
    expect(page2.body.data).toHaveLength(1);
    expect(page2.body.next_cursor).toBeNull();

    // Another account sees none of it; a range over 31 days is refused on `to`.
    expect((await api("/api/email/insights", { token: a.token, body: { from: d.from, to: d.to } })).body.data.links).toEqual([
      { url: "https://loja.example/produto?a=1&b=2", clicks: 2, unique: 1 },
      { url: "http://loja.example/ofertas", clicks: 1, unique: 1 },
    ]);
    const wide = await api("/api/email/insights", { token: c.token, body: { from: "2026-01-01", to: "2026-03-01" }, lang: "en" });
    expect(wide.status).toBe(422);
    expect(Object.keys(wide.body.error.fields)).toEqual(["to"]);
  });

  it("the account's customer webhooks receive opened and clicked, signed, once each", async () => {
    const w = await account("emailtrackinghooks");
    const hits: Array<{ headers: import("node:http").IncomingHttpHeaders; raw: string }> = [];
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        hits.push({ headers: req.headers, raw: Buffer.concat(chunks).toString("utf8") });
        res.writeHead(200).end("ok");
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
      const endpoint = await api("/api/webhooks", { token: w.token, body: { url, events: ["message.status_changed"], description: "tracking" } });
      expect(endpoint.status, JSON.stringify(endpoint.body)).toBe(201);
      const to = `gil-${rand()}@destino.test`;
      const id = await send(w, to);
      const html = await receivedHtml(to);
      await expect.poll(() => status(id), settle).toBe("delivered");
      await client(pixelOf(html)!);
      await client(pixelOf(html)!);
      await client(hrefs(html)[0]);
      await client(hrefs(html)[0]);
      const seen = () =>
        hits
          .filter((h) => verifyWebhook(endpoint.body.data.secret, h.headers as Record<string, string>, h.raw).ok)
          .map((h) => JSON.parse(h.raw) as { data: { message_id: string; status: string } })
          .filter((b) => b.data.message_id === id)
          .map((b) => b.data.status)
          .sort();
      await expect.poll(seen, settle).toEqual(["clicked", "delivered", "opened", "queued", "sent"]);
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});
