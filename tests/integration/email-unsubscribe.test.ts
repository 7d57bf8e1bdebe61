/**
 * Unsubscribe (issue 17, RFC 8058, ADR 038): a campaign e-mail as the simulator's SMTP peer received
 * it carries List-Unsubscribe (the unsubscribe host's https link with a signed token, and a mailto)
 * and List-Unsubscribe-Post, both covered by the passing DKIM signature. The one-click POST a mail
 * client sends (no cookie, no CSRF token) records the opt-out once; the address's message still
 * waiting is dropped and refunded; the next send to it is optout at price 0. The page names the
 * address and confirms with a plain form; a forged or altered token is a clear 400 page, no opt-out.
 * The mailto (RFC 2369) is taken by our inbound SMTP listener: a mail there with the token in its
 * subject records the same opt-out; one without a valid token is refused 550 5.7.1.
 */
import nodemailer from "nodemailer";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { api, login, registerPerson } from "../support/api";
import { query } from "../support/db";
import { rand, validatedDomain } from "../support/email";
import { balanceOf, setAccount } from "../support/factories";
import { WebClient } from "../support/web";

let token: string;
let accountId: string;
let company: string;
let domain: string;
const settle = { timeout: 30_000, interval: 250 };
const HOST = "unsubscribe.localhost";

const peer = (path: string) =>
  fetch(new URL(path, inject("simulatorUrl")), { headers: { Authorization: `Bearer ${inject("simulatorApiKey")}` } }).then((r) => r.json() as Promise<{ data: any }>);
const campaign = (to: string[], extra: Record<string, unknown> = {}) =>
  api("/api/email/campaigns", { token, body: { from: `news@${domain}`, to, subject: "Novidades", html: "<p>Olá</p>", ...extra } });
const optouts = (address: string) => query<{ source: string }>("SELECT source FROM optouts WHERE account_id = $1 AND channel = 'email' AND recipient = $2", [accountId, address]);
/** The unfolded value of a header of a raw message. */
const header = (raw: string, name: string) => {
  const block = raw.split(/\r?\n\r?\n/)[0].replace(/\r?\n[ \t]+/g, " ");
  return new RegExp(`^${name}:\\s*(.*)$`, "im").exec(block)?.[1]?.trim() ?? null;
};
const onHost = () => new WebClient(undefined, { Host: HOST });
const oneClick = (path: string) => onHost().request(path, { method: "POST", body: "List-Unsubscribe=One-Click", headers: { "Content-Type": "application/x-www-form-urlencoded" } });

let link: string;
let address: string;

beforeAll(async () => {
  const p = await registerPerson("emailunsub");
  accountId = p.accountId;
  company = p.company;
  token = (await login(p.email, p.password)).token;
  await setAccount(accountId, { balance: 10_000 });
  domain = (await validatedDomain(token)).domain;
  address = `leitor-${rand()}@destino.test`;
  const res = await campaign([address]);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
});

