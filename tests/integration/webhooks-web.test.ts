/**
 * The /webhooks, /sms/antifraude and /admin/antifraud screens driven like a browser with
 * JavaScript off: plain GETs and form posts carrying the CSRF field (index routes post to
 * `?index`, as the rendered <form action> does). Effects are checked in the database and on a
 * loopback receiver.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { login } from "../support/api";
import { query } from "../support/db";
import { DEMO_PASSWORD, location, signedInCustomer, signIn } from "../support/web";
import { type Role, setAccount } from "../support/factories";

let server: Server;
let base: string;
let received = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      received++;
      res.writeHead(200).end("ok");
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const freshCustomer = (tag: string, role: Role = "owner") => signedInCustomer(tag, { role });

const visible = (html: string) => html.replace(/<script[\s\S]*?<\/script>/g, "");
async function until<T>(what: string, fn: () => Promise<T | undefined | false>, ms = 15_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

describe("/webhooks without JavaScript", () => {
  it("creates, reveals, tests, edits, rotates, retries and deletes an endpoint", async () => {
    const c = await freshCustomer("whweb");
    const list = await c.client.page("/webhooks");
    expect(list.res.status).toBe(200);
    expect(visible(list.html)).toContain("Nenhum endpoint ainda");
    expect(list.html).toContain('action="/webhooks?index"');

    const bad = await c.client.post("/webhooks?index", { intent: "create", url: "nope", events: "*", enabled: "on" });
    expect(bad.status).toBe(422);
    expect(visible(await bad.text())).toContain("Valor inválido");
    expect((await c.client.post("/webhooks?index", { intent: "create", url: `${base}/x`, events: "*" }, { csrf: null })).status).toBe(403);

    const created = await c.client.post("/webhooks?index", { intent: "create", url: `${base}/hook`, description: "ERP", events: "*", enabled: "on" });
    expect(created.status).toBe(302);
    const here = location(created)!;
    expect(here).toMatch(/^\/webhooks\/[0-9a-f-]{36}\?reveal=1$/);
    const id = here.split("/")[2].split("?")[0];
    const [row] = await query<{ url: string; events: string[]; enabled: boolean; account_id: string }>(
      "SELECT url, events, enabled, account_id FROM webhook_endpoints WHERE id = $1",
      [id],
    );
    expect(row).toEqual({ url: `${base}/hook`, events: ["*"], enabled: true, account_id: c.accountId });

    const detail = visible((await c.client.page(here)).html);
    expect(detail).toMatch(/whsec_[A-Za-z0-9+/]{32}/);
    const secret = detail.match(/whsec_[A-Za-z0-9+/]{32}/)![0];
    expect(visible((await c.client.page(`/webhooks/${id}`)).html)).not.toContain(secret); // hidden until revealed

    const before = received;
    expect((await c.client.post(`/webhooks/${id}`, { intent: "test" })).status).toBe(302);
    await until("test delivered", async () => received > before);
    // The attempt is recorded before the delivery's status: wait for both (under load the page can show one without the other).
    const page = await until("attempt and delivered status shown", async () => {
      const html = visible((await c.client.page(`/webhooks/${id}`)).html);
      return html.includes("HTTP 200") && html.includes("Entregue") ? html : undefined;
    });
    expect(page).toContain("webhook.test");
    expect(page).toContain("Entregue");

    // Edit: unchecking "enabled" disables; only status changes subscribed.
    const saved = await c.client.post(`/webhooks/${id}`, { intent: "update", url: `${base}/hook2`, description: "", events: "message.status_changed" });
    expect(saved.status).toBe(302);
    expect((await query("SELECT url, events, enabled FROM webhook_endpoints WHERE id = $1", [id]))[0]).toEqual({
      url: `${base}/hook2`,
      events: ["message.status_changed"],
      enabled: false,
    });
    const noEvents = await c.client.post(`/webhooks/${id}`, { intent: "update", url: `${base}/hook2` });
    expect(noEvents.status).toBe(422);
    expect(visible(await noEvents.text())).toContain("Campo obrigatório");

    const rotated = await c.client.post(`/webhooks/${id}`, { intent: "rotate" });
    expect(location(rotated)).toBe(`/webhooks/${id}?reveal=1`);
    const newSecret = visible((await c.client.page(location(rotated)!)).html).match(/whsec_[A-Za-z0-9+/]{32}/)![0];
    expect(newSecret).not.toBe(secret);

    const [delivery] = await query<{ id: string }>("SELECT id FROM webhook_deliveries WHERE endpoint_id = $1", [id]);
    expect((await c.client.post(`/webhooks/${id}`, { intent: "retry", id: delivery.id })).status).toBe(302);
    expect((await query("SELECT status FROM webhook_deliveries WHERE id = $1", [delivery.id]))[0]).toEqual({ status: "pending" }); // waits: the endpoint is disabled

    expect(location(await c.client.post(`/webhooks/${id}`, { intent: "delete", id }))).toBe("/webhooks");
    expect(await query("SELECT 1 FROM webhook_endpoints WHERE id = $1", [id])).toEqual([]);
  });

  it("is not for agents, and another account's endpoint is not found", async () => {
    const owner = await freshCustomer("whwebowner");
    const created = await owner.client.post("/webhooks?index", { intent: "create", url: `${base}/h`, events: "*", enabled: "on" });
    const id = location(created)!.split("/")[2].split("?")[0];
    const agent = await freshCustomer("whwebagent", "agent");
    const denied = await agent.client.get("/webhooks");
    expect([302, 403]).toContain(denied.status);
    const other = await freshCustomer("whwebother");
    expect((await other.client.get(`/webhooks/${id}`)).status).toBe(404);
    expect((await other.client.post(`/webhooks/${id}`, { intent: "delete", id })).status).toBe(404);
    expect(await query("SELECT 1 FROM webhook_endpoints WHERE id = $1", [id])).toHaveLength(1);
  });
});

describe("anti-fraud screens without JavaScript", () => {
  it("staff add a word, the account sees its held message, staff reject it and it is refunded", async () => {
    const staff = await signIn("staff@demo.example");
    const admin = await staff.page("/admin/antifraud");
    expect(admin.res.status).toBe(200);
    const term = `fraudeweb${Date.now().toString(36)}`;
    expect((await staff.post("/admin/antifraud", { intent: "add-term", kind: "word", value: term.toUpperCase() })).status).toBe(302);
    expect(visible((await staff.page("/admin/antifraud")).html)).toContain(term);

    const c = await freshCustomer("modweb", "admin");
    await setAccount(c.accountId, { balance: 500 });
    const token = (await login(c.email, DEMO_PASSWORD)).token;
    const sent = await fetch(new URL("/api/sms/messages", inject("apiUrl")), {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
      body: JSON.stringify({ to: "11 98765-4321", body: `Oferta ${term} imperdível` }),
    }).then((r) => r.json() as Promise<{ data: Array<{ id: string; status: string; price: number }> }>);
    expect(sent.data[0].status).toBe("pending");
    expect(Number((await query<{ balance: string }>("SELECT balance FROM account_balances WHERE account_id = $1", [c.accountId]))[0].balance)).toBe(500 - sent.data[0].price);

    const own = visible((await c.client.page("/sms/antifraude")).html);
    expect(own).toContain(`Oferta ${term} imperdível`);
    expect(own).toContain("Em análise");
    expect(own).not.toContain('value="approve"'); // the account does not decide
    const [approval] = await query<{ id: string }>("SELECT id FROM moderation_approvals WHERE account_id = $1", [c.accountId]);
    expect((await c.client.post("/sms/antifraude", { intent: "approve", kind: "word", id: approval.id })).status).toBe(403);
    expect((await c.client.post("/sms/antifraude", { intent: "note", kind: "word", id: approval.id, note: "Promoção legítima" })).status).toBe(302);

    const staffView = visible((await staff.page("/admin/antifraud")).html);
    expect(staffView).toContain("Promoção legítima");
    const noReason = await staff.post("/admin/antifraud", { intent: "reject", kind: "word", id: approval.id, reason: "" });
    expect(noReason.status).toBe(422);
    expect((await staff.post("/admin/antifraud", { intent: "reject", kind: "word", id: approval.id, reason: "Golpe conhecido" })).status).toBe(302);
    expect((await query("SELECT status, error_message, price FROM messages WHERE id = $1", [sent.data[0].id]))[0]).toEqual({
      status: "rejected",
      error_message: "Golpe conhecido",
      price: "0",
    });
    expect(Number((await query<{ balance: string }>("SELECT balance FROM account_balances WHERE account_id = $1", [c.accountId]))[0].balance)).toBe(500);

    // An owner of a customer account is not one of the /sms/antifraude roles; customers never reach /admin.
    const owner = await freshCustomer("modwebowner");
    expect([302, 403]).toContain((await owner.client.get("/sms/antifraude")).status);
    expect([302, 403]).toContain((await c.client.get("/admin/antifraud")).status);
    const [t] = await query<{ id: string }>("SELECT id FROM moderation_terms WHERE value = $1", [term]);
    expect((await staff.post("/admin/antifraud", { intent: "remove-term", kind: "word", id: t.id })).status).toBe(302);
  });
});
