/**
 * A board's live updates (issue 22): the account's board stream (api/pipelines/events.ts, written
 * after each change commits) reaches every signed-in connection of the realtime service of who may
 * open /pipelines, as `{type:"event", stream:"boards", event, data:{board_id,…}}` frames
 * (realtime/connection.ts); `onChange` is called for the frames of the board shown.
 *
 * - Who attends live chat already has the tab's live socket (components/live/live-provider.tsx,
 *   one per tab: a second connection would contend for the agent's presence): its frames are used.
 * - Anyone else: one Server-Sent Events connection to /realtime/sse (through the web process),
 *   opened with the ticket the page's loader issued (single use) or a fresh one from
 *   /notifications/ticket, resuming after the last frame seen (Last-Event-ID on the browser's own
 *   retries, `last=` when it has to open a new one), so nothing is missed.
 * The page marks `data-board-live="open"` on <html> while the stream is up (tests wait on it).
 * Without JavaScript: nothing (the page shows the data of its last load).
 */
import { useEffect, useRef } from "react";
import { useLive } from "~/components/live/live-provider";

const RETRY_MS = 3000;
type Frame = { type?: string; stream?: string; event?: string; data?: { board_id?: unknown } };

async function freshTicket(): Promise<string | null> {
  const res = await fetch("/notifications/ticket", { headers: { Accept: "application/json" }, credentials: "same-origin" }).catch(() => null);
  if (!res?.ok) return null;
  return ((await res.json()) as { ticket?: string }).ticket ?? null;
}

/** The board event of a frame, when it is one of `boardId`'s. */
export function boardEventOf(frame: Frame, boardId: string): string | null {
  return frame.type === "event" && frame.stream === "boards" && frame.data?.board_id === boardId ? (frame.event ?? "change") : null;
}

const mark = (state: "open" | "closed" | null) =>
  state ? document.documentElement.setAttribute("data-board-live", state) : document.documentElement.removeAttribute("data-board-live");

export function useBoardEvents(boardId: string, ticket: string | null, onChange: (event: string) => void) {
  const changed = useRef(onChange);
  changed.current = onChange;
  const firstTicket = useRef(ticket);
  const live = useLive();
  const socket = live.enabled ? live.socket : null;
  const socketOpen = live.socketState?.status === "open";

  // Through the tab's live socket (people who attend).
  useEffect(() => {
    if (!socket) return;
    const off = socket.on((frame) => {
      const event = boardEventOf(frame as Frame, boardId);
      if (event) changed.current(event);
    });
    return off;
  }, [socket, boardId]);
  useEffect(() => {
    if (!live.enabled) return;
    mark(socketOpen ? "open" : "closed");
    return () => mark(null);
  }, [live.enabled, socketOpen]);

  // Its own stream (everyone else).
  useEffect(() => {
    if (live.enabled || typeof EventSource === "undefined") return;
    let source: EventSource | null = null;
    let stopped = false;
    let last: string | null = null;
    let retry: ReturnType<typeof setTimeout> | undefined;

    const connect = async () => {
      if (stopped) return;
      const t = firstTicket.current ?? (await freshTicket());
      firstTicket.current = null;
      if (stopped) return;
      if (!t) {
        retry = setTimeout(() => void connect(), RETRY_MS * 5);
        return;
      }
      const params = new URLSearchParams({ ticket: t });
      if (last) params.set("last", last);
      const es = new EventSource(`/realtime/sse?${params}`);
      source = es;
      es.onmessage = (e: MessageEvent<string>) => {
        if (e.lastEventId) last = e.lastEventId;
        let frame: Frame;
        try {
          frame = JSON.parse(e.data) as Frame;
        } catch {
          return;
        }
        if (frame.type === "welcome") mark("open");
        const event = boardEventOf(frame, boardId);
        if (event) changed.current(event);
      };
      es.onerror = () => {
        // The browser retries by itself (with Last-Event-ID) unless the stream ended for good (an
        // expired or used ticket, a revoked session): then again, with a new ticket.
        if (es.readyState === EventSource.CLOSED && !stopped) {
          es.close();
          mark("closed");
          retry = setTimeout(() => void connect(), RETRY_MS);
        }
      };
    };
    void connect();
    return () => {
      stopped = true;
      clearTimeout(retry);
      source?.close();
      mark(null);
    };
  }, [live.enabled, boardId]);
}
