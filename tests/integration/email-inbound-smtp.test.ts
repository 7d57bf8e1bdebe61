/**
 * The inbound SMTP listener (api/email/inbound-smtp.ts, ADR 036) with a real SMTP client
 * (nodemailer) over loopback: a DSN and an ARF complaint sent from `<>` to a signed return path
 * reach onReport parsed, with the message the address names; an address with a wrong tag, or no
 * return path at all, is refused 550 at RCPT; an onReport that throws answers 451 and the same
 * mail sent again is taken; more than 10 MB is refused 552; STARTTLS only with a key and
 * certificate. Then the process itself (api/email/inbound-server.ts, under Bun): it logs a line per
 * report, stops on SIGTERM, and refuses a public address with development secrets.
 *
 * The listener runs in this test process; the return path's key comes from the run's
 * SESSION_SECRET, which the test workers and the spawned process share.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import nodemailer from "nodemailer";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { fblAddress, type InboundReport, type InboundSmtp, startInboundSmtp } from "../../api/email/inbound-smtp";
import { messageIdHeader, messageOfMessageIdHeader, returnPath } from "../../api/email/return-path";
import { env, SECRET_NAMES } from "../../api/lib/env";
import { freePort } from "../support/net";

const root = resolve(__dirname, "..", "..");
const bun = resolve(root, "node_modules", ".bin", "bun");
const DOMAIN = "loja.example.com";

/** A bounce from a Postfix-like MTA for our message `id`: a failed recipient, the returned headers. */
function dsn(id: string, recipient = "maria@example.org", status = "5.1.1"): string {
  return [
    "From: MAILER-DAEMON@mx.example.net (Mail Delivery System)",
    `To: ${returnPath(id, DOMAIN)}`,
    "Subject: Undelivered Mail Returned to Sender",
    "Auto-Submitted: auto-replied",
    "MIME-Version: 1.0",
    'Content-Type: multipart/report; report-type=delivery-status; boundary="dsn-boundary"',
    "",
    "--dsn-boundary",
    "Content-Type: text/plain; charset=us-ascii",
    "",
    `<${recipient}>: host mx.example.org said: 550 ${status} User unknown`,
    "",
    "--dsn-boundary",
    "Content-Type: message/delivery-status",
    "",
    "Reporting-MTA: dns; mx.example.net",
    "X-Postfix-Queue-ID: 3F1A2B3C4D",
    "",
    `Final-Recipient: rfc822; ${recipient}`,
    `Original-Recipient: rfc822;${recipient}`,
    "Action: failed",
    `Status: ${status}`,
    "Remote-MTA: dns; mx.example.org",
    `Diagnostic-Code: smtp; 550 ${status} <${recipient}>: Recipient address`,
    "    rejected: User unknown in virtual mailbox table",
    "",
    "--dsn-boundary",
    "Content-Type: text/rfc822-headers",
    "",
    `Message-ID: ${messageIdHeader(id, DOMAIN)}`,
    `From: Loja <ofertas@${DOMAIN}>`,
    `To: ${recipient}`,
    "Subject: Ofertas",
    "",
    "--dsn-boundary--",
    "",
  ].join("\r\n");
}

/**
 * A feedback loop's complaint about our message `id` (RFC 5965), the original message inline.
 * `quoted`: the envelope sender it quotes (Original-Mail-From; default the message's return path);
 * `returnPathHeader`: a Return-Path header on the returned message.
 */
