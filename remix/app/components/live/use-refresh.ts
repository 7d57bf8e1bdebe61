/**
 * Screens that follow work in progress without a socket (/live/dashboard, /live/manage, a running
 * campaign): refetch the loader every `ms` (2 s by default, the spec's connection check) while
 * `enabled` and the tab is visible. Without JavaScript such a page shows its last load and a plain
 * refresh link or a <noscript> meta refresh.
 */
import { useRevalidator } from "@remix-run/react";
import { useEffect, useRef } from "react";

export const REFRESH_MS = 2000;

export function useRefresh(ms = REFRESH_MS, enabled = true) {
  const revalidator = useRevalidator();
  const ref = useRef(revalidator);
  ref.current = revalidator;
  useEffect(() => {
    if (!enabled) return;
    const timer = setInterval(() => {
      if (document.visibilityState === "visible" && ref.current.state === "idle") ref.current.revalidate();
    }, ms);
    return () => clearInterval(timer);
  }, [ms, enabled]);
}

/** Seconds as m:ss or h:mm:ss. */
export function duration(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds)) return "—";
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = String(s % 60).padStart(2, "0");
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${sec}` : `${m}:${sec}`;
}
