/**
 * The realtime process (ARCHITECTURE.md "Real time", ADR 015): fans the live and notification
 * Redis Streams out to browsers over websocket, with Server-Sent Events as the fallback for the
 * same streams. Any number of these processes run behind one Redis: each reads the streams its
 * own clients follow (realtime/hub.ts), so every client gets every event once wherever it is
 * connected. A client that reconnects sends the last id it saw per stream and misses nothing.
 * No business rule lives here: commands go to api/live/commands.ts, who-sees-what to api/live/presence.ts.
 *
 *   GET /realtime/ws             websocket (frames: realtime/connection.ts)
 *   GET /realtime/sse            the same streams and frames as SSE (unnamed blocks, composite id)
 *   POST /realtime/command       one command frame, answered with its reply (for SSE clients)
 *   GET /realtime/notifications  SSE of the notification stream only (the notification bell)
 *   GET /realtime/sms-monitor    SSE ticks while the SMS dispatch stream moves (/admin/sms/monitor; platform staff, ./sms-monitor.ts)
 *   GET /realtime/stats          streams, subscribers, connections of this process (platform staff only)
 *
 * Authentication (query, since browsers cannot set headers on either transport):
 *   ticket=<stream ticket>  web sessions (api/realtime/tickets.ts, from the Remix app)
 *   token=<JWT access token> or Authorization: Bearer  integrators (checked as the API checks it;
 *                                                      optional account=<id> like X-Account-Id)
 *   visitor=<visitor token> widget visitors (api/live/visitor-tokens.ts), their room only
 * Refused: websocket closes with 4401, SSE answers 401. Tickets are single-use; an open connection
 * closes (4401 / end of stream) when its person is signed out, removed, changes role or their
 * account is suspended (realtime/revocation.ts).
 */
import { clientAddress } from "../api/lib/client-ip";
import type { ServerWebSocket } from "bun";
import { loadActor } from "../api/auth/actor";
import { accessTokenIdentity, bearer } from "../api/http/auth";
import "../api/live/command-handlers";
import { liveAccess, realtimeControlChannel, type ControlMessage } from "../api/live/presence";
import { redeemVisitorToken } from "../api/live/visitor-tokens";
import { env } from "../api/lib/env";
import { connect } from "../api/lib/redis";
import { notificationStream } from "../api/notifications/services";
import { can } from "../api/policy/policy";
import { redeemStreamTicket } from "../api/realtime/tickets";
import { CLOSE, Connection, formatCursors, runCommand, localConnection, localConnections, parseCursors, type Identity, type Transport } from "./connection";
import { Feed, StreamHub, isStreamId, type Entry } from "./hub";
import { holdRevocable, listenForRevocations } from "./revocation";
import { mayMonitor, smsMonitorSse } from "./sms-monitor";
import { initModels } from "../models";

// Sequelize's model classes are mapped once per process, here at its entry point, never in a use-case (ADR 025).
initModels();

const e = env();
const encoder = new TextEncoder();
const PING_MS = 15_000;
const hub = new StreamHub();

/** Who the request is for; null when nothing it shows is valid. */
async function identify(request: Request, url: URL): Promise<Identity | null> {
  const q = url.searchParams;
  try {
    const ticket = q.get("ticket");
    if (ticket) {
      const who = await redeemStreamTicket(ticket);
      if (!who) return null;
      const actor = await loadActor(who.userId, who.accountId, { strict: true });
      return { kind: "agent", actor, ...liveAccess(actor), sessionId: who.sessionId, tokenIssuedAt: null };
    }
    const token = q.get("token") ?? bearer(request);
    if (token) {
      const { actor, issuedAt, family } = await accessTokenIdentity(token, q.get("account")?.trim() || null);
      return { kind: "agent", actor, ...liveAccess(actor), sessionId: family, tokenIssuedAt: issuedAt };
    }
    const visitor = q.get("visitor");
    if (visitor) {
      const v = await redeemVisitorToken(visitor);
      return v ? { kind: "visitor", visitor: v } : null;
    }
  } catch {
    return null;
  }
  return null;
}

type WsData = { identity: Identity | null; url: URL; locale: string | null; ip: string | null; userAgent: string | null; conn?: Connection };

function wsTransport(ws: ServerWebSocket<WsData>): Transport {
  const send = (s: string) => {
    // 0 = dropped (the client is too far behind): it reconnects with its last ids and loses nothing.
    if (ws.send(s) === 0) ws.close(CLOSE.TRY_AGAIN, "too slow");
  };
  return {
    event: (_feed, _e, frame) => send(frame),
    control: (frame) => send(JSON.stringify(frame)),
    close: (code, reason) => ws.close(code, reason),
  };
}