function arf(id: string, opts: { quoted?: string | null; returnPathHeader?: string } = {}): string {
  const quoted = opts.quoted === undefined ? returnPath(id, DOMAIN) : opts.quoted;
  return [
    "From: <feedbackloop@fbl.example.net>",
    `To: ${returnPath(id, DOMAIN)}`,
    "Subject: Abuse report",
    "MIME-Version: 1.0",
    'Content-Type: multipart/report; report-type=feedback-report; boundary="arf-boundary"',
    "",
    "--arf-boundary",
    "Content-Type: text/plain",
    "",
    "This is an email abuse report.",
    "",
    "--arf-boundary",
    "Content-Type: message/feedback-report",
    "",
    "Feedback-Type: abuse",
    "User-Agent: ExampleFBL/1.0",
    "Version: 1",
    ...(quoted === null ? [] : [`Original-Mail-From: <${quoted}>`]),
    "Original-Rcpt-To: <carla@fbl.example.net>",
    "Arrival-Date: Tue, 25 Nov 2026 13:00:00 +0000",
    `Reported-Domain: ${DOMAIN}`,
    "",
    "--arf-boundary",
    "Content-Type: message/rfc822",
    "Content-Disposition: inline",
    "",
    ...(opts.returnPathHeader ? [`Return-Path: <${opts.returnPathHeader}>`] : []),
    `Message-ID: ${messageIdHeader(id, DOMAIN)}`,
    `From: Loja <ofertas@${DOMAIN}>`,
    "To: carla@fbl.example.net",
    "Subject: Ofertas",
    "",
    "Spam? No: offers.",
    "--arf-boundary--",
    "",
  ].join("\r\n");
}

type SendResult = { ok: true; response: string } | { ok: false; code: number | undefined; response: string; command: string | undefined };

/** Sends `raw` from `<>` to `to` (one connection per send, as an MTA does), and says how it was answered. */
async function send(port: number, to: string | string[], raw: string | Buffer, options: { requireTLS?: boolean } = {}): Promise<SendResult> {
  const transport = nodemailer.createTransport({
    host: "127.0.0.1",
    port,
    secure: false,
    ignoreTLS: !options.requireTLS,
    requireTLS: options.requireTLS ?? false,
    tls: { rejectUnauthorized: false },
    connectionTimeout: 5000,
  });
  try {
    const info = await transport.sendMail({ envelope: { from: "", to }, raw });
    return { ok: true, response: info.response };
  } catch (e) {
    const err = e as { responseCode?: number; response?: string; message: string; command?: string };
    return { ok: false, code: err.responseCode, response: err.response ?? err.message, command: err.command };
  } finally {
    transport.close();
  }
}

