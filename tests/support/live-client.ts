/** A websocket client of the realtime service for tests: collects frames, sends commands and waits for replies. */
import { WebSocket } from "undici";

export const wsUrl = (base: string, params: Record<string, string>) => `${base.replace(/^http/, "ws")}/realtime/ws?${new URLSearchParams(params)}`;

export type Frame = { type: string; [k: string]: any };

export class LiveClient {
  frames: Frame[] = [];
  closed: Promise<{ code: number; reason: string }>;
  private ws: WebSocket;
  constructor(url: string) {
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
    await new Promise((r) => setTimeout(r, 50)); // the server lets go of the presence hold
    return c;
  }
}

/**
 * An agent's live connection (JWT access token), taking over one an earlier test left open: with
 * it the agent is online, so automatic distribution may give them rooms. Close it when done.
 */
export async function connectAgent(realtimeUrl: string, token: string, accountId: string) {
  const c = new LiveClient(wsUrl(realtimeUrl, { token, account: accountId }));
  await c.until((x) => x.frames.some((f) => f.type === "welcome" || f.type === "already_connected"), "welcome or already connected");
  if (!c.frames.some((f) => f.type === "welcome")) c.send({ type: "takeover" });
  await c.welcome();
  return c;
}
