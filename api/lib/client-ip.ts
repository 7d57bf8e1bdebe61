/**
 * The client's address behind our proxies and load balancers (TRUSTED_PROXIES).
 *
 * A request's socket address is the client's unless the socket is one of the trusted proxies (our
 * own web forwarding to api and realtime, a load balancer in front of web): then X-Forwarded-For
 * is read from its right end, each hop a trusted proxy appended skipped, and the first address no
 * trusted proxy stands for is the client. Whatever a client writes into X-Forwarded-For itself is
 * left of that and never read, so no client can pick its own address (and escape the per-IP
 * limits, or put another's address in the audit log). Every proxy in the chain must append the
 * address it saw (web does: remix/web-server.ts).
 *
 * TRUSTED_PROXIES: addresses and CIDR blocks, comma-separated (default loopback only:
 * `127.0.0.0/8,::1/128`, i.e. web on the same host as api and realtime). Behind a load balancer,
 * add its addresses (e.g. `127.0.0.0/8,::1/128,10.0.0.0/8`).
 */
import { type BlockList, isIP } from "node:net";
import { env } from "./env";
import { normalize, parseTrustedProxies } from "./trusted-proxies";

let cached: { setting: string; list: BlockList } | null = null;
function trustedProxies(): BlockList {
  const setting = env().TRUSTED_PROXIES;
  if (cached?.setting !== setting) cached = { setting, list: parseTrustedProxies(setting) };
  return cached.list;
}

const isTrusted = (list: BlockList, address: string) => list.check(address, isIP(address) === 4 ? "ipv4" : "ipv6");

/**
 * The client's address: `socketIp` when it is not a trusted proxy, else the right-most
 * X-Forwarded-For hop that is not one (all trusted: the left-most hop). Null when unknown.
 */
export function clientAddress(forwardedFor: string | null | undefined, socketIp: string | null | undefined, trusted: BlockList = trustedProxies()): string | null {
  const socket = normalize(socketIp);
  if (socket && !isTrusted(trusted, socket)) return socket;
  const hops = (forwardedFor ?? "")
    .split(",")
    .map((h) => h.trim())
    .filter(Boolean);
  let last: string | null = null;
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = normalize(hops[i]);
    if (!hop) return last ?? socket; // a hop that is no address: nothing left of it can be believed
    last = hop;
    if (!isTrusted(trusted, hop)) return hop;
  }
  return last ?? socket;
}

/** Whether a socket address is a trusted proxy (its X-Forwarded-Host and -Proto may be believed). */
export function fromTrustedProxy(socketIp: string | null | undefined): boolean {
  const socket = normalize(socketIp);
  return !socketIp || (socket !== null && isTrusted(trustedProxies(), socket));
}
