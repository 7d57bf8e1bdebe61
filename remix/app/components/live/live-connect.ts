/**
 * The live connection's steps and socket (components/live/live-provider.tsx), downloaded only when
 * the provider is enabled — for those who attend (ADR 052). Steps 200 ms apart: sync, system
 * config, account tags, tabs; then the live socket from when the page's data was read.
 */
import type { Dispatch, MutableRefObject, SetStateAction } from "react";
import { statusKey } from "~/components/live/use-live-desk";
import { connectLiveSocket, type LiveSocket, type LiveSocketState } from "~/lib/live-socket";
import { type LiveEventMessage, parseStoredStatus, statusAtConnect } from "~/lib/live-state";
import type { LiveData, LiveSync } from "./live-provider";

export const CONNECT_STEPS = ["sync", "system", "tags", "tabs"] as const;
export type ConnectStep = (typeof CONNECT_STEPS)[number];
/** Spec section 9: connect steps 200 ms apart; next-conversation refetch throttled 2 s. */
export const STEP_MS = 200;
const SYNC_THROTTLE_MS = 2000;
/** Live events kept for screens that load a snapshot and must apply again what came after it. */
const RECENT_KEEP = 300;
/** Events that change lists or counts (a new sync is read after them). */
const STRUCTURAL = new Set([
  "queued",
  "assigned",
  "close",
  "return_to_queue",
  "room_refused",
  "transfer_agent",
  "transfer_department",
  "transfer_accept",
  "transfer_refused",
  "send",
  "read",
  "agent_status",
]);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function readStep(step: ConnectStep, signal: AbortSignal): Promise<unknown> {
  const res = await fetch(`/live/connect/${step}`, { headers: { Accept: "application/json" }, credentials: "same-origin", signal, redirect: "manual" });
  if (!res.ok || !(res.headers.get("content-type") ?? "").includes("json")) throw new Error(`${step}: ${res.status}`);
  return res.json();
}

type Context = {
  lang: string;
  /** When the page's data was read (the stream id's milliseconds), or null. */
  mark: () => number | null;
  setData: Dispatch<SetStateAction<LiveData>>;
  setSocket: (socket: LiveSocket | null) => void;
  setSocketState: (state: LiveSocketState | null) => void;
  recent: MutableRefObject<LiveEventMessage[]>;
};

/** Opens the connection; the function returned closes it. */
export function connectLive({ lang, mark, setData, setSocket, setSocketState, recent }: Context): () => void {
  const abort = new AbortController();
  let live: LiveSocket | null = null;
  let offState: (() => void) | undefined;
  let offEvents: (() => void) | undefined;
  let lastSync = 0;
  let restored = false;
  let me: LiveSync | null = null;
  let syncTimer: ReturnType<typeof setTimeout> | undefined;
  const put = (step: ConnectStep, value: unknown) =>
    setData((d) => {
      switch (step) {
        case "sync":
          return { ...d, sync: value as LiveSync };
        case "system":
          return { ...d, system: value as LiveData["system"] };
        case "tags":
          return { ...d, tags: (value as { data: LiveData["tags"] }).data };
        case "tabs":
          return { ...d, tabs: (value as { data: LiveData["tabs"] }).data };
      }
    });
  const resync = () => {
    if (syncTimer) return;
    const wait = Math.max(0, lastSync + SYNC_THROTTLE_MS - Date.now());
    syncTimer = setTimeout(() => {
      syncTimer = undefined;
      lastSync = Date.now();
      readStep("sync", abort.signal).then(
        (v) => put("sync", v),
        () => undefined,
      );
    }, wait);
  };
  void (async () => {
    for (const step of CONNECT_STEPS) {
      if (abort.signal.aborted) return;
      try {
        const value = await readStep(step, abort.signal);
        put(step, value);
        if (step === "sync") {
          lastSync = Date.now();
          me = value as LiveSync;
        }
      } catch {
        // A step that fails leaves its part empty; the socket still connects.
      }
      await sleep(STEP_MS);
    }
    if (abort.signal.aborted) return;
    // From when the page's data was read (not from "now"): what was published while the steps ran is delivered too.
    const from = mark();
    live = connectLiveSocket({ lang, last: from ? { account: `${from - 1}-0` } : undefined });
    offEvents = live.on((e) => {
      recent.current = [...recent.current.slice(-(RECENT_KEEP - 1)), e as LiveEventMessage];
      if (e.event === "agent_status") {
        const d = e.data as { user_id?: string; status?: string };
        setData((x) => (x.sync && d.user_id === x.sync.user_id && d.status ? { ...x, sync: { ...x.sync, status: d.status } } : x));
      }
      if (STRUCTURAL.has(e.event)) resync();
    });
    offState = live.onState((state) => {
      setSocketState(state);
      // At the first connect: the latest status this person chose, here or elsewhere (statusAtConnect).
      if (state.status !== "open" || restored || !me || !live) return;
      restored = true;
      let stored: string | null = null;
      try {
        stored = window.localStorage.getItem(statusKey(me.user_id));
      } catch {
        // Storage unavailable: the server's choice.
      }
      const wanted = statusAtConnect(parseStoredStatus(stored), me);
      if (wanted) live.send("status", { status: wanted }).then(resync, () => undefined);
    });
    setSocket(live);
  })();
  return () => {
    abort.abort();
    clearTimeout(syncTimer);
    offEvents?.();
    offState?.();
    live?.close();
  };
}
