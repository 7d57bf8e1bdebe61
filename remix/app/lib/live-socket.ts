/**
 * The browser's live connection (spec section 4 "Live connection", ADR 015): a websocket to
 * /realtime/ws through the web process, falling back to Server-Sent Events (/realtime/sse, with
 * commands POSTed to /realtime/command) where websockets do not get through. It remembers the
 * last stream id seen per stream and resumes from them, so a reconnect misses nothing; after an
 * error it waits a 10-second countdown (exposed for the UI) and connects again with a fresh
 * ticket. "Already connected elsewhere" is handed to the UI, which may take over.
 *
 * Client-only: create it in an effect. No UI here; screens subscribe with `on(...)`.
 */

export const RECONNECT_SECONDS = 10;
/** Spec: connection check every 2 s; a heart_beat every 20 s keeps the server's presence hold. */
const HEARTBEAT_MS = 20_000;
const SILENCE_MS = 45_000;
const COMMAND_TIMEOUT_MS = 15_000;

export type LiveEventFrame = { type: "event"; stream: string; id: string; event: string; room_id?: string; data: unknown; at?: number };
export type LiveReplyFrame =
  | { type: "reply"; id: string | number | null; ok: true; data: unknown }
  | { type: "reply"; id: string | number | null; ok: false; error: { code: string; message: string; fields?: Record<string, string[]> } };

export type LiveSocketState =
  | { status: "connecting"; transport: "websocket" | "sse" }
  | { status: "open"; transport: "websocket" | "sse"; supervisor: boolean }
  | { status: "already_connected" }
  | { status: "waiting"; secondsLeft: number; reason: string }
  | { status: "disconnected"; reason: "connected_elsewhere" | "closed" };

export class LiveCommandError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly fields?: Record<string, string[]>,
  ) {
    super(message);
  }
}

export type LiveSocketOptions = {
  /** A fresh stream ticket (default: GET /notifications/ticket with the session cookie). */
  getTicket?: () => Promise<string>;
  /** Widget visitors use their visitor token instead of a ticket. */
  visitorToken?: string;
  /** Base URL of the realtime routes (default: this origin, forwarded by the web process). */
  baseUrl?: string;
  /** Language of command error messages. */
  lang?: string;
  /** Force the SSE fallback (e.g. a proxy known to block websockets). */
  sse?: boolean;
  /** Where to start per stream ("account": a stream id) instead of "now": e.g. from when the page's data was read, so nothing published since is missed. */
  last?: Record<string, string>;
};

type Listener<T> = (value: T) => void;

async function defaultTicket(): Promise<string> {
  const res = await fetch("/notifications/ticket", { credentials: "same-origin", headers: { Accept: "application/json" } });
  if (!res.ok) throw new Error(`ticket: ${res.status}`);
  return ((await res.json()) as { ticket: string }).ticket;
}

export class LiveSocket {
  /** Last stream id seen per stream ("account", "notifications", "room"): the resume point. */
  readonly lastIds: Record<string, string> = {};
  state: LiveSocketState = { status: "connecting", transport: "websocket" };

  private ws: WebSocket | null = null;
  private es: EventSource | null = null;
  private connectionId: string | null = null;
  private stopped = false;
  private useSse: boolean;
  private wsFailures = 0;
  private seq = 0;
  private pending = new Map<string, { resolve: (v: unknown) => void; reject: (e: Error) => void; timer: ReturnType<typeof setTimeout> }>();
  private timers: Array<ReturnType<typeof setTimeout> | ReturnType<typeof setInterval>> = [];
  private lastFrameAt = 0;
  private eventListeners = new Set<Listener<LiveEventFrame>>();
  /** Events that arrived while nobody listened (between "open" and the screen subscribing): handed to the next listener. */
  private unheard: LiveEventFrame[] = [];
  private stateListeners = new Set<Listener<LiveSocketState>>();

  constructor(private readonly opts: LiveSocketOptions = {}) {
    this.useSse = Boolean(opts.sse) || typeof WebSocket === "undefined";
    Object.assign(this.lastIds, opts.last ?? {});
  }

  /** Live events, in stream order, each once. Returns an unsubscribe function. */
  on(listener: Listener<LiveEventFrame>) {
    this.eventListeners.add(listener);
    const backlog = this.unheard.splice(0);
    for (const e of backlog) listener(e);
    return () => void this.eventListeners.delete(listener);
  }