/** SSE of a connection's streams; `id:` carries every stream's cursor so Last-Event-ID resumes all. */
function sseResponse(
  request: Request,
  identity: Identity,
  last: Record<string, string>,
  meta: { locale: string | null; ip: string | null; userAgent: string | null; takeover: boolean },
) {
  let conn: Connection | undefined;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      let open = true;
      const write = (s: string) => {
        if (!open) return;
        try {
          controller.enqueue(encoder.encode(s));
        } catch {
          open = false;
        }
      };
      const transport: Transport = {
        // Unnamed blocks (EventSource's onmessage gets them all); each is a frame with its `type`.
        event: (_feed, _e, frame) => write(`id: ${formatCursors(conn!.delivered)}\ndata: ${frame}\n\n`),
        control: (frame) => {
          const c = frame.type === "welcome" ? `id: ${formatCursors(conn!.delivered)}\n` : "";
          write(`${c}data: ${JSON.stringify(frame)}\n\n`);
        },
        close: () => {
          if (!open) return;
          open = false;
          try {
            controller.close();
          } catch {}
        },
      };
      write(`retry: 3000\n: connected\n\n`);
      conn = new Connection(hub, identity, transport, { last, takeover: meta.takeover, locale: meta.locale, ip: meta.ip, userAgent: meta.userAgent });
      request.signal.addEventListener("abort", () => {
        open = false;
        conn?.closed();
      });
      void conn.openSafely();
    },
    cancel() {
      conn?.closed();
    },
  });
  return new Response(body, { headers: SSE_HEADERS });
}

type AgentIdentity = Extract<Identity, { kind: "agent" }>;

/** Platform staff (owners and admins of the platform account: the /admin area). */
const isStaff = (actor: AgentIdentity["actor"]) => actor.accountType === "platform" && can(actor, "/admin");

const SSE_HEADERS = { "Content-Type": "text/event-stream", "Cache-Control": "no-cache, no-transform", Connection: "keep-alive", "X-Accel-Buffering": "no" };

/** The notification bell's stream: Last-Event-ID is a plain id; data is the entry's fields. */
function notificationsSse(request: Request, identity: AgentIdentity, from: string | null) {
  const { userId, accountId } = identity.actor;
  let feed: Feed | undefined;
  let beat: ReturnType<typeof setInterval> | undefined;
  let release: (() => void) | undefined;
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      let open = true;
      const send = (s: string) => {
        if (open) controller.enqueue(encoder.encode(s));
      };
      const stop = () => {
        if (!open) return;
        open = false;
        clearInterval(beat);
        release?.();
        feed?.close();
        try {
          controller.close();
        } catch {}
      };
      request.signal.addEventListener("abort", stop);
      release = holdRevocable(identity, stop);
      send(`retry: 3000\n: connected\n\n`);
      beat = setInterval(() => send(`: heartbeat\n\n`), PING_MS);
      feed = new Feed(
        hub,
        notificationStream(accountId),
        "notifications",
        from,
        (en: Entry) => !en.fields.user || en.fields.user === "*" || en.fields.user === userId,
        (_f, en) => send(`id: ${en.id}\nevent: ${en.fields.event ?? "message"}\ndata: ${JSON.stringify(en.fields)}\n\n`),
      );
      try {
        await feed.prepare();
        await feed.run();
      } catch {
        stop();
      }
    },
    cancel() {
      clearInterval(beat);
      release?.();
      feed?.close();
    },
  });
  return new Response(body, { headers: SSE_HEADERS });
}

