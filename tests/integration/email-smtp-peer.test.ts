/**
 * The simulator's local SMTP peer (ADR 036, api/simulator/smtp-peer.ts) over real sockets: mail
 * sent to it with nodemailer (signed with DKIM, the key published on the run's loopback DNS, or
 * not), answered by the recipient's local part at RCPT TO, recorded with its DKIM verdict
 * (inspected at /email/_sim with the simulator's key), and reported on by SMTP: DSNs (RFC 3464)
 * and ARF complaints (RFC 5965) to the return path, with the null sender — to this file's own SMTP
 * server standing in for our inbound listener (the peer routes the return path's domain to it). Reports are
 * parsed with mailparser, an implementation that is not the peer's.
 */
import { spawn } from "node:child_process";
import { generateKeyPairSync, randomBytes } from "node:crypto";
import { connect } from "node:net";
import { resolve } from "node:path";
import { type ParsedMail, simpleParser } from "mailparser";
import nodemailer from "nodemailer";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { publishDns, unpublishDns } from "../support/dns-server";
import { freePort, waitFor } from "../support/net";

const rand = () => randomBytes(4).toString("hex");
const peerPort = inject("simulatorSmtpPort");
const domain = `loja-${rand()}.test`;
const selector = `m202611${rand()}`;
const key = generateKeyPairSync("rsa", { modulusLength: 2048 });
const otherKey = generateKeyPairSync("rsa", { modulusLength: 2048 });
const privatePem = (k: typeof key) => k.privateKey.export({ type: "pkcs8", format: "pem" }).toString();
const dkimRecord = (k: typeof key) => `v=DKIM1; k=rsa; p=${k.publicKey.export({ type: "spki", format: "der" }).toString("base64")}`;

/** A message's return path, unique per test: the reports about it are addressed there. */
const returnPath = () => `b-${rand()}${rand()}@bounces.${domain}`;
const recipient = (prefix: string) => `${prefix}-${rand()}@destino.test`;

/** What reached the stand-in inbound listener. */
type Report = { mailFrom: string; to: string[]; mail: ParsedMail };
const received: Report[] = [];
const reportsTo = (address: string) => received.filter((r) => r.to.includes(address));
/** Return paths starting `b-busy` are answered 451 twice before the listener takes the report (a busy listener). */
const attempts = new Map<string, number>();

let inbound: SMTPServer;
beforeAll(async () => {
  inbound = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onRcptTo(address, _session, callback) {
      const seen = (attempts.get(address.address) ?? 0) + 1;
      attempts.set(address.address, seen);
      if (address.address.startsWith("b-busy") && seen <= 2) return callback(Object.assign(new Error("4.3.2 Busy, try again later"), { responseCode: 451 }));
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        // mailparser folds a message/delivery-status part into the text unless told to keep it.
        simpleParser(Buffer.concat(chunks), { keepDeliveryStatus: true }).then((mail) => {
          received.push({ mailFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : "", to: session.envelope.rcptTo.map((r) => r.address), mail });
          callback();
        }, callback);
      });
    },
  });
  // Our own stand-in on a port of its own; the peer is told to send this domain's reports there (its MX, as it were).
  const standIn = await freePort();
  await new Promise<void>((r) => inbound.listen(standIn, "127.0.0.1", () => r()));
  const routed = await fetch(new URL("/email/_sim/routes", inject("simulatorUrl")), {
    method: "POST",
    headers: { Authorization: `Bearer ${inject("simulatorApiKey")}`, "Content-Type": "application/json" },
    body: JSON.stringify({ domain: `bounces.${domain}`, port: standIn }),
  });
  expect(routed.status).toBe(200);
  await publishDns(`${selector}._domainkey.${domain}`, "TXT", [dkimRecord(key)]);
});
afterAll(() => new Promise<void>((r) => inbound.close(() => r())));

