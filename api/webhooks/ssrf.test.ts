import { describe, expect, it } from "vitest";
import { isPrivateAddress } from "./ssrf";

describe("webhook SSRF guard", () => {
  it("refuses loopback, private, link-local, CGNAT, multicast and unspecified addresses", () => {
    for (const a of ["127.0.0.1", "10.1.2.3", "172.16.0.1", "172.31.255.255", "192.168.1.1", "169.254.169.254", "100.64.0.1", "0.0.0.0", "224.0.0.1", "::1", "::", "fd00::1", "fe80::1", "::ffff:127.0.0.1", "not-an-ip"]) {
      expect(isPrivateAddress(a), a).toBe(true);
    }
  });
  it("accepts public addresses", () => {
    for (const a of ["8.8.8.8", "172.32.0.1", "200.147.67.142", "2800:3f0:4001:810::200e", "::ffff:8.8.8.8"]) expect(isPrivateAddress(a), a).toBe(false);
  });
});
