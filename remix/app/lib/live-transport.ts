/**
 * The connection to the realtime service (ADR 015) that both browser clients share: the agents'
 * live socket (live-socket.ts, in the web app) and the webchat widget (public-src/widget, its own
 * bundle built by api/cli/widget-build.mjs, so this file imports nothing).
 *
 * What it does for them: a websocket to /realtime/ws (or Server-Sent Events from /realtime/sse,
 * commands POSTed to /realtime/command), opened with fresh credentials each time and resuming
 * after the last stream id seen per stream (`last=room:1-0,account:2-0`), so a reconnect misses
 * nothing; after a drop, a countdown of RECONNECT_SECONDS (spec section 9: 10 s, fixed: no
 * growing back-off) reported every second, then the next attempt; commands with an id, answered
 * by a reply frame or rejected after a timeout; close for good.
 *
 * What it leaves to each client: what a close code means (retry, stop, fetch a new token), the
 * screen's state, presence heartbeats, and what to do while offline. Commands are not queued while
 * disconnected: they fail at once, so the agent sees the error and the widget falls back to its
 * HTTP routes (a queue would send a message twice when both paths run).
 */

export const RECONNECT_SECONDS = 10;

export type TransportKind = "websocket" | "sse";
export type LiveFrame = { type: string; [key: string]: unknown };
export type LiveEventFrame = { type: "event"; stream: string; id: string; event: string; room_id?: string; data: unknown; at?: number };
export type LiveReplyFrame =
  | { type: "reply"; id: string | number | null; ok: true; data: unknown }
  | { type: "reply"; id: string | number | null; ok: false; error: { code: string; message: string; fields?: Record<string, string[]> } };

/** A command that failed: the server's error code (or DISCONNECTED / TIMEOUT from here). */
export class LiveCommandError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly fields?: Record<string, string[]>,
  ) {
    super(message);
  }
}

/** The resume point: the last stream id seen per stream ("account", "notifications", "room"). */
export class StreamCursor {
  private ids: Record<string, string> = {};

  constructor(start: Record<string, string> = {}) {
    Object.assign(this.ids, start);
  }

  get(stream: string): string | undefined {
    return this.ids[stream];
  }

  /** An event was delivered: the next connection starts after it. */
  seen(stream: string, id: string) {
    this.ids[stream] = id;
  }

  /** Where to start when nothing was seen yet (the server's welcome, a page's read mark); a seen id wins. */
  startAt(stream: string, id: string) {
    this.ids[stream] ??= id;
  }

  /** Forgets every stream (the widget's visitor moved to another room). */
  clear() {
    this.ids = {};
  }

  /** The `last` query parameter: `account:1-0,room:2-0`, or "" when nothing is known. */
  toParam(): string {
    return Object.entries(this.ids)
      .map(([stream, id]) => `${stream}:${id}`)
      .join(",");
  }
}

/**
 * The reconnect countdown: `tick(secondsLeft)` at once with the full count and then every second
 * (10, 9, …, 1); `done()` one second after the last tick.
 */
export class Countdown {
  private timer: ReturnType<typeof setInterval> | undefined;
  secondsLeft = 0;

  constructor(private readonly seconds = RECONNECT_SECONDS) {}

  get running() {
    return this.timer !== undefined;
  }

  start(tick: (secondsLeft: number) => void, done: () => void) {
    this.stop();
    this.secondsLeft = this.seconds;
    tick(this.secondsLeft);
    this.timer = setInterval(() => {
      this.secondsLeft -= 1;
      if (this.secondsLeft > 0) return tick(this.secondsLeft);
      this.stop();
      done();
    }, 1000);
  }

  stop() {
    clearInterval(this.timer);
    this.timer = undefined;
    this.secondsLeft = 0;
  }
}

type Waiting = { resolve: (data: unknown) => void; reject: (error: Error) => void; timer: ReturnType<typeof setTimeout> };

/** Commands waiting for their reply frame, by command id. */
export class PendingReplies {
  private seq = 0;
  private waiting = new Map<string, Waiting>();

  nextId() {
    return `c${++this.seq}`;
  }