const server = Bun.serve<WsData>({
  port: e.REALTIME_PORT,
  hostname: "127.0.0.1",
  idleTimeout: 0,
  async fetch(request, srv) {
    const url = new URL(request.url);
    const ip = clientAddress(request.headers.get("X-Forwarded-For"), srv.requestIP(request)?.address);
    const locale = url.searchParams.get("lang") ?? request.headers.get("Accept-Language");
    const userAgent = request.headers.get("User-Agent");
    switch (url.pathname) {
      case "/realtime/health":
        return new Response("OK");
      case "/realtime/stats": {
        // How many streams and people are connected is the platform's business only.
        const identity = await identify(request, url);
        if (!identity) return new Response("Unauthorized", { status: 401 });
        if (identity.kind !== "agent" || !isStaff(identity.actor)) return new Response("Forbidden", { status: 403 });
        return Response.json({ ...hub.stats(), connections: [...localConnections()].length });
      }
      case "/realtime/ws": {
        const identity = await identify(request, url);
        // Refusals are a close code the browser can read (4401), not a failed handshake.
        if (srv.upgrade(request, { data: { identity, url, locale, ip, userAgent } })) return undefined;
        return new Response("Expected a websocket upgrade", { status: 426 });
      }
      case "/realtime/sse": {
        const identity = await identify(request, url);
        if (!identity) return new Response("Unauthorized", { status: 401 });
        const last = parseCursors(request.headers.get("Last-Event-ID") ?? url.searchParams.get("last"));
        return sseResponse(request, identity, last, { locale, ip, userAgent, takeover: url.searchParams.get("takeover") === "1" });
      }
      case "/realtime/command": {
        // The SSE fallback's way to send commands: one POST per command frame, same authentication.
        if (request.method !== "POST") return new Response("Method Not Allowed", { status: 405 });
        const identity = await identify(request, url);
        if (!identity) return new Response("Unauthorized", { status: 401 });
        let frame: Record<string, unknown>;
        try {
          frame = (await request.json()) as Record<string, unknown>;
        } catch {
          return new Response("Bad Request", { status: 400 });
        }
        return Response.json(await runCommand(identity, frame ?? {}, { connectionId: url.searchParams.get("connection_id"), locale, ip, userAgent }));
      }
      case "/realtime/notifications": {
        const identity = url.searchParams.get("ticket") ? await identify(request, url) : null;
        if (!identity || identity.kind !== "agent") return new Response("Unauthorized", { status: 401 });
        const lastId = request.headers.get("Last-Event-ID") ?? url.searchParams.get("last_id");
        return notificationsSse(request, identity, isStreamId(lastId) ? lastId : null);
      }
      case "/realtime/sms-monitor": {
        const identity = await identify(request, url);
        if (identity?.kind !== "agent") return new Response("Unauthorized", { status: 401 });
        if (!mayMonitor(identity)) return new Response("Forbidden", { status: 403 });
        return smsMonitorSse(request, identity, hub);
      }
    }
    return new Response("Not Found", { status: 404 });
  },
  websocket: {
    maxPayloadLength: 256 * 1024,
    backpressureLimit: 4 * 1024 * 1024,
    closeOnBackpressureLimit: true,
    idleTimeout: 60,
    sendPings: true,
    open(ws) {
      const d = ws.data;
      if (!d.identity) {
        ws.close(CLOSE.UNAUTHORIZED, "unauthorized");
        return;
      }
      const q = d.url.searchParams;
      d.conn = new Connection(hub, d.identity, wsTransport(ws), {
        last: parseCursors(q.get("last")),
        replacing: q.get("replacing"),
        takeover: q.get("takeover") === "1",
        locale: d.locale,
        ip: d.ip,
        userAgent: d.userAgent,
      });
      void d.conn.openSafely();
    },
    message(ws, raw) {
      let msg: unknown;
      try {
        msg = JSON.parse(typeof raw === "string" ? raw : Buffer.from(raw).toString("utf8"));
      } catch {
        ws.send(JSON.stringify({ type: "error", error: { code: "VALIDATION", message: "frames are JSON" } }));
        return;
      }
      ws.data.conn?.onMessage(msg);
    },
    close(ws) {
      ws.data.conn?.closed();
    },
  },
});

// Take-overs announced by any realtime process: close our connection if it is the one.
const control = connect();
control.subscribe(realtimeControlChannel()).catch((err) => console.error("realtime control channel", err));
control.on("message", (_channel, raw) => {
  try {
    const msg = JSON.parse(raw) as ControlMessage;
    if (msg.type === "disconnect") localConnection(msg.connectionId)?.disconnect(msg.reason);
  } catch {}
});

listenForRevocations();

// Pings every connection (the client's liveness check) and keeps agents' presence holds.
setInterval(() => {
  for (const c of localConnections()) {
    c.ping();
    void c.heartbeat();
  }
}, PING_MS);

for (const sig of ["SIGTERM", "SIGINT"] as const) {
  process.on(sig, () => {
    for (const c of [...localConnections()]) c.closed();
    server.stop(true);
    process.exit(0);
  });
}

console.log(`realtime listening on http://127.0.0.1:${server.port}/realtime`);
