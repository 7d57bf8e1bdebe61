/**
 * A DNS server on loopback for the tests (issue 17: sending domains are checked with real DNS
 * queries). UDP, answers from a zone kept in Redis so that every test worker can publish records
 * for the one server the run's api and worker ask (EMAIL_DNS_SERVERS):
 *   hash `<prefix>dns:zone`, field `<name>|<TYPE>` (TXT, CNAME) -> JSON array of values;
 *   field `<name>|SERVFAIL` present -> the server answers SERVFAIL for that name (DNS "down").
 * A name with no records at all answers NXDOMAIN; one with records of another type, no answers.
 * dns-packet encodes and decodes the messages (the wire format is not ours to write).
 */
import dgram from "node:dgram";
import packet from "dns-packet";
import { inject } from "vitest";
import type { Redis } from "ioredis";
import { openRedis } from "./redis";

const zoneKey = (prefix: string) => `${prefix}dns:zone`;

export async function startDnsServer(port: number, redis: Redis, prefix: string): Promise<{ close: () => Promise<void> }> {
  const socket = dgram.createSocket("udp4");
  socket.on("message", (message, peer) => {
    void (async () => {
      const query = packet.decode(message);
      const question = query.questions?.[0];
      if (!question) return;
      const name = question.name.toLowerCase().replace(/\.$/, "");
      const fields = await redis.hgetall(zoneKey(prefix));
      const here = Object.keys(fields).filter((f) => f.startsWith(`${name}|`));
      let rcode = 0;
      const answers: packet.Answer[] = [];
      if (here.includes(`${name}|SERVFAIL`)) rcode = 2;
      else if (here.length === 0) rcode = 3;
      else {
        const values = JSON.parse(fields[`${name}|${question.type}`] ?? "[]") as string[];
        for (const value of values) {
          if (question.type === "TXT") answers.push({ type: "TXT", name: question.name, ttl: 60, data: value.match(/.{1,255}/g) ?? [""] });
          if (question.type === "CNAME") answers.push({ type: "CNAME", name: question.name, ttl: 60, data: value });
        }
      }
      const reply = packet.encode({
        type: "response",
        id: query.id,
        flags: packet.RECURSION_DESIRED | packet.RECURSION_AVAILABLE | rcode,
        questions: query.questions,
        answers,
      });
      socket.send(reply, peer.port, peer.address);
    })().catch((e) => console.error(`dns server: ${(e as Error).message}`));
  });
  await new Promise<void>((resolve, reject) => {
    socket.once("error", reject);
    socket.bind(port, "127.0.0.1", () => resolve());
  });
  return { close: () => new Promise<void>((resolve) => socket.close(() => resolve())) };
}

let client: Redis | undefined;
function zone() {
  client ??= openRedis(inject("redisUrl"));
  return client;
}

/** Publishes the records of `type` at `name` on the run's DNS server (replacing what was there); no values removes them. */
export async function publishDns(name: string, type: "TXT" | "CNAME" | "SERVFAIL", values: string[] = []) {
  const field = `${name.toLowerCase()}|${type}`;
  if (values.length === 0 && type !== "SERVFAIL") await zone().hdel(zoneKey(inject("redisPrefix")), field);
  else await zone().hset(zoneKey(inject("redisPrefix")), field, JSON.stringify(values));
}

/** Removes the records of `type` at `name` (SERVFAIL: DNS answers again). */
export async function unpublishDns(name: string, type: "TXT" | "CNAME" | "SERVFAIL") {
  await zone().hdel(zoneKey(inject("redisPrefix")), `${name.toLowerCase()}|${type}`);
}