describe("List-Unsubscribe on campaign e-mail", () => {
  it("carries the https link with a signed token and a mailto, List-Unsubscribe-Post One-Click, both signed by the passing DKIM signature", async () => {
    await expect.poll(async () => (await peer(`/email/_sim/messages?to=${encodeURIComponent(address)}`)).data.length, settle).toBe(1);
    const [got] = (await peer(`/email/_sim/messages?to=${encodeURIComponent(address)}`)).data;
    expect(got.dkim.result).toBe("pass");
    const raw = (await peer(`/email/_sim/messages/${got.id}`)).data.raw as string;
    const list = header(raw, "List-Unsubscribe")!;
    const m = /^<(https:\/\/unsubscribe\.localhost\/\?t=([A-Za-z0-9_.-]+))>, <mailto:unsubscribe@[^?>]+\?subject=unsubscribe%20([A-Za-z0-9_.-]+)>$/.exec(list);
    expect(m, list).not.toBeNull();
    expect(m![3]).toBe(m![2]);
    expect(header(raw, "List-Unsubscribe-Post")).toBe("List-Unsubscribe=One-Click");
    const signed = header(raw, "DKIM-Signature")!.replace(/\s+/g, "");
    expect(signed.toLowerCase()).toMatch(/h=[^;]*list-unsubscribe:[^;]*list-unsubscribe-post/);
    link = new URL(m![1]).search;
    // A single send (not a campaign) carries none.
    const single = `avulso-${rand()}@destino.test`;
    await api("/api/email/messages", { token, body: { from: `news@${domain}`, to: single, subject: "Pedido", text: "Olá" } });
    await expect.poll(async () => (await peer(`/email/_sim/messages?to=${encodeURIComponent(single)}`)).data.length, settle).toBe(1);
    const [s] = (await peer(`/email/_sim/messages?to=${encodeURIComponent(single)}`)).data;
    expect(header((await peer(`/email/_sim/messages/${s.id}`)).data.raw, "List-Unsubscribe")).toBeNull();
  });

  it("the page names the address and the sender with a confirm form; the one-click POST records the opt-out once, drops the waiting message (refunded), and the next send is optout at price 0", async () => {
    const page = await onHost().page(`/${link}`);
    expect(page.res.status).toBe(200);
    expect(page.html).toContain(address);
    expect(page.html).toContain(company);
    expect(page.html).toContain('data-testid="unsubscribe-confirm"');
    expect(page.html).toMatch(/<form method="post"/);

    // A message to the address still waiting (scheduled) when the person unsubscribes.
    const later = await campaign([address, `outro-${rand()}@destino.test`], { scheduled_at: new Date(Date.now() + 3_600_000).toISOString() });
    const waiting = (await query<{ id: string }>("SELECT id FROM messages WHERE campaign_id = $1 AND recipient = $2", [later.body.data.campaign_id, address]))[0].id;
    const before = await balanceOf(accountId);

    const first = await oneClick(`/${link}`);
    expect(first.status).toBe(200);
    expect(await first.text()).toContain('data-testid="unsubscribe-done"');
    expect(await optouts(address)).toEqual([{ source: "unsubscribe" }]);
    const again = await oneClick(`/${link}`);
    expect(again.status).toBe(200);
    expect(await optouts(address)).toEqual([{ source: "unsubscribe" }]);
    const [w] = await query<{ status: string; error_code: string }>("SELECT status, error_code FROM messages WHERE id = $1", [waiting]);
    expect(w).toEqual({ status: "dropped", error_code: "optout" });
    expect(await balanceOf(accountId)).toBe(before + 1);

    const next = await api("/api/email/messages", { token, body: { from: `news@${domain}`, to: address, subject: "De novo", text: "Olá" } });
    expect(next.body.data.messages[0]).toMatchObject({ to: address, status: "optout", price: 0 });
    const nextCampaign = await campaign([address]);
    expect(nextCampaign.body.data).toMatchObject({ total_price: 0, summary: { messages: 1, sendable: 0, optout: 1 } });
    // The confirmed page now says it is done.
    expect((await onHost().page(`/${link}`)).html).toContain('data-testid="unsubscribe-done"');
  });

  it("the confirm button (a plain form without JavaScript) unsubscribes too", async () => {
    const other = `botao-${rand()}@destino.test`;
    await campaign([other]);
    await expect.poll(async () => (await peer(`/email/_sim/messages?to=${encodeURIComponent(other)}`)).data.length, settle).toBe(1);
    const [got] = (await peer(`/email/_sim/messages?to=${encodeURIComponent(other)}`)).data;
    const t = /\?t=([A-Za-z0-9_.-]+)>/.exec(header((await peer(`/email/_sim/messages/${got.id}`)).data.raw, "List-Unsubscribe")!)![1];
    const res = await onHost().request(`/?t=${t}`, {
      method: "POST",
      body: new URLSearchParams({ t }).toString(),
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
    });
    expect(res.status).toBe(200);
    expect(await optouts(other)).toEqual([{ source: "unsubscribe" }]);
  });

  it("a forged or altered token answers a clear page (400), never an error, and records nothing", async () => {
    const t = new URLSearchParams(link).get("t")!;
    const [payload, tag] = t.split(".");
    const victim = `vitima-${rand()}@destino.test`;
    const forgedPayload = Buffer.from(JSON.stringify({ a: accountId, e: victim })).toString("base64url");
    for (const bad of [`${forgedPayload}.${tag}`, `${payload}.${tag.slice(0, -2)}AA`, "nada", "x".repeat(5000)]) {
      const get = await onHost().page(`/?t=${encodeURIComponent(bad)}`);
      expect(get.res.status, bad.slice(0, 40)).toBe(400);
      expect(get.html).toContain('data-state="invalid"');
      const post = await oneClick(`/?t=${encodeURIComponent(bad)}`);
      expect(post.status).toBe(400);
    }
    expect(await optouts(victim)).toEqual([]);
    // Without a token the page only explains (no error).
    expect((await onHost().page("/")).res.status).toBe(200);
  });

  it("the mailto: a mail to the unsubscribe address with the token in its subject records the opt-out (250); a forged token is refused 550 5.7.1", async () => {
    const other = `correio-${rand()}@destino.test`;
    await campaign([other]);
    await expect.poll(async () => (await peer(`/email/_sim/messages?to=${encodeURIComponent(other)}`)).data.length, settle).toBe(1);
    const [got] = (await peer(`/email/_sim/messages?to=${encodeURIComponent(other)}`)).data;
    const m = /<mailto:([^?>]+)\?subject=([^>]+)>/.exec(header((await peer(`/email/_sim/messages/${got.id}`)).data.raw, "List-Unsubscribe")!)!;
    const [to, subject] = [m[1], decodeURIComponent(m[2])];
    const transport = nodemailer.createTransport({ host: "127.0.0.1", port: inject("emailInboundPort"), secure: false, ignoreTLS: true });
    try {
      // A mail client sends what the mailto says, from the reader's own address.
      const sent = await transport.sendMail({ from: other, to, subject, text: "" });
      expect(sent.response).toMatch(/^250 .*Unsubscribed/);
      await expect.poll(() => optouts(other), settle).toEqual([{ source: "unsubscribe" }]);
      // Sent again (a retry): still one opt-out.
      await transport.sendMail({ from: other, to, subject, text: "" });
      expect(await optouts(other)).toEqual([{ source: "unsubscribe" }]);

      const victim = `vitima2-${rand()}@destino.test`;
      const token = subject.split(" ")[1];
      const forged = `${Buffer.from(JSON.stringify({ a: accountId, e: victim })).toString("base64url")}.${token.split(".")[1]}`;
      for (const bad of [`unsubscribe ${forged}`, "unsubscribe", "please remove me"]) {
        const err = await transport.sendMail({ from: victim, to, subject: bad, text: "remove me" }).then(
          () => null,
          (e: { responseCode?: number; response?: string }) => e,
        );
        expect(err?.responseCode, bad).toBe(550);
        expect(err?.response).toMatch(/5\.7\.1/);
      }
      expect(await optouts(victim)).toEqual([]);
    } finally {
      transport.close();
    }
  });
});
