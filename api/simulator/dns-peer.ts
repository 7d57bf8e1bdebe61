/**
 * The simulator's DNS peer (issue 17, ADR 036): a real DNS server (UDP, 127.0.0.1:
 * SIMULATOR_DNS_PORT) so that `npm start` can validate the demo account's sending domain with the
 * same DNS queries a real domain gets. Names of its zone (a Redis hash through the key scheme,
 * published with POST /email/_sim/dns and the simulator's key) are answered from it — NXDOMAIN for
 * a zone name without the asked type is not given: such a name answers no records; every other
 * question is forwarded as it is to SIMULATOR_DNS_FORWARD (host[:port]) or the system's first
 * resolver, and its answer relayed (SERVFAIL when it does not answer in 3 s). dns-packet encodes
 * and decodes the messages.
 */
import dgram from "node:dgram";
import { getServers } from "node:dns";
import packet from "dns-packet";
import { env } from "../lib/env";
import { redis } from "../lib/redis";
import { keys } from "../lib/redis-keys";

const FORWARD_TIMEOUT_MS = 3000;
const SERVFAIL = 2;

function forwardTarget(): { host: string; port: number } | null {
  const target = env().SIMULATOR_DNS_FORWARD || getServers()[0];
  if (!target) return null;
  const bracketed = /^\[(.+)\](?::(\d+))?$/.exec(target);
  if (bracketed) return { host: bracketed[1], port: Number(bracketed[2] ?? 53) };
  if (target.split(":").length > 2) return { host: target, port: 53 };
  const [host, port] = target.split(":");
  return { host, port: Number(port ?? 53) };
}

/** Relays `query` to the forward resolver; answers its reply, or null when it does not answer in time. */
function forward(query: Buffer): Promise<Buffer | null> {
  const target = forwardTarget();
  if (!target) return Promise.resolve(null);
  return new Promise((resolve) => {
    const socket = dgram.createSocket(target.host.includes(":") ? "udp6" : "udp4");
    const done = (answer: Buffer | null) => {
      clearTimeout(timer);
      socket.close();
      resolve(answer);
    };
    const timer = setTimeout(() => done(null), FORWARD_TIMEOUT_MS);
    socket.on("error", () => done(null));
    socket.on("message", (answer) => done(answer));
    socket.send(query, target.port, target.host);
  });
}

function reply(query: packet.Packet, rcode: number, answers: packet.Answer[] = []): Buffer {
  return packet.encode({ type: "response", id: query.id, flags: packet.RECURSION_DESIRED | packet.RECURSION_AVAILABLE | rcode, questions: query.questions, answers });
}

async function answer(message: Buffer): Promise<Buffer | null> {
  const query = packet.decode(message);
  const question = query.questions?.[0];
  if (!question) return null;
  const name = question.name.toLowerCase().replace(/\.$/, "");
  const zone = await redis().hgetall(keys.simulatorDnsZone());
  const here = Object.keys(zone).filter((f) => f.startsWith(`${name}|`));
  if (here.length === 0) return (await forward(message)) ?? reply(query, SERVFAIL);
  const values = JSON.parse(zone[`${name}|${question.type}`] ?? "[]") as string[];
  const answers: packet.Answer[] = values.map((value) =>
    question.type === "TXT"
      ? { type: "TXT", name: question.name, ttl: 60, data: value.match(/.{1,255}/g) ?? [""] }
      : { type: question.type as "CNAME", name: question.name, ttl: 60, data: value },
  );
  return reply(query, 0, answers);
}

export async function startDnsPeer(): Promise<{ port: number; close: () => Promise<void> }> {
  const socket = dgram.createSocket("udp4");
  socket.on("message", (message, peer) => {
    answer(message)
      .then((out) => {
        if (out) socket.send(out, peer.port, peer.address);
      })
      .catch((e) => console.error(`dns peer: ${(e as Error).message}`));
  });
  await new Promise<void>((resolve, reject) => {
    socket.once("error", reject);
    socket.bind(env().SIMULATOR_DNS_PORT, "127.0.0.1", () => resolve());
  });
  return { port: socket.address().port, close: () => new Promise<void>((resolve) => socket.close(() => resolve())) };
}

const ZONE = "/email/_sim/dns";

/** POST /email/_sim/dns {name, type: TXT | CNAME, values}: the records of `type` at `name` in the zone (no values: removed). */
export async function dnsPeerControl(req: Request, pathname: string): Promise<Response | null> {
  if (pathname !== ZONE) return null;
  const json = (body: unknown, status = 200) => Response.json(body, { status });
  if (req.headers.get("Authorization") !== `Bearer ${env().SIMULATOR_API_KEY}`) return json({ error: { code: "unauthorized" } }, 401);
  if (req.method !== "POST") return json({ error: { code: "method_not_allowed" } }, 405);
  const body = (await req.json().catch(() => null)) as { name?: unknown; type?: unknown; values?: unknown } | null;
  const name = typeof body?.name === "string" ? body.name.trim().toLowerCase().replace(/\.$/, "") : "";
  const type = body?.type === "TXT" || body?.type === "CNAME" ? body.type : null;
  const values = Array.isArray(body?.values) ? body.values.filter((v): v is string => typeof v === "string" && v.length <= 4096).slice(0, 20) : [];
  if (!name || name.length > 253 || !type) return json({ error: { code: "invalid", message: "name and type (TXT or CNAME) required" } }, 400);
  if (values.length) await redis().hset(keys.simulatorDnsZone(), `${name}|${type}`, JSON.stringify(values));
  else await redis().hdel(keys.simulatorDnsZone(), `${name}|${type}`);
  return json({ data: { name, type, values } });
}
