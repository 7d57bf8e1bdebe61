/**
 * A provider's stand-in on loopback for the live channel tests (Telegram, Graph, Google): an HTTP
 * server that records every request (method, path, query, headers, raw body, JSON when it parses)
 * and lets the test answer it. Also the setup those tests share: the demo owner attending live chat.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type Redis from "ioredis";
import { connectAgent, type LiveClient } from "./live-client";
import { freePort } from "./net";
import { startStack, type Stack } from "./stack";
import { makeLiveSettings } from "./factories";
import { openRedis, keysOf } from "./redis";

export type PeerCall = { method: string; path: string; query: URLSearchParams; headers: IncomingMessage["headers"]; body: Buffer; json: any };
export type PeerReply = {
  /** A JSON answer. */
  send(status: number, payload: unknown): void;
  /** The raw response, for bytes. */
  res: ServerResponse;
};

export async function startRecordingPeer(handle: (call: PeerCall, reply: PeerReply) => unknown) {
  const calls: PeerCall[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", async () => {
      const url = new URL(req.url!, "http://peer");
      const body = Buffer.concat(chunks);
      let json: any = null;
      try {
        json = JSON.parse(body.toString("utf8"));
      } catch {}
      const call: PeerCall = { method: req.method!, path: url.pathname, query: url.searchParams, headers: req.headers, body, json };
      calls.push(call);
      const send = (status: number, payload: unknown) => {
        res.writeHead(status, { "Content-Type": "application/json" });
        res.end(JSON.stringify(payload));
      };
      try {
        await handle(call, { send, res });
      } catch (e) {
        if (!res.headersSent) send(500, { error: String(e) });
      }
    });
  });
  const port = await freePort();
  await new Promise<void>((r) => server.listen(port, "127.0.0.1", () => r()));
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    calls,
    /** Forgets the calls recorded so far. */
    reset: () => void calls.splice(0),
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
export type RecordingPeer = Awaited<ReturnType<typeof startRecordingPeer>>;

/** Polls until `probe` answers something truthy (or fails naming `what`). */
export async function waitUntil<T>(what: string, probe: () => Promise<T | undefined | null | false>, ms = 15_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Signs in the demo owner, gives the account live chat settings, and makes the owner online (a
 * live connection on the stack's realtime process; close `socket` when done) and available: every
 * new conversation goes to them.
 */
export async function liveOwner(stack: Stack): Promise<{ token: string; accountId: string; socket: LiveClient }> {
  const login = await stack.api("/api/auth/login", { body: { email: "owner@demo.example", password: "Demo!Mensa#2026" } });
  if (login.status !== 200) throw new Error(`login: ${JSON.stringify(login.body)}`);
  const token = login.body.token as string;
  const [{ accountId }] = await stack.query<{ accountId: string }>(
    `SELECT m.account_id AS "accountId" FROM memberships m JOIN users u ON u.id = m.user_id WHERE u.email = 'owner@demo.example' LIMIT 1`,
  );
  await makeLiveSettings(accountId, { defaultCapacity: 50 }, stack.query);
  const socket = await connectAgent(stack.realtimeUrl, token, accountId, { url: stack.redisUrl, prefix: stack.redisPrefix });
  const status = await stack.api("/api/webchat/status", { method: "PUT", body: { status: "AVAILABLE" }, token });
  if (status.status !== 200) throw new Error(`status: ${JSON.stringify(status.body)}`);
  return { token, accountId, socket };
}

/** The live events of one room, from the account's Redis stream. */
export async function roomLiveEvents(redis: Redis, stack: Stack, accountId: string, roomId: string): Promise<Array<Record<string, string>>> {
  const entries = await redis.xrange(keysOf(stack.redisPrefix).accountLiveStream(accountId), "-", "+");
  return entries.map(([, f]) => Object.fromEntries(Array.from({ length: f.length / 2 }, (_, i) => [f[2 * i], f[2 * i + 1]]))).filter((e) => e.room_id === roomId);
}

/**
 * A private stack whose providers' URLs (env) point at `peer`, the demo owner attending (liveOwner),
 * a Redis client to read live events; stop() ends all three.
 */
export async function startChannelStack(peer: RecordingPeer, env: Record<string, string>) {
  const stack = await startStack({ realtime: true, env: { OUTBOX_POLL_MS: "50", ...env } });
  const redis = openRedis(stack.redisUrl);
  const { token, accountId, socket } = await liveOwner(stack);
  return {
    stack,
    redis,
    token,
    accountId,
    async stop() {
      await socket.close().catch(() => undefined);
      await redis.quit();
      await stack.stop();
      await peer.close();
    },
  };
}
