/**
 * DKIM signing (RFC 6376) of a message we composed (./compose.ts): rsa-sha256, relaxed/relaxed, the
 * listed header fields that the message has, one signature prepended (ADR 074). nodemailer signed
 * before by streaming the message through its parser and body hasher (~0.15 ms of CPU a message on
 * top of the RSA signature); the message is already one string here, so canonicalization is a few
 * replaces. Verified in tests by mailauth, an independent implementation.
 */
import { createHash, type KeyObject, sign } from "node:crypto";
import type { RsaSigner } from "./rsa-openssl";

/** The signing domain and selector, and the key: `signer` (OpenSSL, ./rsa-openssl.ts) when there is one, else node:crypto with `privateKey`. */
export type DkimKey = { domainName: string; keySelector: string; privateKey: KeyObject; signer?: RsaSigner | null };

/** Relaxed body canonicalization (RFC 6376 section 3.4.4). */
export function relaxedBody(body: string): string {
  const c = body
    .replace(/[ \t]+(?=\r\n|$)/g, "")
    .replace(/[ \t]+/g, " ")
    .replace(/(\r\n)+$/, "");
  return c === "" ? "" : `${c}\r\n`;
}

/** Relaxed header canonicalization of one field as written ("Name: value", maybe folded). */
export function relaxedHeader(field: string): string {
  const colon = field.indexOf(":");
  const name = field.slice(0, colon).trim().toLowerCase();
  const value = field
    .slice(colon + 1)
    .replace(/\r\n/g, "")
    .replace(/[ \t]+/g, " ")
    .trim();
  return `${name}:${value}`;
}

/** The header fields of a header block, each with its continuation lines. */
function fieldsOf(head: string): string[] {
  const fields: string[] = [];
  for (const line of head.split("\r\n")) {
    if ((line[0] === " " || line[0] === "\t") && fields.length) fields[fields.length - 1] += `\r\n${line}`;
    else if (line) fields.push(line);
  }
  return fields;
}

/**
 * `message` (CRLF line endings) with a DKIM-Signature field first. `headerFieldNames` is the
 * colon-separated list of fields to sign, in that order, each only if present (the last instance
 * of a repeated one, as RFC 6376 section 5.4.2 says).
 */
export function dkimSign(message: string, key: DkimKey, headerFieldNames: string, now = new Date()): string {
  const split = message.indexOf("\r\n\r\n");
  const head = split < 0 ? message : message.slice(0, split);
  const body = split < 0 ? "" : message.slice(split + 4);
  const byName = new Map<string, string>();
  for (const f of fieldsOf(head)) byName.set(f.slice(0, f.indexOf(":")).trim().toLowerCase(), f);
  const signed: string[] = [];
  const names: string[] = [];
  for (const name of headerFieldNames.split(":")) {
    const field = byName.get(name.trim().toLowerCase());
    if (!field || names.some((n) => n.toLowerCase() === name.trim().toLowerCase())) continue;
    names.push(name.trim());
    signed.push(relaxedHeader(field));
  }
  const bh = createHash("sha256").update(relaxedBody(body), "utf8").digest("base64");
  const tags = [
    "v=1; a=rsa-sha256; c=relaxed/relaxed;",
    `d=${key.domainName}; s=${key.keySelector}; t=${Math.floor(now.getTime() / 1000)};`,
    `h=${names.join(":")};`,
    `bh=${bh};`,
    "b=",
  ];
  const unsigned = `DKIM-Signature: ${tags.join("\r\n ")}`;
  const data = `${signed.join("\r\n")}\r\n${relaxedHeader(unsigned)}`;
  const bytes = Buffer.from(data, "utf8");
  const b = (key.signer ? key.signer(bytes) : sign("sha256", bytes, key.privateKey)).toString("base64");
  return `${unsigned}${(b.match(/.{1,72}/g) ?? []).join("\r\n ")}\r\n${message}`;
}