type Send = {
  to: string | string[];
  from?: string;
  subject?: string;
  dkim?: boolean;
  dsn?: { id?: string; return?: "headers" | "full"; notify?: string | string[]; recipient?: string };
};
/** Sends one message to the peer with nodemailer; answers nodemailer's info (or throws its SMTP error). */
async function send(o: Send & { envelopeFrom?: string }) {
  const transport = nodemailer.createTransport({
    host: "127.0.0.1",
    port: peerPort,
    secure: false,
    ignoreTLS: true,
    ...(o.dkim ? { dkim: { domainName: domain, keySelector: selector, privateKey: privatePem(key) } } : {}),
  });
  try {
    return await transport.sendMail({
      from: o.from ?? `Loja <vendas@${domain}>`,
      to: o.to,
      subject: o.subject ?? "Promoção de teste",
      text: "Olá! Esta é uma mensagem de teste.",
      envelope: { from: o.envelopeFrom ?? returnPath(), to: o.to },
      ...(o.dsn ? { dsn: o.dsn } : {}),
    });
  } finally {
    transport.close();
  }
}

/** A message signed by nodemailer (as our sender signs), as bytes, to be sent as it is or changed first. */
async function signedMessage(to: string, signingKey = key, keySelector = selector) {
  const writer = nodemailer.createTransport({
    streamTransport: true,
    buffer: true,
    newline: "windows",
    dkim: { domainName: domain, keySelector, privateKey: privatePem(signingKey) },
  });
  const info = await writer.sendMail({ from: `Loja <vendas@${domain}>`, to, subject: "Assinada", text: "Corpo original da mensagem." });
  return (info.message as Buffer).toString();
}
async function sendRaw(to: string, raw: string, envelopeFrom = returnPath()) {
  const transport = nodemailer.createTransport({ host: "127.0.0.1", port: peerPort, secure: false, ignoreTLS: true });
  try {
    return await transport.sendMail({ envelope: { from: envelopeFrom, to: [to] }, raw });
  } finally {
    transport.close();
  }
}

const sim = (path: string, apiKey: string | null = inject("simulatorApiKey")) =>
  fetch(new URL(path, inject("simulatorUrl")), { headers: apiKey ? { Authorization: `Bearer ${apiKey}` } : {} });
type PeerMessage = {
  id: string;
  mail_from: string;
  rcpt_to: string[];
  dsn: { ret: string | null; envid: string | null; recipients: Array<{ address: string; notify: string[] | null; orcpt: string | null }> };
  headers: { subject: string | null; from: string | null; to: string | null; message_id: string | null };
  size: number;
  dkim: { result: string; domain: string | null; selector: string | null; info: string };
  reports: Array<{ recipient: string; kind: string }>;
  raw?: string;
};
const recordedFor = async (to: string) => ((await (await sim(`/email/_sim/messages?to=${encodeURIComponent(to)}`)).json()) as { data: PeerMessage[] }).data;
const queuedId = (response: string) => /queued as (simmail_[0-9a-f-]{36})/.exec(response)?.[1];

/** "Name: value" lines of a report part, in groups (a blank line separates the per-message fields from each recipient's). */
const fieldGroups = (text: string) =>
  text
    .trim()
    .split(/\r?\n\r?\n/)
    .map((group) => Object.fromEntries(group.split(/\r?\n/).map((line) => [line.slice(0, line.indexOf(":")), line.slice(line.indexOf(":") + 1).trim()])));
const part = (mail: ParsedMail, type: string) => mail.attachments.find((a) => a.contentType === type);
/** The original's header as a report returns it, unfolded (a long Message-ID is folded onto its own line). */
const returnedHeader = (mail: ParsedMail) =>
  part(mail, "text/rfc822-headers")!
    .content.toString()
    .replace(/\r?\n[ \t]+/g, " ");
/** The DSN fields of a report: [per-message, per-recipient]. */
const dsnFields = (r: Report) => fieldGroups(part(r.mail, "message/delivery-status")!.content.toString());
const reportType = (r: Report) => (r.mail.headers.get("content-type") as { value: string; params: Record<string, string> }).params["report-type"];