  /** Connection state, including the reconnect countdown (`waiting`, secondsLeft) and `already_connected`. */
  onState(listener: Listener<LiveSocketState>) {
    this.stateListeners.add(listener);
    listener(this.state);
    return () => void this.stateListeners.delete(listener);
  }

  connect() {
    this.stopped = false;
    void this.open(false);
    return this;
  }

  /** After `already_connected`: disconnect the other session and connect here. */
  takeOver() {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify({ type: "takeover" }));
      this.setState({ status: "connecting", transport: "websocket" });
    } else {
      this.close();
      this.stopped = false;
      void this.open(true);
    }
  }

  /** Sends a command (next, send, close, transfer_agent…); resolves with the reply's data. */
  send<T = unknown>(command: string, payload?: unknown): Promise<T> {
    const id = `c${++this.seq}`;
    const frame = { type: "command", id, command, payload };
    if (this.state.status !== "open") return Promise.reject(new LiveCommandError("DISCONNECTED", "not connected"));
    if (this.useSse) {
      // Tickets are single-use: each command POST carries a new one (visitors reuse their token).
      return this.freshAuth()
        .then((auth) =>
          fetch(this.url("/realtime/command", { ...auth, ...(this.connectionId ? { connection_id: this.connectionId } : {}) }), {
            method: "POST",
            headers: { "Content-Type": "application/json" },
            body: JSON.stringify(frame),
          }),
        )
        .then((r) => r.json() as Promise<LiveReplyFrame>)
        .then((reply) => this.settle(reply) as T);
    }
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new LiveCommandError("TIMEOUT", "no reply"));
      }, COMMAND_TIMEOUT_MS);
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject, timer });
      if (this.ws?.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(frame));
      else {
        clearTimeout(timer);
        this.pending.delete(id);
        reject(new LiveCommandError("DISCONNECTED", "not connected"));
      }
    });
  }

  /** Disconnects for good (logout, leaving the live area). */
  close() {
    this.stopped = true;
    this.clearTimers();
    this.ws?.close(1000);
    this.es?.close();
    this.ws = null;
    this.es = null;
    this.rejectPending("closed");
    this.setState({ status: "disconnected", reason: "closed" });
  }

  // ---------------------------------------------------------------------------------------------

  private setState(s: LiveSocketState) {
    this.state = s;
    for (const l of this.stateListeners) l(s);
  }

  /** Credentials for one request: the visitor's token, or a new single-use stream ticket. */
  private async freshAuth(): Promise<Record<string, string>> {
    return this.opts.visitorToken ? { visitor: this.opts.visitorToken } : { ticket: await (this.opts.getTicket ?? defaultTicket)() };
  }

  private url(path: string, params: Record<string, string>) {
    const base = this.opts.baseUrl ?? (typeof location !== "undefined" ? location.origin : "");
    return `${base}${path}?${new URLSearchParams(params)}`;
  }

  private cursorParam() {
    return Object.entries(this.lastIds)
      .map(([k, v]) => `${k}:${v}`)
      .join(",");
  }

  private async open(takeover: boolean) {
    if (this.stopped) return;
    this.clearTimers();
    const transport = this.useSse ? "sse" : "websocket";
    this.setState({ status: "connecting", transport });
    let auth: Record<string, string>;
    try {
      auth = await this.freshAuth();
    } catch {
      return this.retry("ticket");
    }
    if (this.stopped) return;
    const params: Record<string, string> = { ...auth };
    const last = this.cursorParam();
    if (last) params.last = last;
    if (this.opts.lang) params.lang = this.opts.lang;
    if (this.connectionId) params.replacing = this.connectionId;
    if (takeover) params.takeover = "1";
    if (this.useSse) this.openSse(params);
    else this.openWs(params);
  }

  private openWs(params: Record<string, string>) {
    const ws = new WebSocket(this.url("/realtime/ws", params).replace(/^http/, "ws"));
    this.ws = ws;
    let opened = false;
    ws.onopen = () => {
      opened = true;
      this.wsFailures = 0;
    };
    ws.onmessage = (ev) => this.frame(JSON.parse(String(ev.data)));
    ws.onclose = (ev) => {
      if (this.ws !== ws) return;
      this.ws = null;
      this.rejectPending("connection lost");
      if (ev.code === 4409) {
        this.stopped = true;
        this.clearTimers();
        return this.setState({ status: "disconnected", reason: "connected_elsewhere" });
      }
      // Twice without even opening: websockets do not get through here; use SSE.
      if (!opened && ++this.wsFailures >= 2) this.useSse = true;
      this.retry(ev.code === 4401 ? "unauthorized" : `closed ${ev.code}`);
    };
  }

  private openSse(params: Record<string, string>) {
    const es = new EventSource(this.url("/realtime/sse", params));
    this.es = es;
    const handle = (ev: MessageEvent<string>) => {
      try {
        this.frame(JSON.parse(ev.data));
      } catch {
        /* not a frame */
      }
    };
    // Every block is one JSON frame with its own `type` (the same frames as the websocket's).
    es.onmessage = handle;
    es.onerror = () => {
      if (this.es !== es) return;
      // The browser would retry with Last-Event-ID by itself, but tickets expire: start over.
      es.close();
      this.es = null;
      this.retry("sse error");
    };
  }

  private frame(f: { type: string; [k: string]: unknown }) {
    this.lastFrameAt = Date.now();
    switch (f.type) {
      case "welcome": {
        this.connectionId = String(f.connection_id);
        for (const [k, v] of Object.entries((f.cursors ?? {}) as Record<string, string>)) this.lastIds[k] ??= v;
        this.setState({ status: "open", transport: this.useSse ? "sse" : "websocket", supervisor: Boolean(f.supervisor) });
        this.startHeartbeat();
        return;
      }
      case "event": {
        const e = f as unknown as LiveEventFrame;
        this.lastIds[e.stream] = e.id;
        if (this.eventListeners.size === 0) {
          // The resume point already moved past it: keep it for whoever subscribes next.
          if (this.unheard.push(e) > 1000) this.unheard.shift();
        } else for (const l of this.eventListeners) l(e);
        return;
      }
      case "reply": {
        this.settle(f as unknown as LiveReplyFrame);
        return;
      }
      case "already_connected":
        this.setState({ status: "already_connected" });
        return;
      case "disconnect":
        this.stopped = true;
        this.clearTimers();
        this.es?.close();
        this.setState({ status: "disconnected", reason: "connected_elsewhere" });
        return;
    }
  }

  private settle(reply: LiveReplyFrame): unknown {
    const p = reply.id === null ? undefined : this.pending.get(String(reply.id));
    if (p) {
      clearTimeout(p.timer);
      this.pending.delete(String(reply.id));
    }
    if (reply.ok) {
      p?.resolve(reply.data);
      return reply.data;
    }
    const err = new LiveCommandError(reply.error.code, reply.error.message, reply.error.fields);
    if (p) p.reject(err);
    else throw err;
    return undefined;
  }

  private startHeartbeat() {
    this.clearTimers();
    this.lastFrameAt = Date.now();
    this.timers.push(
      setInterval(() => {
        if (this.state.status === "open" && !this.useSse) this.send("heart_beat").catch(() => undefined);
      }, HEARTBEAT_MS),
      // Connection check every 2 s: a silent connection (no ping, no frame) is a dead one.
      setInterval(() => {
        if (this.state.status === "open" && Date.now() - this.lastFrameAt > SILENCE_MS) {
          this.ws?.close(4000, "silent");
          if (this.useSse) {
            this.es?.close();
            this.es = null;
            this.retry("silent");
          }
        }
      }, 2000),
    );
  }

  /** The 10-second countdown, then connect again from the last ids. */
  private retry(reason: string) {
    if (this.stopped) return;
    this.clearTimers();
    let left = RECONNECT_SECONDS;
    this.setState({ status: "waiting", secondsLeft: left, reason });
    const tick = setInterval(() => {
      left -= 1;
      if (left > 0) return this.setState({ status: "waiting", secondsLeft: left, reason });
      clearInterval(tick);
      void this.open(false);
    }, 1000);
    this.timers.push(tick);
  }

  /** Skip the countdown ("reconnect now" button). */
  reconnectNow() {
    if (this.state.status !== "waiting") return;
    void this.open(false);
  }

  private clearTimers() {
    for (const t of this.timers) clearInterval(t as ReturnType<typeof setInterval>);
    this.timers = [];
  }

  private rejectPending(why: string) {
    for (const [, p] of this.pending) {
      clearTimeout(p.timer);
      p.reject(new LiveCommandError("DISCONNECTED", why));
    }
    this.pending.clear();
  }
}

/** Convenience: `const live = connectLiveSocket({...})` in an effect, `live.close()` in its cleanup. */
export function connectLiveSocket(opts: LiveSocketOptions = {}) {
  return new LiveSocket(opts).connect();
}
