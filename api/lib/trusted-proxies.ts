/** TRUSTED_PROXIES read and checked (api/lib/client-ip.ts uses it; api/lib/env.ts checks the setting at start). */
import { BlockList, isIP } from "node:net";

export const DEFAULT_TRUSTED_PROXIES = "127.0.0.0/8,::1/128";

/** An address without an IPv4-mapped prefix or brackets, or null when it is no IP address. */
export function normalize(raw: string | null | undefined): string | null {
  if (!raw) return null;
  let a = raw.trim();
  if (a.startsWith("[")) a = a.slice(1, a.indexOf("]"));
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(a);
  if (mapped) a = mapped[1];
  return isIP(a) ? a : null;
}

/** The trusted set from its setting; throws an Error naming the first entry that is no address or block. */
export function parseTrustedProxies(setting: string): BlockList {
  const list = new BlockList();
  for (const entry of setting
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)) {
    const [address, bits, extra] = entry.split("/");
    const family = isIP(address);
    const max = family === 4 ? 32 : 128;
    const prefix = bits === undefined ? max : Number(bits);
    if (!family || extra !== undefined || !Number.isInteger(prefix) || prefix < 0 || prefix > max || (bits !== undefined && !/^\d+$/.test(bits))) {
      throw new Error(`"${entry}" is not an IP address or a CIDR block (e.g. 10.0.0.0/8, fd00::/8)`);
    }
    list.addSubnet(address, prefix, family === 4 ? "ipv4" : "ipv6");
  }
  return list;
}
