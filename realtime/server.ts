/**
 * The realtime process: fans Redis Streams out to browsers over Server-Sent Events. A client
 * that reconnects sends Last-Event-ID (the last stream id it saw) and misses nothing.
 * No business rule lives here.
 */
import { env } from "../api/lib/env";
import { connect } from "../api/lib/redis";
import { notificationStream } from "../api/notifications/services";
import { redeemStreamTicket } from "../api/realtime/tickets";

const e = env();
const encoder = new TextEncoder();
const HEARTBEAT_MS = 15_000;

function sse(stream: string, userId: string, from: string, signal: AbortSignal) {
  const reader = connect();
  return new ReadableStream<Uint8Array>({
    async start(controller) {
      let last = from;
      const send = (s: string) => controller.enqueue(encoder.encode(s));
      send(`retry: 3000\n: connected\n\n`);
      const beat = setInterval(() => send(`: heartbeat\n\n`), HEARTBEAT_MS);
      signal.addEventListener("abort", () => {
        clearInterval(beat);
        reader.disconnect();
        try { controller.close(); } catch {}
      });
      while (!signal.aborted) {
        try {
          const res = (await reader.xread("COUNT", 100, "BLOCK", 10_000, "STREAMS", stream, last)) as Array<[string, Array<[string, string[]]>]> | null;
          for (const [, entries] of res ?? []) {
            for (const [id, list] of entries) {
              last = id;
              const fields: Record<string, string> = {};
              for (let i = 0; i < list.length; i += 2) fields[list[i]] = list[i + 1];
              if (fields.user && fields.user !== "*" && fields.user !== userId) continue;
              send(`id: ${id}\nevent: ${fields.event ?? "message"}\ndata: ${JSON.stringify(fields)}\n\n`);
            }
          }
        } catch {
          if (signal.aborted) break;
          await new Promise((r) => setTimeout(r, 500));
        }
      }
    },
  });
}

const server = Bun.serve({
  port: e.REALTIME_PORT,
  hostname: "127.0.0.1",
  idleTimeout: 0,
  async fetch(request) {
    const url = new URL(request.url);
    if (url.pathname === "/realtime/health") return new Response("OK");
    if (url.pathname === "/realtime/notifications") {
      const who = await redeemStreamTicket(url.searchParams.get("ticket"));
      if (!who) return new Response("Unauthorized", { status: 401 });
      const lastId = request.headers.get("Last-Event-ID") ?? url.searchParams.get("last_id");
      const from = lastId && /^\d+-\d+$/.test(lastId) ? lastId : "$";
      return new Response(sse(notificationStream(who.accountId), who.userId, from, request.signal), {
        headers: { "Content-Type": "text/event-stream", "Cache-Control": "no-cache, no-transform", Connection: "keep-alive", "X-Accel-Buffering": "no" },
      });
    }
    return new Response("Not Found", { status: 404 });
  },
});

console.log(`realtime listening on http://127.0.0.1:${server.port}/realtime`);
