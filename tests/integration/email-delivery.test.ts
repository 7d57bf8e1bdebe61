/**
 * E-mail end to end (issue 17, ADR 036): accepted by POST /api/email/messages, dispatched by the
 * worker through the e-mail adapter (nodemailer, pooled) to the simulator's local SMTP peer,
 * DKIM-signed with the domain's key (the peer verifies it with mailauth against the run's DNS),
 * with our Message-ID and the signed VERP return path; the peer's DSNs and complaints come back by
 * SMTP to our inbound listener (the `inbound-mail` process) and move the message through the one
 * receipt path: delivered; bounced at RCPT (5xx, refunded) or by a later DSN, the address then
 * denied; blocked (5.7.x); a delayed report recorded without moving `sent`; a complaint opting
 * the address out; a 4xx deferred, retried, and dropped when the attempts run out.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { beforeAll, describe, expect, inject, it } from "vitest";
import nodemailer from "nodemailer";
import { verifyWebhook } from "../../api/channels/webhook-signature";
import { fblAddress } from "../../api/email/inbound-smtp";
import { returnPath } from "../../api/email/return-path";
import { api, login, registerPerson } from "../support/api";
import { query } from "../support/db";
import { rand, validatedDomain } from "../support/email";
import { balanceOf, setAccount } from "../support/factories";

let token: string;
let accountId: string;
let domain: string;

const send = async (to: string) => {
  const res = await api("/api/email/messages", {
    token,
    body: { from: `loja@${domain}`, from_name: "Loja Exemplo", to, subject: "Seu pedido", html: "<p>Olá!</p>", text: "Olá!" },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  return res.body.data.messages[0] as { id: string; status: string; price: number };
};
const message = async (id: string) =>
  (await query<{ status: string; error_code: string | null; error_message: string | null }>("SELECT status, error_code, error_message FROM messages WHERE id = $1", [id]))[0];
const events = async (id: string) => (await query<{ status: string }>("SELECT status FROM message_events WHERE message_id = $1 ORDER BY id", [id])).map((e) => e.status);
const atPeer = async (to: string) =>
  (
    await fetch(new URL(`/email/_sim/messages?to=${encodeURIComponent(to)}`, inject("simulatorUrl")), { headers: { Authorization: `Bearer ${inject("simulatorApiKey")}` } }).then(
      (r) => r.json(),
    )
  ).data as Array<{ mail_from: string; rcpt_to: string[]; headers: Record<string, string>; dkim: { result: string; domain: string } }>;
const settle = { timeout: 20_000, interval: 200 };

beforeAll(async () => {
  const p = await registerPerson("emaildelivery");
  accountId = p.accountId;
  token = (await login(p.email, p.password)).token;
  await setAccount(accountId, { balance: 1_000 });
  domain = (await validatedDomain(token)).domain;
});

describe("e-mail through the local SMTP peer and back", () => {
  it("delivered: DKIM-signed with the domain's key (verified by an independent implementation), our Message-ID, the signed return path; sent then delivered from the peer's DSN", async () => {
    const to = `ana-${rand()}@destino.test`;
    const m = await send(to);
    await expect.poll(async () => (await message(m.id)).status, settle).toBe("delivered");
    expect(await events(m.id)).toEqual(["queued", "sent", "delivered"]);
    const [got] = await atPeer(to);
    expect(got.dkim).toMatchObject({ result: "pass", domain });
    expect(got.mail_from).toMatch(new RegExp(`^b-${m.id.replaceAll("-", "")}-[0-9a-f]{8}@bounces\\.${domain.replace(/\./g, "\\.")}$`));
    expect(JSON.stringify(got.headers)).toContain(`<${m.id}@${domain}>`);
  });

  it("bounced at RCPT (550): refunded, the address denied; a later send to it is rejected at accept", async () => {
    const to = `bounce-${rand()}@destino.test`;
    const before = await balanceOf(accountId);
    const m = await send(to);
    await expect.poll(async () => (await message(m.id)).status, settle).toBe("bounced");
    expect((await message(m.id)).error_code).toBe("smtp_550");
    expect(await balanceOf(accountId)).toBe(before);
    expect(await atPeer(to)).toEqual([]);
  });

  it("blocked (554 5.7.1) ends blocked; a late bounce (DSN 5.1.1 after sent) ends bounced and denies the address", async () => {
    const blocked = await send(`block-${rand()}@destino.test`);
    await expect.poll(async () => (await message(blocked.id)).status, settle).toBe("blocked");
    const to = `late-bounce-${rand()}@destino.test`;
    const late = await send(to);
    await expect.poll(async () => (await message(late.id)).status, settle).toBe("bounced");
    expect(await events(late.id)).toEqual(["queued", "sent", "bounced"]);
    expect((await message(late.id)).error_code).toBe("5.1.1");
    expect(await query("SELECT 1 FROM deny_list WHERE account_id = $1 AND recipient = $2", [accountId, to])).toHaveLength(1);
    expect((await send(to)).status).toBe("rejected");
  });

  it("a complaint opts the address out (the next send is optout, not charged); a delayed report is recorded and leaves the message sent", async () => {
    const to = `complain-${rand()}@destino.test`;
    const m = await send(to);
    await expect
      .poll(async () => (await query("SELECT source FROM optouts WHERE account_id = $1 AND channel = 'email' AND recipient = $2", [accountId, to]))[0], settle)
      .toEqual({
        source: "complaint",
      });
    expect((await message(m.id)).status).toBe("delivered");
    const again = await send(to);
    expect([again.status, again.price]).toEqual(["optout", 0]);
    const delayed = await send(`delay-${rand()}@destino.test`);
    await expect.poll(async () => events(delayed.id), settle).toEqual(["queued", "sent", "deferred"]);
    expect((await message(delayed.id)).status).toBe("sent");
  });

  it("a provider's feedback loop sends its complaint to fbl@<EMAIL_HOST>: the address it quotes is opted out", async () => {
    const to = `ana-${rand()}@destino.test`;
    const m = await send(to);
    await expect.poll(async () => (await message(m.id)).status, settle).toBe("delivered");
    const arf = [
      "From: <feedbackloop@fbl.example.net>",
      `To: ${fblAddress()}`,
      "Subject: Abuse report",
      "MIME-Version: 1.0",
      'Content-Type: multipart/report; report-type=feedback-report; boundary="b"',
      "",
      "--b",
      "Content-Type: message/feedback-report",
      "",
      "Feedback-Type: abuse",
      "Version: 1",
      `Original-Mail-From: <${returnPath(m.id, domain)}>`,
      `Original-Rcpt-To: <${to}>`,
      "",
      "--b",
      "Content-Type: text/rfc822-headers",
      "",
      `Message-ID: <${m.id}@${domain}>`,
      "",
      "--b--",
      "",
    ].join("\r\n");
    const transport = nodemailer.createTransport({ host: "127.0.0.1", port: inject("emailInboundPort"), secure: false, ignoreTLS: true });
    try {
      await transport.sendMail({ envelope: { from: "", to: fblAddress() }, raw: arf });
    } finally {
      transport.close();
    }
    await expect
      .poll(async () => (await query("SELECT source FROM optouts WHERE account_id = $1 AND channel = 'email' AND recipient = $2", [accountId, to]))[0], settle)
      .toEqual({ source: "complaint" });
    expect([(await send(to)).status]).toEqual(["optout"]);
  });

  it("a 4xx at RCPT: deferred with the reason, retried, and dropped when the attempts run out (refunded)", async () => {
    const before = await balanceOf(accountId);
    const m = await send(`defer-${rand()}@destino.test`);
    await expect.poll(async () => (await message(m.id)).status, settle).toBe("deferred");
    expect((await message(m.id)).error_code).toBe("smtp_451");
    await expect.poll(async () => (await message(m.id)).status, { timeout: 30_000, interval: 250 }).toBe("dropped");
    expect((await events(m.id)).filter((s) => s === "deferred").length).toBeGreaterThanOrEqual(2);
    expect(await balanceOf(accountId)).toBe(before);
  }, 40_000);

  it("GET /api/email/messages lists them filtered (status, to), newest first, keyset pages; GET /{id} gives the events with the bounce's code; another account gets 404", async () => {
    const to = `late-bounce-${rand()}@destino.test`;
    const m = await send(to);
    await expect.poll(async () => (await message(m.id)).status, settle).toBe("bounced");
    const list = await api(`/api/email/messages?to=${encodeURIComponent(to.toUpperCase())}`, { token });
    expect(list.status, JSON.stringify(list.body)).toBe(200);
    expect(list.body.data.map((x: { id: string; status: string; subject: string }) => [x.id, x.status, x.subject])).toEqual([[m.id, "bounced", "Seu pedido"]]);
    const bounced = await api("/api/email/messages?status=bounced&limit=1", { token });
    expect(bounced.body.data).toHaveLength(1);
    expect(bounced.body.next_cursor).not.toBeNull();
    const next = await api(`/api/email/messages?status=bounced&limit=1&cursor=${encodeURIComponent(bounced.body.next_cursor)}`, { token });
    expect(next.body.data[0].id).not.toBe(bounced.body.data[0].id);
    expect(next.body.data[0].status).toBe("bounced");
    const detail = await api(`/api/email/messages/${m.id}`, { token });
    expect(detail.body.data).toMatchObject({
      id: m.id,
      to,
      from: `loja@${domain}`,
      status: "bounced",
      error_code: "5.1.1",
      opens: 0,
      clicks: 0,
      html: "<p>Olá!</p>",
      text: "Olá!",
    });
    expect(detail.body.data.events.map((e: { status: string }) => e.status)).toEqual(["queued", "sent", "bounced"]);
    expect(detail.body.data.events[2]).toMatchObject({ source: "provider", error_code: "5.1.1" });
    expect((await api("/api/email/messages?to=nao-e-email", { token, lang: "en" })).body.error.fields).toEqual({ to: ["Invalid e-mail"] });
    const other = await registerPerson("emaildeliveryother");
    const otherToken = (await login(other.email, other.password)).token;
    expect((await api(`/api/email/messages/${m.id}`, { token: otherToken })).status).toBe(404);
    expect((await api(`/api/email/messages?to=${encodeURIComponent(to)}`, { token: otherToken })).body.data).toEqual([]);
  });

  it("the account's customer webhooks receive each e-mail status, signed (sent, delivered, bounced)", async () => {
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
      const endpoint = await api("/api/webhooks", { token, body: { url, events: ["message.status_changed"], description: "e-mail" } });
      expect(endpoint.status, JSON.stringify(endpoint.body)).toBe(201);
      const good = await send(`ana-${rand()}@destino.test`);
      const bad = await send(`late-bounce-${rand()}@destino.test`);
      const seen = () =>
        hits
          .filter((h) => verifyWebhook(endpoint.body.data.secret, h.headers as Record<string, string>, h.raw).ok)
          .map((h) => JSON.parse(h.raw) as { data: { message_id: string; status: string } })
          .map((b) => `${b.data.message_id === good.id ? "good" : b.data.message_id === bad.id ? "bad" : "other"}:${b.data.status}`);
      await expect
        .poll(
          () =>
            seen()
              .filter((x) => !x.startsWith("other"))
              .sort(),
          { timeout: 20_000, interval: 200 },
        )
        .toEqual(expect.arrayContaining(["bad:bounced", "bad:sent", "good:delivered", "good:sent"]));
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});
