/**
 * A board's live updates (issue 22): one EventSource on the account's board stream
 * (/realtime/boards, through the web process; api/pipelines/events.ts writes it after each change
 * commits), calling `onChange` for the entries of the board shown. It starts with the ticket the
 * page's loader issued (single use) and asks /notifications/ticket for a fresh one when the stream
 * has to be opened again; a reconnect resumes after the last entry seen (Last-Event-ID, or
 * last_id on a new EventSource), so nothing is missed. Without JavaScript: nothing (the page shows
 * the data of its last load). Board streams are not per-process state: any realtime process
 * serves any client.
 */
import { useEffect, useRef } from "react";

const RETRY_MS = 3000;
/** The entries' names (api/pipelines/events.ts BOARD_EVENTS): the stream's SSE events are named after them. */
const EVENTS = [
  "board_created",
  "board_renamed",
  "board_deleted",
  "column_created",
  "column_renamed",
  "columns_reordered",
  "column_deleted",
  "deal_created",
  "deal_updated",
  "deal_moved",
  "deal_archived",
  "deal_restored",
  "deal_deleted",
];

async function freshTicket(): Promise<string | null> {
  const res = await fetch("/notifications/ticket", { headers: { Accept: "application/json" }, credentials: "same-origin" }).catch(() => null);
  if (!res?.ok) return null;
  return ((await res.json()) as { ticket?: string }).ticket ?? null;
}

/** The board an entry is about: its `board_id`, in the entry's data (a JSON string or object) or beside it. */
export function entryBoard(raw: string): string | null {
  try {
    const fields = JSON.parse(raw) as Record<string, unknown>;
    const data = typeof fields.data === "string" ? (JSON.parse(fields.data) as Record<string, unknown>) : (fields.data as Record<string, unknown> | undefined);
    const id = data?.board_id ?? fields.board_id;
    return typeof id === "string" ? id : null;
  } catch {
    return null;
  }
}

export function useBoardEvents(boardId: string, ticket: string | null, onChange: (event: string) => void) {
  const changed = useRef(onChange);
  changed.current = onChange;
  const firstTicket = useRef(ticket);

  useEffect(() => {
    if (typeof EventSource === "undefined") return;
    let source: EventSource | null = null;
    let stopped = false;
    let lastId: string | null = null;
    let retry: ReturnType<typeof setTimeout> | undefined;

    const connect = async (useFirst: boolean) => {
      if (stopped) return;
      const t = useFirst && firstTicket.current ? firstTicket.current : await freshTicket();
      firstTicket.current = null;
      if (stopped) return;
      if (!t) {
        retry = setTimeout(() => void connect(false), RETRY_MS * 5);
        return;
      }
      const params = new URLSearchParams({ ticket: t });
      if (lastId) params.set("last_id", lastId);
      const es = new EventSource(`/realtime/boards?${params}`);
      source = es;
      const handle = (name: string) => (e: Event) => {
        const ev = e as MessageEvent<string>;
        if (ev.lastEventId) lastId = ev.lastEventId;
        if (entryBoard(ev.data) === boardId) changed.current(name);
      };
      for (const name of EVENTS) es.addEventListener(name, handle(name));
      es.onopen = () => document.documentElement.setAttribute("data-board-live", "open");
      es.onerror = () => {
        // The browser retries by itself (with Last-Event-ID) unless the stream is closed for good
        // (an expired or used ticket): then again with a new ticket.
        if (es.readyState === EventSource.CLOSED && !stopped) {
          es.close();
          document.documentElement.setAttribute("data-board-live", "closed");
          retry = setTimeout(() => void connect(false), RETRY_MS);
        }
      };
    };
    void connect(true);
    return () => {
      stopped = true;
      clearTimeout(retry);
      source?.close();
      document.documentElement.removeAttribute("data-board-live");
    };
  }, [boardId]);
}
