/**
 * The channel's own MIME composer and DKIM signer (./compose.ts, ./dkim.ts; ADR 074): what mail
 * clients read back (mailparser), what an independent DKIM verifier says (mailauth), and that no
 * header can be injected.
 */
import { createPrivateKey, generateKeyPairSync } from "node:crypto";
// The DKIM module alone: mailauth's index also loads its BIMI fetcher (undici), which Node 20 cannot load.
import { dkimVerify } from "mailauth/lib/dkim/verify";
import { simpleParser } from "mailparser";
import { describe, expect, it } from "vitest";
import { composeEmail } from "./compose";
import { dkimSign, relaxedBody } from "./dkim";
import { DKIM_HEADER_FIELDS } from "./unsubscribe";

const { privateKey, publicKey } = generateKeyPairSync("rsa", {
  modulusLength: 2048,
  publicKeyEncoding: { type: "spki", format: "der" },
  privateKeyEncoding: { type: "pkcs8", format: "pem" },
});
const key = { domainName: "loja.test", keySelector: "m1", privateKey: createPrivateKey(privateKey) };
const record = `v=DKIM1; k=rsa; p=${publicKey.toString("base64")}`;
const resolver = async (name: string) => {
  if (name === "m1._domainkey.loja.test") return [[record]];
  throw Object.assign(new Error("none"), { code: "ENOTFOUND" });
};

const html = `<html><body>${'<p>Olá {{first_name}}, veja <a href="https://loja.test/x?id=1&amp;b=2">as ofertas</a>   com espaços   </p>\n'.repeat(30)}</body></html>`;
const base = {
  from: { address: "ofertas@loja.test", name: "Loja Ação" },
  to: "ana@example.org",
  replyTo: "sac@loja.test",
  subject: "Olá Ana, novidades da semana com um assunto longo o bastante para ser dobrado em várias linhas",
  messageId: "<0a1b2c3d@loja.test>",
  headers: { "List-Unsubscribe": "<https://u.loja.test/u/abc>, <mailto:unsubscribe@mail.test?subject=unsubscribe%20abc>", "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" },
  text: "Olá Ana,\nveja as ofertas.\n",
  html,
};

async function verify(message: string) {
  const { results } = await dkimVerify(Buffer.from(message), { resolver, strict: true });
  return results.map((r) => ({ result: r.status.result, domain: r.signingDomain }));
}

describe("composeEmail", () => {
  it("writes what a mail client reads back: both parts, the headers, UTF-8 subject and name", async () => {
    const parsed = await simpleParser(composeEmail(base));
    expect(parsed.from?.value).toEqual([{ address: "ofertas@loja.test", name: "Loja Ação" }]);
    expect(parsed.to && !Array.isArray(parsed.to) ? parsed.to.value : null).toEqual([{ address: "ana@example.org", name: "" }]);
    expect(parsed.replyTo?.value[0]?.address).toBe("sac@loja.test");
    expect(parsed.subject).toBe(base.subject);
    expect(parsed.messageId).toBe("<0a1b2c3d@loja.test>");
    expect(parsed.headerLines.find((h) => h.key === "list-unsubscribe-post")?.line).toBe("List-Unsubscribe-Post: List-Unsubscribe=One-Click");
    expect(parsed.html).toBe(html);
    expect(parsed.text).toBe("Olá Ana,\nveja as ofertas.\n");
    expect(Math.abs((parsed.date?.getTime() ?? 0) - Date.now())).toBeLessThan(5000);
  });

  it("keeps every line at most 76 characters and base64-encodes mostly non-ASCII parts", async () => {
    const zh = composeEmail({ ...base, text: "您好，这是我们本周的优惠信息。".repeat(20), html: null });
    expect(zh).toContain("Content-Transfer-Encoding: base64");
    expect((await simpleParser(zh)).text).toBe("您好，这是我们本周的优惠信息。".repeat(20));
    for (const m of [zh, composeEmail(base)]) for (const line of m.split("\r\n")) expect(line.length).toBeLessThanOrEqual(78);
    expect(composeEmail({ ...base, text: null })).not.toContain("multipart");
  });

  it("lets no header be injected through the subject, a display name, the address or an extra header", async () => {
    const message = composeEmail({
      ...base,
      subject: "Oi\r\nBcc: victim@example.org",
      from: { address: "ofertas@loja.test", name: "Loja\nX-Injected: 1" },
      to: "ana@example.org\r\nCc: other@example.org",
      headers: { "List-Unsubscribe": "<https://u.loja.test/u>\r\nX-Evil: yes" },
    });
    const parsed = await simpleParser(message);
    expect(parsed.bcc).toBeUndefined();
    expect(parsed.cc).toBeUndefined();
    expect(parsed.headers.has("x-injected")).toBe(false);
    expect(parsed.headers.has("x-evil")).toBe(false);
    expect(parsed.subject).toBe("Oi Bcc: victim@example.org");
  });
});

describe("dkimSign", () => {
  it("signs so that an independent verifier passes it, List-Unsubscribe-Post among the signed fields", async () => {
    const signed = dkimSign(composeEmail(base), key, DKIM_HEADER_FIELDS);
    expect(await verify(signed)).toEqual([{ result: "pass", domain: "loja.test" }]);
    const h = /\bh=([^;]+);/.exec(signed.replace(/\r\n\s+/g, " "))?.[1];
    expect(h?.split(":")).toEqual(["From", "Reply-To", "Subject", "Date", "Message-ID", "To", "MIME-Version", "Content-Type", "List-Unsubscribe", "List-Unsubscribe-Post"]);
  });

  it("fails verification when the body or a signed header changes, passes a single-part message and one without a body", async () => {
    const signed = dkimSign(composeEmail(base), key, DKIM_HEADER_FIELDS);
    expect((await verify(signed.replace("veja", "olhe")))[0].result).toBe("fail");
    expect((await verify(signed.replace("Loja", "L0ja")))[0].result).toBe("fail");
    expect((await verify(dkimSign(composeEmail({ ...base, html: null }), key, DKIM_HEADER_FIELDS)))[0].result).toBe("pass");
    expect((await verify(dkimSign(composeEmail({ ...base, html: null, text: null }), key, DKIM_HEADER_FIELDS)))[0].result).toBe("pass");
  });

  it("canonicalizes the body as RFC 6376's relaxed algorithm does", () => {
    expect(relaxedBody(" C \r\nD \t E\r\n\r\n\r\n")).toBe(" C\r\nD E\r\n");
    expect(relaxedBody("\r\n\r\n")).toBe("");
    expect(relaxedBody("x")).toBe("x\r\n");
  });
});