describe("the inbound SMTP listener", () => {
  let listener: InboundSmtp;
  const reports: InboundReport[] = [];
  /** How many of the next onReport calls fail (the receipt path down). */
  let failNext = 0;

  beforeAll(async () => {
    listener = await startInboundSmtp({
      host: "127.0.0.1",
      port: await freePort(),
      onReport: async (inbound) => {
        if (failNext > 0) {
          failNext--;
          throw new Error("the receipt path is down (test)");
        }
        reports.push(inbound);
      },
    });
  });
  afterAll(() => listener?.close());

  /** The reports onReport recorded for message `id`. */
  const reportsOf = (id: string) => reports.filter((r) => r.recipients.some((x) => x.messageId === id));

  it("takes a DSN from <> to a signed return path and hands it to onReport with its message", async () => {
    const id = randomUUID();
    const r = await send(listener.port, returnPath(id, DOMAIN), dsn(id));
    expect(r).toMatchObject({ ok: true });
    expect(r.response).toMatch(/^250 2\.0\.0 /);
    const [got, ...more] = reportsOf(id);
    expect(more).toEqual([]);
    expect(got.recipients).toEqual([{ messageId: id, domain: DOMAIN }]);
    expect(got.mailFrom).toBe("");
    expect(got.remoteAddress).toMatch(/127\.0\.0\.1$/);
    expect(got.size).toBeGreaterThan(500);
    expect(got.report).toEqual({
      kind: "dsn",
      envelopeId: null,
      reportingMta: "mx.example.net",
      originalMessageId: messageIdHeader(id, DOMAIN),
      recipients: [
        {
          recipient: "maria@example.org",
          originalRecipient: "maria@example.org",
          action: "failed",
          status: "5.1.1",
          diagnostic: "550 5.1.1 <maria@example.org>: Recipient address rejected: User unknown in virtual mailbox table",
          remoteMta: "mx.example.org",
        },
      ],
    });
  });

  it("takes an ARF complaint; the Message-ID it quotes is the same message", async () => {
    const id = randomUUID();
    expect(await send(listener.port, returnPath(id, DOMAIN).toUpperCase(), arf(id))).toMatchObject({ ok: true });
    const [got] = reportsOf(id);
    expect(got.recipients).toEqual([{ messageId: id, domain: DOMAIN }]);
    expect(got.report).toMatchObject({ kind: "arf", feedbackType: "abuse", originalRcptTo: "carla@fbl.example.net", reportedDomain: DOMAIN });
    expect(got.report.kind === "arf" && messageOfMessageIdHeader(got.report.originalMessageId)).toBe(id);
  });

  it("the feedback-loop address fbl@<EMAIL_HOST> takes ARF complaints, naming the message by the signed return path they quote (Original-Mail-From, else the returned Return-Path)", async () => {
    const fbl = fblAddress();
    expect(fbl).toBe(`fbl@${env().EMAIL_HOST}`);
    const [a, b] = [randomUUID(), randomUUID()];
    expect(await send(listener.port, fbl.toUpperCase(), arf(a))).toMatchObject({ ok: true });
    expect(reportsOf(a).map((r) => [r.report.kind, r.recipients])).toEqual([["arf", [{ messageId: a, domain: DOMAIN }]]]);
    expect(await send(listener.port, fbl, arf(b, { quoted: null, returnPathHeader: returnPath(b, DOMAIN) }))).toMatchObject({ ok: true });
    expect(reportsOf(b).map((r) => r.recipients)).toEqual([[{ messageId: b, domain: DOMAIN }]]);
  });

  it("a complaint to the feedback-loop address quoting a forged return path names nothing (a Message-ID alone is no proof); anything but ARF there is refused 550 5.6.0", async () => {
    const id = randomUUID();
    const forged = returnPath(id, DOMAIN).replace(/-([0-9a-f]{8})@/, (_, t: string) => `-${t === "00000000" ? "00000001" : "00000000"}@`);
    const before = reports.length;
    expect(await send(listener.port, fblAddress(), arf(id, { quoted: forged, returnPathHeader: forged }))).toMatchObject({ ok: true });
    const got = reports.slice(before);
    expect(got.map((r) => [r.report.kind, r.recipients])).toEqual([["arf", []]]);
    const r = await send(listener.port, fblAddress(), dsn(id));
    expect(r).toMatchObject({ ok: false, code: 550 });
    expect(r.response).toMatch(/^550 5\.6\.0 /);
    expect(reportsOf(id)).toEqual([]);
  });

  it("takes a real-shaped bounce as is (Gmail's: nested parts, an icon, no returned headers)", async () => {
    // The sample's message (tests/fixtures/email/README.md); its To: header's tag is not checked, the envelope's is.
    const id = "0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d";
    const before = reportsOf(id).length;
    expect(await send(listener.port, returnPath(id, DOMAIN), readFileSync(resolve(root, "tests", "fixtures", "email", "gmail-failed.eml")))).toMatchObject({ ok: true });
    const got = reportsOf(id).slice(before);
    expect(got).toHaveLength(1);
    expect(got[0].report).toMatchObject({ kind: "dsn", reportingMta: "googlemail.com", originalMessageId: messageIdHeader(id, DOMAIN) });
    expect(got[0].report.kind === "dsn" && got[0].report.recipients.map((r) => `${r.recipient} ${r.action} ${r.status}`)).toEqual(["nobody.here@gmail.com failed 5.1.1"]);
  });

  it("hands over anything else to a return path as other (an auto-reply)", async () => {
    const id = randomUUID();
    const reply = `From: beatriz@example.org\r\nSubject: Fora do escritório\r\nAuto-Submitted: auto-replied\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nVolto dia 1.\r\n`;
    expect(await send(listener.port, returnPath(id, DOMAIN), reply)).toMatchObject({ ok: true });
    expect(reportsOf(id).map((r) => r.report)).toEqual([{ kind: "other" }]);
  });

  it("names every message of a transaction's recipients, once each", async () => {
    const [a, b] = [randomUUID(), randomUUID()];
    const to = [returnPath(a, DOMAIN), returnPath(b, "outra.example.org"), returnPath(a, DOMAIN).toUpperCase()];
    expect(await send(listener.port, to, dsn(a))).toMatchObject({ ok: true });
    expect(reportsOf(a).map((r) => r.recipients)).toEqual([
      [
        { messageId: a, domain: DOMAIN },
        { messageId: b, domain: "outra.example.org" },
      ],
    ]);
  });

  it("refuses at RCPT, 550 5.1.1, an address whose tag is wrong, and any address that is no return path", async () => {
    const id = randomUUID();
    const good = returnPath(id, DOMAIN);
    const wrongTag = good.replace(/-([0-9a-f]{8})@/, (_, t: string) => `-${t === "00000000" ? "00000001" : "00000000"}@`);
    const before = reports.length;
    for (const to of [wrongTag, good.replace(`@bounces.${DOMAIN}`, "@bounces.outra.example.org"), `postmaster@bounces.${DOMAIN}`, "someone@example.org"]) {
      const r = await send(listener.port, to, dsn(id));
      expect(r, to).toMatchObject({ ok: false, code: 550, command: "RCPT TO" });
      expect(r.response, to).toMatch(/^550 5\.1\.1 /);
    }
    expect(reports.length).toBe(before);
  });

  it("answers 451 4.3.0 when onReport throws, and takes the same mail when it is sent again", async () => {
    const id = randomUUID();
    failNext = 1;
    const first = await send(listener.port, returnPath(id, DOMAIN), dsn(id));
    expect(first).toMatchObject({ ok: false, code: 451 });
    expect(first.response).toMatch(/^451 4\.3\.0 /);
    expect(reportsOf(id)).toEqual([]);
    // The sending MTA keeps the mail and retries.
    expect(await send(listener.port, returnPath(id, DOMAIN), dsn(id))).toMatchObject({ ok: true });
    expect(reportsOf(id)).toHaveLength(1);
    expect(reportsOf(id)[0].report).toMatchObject({ kind: "dsn", originalMessageId: messageIdHeader(id, DOMAIN) });
  });

  it("refuses a mail over 10 MB with 552 and hands nothing over", async () => {
    const id = randomUUID();
    const big = dsn(id) + `\r\n${"x".repeat(998)}`.repeat(10_600);
    const r = await send(listener.port, returnPath(id, DOMAIN), big);
    expect(r).toMatchObject({ ok: false, code: 552 });
    expect(reportsOf(id)).toEqual([]);
  });

  it("offers no STARTTLS without a key and certificate", async () => {
    const id = randomUUID();
    const r = await send(listener.port, returnPath(id, DOMAIN), dsn(id), { requireTLS: true });
    expect(r.ok).toBe(false);
    expect(reportsOf(id)).toEqual([]);
  });
});

