/**
 * Live notifications: with JavaScript, one EventSource per tab on the realtime stream
 * (/realtime/notifications, through the web process). Each `new-notification` event revalidates
 * the loaders, so the unread badge and the /notifications list refresh without a reload.
 * Reconnects resume after the last event seen (Last-Event-ID / last_id), so nothing is missed.
 * Renders nothing; without JavaScript the pages simply show the data of their last load.
 */
import { useMatches, useRevalidator } from "@remix-run/react";
import { useEffect, useRef } from "react";

const RETRY_MS = 3000;

/** A route may hand its own stream ticket in its loader data (`streamTicket`), saving a request. */
function useRouteTicket() {
  const matches = useMatches();
  for (const m of matches) {
    const t = (m.data as { streamTicket?: unknown } | undefined)?.streamTicket;
    if (typeof t === "string") return t;
  }
  return null;
}

async function fetchTicket(): Promise<string | null> {
  const res = await fetch("/notifications/ticket", { headers: { Accept: "application/json" }, credentials: "same-origin" });
  if (!res.ok) return null;
  const body = (await res.json()) as { ticket?: string };
  return body.ticket ?? null;
}

export function LiveNotifications({ onEvent }: { onEvent?: (data: unknown) => void }) {
  const revalidator = useRevalidator();
  const routeTicket = useRouteTicket();
  const ticketRef = useRef<string | null>(routeTicket);
  if (routeTicket) ticketRef.current = routeTicket;
  const revalidateRef = useRef(revalidator.revalidate);
  revalidateRef.current = revalidator.revalidate;
  const onEventRef = useRef(onEvent);
  onEventRef.current = onEvent;

  useEffect(() => {
    if (typeof window === "undefined" || typeof EventSource === "undefined") return;
    let source: EventSource | null = null;
    let stopped = false;
    let lastId: string | null = null;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let debounce: ReturnType<typeof setTimeout> | undefined;

    const connect = async (freshTicket: boolean) => {
      if (stopped) return;
      let ticket = freshTicket ? null : ticketRef.current;
      if (!ticket) ticket = await fetchTicket().catch(() => null);
      if (stopped) return;
      if (!ticket) {
        retry = setTimeout(() => void connect(true), RETRY_MS * 5);
        return;
      }
      ticketRef.current = ticket;
      const params = new URLSearchParams({ ticket });
      if (lastId) params.set("last_id", lastId);
      const es = new EventSource(`/realtime/notifications?${params}`);
      source = es;
      es.addEventListener("new-notification", (e) => {
        const ev = e as MessageEvent<string>;
        if (ev.lastEventId) lastId = ev.lastEventId;
        let data: unknown = null;
        try {
          data = JSON.parse(ev.data);
        } catch {
          /* keep null */
        }
        onEventRef.current?.(data);
        // Several events at once refresh once.
        clearTimeout(debounce);
        debounce = setTimeout(() => revalidateRef.current(), 250);
      });
      es.onerror = () => {
        // The browser retries by itself (sending Last-Event-ID) unless the stream is closed for
        // good, e.g. an expired ticket (401): then start again with a new ticket.
        if (es.readyState === EventSource.CLOSED && !stopped) {
          es.close();
          retry = setTimeout(() => void connect(true), RETRY_MS);
        }
      };
    };
    void connect(false);
    return () => {
      stopped = true;
      clearTimeout(retry);
      clearTimeout(debounce);
      source?.close();
    };
  }, []);

  return null;
}
