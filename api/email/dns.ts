/**
 * DNS look-ups of the e-mail channel (sending domains' records, issue 17): real queries to
 * EMAIL_DNS_SERVERS when set (tests: a DNS server of their own on loopback), else in development
 * to the simulator's DNS peer, else to the system's resolvers (node:dns getServers). Each question is bounded (EMAIL_DNS_TIMEOUT_MS per server,
 * servers tried in turn); a truncated UDP answer is asked again over TCP. The answer says what was
 * found, or that nothing is there, or that DNS did not answer — a domain is never judged on a
 * look-up that failed.
 *
 * Why not node:dns's Resolver: under Bun, resolveTxt keeps only the first character-string of a
 * TXT record, and a 2048-bit DKIM key is always published in several (ADR 036). The messages are
 * encoded and decoded by dns-packet; only the exchange is ours.
 */
import dgram from "node:dgram";
import { getServers } from "node:dns";
import { isIP, Socket } from "node:net";
import { randomInt } from "node:crypto";
import packet from "dns-packet";
import { env } from "../lib/env";

/** What a look-up found; `ttl` is the shortest time to live of the answers, in seconds (how long a resolver may keep them). */
export type Lookup = { kind: "found"; values: string[]; ttl: number } | { kind: "none" } | { kind: "unreachable"; code: string };

type Server = { host: string; port: number };
const NXDOMAIN = 3;

/**
 * Where questions go: EMAIL_DNS_SERVERS; else, in development with the simulator (`npm start`),
 * the simulator's DNS peer (it knows the demo domain and forwards the rest); else the system's.
 */
function servers(): Server[] {
  const e = env();
  const local = e.NODE_ENV === "development" && e.SIMULATOR_URL ? [`127.0.0.1:${e.SIMULATOR_DNS_PORT}`] : null;
  const list = e.EMAIL_DNS_SERVERS.length ? e.EMAIL_DNS_SERVERS : (local ?? getServers());
  return list.map((s) => {
    const bracketed = /^\[(.+)\](?::(\d+))?$/.exec(s);
    if (bracketed) return { host: bracketed[1], port: Number(bracketed[2] ?? 53) };
    if (isIP(s) === 6) return { host: s, port: 53 };
    const [host, port] = s.split(":");
    return { host, port: Number(port ?? 53) };
  });
}

function question(name: string, type: "TXT" | "CNAME") {
  return { type: "query" as const, id: randomInt(1, 65535), flags: packet.RECURSION_DESIRED, questions: [{ type, name, class: "IN" as const }] };
}

function overUdp(server: Server, query: packet.Packet, timeoutMs: number): Promise<packet.Packet> {
  return new Promise((resolve, reject) => {
    const socket = dgram.createSocket(isIP(server.host) === 6 ? "udp6" : "udp4");
    const timer = setTimeout(() => done(new Error("ETIMEOUT")), timeoutMs);
    const done = (error: Error | null, answer?: packet.Packet) => {
      clearTimeout(timer);
      socket.close();
      if (error) reject(error);
      else resolve(answer!);
    };
    socket.on("error", (e) => done(e));
    socket.on("message", (message) => {
      try {
        const answer = packet.decode(message);
        if (answer.id === query.id) done(null, answer);
      } catch (e) {
        done(e as Error);
      }
    });
    socket.send(packet.encode(query), server.port, server.host);
  });
}

function overTcp(server: Server, query: packet.Packet, timeoutMs: number): Promise<packet.Packet> {
  return new Promise((resolve, reject) => {
    const socket = new Socket();
    let buffer = Buffer.alloc(0);
    const timer = setTimeout(() => done(new Error("ETIMEOUT")), timeoutMs);
    const done = (error: Error | null, answer?: packet.Packet) => {
      clearTimeout(timer);
      socket.destroy();
      if (error) reject(error);
      else resolve(answer!);
    };
    socket.on("error", (e) => done(e));
    socket.on("data", (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      if (buffer.length > 65_537) return done(new Error("EBADRESP"));
      if (buffer.length >= 2 && buffer.length >= 2 + buffer.readUInt16BE(0)) {
        try {
          done(null, packet.streamDecode(buffer));
        } catch (e) {
          done(e as Error);
        }
      }
    });
    socket.connect(server.port, server.host, () => socket.write(packet.streamEncode(query)));
  });
}

async function ask(name: string, type: "TXT" | "CNAME"): Promise<{ rcode: number; answers: packet.Answer[] } | { error: string }> {
  let error = "ECONNREFUSED";
  for (const server of servers()) {
    const query = question(name, type);
    try {
      let answer = await overUdp(server, query, env().EMAIL_DNS_TIMEOUT_MS);
      if ((answer.flags ?? 0) & packet.TRUNCATED_RESPONSE) answer = await overTcp(server, query, env().EMAIL_DNS_TIMEOUT_MS);
      const rcode = (answer.flags ?? 0) & 0xf;
      // SERVFAIL, REFUSED…: this server cannot say; the next one may.
      if (rcode !== 0 && rcode !== NXDOMAIN) {
        error = `RCODE${rcode}`;
        continue;
      }
      return { rcode, answers: answer.answers ?? [] };
    } catch (e) {
      error = (e as Error).message || "EUNKNOWN";
    }
  }
  return { error };
}

async function lookup(name: string, type: "TXT" | "CNAME", read: (a: packet.Answer) => string | null): Promise<Lookup> {
  const answer = await ask(name, type);
  if ("error" in answer) return { kind: "unreachable", code: answer.error };
  // The answers of the asked type (a TXT question may come with the CNAME chain that led to it).
  const answers = answer.answers.filter((a) => a.type === type);
  const values = answers.flatMap((a) => read(a) ?? []);
  return values.length ? { kind: "found", values, ttl: Math.min(...answers.map((a) => ("ttl" in a && typeof a.ttl === "number" ? a.ttl : 0))) } : { kind: "none" };
}

/** The TXT records of `name`, each one's character-strings joined (a long record comes in pieces of at most 255 bytes). */
export function txt(name: string): Promise<Lookup> {
  return lookup(name, "TXT", (a) => {
    const data = (a as packet.TxtAnswer).data;
    const pieces = Array.isArray(data) ? data : [data];
    return pieces.map((p) => (Buffer.isBuffer(p) ? p.toString("utf8") : String(p))).join("");
  });
}

/** The CNAME target of `name`, lower case, without the final dot. */
export function cname(name: string): Promise<Lookup> {
  return lookup(name, "CNAME", (a) =>
    String((a as packet.StringAnswer).data)
      .toLowerCase()
      .replace(/\.$/, ""),
  );
}
