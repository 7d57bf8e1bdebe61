/**
 * The simulator's DNS peer (api/simulator/dns-peer.ts), asked with node:dns over real UDP: the
 * names of its zone (published through /email/_sim/dns with the simulator's key) answered from it —
 * a long TXT record in several character-strings, as a DKIM key is published; every other name
 * forwarded to SIMULATOR_DNS_FORWARD (here the run's DNS server) and its answer relayed.
 */
import { promises as dns } from "node:dns";
import { describe, expect, inject, it } from "vitest";
import { publishDns } from "../support/dns-server";
import { rand } from "../support/email";

const resolver = () => {
  const r = new dns.Resolver({ timeout: 2000, tries: 1 });
  r.setServers([`127.0.0.1:${inject("simulatorDnsPort")}`]);
  return r;
};
const zone = (body: unknown, key: string | null = inject("simulatorApiKey")) =>
  fetch(new URL("/email/_sim/dns", inject("simulatorUrl")), {
    method: "POST",
    headers: { "Content-Type": "application/json", ...(key ? { Authorization: `Bearer ${key}` } : {}) },
    body: JSON.stringify(body),
  });

describe("the simulator's DNS peer", () => {
  it("answers its zone's names (a TXT record longer than 255 bytes in pieces), and only with the simulator's key may the zone change", async () => {
    const name = `m2026${rand()}._domainkey.lojademo.test`;
    const value = `v=DKIM1; k=rsa; p=${"A".repeat(300)}${"B".repeat(100)}`;
    expect((await zone({ name, type: "TXT", values: [value] }, null)).status).toBe(401);
    expect((await zone({ name, type: "TXT", values: [value] }, "not-the-key-at-all")).status).toBe(401);
    expect((await zone({ name, type: "MX", values: ["x"] })).status).toBe(400);
    expect((await zone({ name, type: "TXT", values: [value] })).status).toBe(200);
    const answer = await resolver().resolveTxt(name);
    expect(answer.map((pieces) => pieces.join(""))).toEqual([value]);
    expect(answer[0].length).toBe(2);
    // A zone name without the asked type: no records (not forwarded).
    await expect(resolver().resolveCname(name)).rejects.toMatchObject({ code: "ENODATA" });
    // Removed: the name is no longer the zone's, so it is forwarded (and the run's DNS does not know it).
    expect((await zone({ name, type: "TXT", values: [] })).status).toBe(200);
    await expect(resolver().resolveTxt(name)).rejects.toMatchObject({ code: "ENOTFOUND" });
  });

  it("forwards every other question and relays the answer", async () => {
    const name = `fwd-${rand()}.example.test`;
    await publishDns(name, "TXT", ["v=spf1 include:_spf.example.test ~all"]);
    await publishDns(`bounces.${name}`, "CNAME", ["mail.mensageria.test"]);
    expect((await resolver().resolveTxt(name)).map((p) => p.join(""))).toEqual(["v=spf1 include:_spf.example.test ~all"]);
    expect(await resolver().resolveCname(`bounces.${name}`)).toEqual(["mail.mensageria.test"]);
    await expect(resolver().resolveTxt(`nada-${rand()}.example.test`)).rejects.toMatchObject({ code: "ENOTFOUND" });
  });
});