  /** The reply's data, or a LiveCommandError (TIMEOUT when no reply came within `timeoutMs`). */
  wait(id: string, timeoutMs: number): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting.delete(id);
        reject(new LiveCommandError("TIMEOUT", "no reply"));
      }, timeoutMs);
      this.waiting.set(id, { resolve, reject, timer });
    });
  }

  /** Hands a reply to its command. One nobody waits for (an SSE command's POST answer) returns its data or throws its error. */
  settle(reply: LiveReplyFrame): unknown {
    const key = reply.id === null ? "" : String(reply.id);
    const waiter = this.waiting.get(key);
    if (waiter) {
      clearTimeout(waiter.timer);
      this.waiting.delete(key);
    }
    if (reply.ok) {
      waiter?.resolve(reply.data);
      return reply.data;
    }
    const error = new LiveCommandError(reply.error.code, reply.error.message, reply.error.fields);
    if (!waiter) throw error;
    waiter.reject(error);
    return undefined;
  }

  /** The connection is gone: no reply will come. */
  rejectAll(why: string) {
    for (const waiter of this.waiting.values()) {
      clearTimeout(waiter.timer);
      waiter.reject(new LiveCommandError("DISCONNECTED", why));
    }
    this.waiting.clear();
  }
}

export type LiveTransportHooks = {
  /** An attempt starts (also after the countdown). */
  connecting?: (kind: TransportKind) => void;
  /** The websocket opened (the welcome frame follows). */
  opened?: () => void;
  /** Every frame but replies, after the resume point moved past it. */
  frame?: (frame: LiveFrame) => void;
  /** The websocket closed without `close()`: a reason to retry after the countdown, or null to stay down. Default: retry. */
  closed?: (code: number) => string | null;
  /** The countdown before the next attempt: 10, 9, …, 1. */
  waiting?: (secondsLeft: number, reason: string) => void;
};

export type LiveTransportOptions = {
  /** Origin of the realtime routes (the web process forwards them). */
  baseUrl: string;
  /** Credentials for one connection or SSE command: a single-use ticket, or a visitor token. */
  auth: () => Promise<Record<string, string>> | Record<string, string>;
  /** More query parameters for each connection (lang, replacing). */
  params?: () => Record<string, string>;
  /** Where to start per stream instead of "now". */
  last?: Record<string, string>;
  /** Start on Server-Sent Events (also when the browser has no WebSocket). */
  sse?: boolean;
  /** After two websockets that never opened, switch to Server-Sent Events (a proxy that blocks websockets). */
  sseFallback?: boolean;
  commandTimeoutMs: number;
  hooks: LiveTransportHooks;
};

export class LiveTransport {
  readonly cursor: StreamCursor;
  kind: TransportKind;
  /** The server's id for this connection (SSE commands name it; a reconnect replaces it). */
  connectionId: string | null = null;
  /** When the last frame arrived (a silent connection is a dead one). */
  lastFrameAt = 0;

  private ws: WebSocket | null = null;
  private es: EventSource | null = null;
  private stopped = true;
  /** Counts connection attempts: an attempt overtaken by a newer one while it fetched credentials gives up. */
  private attempt = 0;
  private connecting = false;
  private wsFailures = 0;
  private readonly replies = new PendingReplies();
  private readonly countdown = new Countdown();

  constructor(private readonly opts: LiveTransportOptions) {
    this.cursor = new StreamCursor(opts.last);
    this.kind = opts.sse || typeof WebSocket === "undefined" ? "sse" : "websocket";
  }

  /** Connects now (again, from the resume point); `extra` query parameters count for this attempt only. */
  connect(extra: Record<string, string> = {}) {
    this.stopped = false;
    void this.open(extra);
  }

  /** The websocket is open for commands. */
  get socketOpen() {
    return this.ws !== null && this.ws.readyState === WebSocket.OPEN;
  }

  /** Neither connected, nor connecting, nor counting down. */
  get idle() {
    return !this.ws && !this.es && !this.countdown.running && !this.connecting;
  }

  /** Skips the countdown ("reconnect now"). */
  reconnectNow() {
    if (this.countdown.running) void this.open();
  }

  /** Sends a frame as is over an open websocket; false when there is none. */
  sendFrame(frame: LiveFrame): boolean {
    if (!this.socketOpen || !this.ws) return false;
    this.ws.send(JSON.stringify(frame));
    return true;
  }

  /** A command; resolves with the reply's data, rejects with a LiveCommandError. */
  command(command: string, payload?: unknown): Promise<unknown> {
    const id = this.replies.nextId();
    const frame = { type: "command", id, command, payload };
    if (this.kind === "sse") return this.postCommand(frame);
    if (!this.socketOpen) return Promise.reject(new LiveCommandError("DISCONNECTED", "not connected"));
    const reply = this.replies.wait(id, this.opts.commandTimeoutMs);
    this.sendFrame(frame);
    return reply;
  }

  /** Stays down without closing the websocket (the server is closing it: taken over elsewhere). */
  stop() {
    this.stopped = true;
    this.countdown.stop();
    this.es?.close();
    this.es = null;
  }

