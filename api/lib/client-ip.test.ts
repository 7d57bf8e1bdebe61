import { describe, expect, it } from "vitest";
import { clientAddress } from "./client-ip";
import { DEFAULT_TRUSTED_PROXIES, parseTrustedProxies } from "./trusted-proxies";

const loopback = parseTrustedProxies(DEFAULT_TRUSTED_PROXIES);
const behindBalancer = parseTrustedProxies("127.0.0.0/8, ::1/128, 10.0.0.0/8, fd00::/8");

describe("clientAddress (TRUSTED_PROXIES)", () => {
  it("a socket that is no trusted proxy is the client, whatever X-Forwarded-For it sends", () => {
    expect(clientAddress("1.2.3.4", "203.0.113.9", loopback)).toBe("203.0.113.9");
    expect(clientAddress(null, "::ffff:203.0.113.9", loopback)).toBe("203.0.113.9");
    expect(clientAddress("1.2.3.4", "10.1.1.1", loopback)).toBe("10.1.1.1");
  });

  it("through trusted proxies, the right-most hop no trusted proxy stands for; what the client wrote left of it is ignored", () => {
    // web on loopback appended the address it saw
    expect(clientAddress("198.51.100.7", "127.0.0.1", loopback)).toBe("198.51.100.7");
    expect(clientAddress("6.6.6.6, 198.51.100.7", "127.0.0.1", loopback)).toBe("198.51.100.7");
    // client -> balancer (10.0.0.5) -> web (appends 10.0.0.5) -> api
    expect(clientAddress("198.51.100.7, 10.0.0.5", "::1", behindBalancer)).toBe("198.51.100.7");
    expect(clientAddress("6.6.6.6, 198.51.100.7, 10.0.0.5", "127.0.0.1", behindBalancer)).toBe("198.51.100.7");
    // without the balancer in the list, it is the client
    expect(clientAddress("198.51.100.7, 10.0.0.5", "127.0.0.1", loopback)).toBe("10.0.0.5");
    expect(clientAddress("2001:db8::1, fd00::2", "::1", behindBalancer)).toBe("2001:db8::1");
    expect(clientAddress("[2001:db8::1]", "::1", behindBalancer)).toBe("2001:db8::1");
  });

  it("every hop trusted: the left-most; no header: the socket; a hop that is no address stops the walk", () => {
    expect(clientAddress("10.0.0.9, 10.0.0.5", "127.0.0.1", behindBalancer)).toBe("10.0.0.9");
    expect(clientAddress(null, "127.0.0.1", loopback)).toBe("127.0.0.1");
    expect(clientAddress(null, null, loopback)).toBeNull();
    expect(clientAddress("198.51.100.7, unknown, 10.0.0.5", "127.0.0.1", behindBalancer)).toBe("10.0.0.5");
    expect(clientAddress("garbage", "127.0.0.1", loopback)).toBe("127.0.0.1");
  });

  it("the setting names the entry that is no address or block", () => {
    expect(() => parseTrustedProxies("10.0.0.0/8, 10.0.0.0/33")).toThrow('"10.0.0.0/33" is not an IP address or a CIDR block');
    expect(() => parseTrustedProxies("lb.internal")).toThrow('"lb.internal"');
    expect(() => parseTrustedProxies("10.0.0.1/8/1")).toThrow('"10.0.0.1/8/1"');
    expect(parseTrustedProxies("").check("127.0.0.1", "ipv4")).toBe(false);
  });
});