/** Waits for `n` reports at `address` (the peer sends them SIMULATOR_DELAY_MS after acceptance). */
async function waitForReports(address: string, n: number) {
  await expect.poll(() => reportsTo(address).length, { timeout: 20_000, interval: 100 }).toBeGreaterThanOrEqual(n);
  return reportsTo(address);
}

/** A raw SMTP conversation: each command's whole reply (multi-line replies joined by \n), the greeting first. */
async function conversation(commands: string[], port = peerPort): Promise<string[]> {
  const socket = connect(port, "127.0.0.1");
  socket.setEncoding("utf8");
  let buffer = "";
  const replies: string[] = [];
  let wake: (() => void) | null = null;
  socket.on("data", (chunk: string) => {
    buffer += chunk;
    wake?.();
  });
  const nextReply = async () => {
    for (;;) {
      const lines = buffer.split("\r\n");
      const end = lines.findIndex((l) => /^\d{3} /.test(l) || /^\d{3}$/.test(l));
      if (end >= 0) {
        buffer = lines.slice(end + 1).join("\r\n");
        return lines.slice(0, end + 1).join("\n");
      }
      await new Promise<void>((r) => {
        wake = r;
      });
    }
  };
  try {
    replies.push(await nextReply());
    for (const c of commands) {
      socket.write(`${c}\r\n`);
      replies.push(await nextReply());
    }
  } finally {
    socket.destroy();
  }
  return replies;
}

