/**
 * The signed-in app's live connection (spec section 4 "Live connection"). It starts only for those
 * who attend (omni plan, and an agent or a supervising role: `enabled`), in steps spaced 200 ms:
 * sync (my status, load, list counts), system config, account tags, tabs, then the live socket
 * (live-socket.ts: websocket with SSE fallback, resume, 10-second countdown). It is one per tab,
 * kept while the person moves around the app, dropped when they leave it (sign-out, /login) and
 * made again when the account changes.
 *
 * Everything that follows live data reads it from here (`useLive`): the /live workspace uses the
 * socket for its events and commands; the header shows the agent's status and queued + unread
 * count on every page, and so does the document title. Structural events refetch the sync step,
 * throttled to once every 2 s (spec section 9). Without JavaScript none of this runs: the pages
 * show their loaders' data.
 */
import { Link, useLocation } from "@remix-run/react";
import { createContext, useContext, useEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "~/lib/react-i18n";
import { Button } from "~/components/ui/button";
import { type LiveSocket, type LiveSocketState } from "~/lib/live-socket";
import { connectionBannerShown, type LiveConnection, type LiveEventMessage } from "~/lib/live-state";

export type LiveSync = {
  user_id: string;
  supervisor: boolean;
  status: string;
  status_at: string | null;
  counts: { queue: number; me: number; unread: number } & Record<string, number>;
  load: unknown;
  settings: unknown;
};
export type LiveData = {
  sync: LiveSync | null;
  system: { queued_enabled: boolean; acceptance_option: "automatic" | "manual" } | null;
  tags: Array<{ tag: string; rooms: number }>;
  tabs: Array<{ id: string; name: string }>;
};

export type LiveSession = LiveData & {
  enabled: boolean;
  socket: LiveSocket | null;
  socketState: LiveSocketState | null;
  /** The open connection for screens (events and commands), or null while there is none. */
  connection: LiveConnection | null;
  /** The live events heard lately, oldest first (see syncAndReplay in live-state.ts). */
  recent: () => LiveEventMessage[];
};

const EMPTY: LiveData = { sync: null, system: null, tags: [], tabs: [] };
const LiveContext = createContext<LiveSession>({ ...EMPTY, enabled: false, socket: null, socketState: null, connection: null, recent: () => [] });

export const useLive = () => useContext(LiveContext);

/** The page title's prefix: "(n) " with n = queued + unread (spec section 9). */
export function withCount(title: string, n: number) {
  const base = title.replace(/^\(\d+\)\s*/, "");
  return n > 0 ? `(${n}) ${base}` : base;
}

export function LiveProvider({ enabled, mark, accountId, lang, children }: { enabled: boolean; mark: number | null; accountId: string; lang: string; children: React.ReactNode }) {
  const markRef = useRef(mark);
  markRef.current = mark;
  const [data, setData] = useState<LiveData>(EMPTY);
  const [socket, setSocket] = useState<LiveSocket | null>(null);
  const [socketState, setSocketState] = useState<LiveSocketState | null>(null);
  const recent = useRef<LiveEventMessage[]>([]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: accountId is a trigger, not read: another account needs its own connection (spec: reconnect when the account changes)
  useEffect(() => {
    if (!enabled) return;
    // The connection's code is downloaded only by those who attend (ADR 052): other pages and people never load it.
    let stop: (() => void) | undefined;
    let stopped = false;
    import("./live-connect").then(
      (m) => {
        if (!stopped) stop = m.connectLive({ lang, mark: () => markRef.current, setData, setSocket, setSocketState, recent });
      },
      () => undefined,
    );
    return () => {
      stopped = true;
      stop?.();
      recent.current = [];
      setSocket(null);
      setSocketState(null);
      setData(EMPTY);
    };
  }, [enabled, accountId, lang]);

  const open = socketState?.status === "open";
  const value = useMemo<LiveSession>(() => {
    const connection: LiveConnection | null =
      socket && open ? { onEvent: (cb) => socket.on((frame) => cb(frame as LiveEventMessage)), send: (command, payload) => socket.send(command, payload) } : null;
    return { ...data, enabled, socket, socketState, connection, recent: () => recent.current };
  }, [data, enabled, socket, socketState, open]);

  return <LiveContext.Provider value={value}>{children}</LiveContext.Provider>;
}

/** The connection's trouble: the reconnect countdown and a closed session on every page; "already connected elsewhere" with the take-over on /live only. */
export function LiveConnectionBanner() {
  const { t } = useTranslation("liveDesk");
  const { socket, socketState: state } = useLive();
  const { pathname } = useLocation();
  if (!state || !connectionBannerShown(state.status, state.status === "disconnected" ? state.reason : undefined, pathname)) return null;
  return (
    <div
      role="status"
      data-testid="live-connection"
      className="flex items-center gap-3 border-b bg-amber-50 px-4 py-2 text-sm text-amber-900 dark:bg-amber-950 dark:text-amber-100"
    >
      {state.status === "waiting" ? <span>{t("connection.waiting", { seconds: state.secondsLeft })}</span> : null}
      {state.status === "already_connected" ? (
        <>
          <span>{t("connection.elsewhere")}</span>
          <Button size="sm" variant="outline" onClick={() => socket?.takeOver()} data-testid="live-takeover">
            {t("connection.takeOver")}
          </Button>
        </>
      ) : null}
      {state.status === "disconnected" ? <span>{t(state.reason === "connected_elsewhere" ? "connection.replaced" : "connection.closed")}</span> : null}
    </div>
  );
}

/**
 * In the header: my agent status and the queued + unread count, linking to the workspace; and the
 * same count in the document title. On /live the workspace keeps the title itself (its counts are
 * per event, not per sync).
 */
export function LiveHeaderStatus() {
  const { t } = useTranslation("liveDesk");
  const { enabled, sync, socketState } = useLive();
  const location = useLocation();
  const n = sync ? sync.counts.queue + sync.counts.unread : 0;
  // biome-ignore lint/correctness/useExhaustiveDependencies: location.key is a trigger: each navigation sets the page's own title, which gets the count again
  useEffect(() => {
    if (!enabled || location.pathname === "/live") return;
    document.title = withCount(document.title, n);
  }, [enabled, n, location.pathname, location.key]);
  if (!enabled || !sync) return null;
  const dot = sync.status === "AVAILABLE" ? "bg-emerald-500" : sync.status === "OFFLINE" ? "bg-muted-foreground" : "bg-amber-500";
  return (
    <Link
      to="/live"
      className="flex items-center gap-2 rounded-md px-2 py-1 text-sm hover:bg-accent"
      data-testid="live-header-status"
      data-connection={socketState?.status ?? "none"}
      aria-label={t("header.label", { status: t(`agentStatus.${sync.status}`), count: n })}
    >
      <span className={`size-2.5 rounded-full ${dot}`} aria-hidden />
      <span className="hidden md:inline">{t(`agentStatus.${sync.status}`)}</span>
      {n > 0 ? (
        <span className="rounded-full bg-destructive px-1.5 text-[10px] text-white" data-testid="live-header-count">
          {n}
        </span>
      ) : null}
    </Link>
  );
}