/** A throw-away self-signed key and certificate (PEM files) in `dir`. */
function selfSigned(dir: string): { key: string; cert: string } {
  const key = join(dir, "key.pem");
  const cert = join(dir, "cert.pem");
  const r = spawnSync("openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert, "-days", "1", "-subj", "/CN=mail.mensageria.test"], {
    encoding: "utf8",
  });
  if (r.status !== 0) throw new Error(`openssl could not make a test certificate (is it installed?): ${r.error?.message ?? r.stderr}`);
  return { key, cert };
}

describe("the inbound-mail process", () => {
  const dirs: string[] = [];
  const children: ChildProcess[] = [];
  afterAll(() => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });
  const tempDir = () => {
    dirs.push(mkdtempSync(join(tmpdir(), "inbound-mail-")));
    return dirs.at(-1)!;
  };

  /** Starts the process; `lines` fills with its output, `waitFor` resolves on a line that matches. */
  function start(env: NodeJS.ProcessEnv) {
    // The run's database and Redis: the process applies what it receives (api/email/bounces.ts).
    const child = spawn(bun, ["api/email/inbound-server.ts"], {
      cwd: root,
      env: { DATABASE_URL: inject("databaseUrl"), REDIS_URL: inject("redisUrl"), REDIS_PREFIX: inject("redisPrefix"), ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    children.push(child);
    let output = "";
    const watchers: Array<{ re: RegExp; done: (line: string) => void }> = [];
    const seen = (chunk: Buffer) => {
      output += chunk;
      for (const w of [...watchers]) {
        const line = output.split("\n").find((l) => w.re.test(l));
        if (line) {
          watchers.splice(watchers.indexOf(w), 1);
          w.done(line);
        }
      }
    };
    child.stdout!.on("data", seen);
    child.stderr!.on("data", seen);
    const exited = new Promise<number | null>((done) => child.on("exit", (code) => done(code)));
    const waitFor = (re: RegExp) =>
      new Promise<string>((done, fail) => {
        watchers.push({ re, done });
        seen(Buffer.alloc(0));
        void exited.then((code) => fail(new Error(`exited (${code}) before printing ${re}:\n${output}`)));
      });
    return { child, exited, waitFor, output: () => output };
  }

  it("logs one line per report, with STARTTLS from EMAIL_INBOUND_TLS_KEY/CERT, and stops on SIGTERM", async () => {
    const port = await freePort();
    const { key, cert } = selfSigned(tempDir());
    const p = start({ ...process.env, NODE_ENV: "test", EMAIL_INBOUND_PORT: String(port), EMAIL_INBOUND_TLS_KEY: key, EMAIL_INBOUND_TLS_CERT: cert });
    expect(await p.waitFor(/inbound mail listening on/)).toContain(`inbound mail listening on 127.0.0.1:${port} (STARTTLS)`);
    const id = randomUUID();
    expect(await send(port, returnPath(id, DOMAIN), dsn(id), { requireTLS: true })).toMatchObject({ ok: true });
    expect(await p.waitFor(new RegExp(`inbound report dsn ${id}@${DOMAIN.replaceAll(".", "\\.")}`))).toMatch(/\(failed 5\.1\.1\) from \S*127\.0\.0\.1 <>, \d+ bytes$/);
    expect(await send(port, returnPath(id, DOMAIN).replace(/^b-./, "b-z"), dsn(id), { requireTLS: true })).toMatchObject({ ok: false, code: 550 });
    p.child.kill("SIGTERM");
    expect(await p.exited).toBe(0);
  });

  it("refuses EMAIL_INBOUND_HOST=0.0.0.0 with development secrets, naming the variable", async () => {
    const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: "development", DEV_SECRETS_FILE: join(tempDir(), ".secrets.dev.env") };
    for (const name of SECRET_NAMES) delete env[name];
    const p = start({ ...env, EMAIL_INBOUND_HOST: "0.0.0.0", EMAIL_INBOUND_PORT: String(await freePort()) });
    expect(await p.exited).not.toBe(0);
    expect(p.output()).toContain("EMAIL_INBOUND_HOST=0.0.0.0 refused");
    expect(p.output()).not.toContain("inbound mail listening");
  });

  it("refuses a TLS key without its certificate, naming the variable", async () => {
    const { key } = selfSigned(tempDir());
    const p = start({ ...process.env, NODE_ENV: "test", EMAIL_INBOUND_PORT: String(await freePort()), EMAIL_INBOUND_TLS_KEY: key });
    expect(await p.exited).not.toBe(0);
    expect(p.output()).toContain("EMAIL_INBOUND_TLS_CERT: is not set but EMAIL_INBOUND_TLS_KEY is");
  });
});
