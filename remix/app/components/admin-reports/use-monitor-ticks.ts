/**
 * /admin/sms/monitor with JavaScript: one EventSource on the realtime service's
 * /realtime/sms-monitor (through the web process), which ticks at most once a second while the SMS
 * dispatch stream moves; each tick reads the loader again (when the tab is visible and no read is
 * running). A ticket is single-use, so after an error the source is closed and opened again with
 * a fresh one. Without EventSource (or JavaScript) the screen's timer and meta refresh remain.
 */
import { useRevalidator } from "@remix-run/react";
import { useEffect, useRef } from "react";

const RETRY_MS = 3000;

async function ticket(): Promise<string | null> {
  const res = await fetch("/notifications/ticket", { headers: { Accept: "application/json" }, credentials: "same-origin" });
  if (!res.ok) return null;
  return ((await res.json()) as { ticket?: string }).ticket ?? null;
}

export function useMonitorTicks() {
  const revalidator = useRevalidator();
  const ref = useRef(revalidator);
  ref.current = revalidator;
  useEffect(() => {
    if (typeof window === "undefined" || typeof EventSource === "undefined") return;
    let source: EventSource | null = null;
    let stopped = false;
    let retry: ReturnType<typeof setTimeout> | undefined;
    const connect = async () => {
      const t = await ticket().catch(() => null);
      if (stopped) return;
      if (!t) {
        retry = setTimeout(() => void connect(), RETRY_MS * 5);
        return;
      }
      const es = new EventSource(`/realtime/sms-monitor?ticket=${encodeURIComponent(t)}`);
      source = es;
      es.addEventListener("tick", () => {
        if (document.visibilityState === "visible" && ref.current.state === "idle") ref.current.revalidate();
      });
      es.onerror = () => {
        es.close();
        if (!stopped) retry = setTimeout(() => void connect(), RETRY_MS);
      };
    };
    void connect();
    return () => {
      stopped = true;
      clearTimeout(retry);
      source?.close();
    };
  }, []);
}
