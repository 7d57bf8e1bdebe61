import { simpleParser } from "mailparser";
import { describe, expect, it } from "vitest";
import { deliveryStatusReport, feedbackReport, type Original } from "./smtp-reports";

const original: Original = {
  mailFrom: "b-0123@bounces.loja.test",
  recipient: "late-bounce@x.test",
  orcpt: "rfc822;Late-Bounce@x.test",
  envid: "msg-42",
  arrivalDate: new Date("2026-11-28T10:00:00Z"),
  // As received: LF line endings are turned into CRLF in the report.
  header: "From: Loja <vendas@loja.test>\nTo: late-bounce@x.test\nSubject: =?UTF-8?Q?Promo=C3=A7=C3=A3o?=\nMessage-ID: <42@loja.test>",
  sourceIp: "127.0.0.1",
};
const now = new Date("2026-11-28T10:00:05Z");

// mailparser folds a message/delivery-status part into the text unless told to keep it.

/** The fields of a report part ("Name: value" lines; blank lines separate the groups). */
const fieldsOf = (text: string) =>
  text
    .trim()
    .split(/\r\n\r\n/)
    .map((group) => Object.fromEntries(group.split("\r\n").map((line) => [line.slice(0, line.indexOf(":")), line.slice(line.indexOf(":") + 1).trim()])));

describe("the SMTP peer's reports", () => {
  it("writes an RFC 3464 DSN with CRLF line endings, its three parts and the fields the inbound listener reads", async () => {
    const raw = deliveryStatusReport({ reportingMta: "mx.sim.test", remoteMta: "mx.x.test", action: "failed", original, now });
    expect(raw.replace(/\r\n/g, "")).not.toMatch(/[\r\n]/);
    const mail = await simpleParser(raw, { keepDeliveryStatus: true });
    expect(mail.headers.get("content-type")).toMatchObject({ value: "multipart/report", params: { "report-type": "delivery-status" } });
    expect(mail.subject).toBe("Undelivered Mail Returned to Sender");
    expect(mail.headers.get("auto-submitted")).toBe("auto-replied");
    expect(mail.text).toContain("permanent error");
    const [status, headers] = mail.attachments;
    expect(status.contentType).toBe("message/delivery-status");
    const [perMessage, perRecipient] = fieldsOf(status.content.toString());
    expect(perMessage).toEqual({ "Reporting-MTA": "dns; mx.sim.test", "Original-Envelope-Id": "msg-42", "Arrival-Date": "Sat, 28 Nov 2026 10:00:00 +0000" });
    expect(perRecipient).toMatchObject({
      "Original-Recipient": "rfc822; Late-Bounce@x.test",
      "Final-Recipient": "rfc822; late-bounce@x.test",
      Action: "failed",
      Status: "5.1.1",
      "Remote-MTA": "dns; mx.x.test",
      "Last-Attempt-Date": "Sat, 28 Nov 2026 10:00:05 +0000",
    });
    expect(perRecipient["Diagnostic-Code"]).toMatch(/^smtp; 550 5\.1\.1 /);
    expect(headers.contentType).toBe("text/rfc822-headers");
    expect(headers.content.toString()).toBe(`${original.header.replace(/\n/g, "\r\n")}\r\n`);
  });

  it("leaves out Original-Envelope-Id and Original-Recipient when the envelope gave none; a delayed DSN says until when", async () => {
    const raw = deliveryStatusReport({ reportingMta: "mx.sim.test", remoteMta: "mx.x.test", action: "delayed", original: { ...original, orcpt: null, envid: null }, now });
    const [status] = (await simpleParser(raw, { keepDeliveryStatus: true })).attachments;
    const [perMessage, perRecipient] = fieldsOf(status.content.toString());
    expect(Object.keys(perMessage)).toEqual(["Reporting-MTA", "Arrival-Date"]);
    expect(perRecipient).not.toHaveProperty("Original-Recipient");
    expect(perRecipient).toMatchObject({ Action: "delayed", Status: "4.4.7", "Will-Retry-Until": "Thu, 03 Dec 2026 10:00:00 +0000" });
  });

  it("writes an RFC 5965 abuse report", async () => {
    const raw = feedbackReport({ reportingMta: "mx.sim.test", original, reportedDomain: "loja.test", authenticationResults: "mx.sim.test; dkim=pass header.i=@loja.test", now });
    const mail = await simpleParser(raw, { keepDeliveryStatus: true });
    expect(mail.headers.get("content-type")).toMatchObject({ value: "multipart/report", params: { "report-type": "feedback-report" } });
    const [report, headers] = mail.attachments;
    expect(report.contentType).toBe("message/feedback-report");
    expect(fieldsOf(report.content.toString())[0]).toMatchObject({
      "Feedback-Type": "abuse",
      Version: "1",
      "Original-Mail-From": "<b-0123@bounces.loja.test>",
      "Original-Rcpt-To": "<late-bounce@x.test>",
      "Arrival-Date": "Sat, 28 Nov 2026 10:00:00 +0000",
      "Reported-Domain": "loja.test",
      "Source-IP": "127.0.0.1",
    });
    expect(headers.contentType).toBe("text/rfc822-headers");
    expect(headers.content.toString()).toContain("Message-ID: <42@loja.test>");
  });
});
