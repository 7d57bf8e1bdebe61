/**
 * The guarded client (ADR 021) in its production setting (OUTBOUND_ALLOW_PRIVATE=false): the
 * address classifier across notations, the URL checks, and requests against a loopback server
 * that records whether it was ever contacted.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addressRisk, checkUrl, isPublicAddress, outboundFetch, OutboundError } from "./outbound";

const refuse = (url: string) => {
  try {
    checkUrl(url);
    return "accepted";
  } catch (e) {
    return (e as OutboundError).reason;
  }
};

beforeAll(() => {
  // Read by env() on first use: the guard as in production.
  process.env.OUTBOUND_ALLOW_PRIVATE = "false";
});

describe("addressRisk", () => {
  it("refuses loopback, private, link-local, CGNAT, multicast, reserved and unspecified IPv4 in every notation", () => {
    for (const a of [
      "127.0.0.1",
      "127.1",
      "2130706433",
      "0x7f.1",
      "0x7f000001",
      "0177.0.0.1",
      "017700000001",
      "10.1.2.3",
      "012.1",
      "172.16.0.1",
      "172.31.255.255",
      "192.168.1.1",
      "169.254.169.254",
      "0xa9fea9fe",
      "2852039166",
      "100.64.0.1",
      "100.127.255.255",
      "0.0.0.0",
      "0",
      "0.1.2.3",
      "192.0.0.8",
      "192.0.2.1",
      "198.18.0.1",
      "198.19.255.255",
      "198.51.100.7",
      "203.0.113.9",
      "224.0.0.1",
      "239.255.255.250",
      "240.0.0.1",
      "255.255.255.255",
    ]) {
      expect(addressRisk(a), a).not.toBeNull();
    }
  });
  it("refuses IPv6 loopback, unspecified, unique-local, link-local, multicast, documentation and IPv4 embedded in IPv6", () => {
    for (const a of [
      "::1",
      "::",
      "[::1]",
      "fd00::1",
      "fc12:3456::1",
      "fe80::1",
      "fe80::1%eth0",
      "febf::1",
      "ff02::1",
      "2001:db8::1",
      "3fff::1",
      "100::1",
      // IPv4-mapped, dotted and hex (what the URL parser turns [::ffff:127.0.0.1] into)
      "::ffff:127.0.0.1",
      "::ffff:7f00:1",
      "[::ffff:7f00:1]",
      "::ffff:a9fe:a9fe",
      "::ffff:169.254.169.254",
      "::ffff:a00:1",
      "::ffff:10.0.0.1",
      "0:0:0:0:0:ffff:c0a8:101",
      "::ffff:0:7f00:1", // IPv4-translated
      "::127.0.0.1",
      "::7f00:1",
      "::8.8.8.8", // IPv4-compatible (deprecated)
      "64:ff9b::127.0.0.1",
      "64:ff9b::a9fe:a9fe",
      "64:ff9b:1::1", // NAT64
      "2002:7f00:1::1",
      "2002:a9fe:a9fe::",
      "2002:c0a8:101::1", // 6to4 around a private IPv4
      "2001::1",
      "2001:0:4136:e378:8000:63bf:3fff:fdd2", // Teredo
      "2001:10::1",
      "2001:2::1",
    ]) {
      expect(addressRisk(a), a).not.toBeNull();
    }
  });
  it("refuses what is not an address", () => {
    for (const a of ["not-an-ip", "", "1.2.3.4.5", "256.1.1.1", "08.1.1.1", "::fffff:1"]) expect(addressRisk(a), a).not.toBeNull();
  });
  it("accepts public unicast addresses, also inside IPv6", () => {
    for (const a of [
      "8.8.8.8",
      "1.1.1.1",
      "172.32.0.1",
      "100.128.0.1",
      "200.147.67.142",
      "2800:3f0:4001:810::200e",
      "2606:4700:4700::1111",
      "::ffff:8.8.8.8",
      "::ffff:808:808",
      "64:ff9b::808:808",
      "2002:808:808::1",
    ]) {
      expect(isPublicAddress(a), a).toBe(true);
    }
  });
});

describe("checkUrl (guard on)", () => {
  it("refuses private hosts however the URL writes them (the URL parser normalises integers and mapped IPv6 first)", () => {
    for (const u of [
      "https://127.0.0.1/",
      "https://2130706433/",
      "https://0x7f.1/",
      "https://0177.0.0.1/",
      "https://127.1/",
      "https://[::1]/",
      "https://[::ffff:127.0.0.1]/",
      "https://[::ffff:a9fe:a9fe]/",
      "https://[::ffff:10.0.0.1]/",
      "https://[::ffff:7f00:1]/",
      "https://169.254.169.254/latest/meta-data",
      "https://[fe80::1]/",
      "https://[64:ff9b::a9fe:a9fe]/",
      "https://[2002:7f00:1::]/",
      "https://0xa9fea9fe/",
    ]) {
      expect(refuse(u), u).toBe("refused");
    }
    expect(new URL("http://[::ffff:127.0.0.1]/").hostname).toBe("[::ffff:7f00:1]");
  });
  it("refuses plain http, other schemes and credentials for a URL that is not the platform's", () => {
    for (const u of [
      "http://example.com/",
      "http://[::ffff:127.0.0.1]/",
      "http://[::ffff:a9fe:a9fe]/",
      "http://[::ffff:10.0.0.1]/",
      "ftp://example.com/",
      "file:///etc/passwd",
      "https://u:p@example.com/",
      "no url",
    ]) {
      expect(refuse(u), u).toBe("bad_url");
    }
  });
  it("accepts a public https URL", () => {
    expect(refuse("https://example.com/hook")).toBe("accepted");
    expect(refuse("https://8.8.8.8/hook")).toBe("accepted");
  });
});

describe("outboundFetch (guard on) against a loopback server", () => {
  let server: Server;
  let base: string;
  const hits: string[] = [];
  beforeAll(async () => {
    server = createServer((req, res) => {
      hits.push(req.url!);
      if (req.url === "/redirect") {
        res.writeHead(302, { Location: `${base}/secret` });
        return res.end();
      }
      if (req.url === "/big") return res.end("x".repeat(10_000));
      if (req.url === "/slow") return setTimeout(() => res.end("late"), 2000);
      res.writeHead(200, { "Content-Type": "text/plain" });
      res.end(`secret ${req.method} ${req.headers.host}`);
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  const reason = (p: Promise<unknown>) =>
    p.then(
      () => "answered",
      (e: OutboundError) => e.reason,
    );

  it("never contacts a private address a tenant's URL names, by IP or by a name that resolves to it", async () => {
    hits.length = 0;
    const port = new URL(base).port;
    for (const u of [
      `${base}/secret`,
      `https://127.0.0.1:${port}/secret`,
      `https://localhost:${port}/secret`,
      `https://[::ffff:127.0.0.1]:${port}/secret`,
      `https://2130706433:${port}/secret`,
    ]) {
      await expect(reason(outboundFetch(u, { timeoutMs: 2000, maxBytes: 1000 })), u).resolves.toMatch(/^(refused|bad_url)$/);
    }
    expect(hits).toEqual([]);
  });
  it("a refused address and a failed connection read the same; neither carries a body", async () => {
    const refused = await outboundFetch(`https://localhost:${new URL(base).port}/`, { timeoutMs: 2000, maxBytes: 1000 }).catch((e) => e);
    const failed = await outboundFetch(base.replace(/:\d+$/, ":1"), { timeoutMs: 2000, maxBytes: 1000, trust: "platform" }).catch((e) => e);
    expect(refused.message).toBe("could not connect");
    expect(failed.message).toBe("could not connect");
  });
  it("platform trust reaches the private address, pinned, with the Host header of the URL", async () => {
    const res = await outboundFetch(`${base}/ok`, { method: "POST", body: "x", timeoutMs: 2000, maxBytes: 1000, trust: "platform" });
    expect(res.status).toBe(200);
    expect(res.text()).toBe(`secret POST ${new URL(base).host}`);
  });
  it("a redirect from a trusted origin to a private address is not followed, not even when redirects are allowed", async () => {
    hits.length = 0;
    const none = await outboundFetch(`${base}/redirect`, { timeoutMs: 2000, maxBytes: 1000, trust: "platform" }).catch((e) => e);
    expect(none).toBeInstanceOf(OutboundError);
    expect(none.reason).toBe("redirect");
    expect(none.status).toBe(302);
    await expect(reason(outboundFetch(`${base}/redirect`, { timeoutMs: 2000, maxBytes: 1000, trust: "platform", redirects: 3 }))).resolves.toBe("bad_url");
    expect(hits).toEqual(["/redirect", "/redirect"]);
  });
  it("caps the answer's size and the time", async () => {
    await expect(reason(outboundFetch(`${base}/big`, { timeoutMs: 2000, maxBytes: 1000, trust: "platform" }))).resolves.toBe("too_large");
    await expect(reason(outboundFetch(`${base}/slow`, { timeoutMs: 300, maxBytes: 1000, trust: "platform" }))).resolves.toBe("timeout");
  });
});