  /** Disconnects for good (until `connect`). */
  close(code?: number) {
    this.stop();
    const ws = this.ws;
    this.ws = null;
    ws?.close(code);
    this.replies.rejectAll("closed");
  }

  /** Nothing arrived for too long: drop the connection and count down to the next one. */
  dropSilent() {
    if (this.kind === "websocket") return this.ws?.close(4000, "silent");
    this.es?.close();
    this.es = null;
    this.retry("silent");
  }

  // ---------------------------------------------------------------------------------------------

  private async open(extra: Record<string, string> = {}) {
    if (this.stopped) return;
    const attempt = ++this.attempt;
    this.countdown.stop();
    this.detach();
    this.connecting = true;
    this.opts.hooks.connecting?.(this.kind);
    let auth: Record<string, string> | null = null;
    try {
      auth = await this.opts.auth();
    } catch {
      // No ticket (the session ended, the web process is down): count down and try again.
    }
    if (attempt !== this.attempt) return;
    this.connecting = false;
    if (this.stopped) return;
    if (!auth) return this.retry("ticket");
    const params: Record<string, string> = { ...auth };
    const last = this.cursor.toParam();
    if (last) params.last = last;
    Object.assign(params, this.opts.params?.(), extra);
    if (this.kind === "sse") this.openSse(params);
    else this.openWs(params);
  }

  /** A connection being replaced: its late events no longer count. */
  private detach() {
    const ws = this.ws;
    this.ws = null;
    ws?.close();
    this.es?.close();
    this.es = null;
  }

  private url(path: string, params: Record<string, string>) {
    return `${this.opts.baseUrl}${path}?${new URLSearchParams(params)}`;
  }

  private openWs(params: Record<string, string>) {
    const ws = new WebSocket(this.url("/realtime/ws", params).replace(/^http/, "ws"));
    this.ws = ws;
    let opened = false;
    ws.onopen = () => {
      opened = true;
      this.wsFailures = 0;
      this.opts.hooks.opened?.();
    };
    ws.onmessage = (ev) => this.frame(JSON.parse(String(ev.data)));
    ws.onclose = (ev) => {
      if (this.ws !== ws) return;
      this.ws = null;
      this.replies.rejectAll("connection lost");
      const reason = this.opts.hooks.closed ? this.opts.hooks.closed(ev.code) : `closed ${ev.code}`;
      if (reason === null) return;
      // Twice without even opening: websockets do not get through here; use SSE.
      if (this.opts.sseFallback && !opened && ++this.wsFailures >= 2) this.kind = "sse";
      this.retry(reason);
    };
  }

  private openSse(params: Record<string, string>) {
    const es = new EventSource(this.url("/realtime/sse", params));
    this.es = es;
    // Every block is one JSON frame with its own `type` (the same frames as the websocket's).
    es.onmessage = (ev: MessageEvent<string>) => {
      try {
        this.frame(JSON.parse(ev.data));
      } catch {
        /* not a frame */
      }
    };
    es.onerror = () => {
      if (this.es !== es) return;
      // The browser would retry with Last-Event-ID by itself, but tickets expire: start over.
      es.close();
      this.es = null;
      this.retry("sse error");
    };
  }

  /** Over SSE each command is a POST with new credentials (tickets are single-use; visitors reuse their token). */
  private async postCommand(frame: { id: string }): Promise<unknown> {
    const auth = await this.opts.auth();
    const params = this.connectionId ? { ...auth, connection_id: this.connectionId } : auth;
    const res = await fetch(this.url("/realtime/command", params), { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(frame) });
    return this.replies.settle((await res.json()) as LiveReplyFrame);
  }

  private frame(f: LiveFrame) {
    this.lastFrameAt = Date.now();
    if (f.type === "reply") {
      try {
        this.replies.settle(f as unknown as LiveReplyFrame);
      } catch {
        /* the reply of a command nobody waits for any more (timed out) */
      }
      return;
    }
    if (f.type === "welcome") {
      this.connectionId = String(f.connection_id);
      for (const [stream, id] of Object.entries((f.cursors ?? {}) as Record<string, string>)) this.cursor.startAt(stream, id);
    } else if (f.type === "event") {
      const e = f as unknown as LiveEventFrame;
      this.cursor.seen(e.stream, e.id);
    }
    this.opts.hooks.frame?.(f);
  }

  /** The countdown, then connect again from the resume point. */
  private retry(reason: string) {
    if (this.stopped) return;
    this.countdown.start(
      (secondsLeft) => this.opts.hooks.waiting?.(secondsLeft, reason),
      () => void this.open(),
    );
  }
}
