/** A websocket client of the realtime service for tests: collects frames, sends commands and waits for replies. */
import type Redis from "ioredis";
import { WebSocket } from "undici";
import { inject } from "vitest";
import { openRedis, scanKeys } from "./redis";

export const wsUrl = (base: string, params: Record<string, string>) => `${base.replace(/^http/, "ws")}/realtime/ws?${new URLSearchParams(params)}`;

export type Frame = { type: string; [k: string]: any };

/** Where the realtime process keeps each agent's presence hold: the run's Redis, or a private stack's (stack.redisUrl, stack.redisPrefix). */
export type PresenceStore = { url: string; prefix: string };
const runStore = (): PresenceStore => ({ url: inject("redisUrl"), prefix: inject("redisPrefix") });

/** Whether some agent's presence hold (keys.livePresence, api/live/presence.ts) names `connectionId`. */
async function holdsPresence(redis: Redis, prefix: string, connectionId: string) {
  const holds = (await scanKeys(redis, `${prefix}*`)).filter((k) => k.endsWith(`}:presence:${k.split(":presence:")[1]}`) && k.includes(":presence:"));
  for (const k of holds) if ((await redis.get(k)) === connectionId) return true;
  return false;
}

export class LiveClient {
  frames: Frame[] = [];
  closed: Promise<{ code: number; reason: string }>;
  private ws: WebSocket;
  constructor(
    url: string,
    private readonly store: PresenceStore = runStore(),
  ) {
    this.ws = new WebSocket(url);
    this.ws.addEventListener("message", (ev) => this.frames.push(JSON.parse(String(ev.data))));
    this.closed = new Promise((r) => this.ws.addEventListener("close", (ev) => r({ code: ev.code, reason: ev.reason })));
  }
  events(stream?: string) {
    return this.frames.filter((f) => f.type === "event" && (!stream || f.stream === stream));
  }
  send(frame: unknown) {
    this.ws.send(JSON.stringify(frame));
  }
  async until(pred: (c: LiveClient) => boolean, what: string, ms = 8000) {
    const end = Date.now() + ms;
    while (!pred(this)) {
      if (Date.now() > end) throw new Error(`timed out waiting for ${what}; frames: ${JSON.stringify(this.frames).slice(0, 2000)}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }
  welcome() {
    return this.until((c) => c.frames.some((f) => f.type === "welcome"), "welcome").then(() => this.frames.find((f) => f.type === "welcome")!);
  }
  async command(id: string, command: string, payload?: unknown) {
    this.send({ type: "command", id, command, payload });
    await this.until((c) => c.frames.some((f) => f.type === "reply" && f.id === id), `reply ${id}`);
    return this.frames.find((f) => f.type === "reply" && f.id === id)!;
  }
  async close() {
    this.ws.close();
    const c = await this.closed;
    await this.presenceReleased();
    return c;
  }

  /**
   * After the close, the server lets go of the agent's presence hold (if this connection held it),
   * so the agent's next connection is welcomed rather than told "already connected". Waits until
   * no hold names this connection; gives up quietly after `ms` (a test's teardown, e.g. after a
   * killed process, must not fail on it).
   */
  private async presenceReleased(ms = 2000) {
    const id = this.frames.find((f) => f.type === "welcome" || f.type === "already_connected")?.connection_id as string | undefined;
    if (!id) return;
    const redis = openRedis(this.store.url, { lazyConnect: true, maxRetriesPerRequest: 1 });
    try {
      const end = Date.now() + ms;
      while (Date.now() < end && (await holdsPresence(redis, this.store.prefix, id))) await new Promise((r) => setTimeout(r, 20));
    } catch {
      // Redis unreachable (a fault test stopped it): nothing to wait for.
    } finally {
      redis.disconnect();
    }
  }
}

/**
 * An agent's live connection (JWT access token), taking over one an earlier test left open: with
 * it the agent is online, so automatic distribution may give them rooms. Close it when done.
 */
export async function connectAgent(realtimeUrl: string, token: string, accountId: string, store?: PresenceStore) {
  const c = new LiveClient(wsUrl(realtimeUrl, { token, account: accountId }), store);
  await c.until((x) => x.frames.some((f) => f.type === "welcome" || f.type === "already_connected"), "welcome or already connected");
  if (!c.frames.some((f) => f.type === "welcome")) c.send({ type: "takeover" });
  await c.welcome();
  return c;
}
