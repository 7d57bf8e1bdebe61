/**
 * GET /realtime/sms-monitor (issue 23, ADR 065): the /admin/sms/monitor screen's signal that the
 * SMS queue moved, as Server-Sent Events. It follows every shard of the SMS dispatch stream
 * (`messages:sms`, ADR 028) through the hub like any other stream, and sends at most one `tick`
 * per TICK_MS while entries arrive (`data`: how many since the last tick), so a busy queue costs a
 * staff browser one small event a second, not one per message. The screen reads its loader again on
 * a tick (the figures themselves stay api/admin-sms/monitor.ts's). Platform staff who may open the
 * screen only; the connection ends when the person is signed out (realtime/revocation.ts).
 */
import { keys } from "../api/lib/redis-keys";
import { can } from "../api/policy/policy";
import type { Identity } from "./connection";
import { Feed, type StreamHub } from "./hub";
import { holdRevocable } from "./revocation";

const TICK_MS = 1000;
const PING_MS = 15_000;
const encoder = new TextEncoder();
const SSE_HEADERS = { "Content-Type": "text/event-stream", "Cache-Control": "no-cache, no-transform", Connection: "keep-alive", "X-Accel-Buffering": "no" };

type AgentIdentity = Extract<Identity, { kind: "agent" }>;

/** Whether the identity may follow the monitor: the platform account's people the policy lets open /admin/sms/monitor. */
export const mayMonitor = (identity: AgentIdentity) => identity.actor.accountType === "platform" && can(identity.actor, "/admin/sms/monitor");

export function smsMonitorSse(request: Request, identity: AgentIdentity, hub: StreamHub): Response {
  const feeds: Feed[] = [];
  let beat: ReturnType<typeof setInterval> | undefined;
  let tick: ReturnType<typeof setInterval> | undefined;
  let release: (() => void) | undefined;
  let seen = 0;
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
        clearInterval(tick);
        release?.();
        for (const f of feeds) f.close();
        try {
          controller.close();
        } catch {}
      };
      request.signal.addEventListener("abort", stop);
      release = holdRevocable(identity, stop);
      send(`retry: 3000\n\n`);
      beat = setInterval(() => send(`: heartbeat\n\n`), PING_MS);
      tick = setInterval(() => {
        if (seen === 0) return;
        send(`event: tick\ndata: ${JSON.stringify({ entries: seen })}\n\n`);
        seen = 0;
      }, TICK_MS);
      try {
        for (const stream of keys.allJobStreams("messages:sms")) {
          const feed = new Feed(
            hub,
            stream,
            "sms-monitor",
            null,
            () => true,
            () => {
              seen += 1;
            },
          );
          feeds.push(feed);
          await feed.prepare();
        }
        // Said once every shard is followed: an entry written after this line is one the monitor counts
        // (said before, a test's entry written right after it fell before a shard's starting point).
        send(`: connected\n\n`);
        await Promise.all(feeds.map((f) => f.run()));
      } catch {
        stop();
      }
    },
    cancel() {
      clearInterval(beat);
      clearInterval(tick);
      release?.();
      for (const f of feeds) f.close();
    },
  });
  return new Response(body, { headers: SSE_HEADERS });
}
