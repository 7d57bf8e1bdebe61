/**
 * Reading DSNs and complaints (./reports.ts): the RFCs' own examples (RFC 3464 section 9, RFC 5965
 * section 3), the shapes real MTAs send (Postfix, Exim, Gmail), and what is no report at all.
 * The samples are in tests/fixtures/email (README there says where each shape comes from).
 */
import { readdirSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { deliveryStatusReport, feedbackReport } from "../simulator/smtp-reports";
import { readMime } from "./report-mime";
import { fieldGroups, MAX_REPORT_BYTES, parseReport, quickReport, thoroughReport } from "./reports";

const fixture = (name: string) => readFileSync(resolve(__dirname, "..", "..", "tests", "fixtures", "email", name));
const OUR_MESSAGE_ID = "<0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d@loja.example.com>";

describe("DSN (RFC 3464)", () => {
  it("reads the RFC's simple DSN: the per-message group, then one recipient", async () => {
    expect(await parseReport(fixture("rfc3464-simple.eml"))).toEqual({
      kind: "dsn",
      envelopeId: null,
      reportingMta: "cs.utk.edu",
      originalMessageId: null, // "[original message goes here]": no headers to read
      recipients: [
        {
          recipient: "louisl@larry.slip.umd.edu",
          originalRecipient: "louisl@larry.slip.umd.edu",
          action: "failed",
          status: "4.0.0", // as written: the action says failed, the status stays the MTA's
          diagnostic: "426 connection timed out",
          remoteMta: null,
        },
      ],
    });
  });

  it("reads the RFC's multi-recipient DSN: comments after the status, a folded diagnostic", async () => {
    const r = await parseReport(fixture("rfc3464-multi-recipient.eml"));
    expect(r.kind).toBe("dsn");
    if (r.kind !== "dsn") return;
    expect(r.recipients).toEqual([
      {
        recipient: "arathib@vnet.ibm.com",
        originalRecipient: "arathib@vnet.ibm.com",
        action: "failed",
        status: "5.0.0",
        diagnostic: "550 'arathib@vnet.IBM.COM' is not a registered gateway user",
        remoteMta: "vnet.ibm.com",
      },
      { recipient: "johnh@hpnjld.njd.hp.com", originalRecipient: "johnh@hpnjld.njd.hp.com", action: "delayed", status: "4.0.0", diagnostic: null, remoteMta: null },
      {
        recipient: "wsnell@sdcc13.ucsd.edu",
        originalRecipient: "wsnell@sdcc13.ucsd.edu",
        action: "failed",
        status: "5.0.0",
        diagnostic: "550 user unknown",
        remoteMta: "sdcc13.ucsd.edu",
      },
    ]);
  });

  it("reads Postfix's bounce: X-Postfix fields ignored, the envelope id xtext-decoded, the Message-ID from the returned headers", async () => {
    expect(await parseReport(fixture("postfix-failed.eml"))).toEqual({
      kind: "dsn",
      envelopeId: "0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d+retry",
      reportingMta: "mx.example.net",
      originalMessageId: OUR_MESSAGE_ID,
      recipients: [
        {
          recipient: "maria@example.org",
          originalRecipient: "Maria@Example.org",
          action: "failed",
          status: "5.1.1",
          diagnostic: "550 5.1.1 <maria@example.org>: Recipient address rejected: User unknown in virtual mailbox table",
          remoteMta: "mx.example.org",
        },
      ],
    });
  });

  it("reads Exim's bounce: the per-message group, Action before Final-Recipient, the Message-ID from the returned message", async () => {
    const r = await parseReport(fixture("exim-failed.eml"));
    expect(r).toMatchObject({ kind: "dsn", reportingMta: "mail.example.org", originalMessageId: OUR_MESSAGE_ID });
    if (r.kind !== "dsn") return;
    expect(r.recipients).toEqual([
      { recipient: "joao@example.org", originalRecipient: null, action: "failed", status: "5.0.0", diagnostic: "552 5.2.2 Mailbox full", remoteMta: "mx.example.org" },
    ]);
  });

  it("reads Gmail's bounce: nested alternative parts, a four-line diagnostic, the Message-ID from X-Original-Message-ID", async () => {
    const r = await parseReport(fixture("gmail-failed.eml"));
    expect(r).toMatchObject({ kind: "dsn", reportingMta: "googlemail.com", originalMessageId: OUR_MESSAGE_ID, envelopeId: null });
    if (r.kind !== "dsn") return;
    expect(r.recipients).toHaveLength(1);
    expect(r.recipients[0]).toMatchObject({ recipient: "nobody.here@gmail.com", action: "failed", status: "5.1.1", remoteMta: "gmail-smtp-in.l.google.com" });
    expect(r.recipients[0].diagnostic).toBe(
      "550-5.1.1 The email account that you tried to reach does not exist. Please try 550-5.1.1 double-checking the recipient's email address for typos or " +
        "550-5.1.1 unnecessary spaces. For more information, go to 550 5.1.1  https://support.google.com/mail/?p=NoSuchUser a1b2c3d4e5f6.123 - gsmtp",
    );
  });

  it("reads a delay notice whose status part is base64", async () => {
    const r = await parseReport(fixture("delayed.eml"));
    expect(r).toMatchObject({ kind: "dsn", reportingMta: "mx.example.net", originalMessageId: OUR_MESSAGE_ID });
    if (r.kind !== "dsn") return;
    expect(r.recipients).toEqual([
      {
        recipient: "ana@slow.example.org",
        originalRecipient: null,
        action: "delayed",
        status: "4.4.1",
        diagnostic: "connect to mx.slow.example.org[192.0.2.44]:25: Connection timed out",
        remoteMta: null,
      },
    ]);
  });

  it("reads a success notice with two recipients and no blank line between them", async () => {
    const r = await parseReport(fixture("delivered.eml"));
    expect(r).toMatchObject({ kind: "dsn", envelopeId: "0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d", originalMessageId: OUR_MESSAGE_ID });
    if (r.kind !== "dsn") return;
    expect(r.recipients.map((x) => [x.recipient, x.action, x.status, x.remoteMta])).toEqual([
      ["pedro@example.org", "delivered", "2.0.0", "mx.example.org"],
      ["paula@example.org", "relayed", "2.0.0", "legacy.example.org"],
    ]);
  });

  it("takes a missing status from the diagnostic, then from the action; skips a recipient with neither action nor status", async () => {
    const dsn = (status: string) =>
      [
        'Content-Type: multipart/report; report-type=delivery-status; boundary="b"',
        "",
        "--b",
        "Content-Type: message/delivery-status",
        "",
        "Reporting-MTA: dns; mx.example.net",
        "",
        status,
        "--b--",
        "",
      ].join("\r\n");
    const recipients = async (group: string) => {
      const r = await parseReport(dsn(group));
      return r.kind === "dsn" ? r.recipients.map((x) => `${x.action} ${x.status}`) : r.kind;
    };
    expect(await recipients("Final-Recipient: rfc822; a@x.example\r\nAction: failed\r\nDiagnostic-Code: smtp; 550 5.7.1 Message rejected as spam\r\n")).toEqual(["failed 5.7.1"]);
    expect(await recipients("Final-Recipient: rfc822; a@x.example\r\nAction: failed\r\n")).toEqual(["failed 5.0.0"]);
    expect(await recipients("Final-Recipient: rfc822; a@x.example\r\nAction: Delayed (will retry)\r\n")).toEqual(["delayed 4.0.0"]);
    expect(await recipients("Final-Recipient: rfc822; a@x.example\r\nACTION: unknown-word\r\nSTATUS: 5.2.2\r\n")).toEqual(["failed 5.2.2"]);
    expect(await recipients("Final-Recipient: rfc822; a@x.example\r\nX-Note: nothing else\r\n")).toEqual([]);
    expect(await recipients("Action: failed\r\nStatus: 5.1.1\r\n")).toEqual([]); // no recipient named
  });

  it("is other when a bounce has no delivery-status part", async () => {
    expect(await parseReport(fixture("qmail-plain-bounce.eml"))).toEqual({ kind: "other" });
    expect(await parseReport(fixture("report-without-status.eml"))).toEqual({ kind: "other" });
  });
});

describe("ARF (RFC 5965)", () => {
  it("reads the RFC's example report", async () => {
    expect(await parseReport(fixture("rfc5965-abuse.eml"))).toEqual({
      kind: "arf",
      feedbackType: "abuse",
      originalMailFrom: "somespammer@example.net",
      originalRcptTo: "user@example.com",
      originalMessageId: "8787KJKJ3K4J3K4J3K4J3.mail@example.net", // the RFC writes it without angle brackets
      originalReturnPath: null,
      arrivalDate: "Thu, 8 Mar 2005 14:00:00 EDT",
      reportedDomain: "example.net",
    });
  });

  it("reads a feedback loop's complaint about one of our messages (returned headers only)", async () => {
    expect(await parseReport(fixture("complaint.eml"))).toEqual({
      kind: "arf",
      feedbackType: "abuse",
      originalMailFrom: "b-0a1b2c3d4e5f4a6b8c7d9e0f1a2b3c4d-5f1e2d3c@bounces.loja.example.com",
      originalRcptTo: "carla@fbl.example.net",
      originalMessageId: OUR_MESSAGE_ID,
      originalReturnPath: null,
      arrivalDate: "Tue, 25 Nov 2026 13:00:00 +0000",
      reportedDomain: "loja.example.com",
    });
  });

  it("reads a report without the original message, or with no Feedback-Type (other)", async () => {
    const arf = (fields: string) =>
      `Content-Type: multipart/report; report-type=feedback-report; boundary="b"\r\n\r\n--b\r\nContent-Type: text/plain\r\n\r\nA complaint.\r\n--b\r\nContent-Type: message/feedback-report\r\n\r\n${fields}\r\n--b--\r\n`;
    expect(await parseReport(arf("Feedback-Type: not-spam\r\nVersion: 1\r\n"))).toEqual({
      kind: "arf",
      feedbackType: "not-spam",
      originalMailFrom: null,
      originalRcptTo: null,
      originalMessageId: null,
      originalReturnPath: null,
      arrivalDate: null,
      reportedDomain: null,
    });
    expect(await parseReport(arf("Version: 1\r\nUser-Agent: x/1\r\n"))).toMatchObject({ kind: "arf", feedbackType: "other" });
  });

  it("reads the returned message's Return-Path (the envelope sender it was delivered with), and only from its headers", async () => {
    const report = (returned: string) =>
      `Content-Type: multipart/report; report-type=feedback-report; boundary="b"\r\n\r\n--b\r\nContent-Type: message/feedback-report\r\n\r\nFeedback-Type: abuse\r\nVersion: 1\r\n\r\n--b\r\nContent-Type: text/rfc822-headers\r\n\r\n${returned}\r\n--b--\r\n`;
    expect(await parseReport(report("Return-Path: <b-1@bounces.loja.example.com>\r\nMessage-ID: <x@y>\r\n"))).toMatchObject({
      originalReturnPath: "b-1@bounces.loja.example.com",
      originalMessageId: "<x@y>",
    });
    expect(await parseReport(report("Message-ID: <x@y>\r\n\r\nReturn-Path: <b-2@bounces.loja.example.com>\r\n"))).toMatchObject({ originalReturnPath: null });
  });
});

describe("anything else", () => {
  it("is other: an auto-reply, a read receipt (MDN), a plain mail", async () => {
    expect(await parseReport(fixture("auto-reply.eml"))).toEqual({ kind: "other" });
    expect(await parseReport(fixture("read-receipt.eml"))).toEqual({ kind: "other" });
    expect(await parseReport("From: a@example.org\r\nSubject: hello\r\n\r\nJust a note.\r\n")).toEqual({ kind: "other" });
  });

  it("never throws on junk", async () => {
    const junk: (string | Buffer)[] = [
      "",
      "\r\n\r\n",
      "no headers at all",
      Buffer.from([0, 1, 2, 255, 254, 0, 13, 10, 13, 10, 0]),
      'Content-Type: multipart/report; report-type=delivery-status; boundary="never-closed"\r\n\r\n--never-closed\r\nContent-Type: message/delivery-status\r\n\r\n',
      "Content-Type: multipart/report; report-type=delivery-status\r\n\r\nno boundary",
      'Content-Type: multipart/report; boundary="b"\r\n\r\n--b\r\nContent-Type: message/delivery-status\r\nContent-Transfer-Encoding: base64\r\n\r\n!!!not base64!!!\r\n--b--\r\n',
    ];
    for (const j of junk) {
      const r = await parseReport(j);
      expect(["other", "dsn"]).toContain(r.kind);
      if (r.kind === "dsn") expect(r.recipients).toEqual([]);
    }
  });

  it("refuses a mail over 10 MB before parsing it", async () => {
    const big = Buffer.concat([fixture("postfix-failed.eml"), Buffer.alloc(MAX_REPORT_BYTES, "x")]);
    const started = Date.now();
    expect(await parseReport(big)).toEqual({ kind: "other" });
    expect(Date.now() - started).toBeLessThan(500);
    // Just under the limit is read.
    expect((await parseReport(fixture("postfix-failed.eml"))).kind).toBe("dsn");
  });
});

describe("the quick reading (ADR 074)", () => {
  const fixtures = readdirSync(resolve(__dirname, "..", "..", "tests", "fixtures", "email")).filter((f) => f.endsWith(".eml"));

  it("reads every sample report as mailparser does, and finds a report in each that has one", async () => {
    expect(fixtures.length).toBeGreaterThanOrEqual(13);
    let reports = 0;
    for (const name of fixtures) {
      const thorough = await thoroughReport(fixture(name));
      if (thorough.kind === "other") continue;
      reports++;
      expect({ name, report: quickReport(fixture(name)) }).toEqual({ name, report: thorough });
    }
    expect(reports).toBe(9);
  });

  it("reads the reports our SMTP peer sends (one per message sent) without mailparser", async () => {
    const original = {
      mailFrom: "b-0a1b2c3d@bounces.loja.test",
      recipient: "ana@example.org",
      orcpt: "rfc822;ana@example.org",
      envid: "0a1b2c3d",
      arrivalDate: new Date("2026-11-28T10:00:00Z"),
      header: "From: Loja <ofertas@loja.test>\r\nTo: ana@example.org\r\nMessage-ID: <0a1b2c3d@loja.test>\r\nSubject: =?UTF-8?Q?Ol=C3=A1?=",
      sourceIp: "127.0.0.1",
    };
    const now = new Date("2026-11-28T10:00:05Z");
    for (const action of ["delivered", "failed", "delayed"] as const) {
      const raw = Buffer.from(deliveryStatusReport({ reportingMta: "mx.sim.test", remoteMta: "mx.example.org", action, original, now }));
      expect(quickReport(raw)).toMatchObject({ kind: "dsn", originalMessageId: "<0a1b2c3d@loja.test>", recipients: [{ recipient: "ana@example.org", action }] });
      expect(quickReport(raw)).toEqual(await thoroughReport(raw));
    }
    const arf = Buffer.from(feedbackReport({ reportingMta: "mx.sim.test", original, reportedDomain: "loja.test", authenticationResults: "mx.sim.test; dkim=pass", now }));
    expect(quickReport(arf)).toMatchObject({ kind: "arf", originalMailFrom: "b-0a1b2c3d@bounces.loja.test" });
    expect(quickReport(arf)).toEqual(await thoroughReport(arf));
  });

  it("decodes base64 and quoted-printable parts, keeps an embedded message whole, and gives up on MIME it cannot be sure of", () => {
    const mail = (body: string, type = 'multipart/report; report-type=delivery-status; boundary="b"') => Buffer.from(`Content-Type: ${type}\r\n\r\n${body}`);
    const qp = readMime(
      mail(
        '--b\r\nContent-Type: text/plain\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\nOl=C3=A1 =\r\nmundo\r\n--b\r\nContent-Type: message/rfc822\r\n\r\nContent-Type: multipart/mixed; boundary="x"\r\n\r\n--x\r\n\r\ninner\r\n--x--\r\n--b--\r\n',
      ),
    );
    expect(qp?.reportType).toBe("delivery-status");
    expect(qp?.parts.map((p) => [p.contentType, p.content.toString("utf8")])).toEqual([
      ["text/plain", "Olá mundo"],
      ["message/rfc822", 'Content-Type: multipart/mixed; boundary="x"\r\n\r\n--x\r\n\r\ninner\r\n--x--'],
    ]);
    const b64 = readMime(
      mail(`--b\r\nContent-Type: message/delivery-status\r\nContent-Transfer-Encoding: base64\r\n\r\n${Buffer.from("Action: failed\r\n").toString("base64")}\r\n--b--`),
    );
    expect(b64?.parts[0]?.content.toString()).toBe("Action: failed\r\n");
    // Not read quickly (mailparser reads these): no boundary, none found, an unknown encoding, a continuation line first, too deep.
    expect(readMime(mail("--b\r\n\r\nx\r\n--b--", "multipart/report"))).toBeNull();
    expect(readMime(mail("no delimiter here"))).toBeNull();
    expect(readMime(mail("--b\r\nContent-Transfer-Encoding: x-uuencode\r\n\r\nbegin 644 x\r\n--b--"))).toBeNull();
    expect(readMime(Buffer.from(" folded\r\nSubject: x\r\n\r\nbody"))).toBeNull();
    const deep = Array.from({ length: 8 }, (_, i) => `--b${i}\r\nContent-Type: multipart/mixed; boundary="b${i + 1}"\r\n\r\n`).join("");
    expect(readMime(mail(deep, 'multipart/mixed; boundary="b0"'))).toBeNull();
  });
});

describe("fieldGroups", () => {
  it("splits on blank lines, unfolds, lower-cases names, keeps the first of a repeated field", () => {
    expect(fieldGroups("A: 1\r\nB-Name:  two\r\n  words\r\n\r\n\r\nA: 3\nA: 4\n  ignored\nb-name:x\nnot a field\n")).toEqual([
      new Map([
        ["a", "1"],
        ["b-name", "two words"],
      ]),
      new Map([
        ["a", "3"],
        ["b-name", "x"],
      ]),
    ]);
  });
});
