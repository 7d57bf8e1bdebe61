/**
 * The agents' live connection (spec section 4 "Live connection", ADR 015): the desk's session over
 * the shared transport (live-transport.ts: a websocket to /realtime/ws through the web process,
 * falling back to Server-Sent Events where websockets do not get through, resuming from the last
 * stream id seen, a 10-second countdown after an error, then a fresh ticket). This layer adds what
 * only agents have: the connection state the UI shows, "already connected elsewhere" with the
 * take-over, the presence heartbeat and the silence check, and events kept until a screen listens.
 *
 * Client-only: create it in an effect. No UI here; screens subscribe with `on(...)`.
 */

import { LiveCommandError, type LiveEventFrame, type LiveFrame, LiveTransport, type TransportKind } from "./live-transport";

export { LiveCommandError, type LiveEventFrame } from "./live-transport";

/** Spec: connection check every 2 s; a heart_beat every 20 s keeps the server's presence hold. */
const HEARTBEAT_MS = 20_000;
const CHECK_MS = 2000;
const SILENCE_MS = 45_000;
const COMMAND_TIMEOUT_MS = 15_000;
/** The websocket's close code when this person connected in another tab or browser (realtime/connection.ts CLOSE). */
const CONNECTED_ELSEWHERE = 4409;
const UNAUTHORIZED = 4401;

export type LiveSocketState =
  | { status: "connecting"; transport: TransportKind }
  | { status: "open"; transport: TransportKind; supervisor: boolean }
  | { status: "already_connected" }
  | { status: "waiting"; secondsLeft: number; reason: string }
  | { status: "disconnected"; reason: "connected_elsewhere" | "closed" };

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
  state: LiveSocketState = { status: "connecting", transport: "websocket" };

  private readonly transport: LiveTransport;
  private beats: Array<ReturnType<typeof setInterval>> = [];
  private eventListeners = new Set<Listener<LiveEventFrame>>();
  /** Events that arrived while nobody listened (between "open" and the screen subscribing): handed to the next listener. */
  private unheard: LiveEventFrame[] = [];
  private stateListeners = new Set<Listener<LiveSocketState>>();

  constructor(private readonly opts: LiveSocketOptions = {}) {
    this.transport = new LiveTransport({
      baseUrl: opts.baseUrl ?? (typeof location !== "undefined" ? location.origin : ""),
      auth: () => this.credentials(),
      params: () => ({ ...(opts.lang ? { lang: opts.lang } : {}), ...(this.transport.connectionId ? { replacing: this.transport.connectionId } : {}) }),
      last: opts.last,
      sse: opts.sse,
      sseFallback: true,
      commandTimeoutMs: COMMAND_TIMEOUT_MS,
      hooks: {
        connecting: (transport) => {
          this.stopHeartbeat();
          this.setState({ status: "connecting", transport });
        },
        frame: (f) => this.frame(f),
        closed: (code) => this.closed(code),
        waiting: (secondsLeft, reason) => {
          this.stopHeartbeat();
          this.setState({ status: "waiting", secondsLeft, reason });
        },
      },
    });
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
    this.transport.connect();
    return this;
  }

  /** After `already_connected`: disconnect the other session and connect here. */
  takeOver() {
    if (this.transport.sendFrame({ type: "takeover" })) {
      this.setState({ status: "connecting", transport: "websocket" });
    } else {
      this.close();
      this.transport.connect({ takeover: "1" });
    }
  }

  /** Sends a command (next, send, close, transfer_agent…); resolves with the reply's data. */
  send<T = unknown>(command: string, payload?: unknown): Promise<T> {
    if (this.state.status !== "open") return Promise.reject(new LiveCommandError("DISCONNECTED", "not connected"));
    return this.transport.command(command, payload) as Promise<T>;
  }

  /** Disconnects for good (logout, leaving the live area). */
  close() {
    this.stopHeartbeat();
    this.transport.close(1000);
    this.setState({ status: "disconnected", reason: "closed" });
  }

  /** Skip the countdown ("reconnect now" button). */
  reconnectNow() {
    this.transport.reconnectNow();
  }

  // ---------------------------------------------------------------------------------------------

  private setState(s: LiveSocketState) {
    this.state = s;
    for (const l of this.stateListeners) l(s);
  }

  /** Credentials for one request: the visitor's token, or a new single-use stream ticket. */
  private async credentials(): Promise<Record<string, string>> {
    return this.opts.visitorToken ? { visitor: this.opts.visitorToken } : { ticket: await (this.opts.getTicket ?? defaultTicket)() };
  }

  private closed(code: number): string | null {
    if (code !== CONNECTED_ELSEWHERE) return code === UNAUTHORIZED ? "unauthorized" : `closed ${code}`;
    this.connectedElsewhere();
    return null;
  }

  private connectedElsewhere() {
    this.transport.stop();
    this.stopHeartbeat();
    this.setState({ status: "disconnected", reason: "connected_elsewhere" });
  }

  private frame(f: LiveFrame) {
    switch (f.type) {
      case "welcome":
        this.setState({ status: "open", transport: this.transport.kind, supervisor: Boolean(f.supervisor) });
        this.startHeartbeat();
        return;
      case "event": {
        const e = f as unknown as LiveEventFrame;
        if (this.eventListeners.size === 0) {
          // The resume point already moved past it: keep it for whoever subscribes next.
          if (this.unheard.push(e) > 1000) this.unheard.shift();
        } else for (const l of this.eventListeners) l(e);
        return;
      }
      case "already_connected":
        this.setState({ status: "already_connected" });
        return;
      case "disconnect":
        this.connectedElsewhere();
        return;
    }
  }

  private startHeartbeat() {
    this.stopHeartbeat();
    this.beats.push(
      setInterval(() => {
        if (this.state.status === "open" && this.transport.kind === "websocket") this.send("heart_beat").catch(() => undefined);
      }, HEARTBEAT_MS),
      // Connection check every 2 s: a silent connection (no ping, no frame) is a dead one.
      setInterval(() => {
        if (this.state.status === "open" && Date.now() - this.transport.lastFrameAt > SILENCE_MS) this.transport.dropSilent();
      }, CHECK_MS),
    );
  }

  private stopHeartbeat() {
    for (const t of this.beats) clearInterval(t);
    this.beats = [];
  }
}

/** Convenience: `const live = connectLiveSocket({...})` in an effect, `live.close()` in its cleanup. */
export function connectLiveSocket(opts: LiveSocketOptions = {}) {
  return new LiveSocket(opts).connect();
}
