/**
 * The SMTP peer's reading of a message's Subject, From, To and Message-ID (./smtp-headers.ts):
 * the same text mailparser gives, on the header shapes our composer and others write.
 */
import { simpleParser, type AddressObject } from "mailparser";
import { describe, expect, it } from "vitest";
import { readPeerHeaders } from "./smtp-headers";

const text = (a: AddressObject | AddressObject[] | undefined) => (a ? (Array.isArray(a) ? a.map((x) => x.text).join(", ") : a.text) : null);

const blocks = [
  'From: "Loja =?UTF-8?Q?A=C3=A7=C3=A3o?=" <ofertas@loja.test>\r\nTo: ana@example.org\r\nSubject: =?UTF-8?Q?Ol=C3=A1_Ana=2C?=\r\n =?UTF-8?Q?_novidades?=\r\nMessage-ID: <0a1b@loja.test>',
  'From: =?utf-8?B?5ZWG5bqX?= <shop@loja.test>\r\nTo: Ana <ana@example.org>, "Silva, Bruno" <bruno@example.org>\r\nSubject: plain subject\r\nMessage-ID: no-brackets@loja.test',
  "from: ofertas@loja.test\r\nSUBJECT: first\r\nSubject: second\r\nTo: Friends: ana@example.org, bruno@example.org;",
  "X-Only: nothing we read",
];

describe("the SMTP peer's header reading", () => {
  it("gives what mailparser gives for Subject, From, To and Message-ID", async () => {
    for (const block of blocks) {
      const parsed = await simpleParser(`${block}\r\n\r\n`, { skipHtmlToText: true, skipTextToHtml: true, skipTextLinks: true });
      const read = readPeerHeaders(block);
      expect({ block, subject: read.subject, from: read.from, to: read.to, message_id: read.message_id }).toEqual({
        block,
        subject: parsed.subject ?? null,
        from: text(parsed.from),
        to: text(parsed.to),
        message_id: parsed.messageId ?? null,
      });
    }
  });

  it("names the From address's domain, lower case", () => {
    expect(readPeerHeaders("From: Loja <Ofertas@LOJA.Test>").fromDomain).toBe("loja.test");
    expect(readPeerHeaders("Subject: x").fromDomain).toBeNull();
  });
});
