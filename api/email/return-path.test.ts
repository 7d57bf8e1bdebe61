/**
 * The signed VERP return path and the Message-ID of an e-mail (./return-path.ts, ADR 036): what
 * goes out comes back to the same message, and nothing else does.
 */
import { createHmac, randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";

import { SECRET_NAMES } from "../lib/env";
import { messageIdHeader, messageOfMessageIdHeader, messageOfReturnPath, returnPath } from "./return-path";

// Read by env() on first use: secrets of this test, not a checkout's development secrets file.
for (const name of SECRET_NAMES) process.env[name] = `return-path-test-${name}`.padEnd(48, "x");

const id = "0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d";

/** The address with one hex digit of its local part changed at `at` (0-based within the local part). */
function flip(address: string, at: number): string {
  const c = address[at];
  return address.slice(0, at) + (c === "0" ? "1" : "0") + address.slice(at + 1);
}

describe("returnPath", () => {
  it("is b-{32 hex}-{8 hex}@bounces.{domain}, in lower case", () => {
    const a = returnPath(id.toUpperCase(), "Example.COM");
    expect(a).toMatch(/^b-0a1b2c3d4e5f4a6b8c7d9e0f1a2b3c4d-[0-9a-f]{8}@bounces\.example\.com$/);
    expect(a.split("@")[0].length).toBeLessThanOrEqual(64);
    expect(returnPath(id, "example.com")).toBe(a);
    expect(returnPath(id, "example.com.")).toBe(a);
  });

  it("comes back to its message and domain", () => {
    for (let i = 0; i < 50; i++) {
      const messageId = randomUUID();
      expect(messageOfReturnPath(returnPath(messageId, "mail.example.com.br"))).toEqual({ messageId, domain: "mail.example.com.br" });
    }
  });

  it("is read case-insensitively, with or without angle brackets", () => {
    const a = returnPath(id, "example.com");
    for (const form of [a.toUpperCase(), `<${a}>`, ` ${a} `, a.replace("bounces.example.com", "Bounces.Example.Com")]) {
      expect(messageOfReturnPath(form), form).toEqual({ messageId: id, domain: "example.com" });
    }
  });

  it("differs per message and per domain", () => {
    const tags = new Set([returnPath(id, "example.com"), returnPath(id, "example.org"), returnPath(randomUUID(), "example.com")].map((a) => a.slice(35, 43)));
    expect(tags.size).toBe(3);
  });

  it("refuses throw-away input", () => {
    expect(() => returnPath("not-a-uuid", "example.com")).toThrow(/not a message id/);
    expect(() => returnPath(id, "localhost")).toThrow(/not a domain/);
    expect(() => returnPath(id, "exa mple.com")).toThrow(/not a domain/);
  });
});

describe("messageOfReturnPath", () => {
  const good = returnPath(id, "example.com");

  it("refuses a changed message id or tag", () => {
    // Every hex digit of the id (2..33) and of the tag (35..42) matters.
    for (let at = 2; at < 43; at++) {
      if (at === 34) continue;
      expect(messageOfReturnPath(flip(good, at)), `digit ${at}`).toBeNull();
    }
  });

  it("refuses the right tag on another domain or on a host that is not bounces.", () => {
    expect(messageOfReturnPath(good.replace("@bounces.example.com", "@bounces.example.org"))).toBeNull();
    expect(messageOfReturnPath(good.replace("@bounces.example.com", "@bounces.sub.example.com"))).toBeNull();
    expect(messageOfReturnPath(good.replace("@bounces.", "@"))).toBeNull();
    expect(messageOfReturnPath(good.replace("@bounces.", "@mail."))).toBeNull();
  });

  it("refuses a tag made with another key", () => {
    const hex = id.replaceAll("-", "");
    const forged = createHmac("sha256", "guessed").update(`${hex}@example.com`).digest("hex").slice(0, 8);
    expect(messageOfReturnPath(`b-${hex}-${forged}@bounces.example.com`)).toBeNull();
  });

  it("answers null to junk, never throws", () => {
    const junk: unknown[] = [
      "",
      "@",
      "postmaster@example.com",
      "b-@bounces.example.com",
      `b-${"0".repeat(32)}-00000000@bounces.example.com`,
      good.replace("b-", "c-"),
      good.replace(/-([0-9a-f]{8})@/, "-$1a@"),
      good.replace(/-([0-9a-f]{8})@/, "-@"),
      good.replace("@", "@@"),
      good + "x".repeat(400),
      good.replace("bounces.example.com", "bounces.localhost"),
      good.replace("bounces.example.com", "bounces.-bad-.com"),
      "b-0a1b2c3d4e5f4a6b8c7d9e0f1a2b3c4g-00000000@bounces.example.com",
      undefined,
      null,
      42,
    ];
    for (const j of junk) expect(messageOfReturnPath(j as string), String(j)).toBeNull();
  });
});

describe("Message-ID", () => {
  it("is <{uuid}@{domain}> and comes back to the uuid", () => {
    expect(messageIdHeader(id.toUpperCase(), "Example.com")).toBe(`<${id}@example.com>`);
    expect(messageOfMessageIdHeader(messageIdHeader(id, "example.com"))).toBe(id);
  });

  it("is read in any case, without brackets or with spaces, from any domain", () => {
    for (const v of [`<${id.toUpperCase()}@EXAMPLE.COM>`, `${id}@example.com`, `  <${id}@other.example.org>  `]) {
      expect(messageOfMessageIdHeader(v), v).toBe(id);
    }
  });

  it("answers null to anything we did not write", () => {
    for (const v of ["", "<>", "<abc@example.com>", `<${id}>`, `<${id}@>`, `<${id}@x@y>`, `<${id}x@example.com>`, "<CAF=abc123@mail.gmail.com>", null, undefined]) {
      expect(messageOfMessageIdHeader(v), String(v)).toBeNull();
    }
  });
});