describe("the simulator's SMTP peer", () => {
  it("offers DSN and SIZE without STARTTLS; a declared size over 25 MB is 552; past 100 recipients 452", async () => {
    const rcpts = Array.from({ length: 101 }, (_, i) => `RCPT TO:<r${i}-${rand()}@destino.test>`);
    const [greeting, ehlo, tooBig, mail, ...rest] = await conversation([
      "EHLO client.test",
      "MAIL FROM:<a@x.test> SIZE=26214401",
      "MAIL FROM:<a@x.test> SIZE=1000",
      ...rcpts,
      "QUIT",
    ]);
    expect(greeting).toMatch(/^220 mx\.simulator\.localhost /);
    expect(ehlo).toMatch(/^250[- ]DSN$/m);
    expect(ehlo).toMatch(/^250[- ]SIZE 26214400$/m);
    expect(ehlo).not.toMatch(/STARTTLS/);
    expect(tooBig).toMatch(/^552 /);
    expect(mail).toMatch(/^250 /);
    expect(rest.slice(0, 100).every((r) => r.startsWith("250 "))).toBe(true);
    expect(rest[100]).toMatch(/^452 /);
  });

  it("accepts an ordinary recipient, records it with its envelope and DKIM pass, and sends a success DSN to the return path with the null sender", async () => {
    const to = recipient("maria");
    const from = returnPath();
    const info = await send({ to, envelopeFrom: from, dkim: true, dsn: { id: "env-ok-1", return: "headers", notify: ["success", "failure"], recipient: `rfc822;${to}` } });
    expect(info.accepted).toEqual([to]);
    const id = queuedId(info.response);
    expect(id, info.response).toBeTruthy();

    // Recorded at once (before the 250), newest first, without the raw in the listing.
    const [m] = await recordedFor(to);
    expect(m).toMatchObject({
      id,
      mail_from: from,
      rcpt_to: [to],
      dsn: { ret: "HDRS", envid: "env-ok-1", recipients: [{ address: to, notify: ["SUCCESS", "FAILURE"], orcpt: `rfc822;${to}` }] },
      headers: { subject: "Promoção de teste", from: `"Loja" <vendas@${domain}>`, to, message_id: info.messageId },
      dkim: { result: "pass", domain, selector },
      reports: [{ recipient: to, kind: "delivered" }],
    });
    expect(m.size).toBeGreaterThan(500);
    expect(m).not.toHaveProperty("raw");
    const one = (await (await sim(`/email/_sim/messages/${id}`)).json()) as { data: PeerMessage };
    expect(one.data.id).toBe(id);
    expect(one.data.raw).toContain("DKIM-Signature:");
    expect(one.data.raw).toContain(info.messageId);
    expect(one.data.raw).toContain("Ol=C3=A1! Esta =C3=A9 uma mensagem de teste.");
    expect(one.data.raw!.length).toBe(m.size);

    const [dsn] = await waitForReports(from, 1);
    expect(dsn.mailFrom).toBe("");
    expect(reportType(dsn)).toBe("delivery-status");
    expect(dsn.mail.subject).toBe("Successful Mail Delivery Report");
    const [perMessage, perRecipient] = dsnFields(dsn);
    expect(perMessage).toMatchObject({ "Reporting-MTA": "dns; mx.simulator.localhost", "Original-Envelope-Id": "env-ok-1" });
    expect(new Date(perMessage["Arrival-Date"]).getTime()).not.toBeNaN();
    expect(perRecipient).toMatchObject({
      "Final-Recipient": `rfc822; ${to}`,
      "Original-Recipient": `rfc822; ${to}`,
      Action: "delivered",
      Status: "2.0.0",
      "Remote-MTA": "dns; mx.destino.test",
    });
    expect(perRecipient["Diagnostic-Code"]).toMatch(/^smtp; 250 /);
    expect(new Date(perRecipient["Last-Attempt-Date"]).getTime()).not.toBeNaN();
    expect(returnedHeader(dsn.mail)).toContain(`Message-ID: ${info.messageId}`);
  });

  it("records DKIM as it verifies: none unsigned, fail for a changed body or another key, temperror when DNS does not answer, a key kept for its TTL", async () => {
    const unsigned = recipient("unsigned");
    await send({ to: unsigned });
    expect((await recordedFor(unsigned))[0].dkim).toMatchObject({ result: "none" });

    const changed = recipient("changed");
    const raw = await signedMessage(changed);
    expect(raw).toContain("Corpo original");
    await sendRaw(changed, raw.replace("Corpo original", "Corpo alterado"));
    expect((await recordedFor(changed))[0].dkim).toMatchObject({ result: "fail", domain, selector });

    const otherSigner = recipient("otherkey");
    await sendRaw(otherSigner, await signedMessage(otherSigner, otherKey));
    expect((await recordedFor(otherSigner))[0].dkim).toMatchObject({ result: "fail", domain, selector });

    // The same message unchanged passes: the failures above are the change and the key.
    const intact = recipient("intact");
    await sendRaw(intact, await signedMessage(intact));
    expect((await recordedFor(intact))[0].dkim).toMatchObject({ result: "pass", domain, selector });

    // DNS down: a key the peer has not looked up yet cannot be checked (temperror), while the key
    // it found above is kept for its record's TTL (60 s), as a receiving MTA's resolver keeps it.
    const dnsDown = recipient("dnsdown");
    const cachedToo = recipient("cached");
    const unseen = `m202612${rand()}`;
    const keyName = `${selector}._domainkey.${domain}`;
    await publishDns(`${unseen}._domainkey.${domain}`, "SERVFAIL");
    await publishDns(keyName, "SERVFAIL");
    try {
      await sendRaw(dnsDown, await signedMessage(dnsDown, key, unseen));
      await sendRaw(cachedToo, await signedMessage(cachedToo));
    } finally {
      await unpublishDns(keyName, "SERVFAIL");
      await unpublishDns(`${unseen}._domainkey.${domain}`, "SERVFAIL");
    }
    expect((await recordedFor(dnsDown))[0].dkim).toMatchObject({ result: "temperror", domain, selector: unseen });
    expect((await recordedFor(cachedToo))[0].dkim).toMatchObject({ result: "pass", domain, selector });
  });

  it("refuses bounce… (550 5.1.1), block… (554 5.7.1) and defer… (451 4.2.0, every time) at RCPT TO and records nothing", async () => {
    const cases = [
      { to: recipient("bounce"), code: 550, reply: /^550 5\.1\.1 / },
      { to: recipient("Block"), code: 554, reply: /^554 5\.7\.1 / },
      { to: recipient("defer"), code: 451, reply: /^451 4\.2\.0 / },
      { to: recipient("defer"), code: 451, reply: /^451 4\.2\.0 / },
    ];
    for (const c of cases) {
      const error = await send({ to: c.to }).then(
        () => null,
        (e: Error & { responseCode?: number; response?: string }) => e,
      );
      expect(error, c.to).not.toBeNull();
      expect(error!.responseCode).toBe(c.code);
      expect(error!.response).toMatch(c.reply);
      expect(error!.response).toContain(`<${c.to}>`);
    }
    const deferred = cases[2].to;
    await expect(send({ to: deferred })).rejects.toMatchObject({ responseCode: 451 });
    for (const c of cases) expect(await recordedFor(c.to)).toEqual([]);

    // With an accepted recipient beside it the message goes, to that one only.
    const ok = recipient("ok");
    const bounced = recipient("bounce");
    const info = await send({ to: [ok, bounced] });
    expect(info.accepted).toEqual([ok]);
    expect(info.rejected).toEqual([bounced]);
    expect((await recordedFor(ok))[0].rcpt_to).toEqual([ok]);
    expect(await recordedFor(bounced)).toEqual([]);
  });

  it("late-bounce… is accepted, then a failed DSN 5.1.1 comes back", async () => {
    const to = recipient("late-bounce");
    const from = returnPath();
    const info = await send({ to, envelopeFrom: from, dsn: { id: "env-late-1" } });
    expect(info.response).toMatch(/^250 /);
    const [dsn] = await waitForReports(from, 1);
    expect(dsn.mailFrom).toBe("");
    expect(dsn.mail.subject).toBe("Undelivered Mail Returned to Sender");
    const [perMessage, perRecipient] = dsnFields(dsn);
    expect(perMessage["Original-Envelope-Id"]).toBe("env-late-1");
    expect(perRecipient).toMatchObject({ "Final-Recipient": `rfc822; ${to}`, Action: "failed", Status: "5.1.1" });
    expect(perRecipient).not.toHaveProperty("Original-Recipient");
    expect(perRecipient["Diagnostic-Code"]).toMatch(/^smtp; 550 5\.1\.1 /);
    expect(returnedHeader(dsn.mail)).toContain(`Message-ID: ${info.messageId}`);
  });

  it("delay… is accepted, then a delayed DSN 4.4.7 comes back", async () => {
    const to = recipient("delay");
    const from = returnPath();
    await send({ to, envelopeFrom: from });
    const [dsn] = await waitForReports(from, 1);
    expect(reportType(dsn)).toBe("delivery-status");
    const [perMessage, perRecipient] = dsnFields(dsn);
    expect(perMessage).not.toHaveProperty("Original-Envelope-Id");
    expect(perRecipient).toMatchObject({ "Final-Recipient": `rfc822; ${to}`, Action: "delayed", Status: "4.4.7" });
    expect(new Date(perRecipient["Will-Retry-Until"]).getTime()).toBeGreaterThan(Date.now());
  });

  it("complain… is accepted, then a success DSN and an ARF abuse report come back", async () => {
    const to = recipient("complain");
    const from = returnPath();
    const info = await send({ to, envelopeFrom: from, dkim: true });
    const reports = await waitForReports(from, 2);
    expect(reports.map(reportType).sort()).toEqual(["delivery-status", "feedback-report"]);
    const arf = reports.find((r) => reportType(r) === "feedback-report")!;
    expect(arf.mailFrom).toBe("");
    const [fields] = fieldGroups(part(arf.mail, "message/feedback-report")!.content.toString());
    expect(fields).toMatchObject({
      "Feedback-Type": "abuse",
      Version: "1",
      "Original-Mail-From": `<${from}>`,
      "Original-Rcpt-To": `<${to}>`,
      "Reported-Domain": domain,
      "Source-IP": "127.0.0.1",
    });
    expect(fields["User-Agent"]).toBeTruthy();
    expect(new Date(fields["Arrival-Date"]).getTime()).not.toBeNaN();
    expect(fields["Authentication-Results"]).toMatch(/dkim=pass/);
    expect(returnedHeader(arf.mail)).toContain(`Message-ID: ${info.messageId}`);
    const dsn = reports.find((r) => reportType(r) === "delivery-status")!;
    expect(dsnFields(dsn)[1]).toMatchObject({ Action: "delivered", Status: "2.0.0" });
  });

  it("sends the DSNs NOTIFY asks for: NEVER none, FAILURE,DELAY no success DSN; nobody answers the null sender", async () => {
    const from = returnPath();
    const never = recipient("late-bounce");
    const noSuccess = recipient("ana");
    await send({ to: never, envelopeFrom: from, dsn: { notify: "never" } });
    await send({ to: noSuccess, envelopeFrom: from, dsn: { notify: ["failure", "delay"] } });
    const toNullSender = recipient("late-bounce");
    await sendRaw(toNullSender, await signedMessage(toNullSender), "");
    expect((await recordedFor(never))[0].reports).toEqual([]);
    expect((await recordedFor(noSuccess))[0].reports).toEqual([]);
    expect((await recordedFor(toNullSender))[0]).toMatchObject({ mail_from: "", reports: [] });
    // Signal: a later message to the same return path that is reported on. Reports fall due in the
    // order their messages were accepted: once this one is in, any about the others would be too.
    const last = recipient("late-bounce");
    await send({ to: last, envelopeFrom: from });
    const reports = await waitForReports(from, 1);
    expect(reports).toHaveLength(1);
    expect(dsnFields(reports[0])[1]).toMatchObject({ "Final-Recipient": `rfc822; ${last}`, Action: "failed" });
  });

  it("retries a report the inbound listener does not take yet (451), until it does", async () => {
    const from = `b-busy-${rand()}@bounces.${domain}`;
    await send({ to: recipient("maria"), envelopeFrom: from });
    const [dsn] = await waitForReports(from, 1);
    expect(dsnFields(dsn)[1]).toMatchObject({ Action: "delivered" });
    expect(attempts.get(from)).toBe(3);
  });

  it("slows its intake while reports wait: past the waiting bound a message's DATA is answered only once reports drain (bounded memory)", async () => {
    // A listener that takes every report's DATA and answers nothing until released.
    const held: Array<() => void> = [];
    let released = false;
    let took = 0;
    const slow = new SMTPServer({
      // The peer keeps its pooled connections: closing ends them after a second.
      closeTimeout: 1000,
      authOptional: true,
      disabledCommands: ["STARTTLS"],
      logger: false,
      onData(stream, _session, callback) {
        stream.on("data", () => undefined);
        stream.on("end", () => {
          took++;
          if (released) callback();
          else held.push(() => callback());
        });
      },
    });
    const port = await freePort();
    await new Promise<void>((r) => slow.listen(port, "127.0.0.1", () => r()));
    const heldDomain = `held.${domain}`;
    const routed = await fetch(new URL("/email/_sim/routes", inject("simulatorUrl")), {
      method: "POST",
      headers: { Authorization: `Bearer ${inject("simulatorApiKey")}`, "Content-Type": "application/json" },
      body: JSON.stringify({ domain: heldDomain, port }),
    });
    expect(routed.status).toBe(200);
    const stats = async () =>
      ((await (await sim("/email/_sim/reports")).json()) as { data: { in_flight: number; waiting: number; waiting_max: number; intake_waiting: number } }).data;
    const { waiting_max: bound } = await stats();
    const transport = nodemailer.createTransport({
      host: "127.0.0.1",
      port: peerPort,
      secure: false,
      ignoreTLS: true,
      pool: true,
      maxConnections: 8,
      maxMessages: Number.POSITIVE_INFINITY,
    });
    // More messages than the reports in flight (16) and the waiting bound can hold.
    const total = bound + 40;
    let answered = 0;
    let sends: Array<Promise<void>> = [];
    try {
      sends = Array.from({ length: total }, (_, i) =>
        transport
          .sendMail({
            from: `Loja <vendas@${domain}>`,
            to: `cliente-${i}@destino.test`,
            subject: "Fila",
            text: "Olá",
            envelope: { from: `r-${i}@${heldDomain}`, to: [`cliente-${i}@destino.test`] },
          })
          .then(() => {
            answered++;
          }),
      );
      // The peer stops answering DATA: some messages wait at the sender, reports stay within the bound.
      await expect.poll(async () => (await stats()).intake_waiting, { timeout: 60_000, interval: 200 }).toBeGreaterThan(0);
      const full = await stats();
      expect(full.waiting).toBeLessThanOrEqual(bound);
      expect(answered).toBeLessThan(total);
      // The listener takes its reports again: every message is answered, every report delivered.
      released = true;
      for (const go of held.splice(0)) go();
      await Promise.all(sends);
      expect(answered).toBe(total);
      await expect.poll(() => took, { timeout: 60_000, interval: 200 }).toBeGreaterThanOrEqual(total);
      await expect.poll(async () => await stats(), { timeout: 30_000, interval: 200 }).toMatchObject({ in_flight: 0, waiting: 0, intake_waiting: 0 });
    } finally {
      // Whatever happened, the peer's queue drains before this listener goes (the simulator serves every test file).
      released = true;
      for (const go of held.splice(0)) go();
      await Promise.allSettled(sends);
      await expect.poll(async () => (await stats()).waiting, { timeout: 60_000, interval: 200 }).toBe(0);
      transport.close();
      await new Promise<void>((r) => slow.close(() => r()));
    }
  }, 180_000);

  it("answers /email/_sim only with the simulator's key; an unknown id is 404", async () => {
    expect((await sim("/email/_sim/messages", null)).status).toBe(401);
    expect((await sim("/email/_sim/messages", "wrong-key-0123456789")).status).toBe(401);
    expect((await sim("/email/_sim/messages/simmail_x", null)).status).toBe(401);
    expect((await sim("/email/_sim/messages/simmail_unknown")).status).toBe(404);
    const to = recipient("lista");
    for (let i = 0; i < 3; i++) await send({ to, subject: `Mensagem ${i}` });
    const all = await recordedFor(to);
    expect(all.map((m) => m.headers.subject)).toEqual(["Mensagem 2", "Mensagem 1", "Mensagem 0"]);
    const limited = ((await (await sim(`/email/_sim/messages?to=${encodeURIComponent(to.toUpperCase())}&limit=2`)).json()) as { data: PeerMessage[] }).data;
    expect(limited.map((m) => m.headers.subject)).toEqual(["Mensagem 2", "Mensagem 1"]);
  });
  it("starts with the simulator process and stops with it on SIGTERM: exit 0, the SMTP port closed", async () => {
    const root = resolve(__dirname, "..", "..");
    const [httpPort, smtpPort] = [await freePort(), await freePort()];
    const child = spawn(resolve(root, "node_modules", ".bin", "bun"), ["api/simulator/server.ts"], {
      cwd: root,
      env: { ...process.env, NODE_ENV: "test", SIMULATOR_PORT: String(httpPort), SIMULATOR_SMTP_PORT: String(smtpPort), REDIS_PREFIX: `${inject("redisPrefix")}peer-stop:` },
      stdio: "ignore",
    });
    const exited = new Promise<number | null>((r) => child.once("exit", (code) => r(code)));
    try {
      await waitFor(`http://127.0.0.1:${httpPort}/health`, 60, 100);
      const [greeting, bye] = await conversation(["QUIT"], smtpPort);
      expect(greeting).toMatch(/^220 mx\.simulator\.localhost /);
      expect(bye).toMatch(/^221 /);
      child.kill("SIGTERM");
      expect(await exited).toBe(0);
      const refused = await new Promise<boolean>((r) => {
        const s = connect(smtpPort, "127.0.0.1", () => {
          s.destroy();
          r(false);
        });
        s.on("error", () => r(true));
      });
      expect(refused).toBe(true);
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    }
  });
});
