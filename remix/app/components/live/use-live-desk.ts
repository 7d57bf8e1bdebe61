/**
 * The workspace's live behaviour with JavaScript: the DeskState (live-state.ts) kept from loader
 * snapshots and live events, commands through the LiveConnection when there is one, otherwise
 * through the page's own form action (the same use-cases) with the loader refetched every 2 s
 * (the spec's connection check). Also: auto-DELIVERED after 500 ms, READ while the room is open
 * and focused, and the new-message sound (the agent status is restored at connect by live-provider.tsx).
 */
import { useRevalidator } from "@remix-run/react";
import { useCallback, useEffect, useReducer, useRef, useState } from "react";
import { TYPING_EVERY_MS, TYPING_SHOW_MS } from "~api/live/limits";
import {
  addPending,
  applyLiveEvent,
  failPending,
  isAlert,
  mutedAt,
  needsRead,
  prependOlder,
  streamMs,
  syncAndReplay,
  syncSnapshot,
  undeliveredIds,
  type DeskSnapshot,
  type DeskState,
  type LiveConnection,
  type LiveEventMessage,
  type MessageView,
} from "~/lib/live-state";

export const POLL_MS = 2000;
export const ACK_DELAY_MS = 500;
const DEBOUNCE_MS = 250;
export const statusKey = (userId: string) => `live.status.${userId}`;

type Action =
  | { type: "sync"; snapshot: DeskSnapshot; recent: LiveEventMessage[] }
  | { type: "event"; event: LiveEventMessage }
  | { type: "pending"; clientId: string; body: string; at: string; suggestions?: string[] }
  | { type: "failed"; clientId: string }
  | { type: "older"; roomId: string; page: { data: MessageView[]; more: boolean } };

function reducer(state: DeskState, a: Action): DeskState {
  switch (a.type) {
    case "sync":
      return syncAndReplay(state, a.snapshot, a.recent);
    case "event":
      return applyLiveEvent(state, a.event);
    case "pending":
      return addPending(state, a);
    case "failed":
      return failPending(state, a.clientId);
    case "older":
      return prependOlder(state, a.roomId, a.page);
  }
}

/** A short two-tone chime through Web Audio (no file to load), at the agent's volume. */
function chime(volume: number) {
  try {
    const Ctx = window.AudioContext ?? (window as unknown as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext;
    if (!Ctx) return;
    const ctx = new Ctx();
    const gain = ctx.createGain();
    gain.gain.value = Math.max(0, Math.min(1, volume)) * 0.2;
    gain.connect(ctx.destination);
    [880, 660].forEach((f, i) => {
      const o = ctx.createOscillator();
      o.frequency.value = f;
      o.connect(gain);
      o.start(ctx.currentTime + i * 0.12);
      o.stop(ctx.currentTime + i * 0.12 + 0.1);
    });
    setTimeout(() => void ctx.close(), 600);
  } catch {
    // No audio: nothing to do.
  }
}

/** A send's outcome: on refusal, the reasons as message keys (the page's action) or as text the server translated (the live connection). */
export type SendResult = { ok: true } | { ok: false; errors: { keys?: string[]; texts?: string[] } };

/** The reasons of a failed send, from either way a command goes. */
function sendErrors(e: unknown): { keys?: string[]; texts?: string[] } {
  const err = e as { fields?: Record<string, string[]>; message?: string; code?: string; data?: { result?: { error?: Record<string, unknown> } } };
  const keyed = err.data?.result?.error;
  if (keyed)
    return {
      keys: Object.values(keyed)
        .flat()
        .filter((x): x is string => typeof x === "string"),
    };
  const texts = err.fields ? Object.values(err.fields).flat() : [];
  if (texts.length) return { texts };
  // No connection or no reply: nothing the server said; otherwise its translated message.
  if (err.code && err.code !== "DISCONNECTED" && err.code !== "TIMEOUT" && err.message) return { texts: [err.message] };
  return { keys: ["liveDesk.composer.notSent"] };
}

export type DeskCommand = (command: string, payload: Record<string, unknown>) => Promise<unknown>;

export function useLiveDesk({
  snapshot,
  connection,
  recent,
  csrf,
  actionUrl,
  sound,
}: {
  snapshot: DeskSnapshot;
  connection?: LiveConnection | null;
  /** Live events heard lately, applied again over each loader result read before them (see syncAndReplay). */
  recent?: () => LiveEventMessage[];
  csrf: string;
  actionUrl: string;
  sound: { muted: boolean; muteUntil?: string | null; volume: number };
}) {
  const [state, dispatch] = useReducer(reducer, snapshot, (s) => syncSnapshot(null, s));
  const revalidator = useRevalidator();
  const revalidate = useRef(revalidator.revalidate);
  revalidate.current = revalidator.revalidate;
  const revalidating = useRef(revalidator.state);
  revalidating.current = revalidator.state;
  const stateRef = useRef(state);
  stateRef.current = state;
  const soundRef = useRef(sound);
  soundRef.current = sound;
  const isMuted = useCallback(() => mutedAt(soundRef.current), []);

  const recentRef = useRef(recent);
  recentRef.current = recent;
  const markRef = useRef(snapshot.mark);
  markRef.current = snapshot.mark;
  useEffect(() => dispatch({ type: "sync", snapshot, recent: recentRef.current?.() ?? [] }), [snapshot]);

  /** Commands: over the live connection, or as a form post to this page's action. */
  const command = useCallback<DeskCommand>(
    async (name, payload) => {
      if (connection) return connection.send(name, payload);
      const body = new FormData();
      body.set("csrf", csrf);
      body.set("via", "js");
      body.set("intent", name);
      for (const [k, v] of Object.entries(payload)) {
        if (Array.isArray(v)) for (const x of v) body.append(k, String(x));
        else if (v !== undefined && v !== null) body.set(k, String(v));
      }
      const res = await fetch(actionUrl, { method: "POST", body, credentials: "same-origin", headers: { Accept: "application/json" } });
      const data = await res.json().catch(() => null);
      if (!res.ok) throw Object.assign(new Error("command failed"), { status: res.status, data });
      return data;
    },
    [connection, csrf, actionUrl],
  );

  // "Typing…": which room's visitor types now (for TYPING_SHOW_MS, or until their message).
  const [typingRoom, setTypingRoom] = useState<string | null>(null);
  const typingRef = useRef<string | null>(null);
  const typingTimer = useRef<ReturnType<typeof setTimeout>>();
  const showTyping = useCallback((roomId: string | null) => {
    clearTimeout(typingTimer.current);
    typingRef.current = roomId;
    setTypingRoom(roomId);
    if (!roomId) return;
    typingTimer.current = setTimeout(() => {
      typingRef.current = null;
      setTypingRoom(null);
    }, TYPING_SHOW_MS);
  }, []);
  useEffect(() => () => clearTimeout(typingTimer.current), []);
  /** Tells the room's visitor this agent types: over the socket only, at most every 2.5 s. */
  const typingSent = useRef(0);
  const signalTyping = useCallback(
    (roomId: string) => {
      if (!connection || Date.now() - typingSent.current < TYPING_EVERY_MS) return;
      typingSent.current = Date.now();
      connection.send("typing", { room_id: roomId }).catch(() => undefined);
    },
    [connection],
  );

  // Live events (with a connection) or the 2 s refetch (without).
  useEffect(() => {
    if (connection) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      // What the connection heard before this screen listened (e.g. its catch-up right after
      // connecting), from when this screen's data was read.
      const mark = markRef.current;
      if (mark != null) for (const event of recentRef.current?.() ?? []) if (event.stream !== "boards" && streamMs(event.id) >= mark) dispatch({ type: "event", event });
      const off = connection.onEvent((event) => {
        // Workflow boards' changes travel on the same connection (ADR 056): not the desk's.
        if (event.stream === "boards") return;
        if (event.event === "typing") {
          if (event.data?.by === "visitor" && event.room_id) showTyping(event.room_id);
          return;
        }
        if (event.event === "send" && event.data?.message?.author === "visitor" && event.room_id === typingRef.current) showTyping(null);
        if (isAlert(stateRef.current, event) && !isMuted()) chime(soundRef.current.volume);
        dispatch({ type: "event", event });
        // Lists and pages are reconciled with the server shortly after structural changes.
        if (!["send", "delivered", "read", "typing", "heart_beat"].includes(event.event)) {
          clearTimeout(timer);
          timer = setTimeout(() => revalidate.current(), DEBOUNCE_MS);
        }
      });
      return () => {
        clearTimeout(timer);
        off();
      };
    }
    const timer = setInterval(() => {
      if (document.visibilityState === "visible" && revalidating.current === "idle") revalidate.current();
    }, POLL_MS);
    return () => clearInterval(timer);
  }, [connection, isMuted, showTyping]);

  // Without a connection, the sound follows what a refetch brought: more queued or unread.
  const seen = useRef({ queue: snapshot.counts.queue, unread: snapshot.counts.unread, incoming: snapshot.incoming.length });
  useEffect(() => {
    if (connection) return;
    const now = { queue: state.counts.queue, unread: state.counts.unread, incoming: state.incoming.length };
    const before = seen.current;
    if ((now.queue > before.queue || now.unread > before.unread || now.incoming > before.incoming) && !isMuted()) chime(soundRef.current.volume);
    seen.current = now;
  }, [state.counts.queue, state.counts.unread, state.incoming.length, connection, isMuted]);

  // Visitor messages on screen: DELIVERED after 500 ms.
  const openRoomId = state.room?.id;
  const undelivered = undeliveredIds(state).join(",");
  useEffect(() => {
    if (!undelivered || !openRoomId) return;
    const timer = setTimeout(() => void command("delivered", { room_id: openRoomId, ids: undelivered.split(",") }).catch(() => undefined), ACK_DELAY_MS);
    return () => clearTimeout(timer);
  }, [undelivered, openRoomId, command]);

  // The open room, while the window has focus: READ (after the same delay).
  const wantsRead = needsRead(state);
  const messageCount = state.messages.length;
  // biome-ignore lint/correctness/useExhaustiveDependencies: messageCount is a trigger, not read: a new message while the room is still unread sends READ again
  useEffect(() => {
    if (!wantsRead || !openRoomId) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const attempt = () => {
      clearTimeout(timer);
      if (document.visibilityState !== "visible" || !document.hasFocus()) return;
      timer = setTimeout(() => void command("read", { room_id: openRoomId }).catch(() => undefined), ACK_DELAY_MS);
    };
    attempt();
    window.addEventListener("focus", attempt);
    document.addEventListener("visibilitychange", attempt);
    return () => {
      clearTimeout(timer);
      window.removeEventListener("focus", attempt);
      document.removeEventListener("visibilitychange", attempt);
    };
  }, [wantsRead, openRoomId, messageCount, command]);

  const rememberStatus = useCallback(
    (status: string) => {
      try {
        window.localStorage.setItem(statusKey(snapshot.me), JSON.stringify({ status, at: Date.now() }));
      } catch {
        // Storage unavailable.
      }
    },
    [snapshot.me],
  );

  /** One agent message (text, or a template's rendered text shown while pending): its failure is kept on the thread and answered with its reasons. */
  const deliver = useCallback(
    async (body: string, suggestions: string[], post: (clientId: string) => Promise<unknown>): Promise<SendResult> => {
      const clientId = `c_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 10)}`;
      dispatch({ type: "pending", clientId, body, suggestions, at: new Date().toISOString() });
      try {
        await post(clientId);
        if (!connection) revalidate.current();
        return { ok: true };
      } catch (e) {
        dispatch({ type: "failed", clientId });
        return { ok: false, errors: sendErrors(e) };
      }
    },
    [connection],
  );

  const send = useCallback(
    (roomId: string, body: string, suggestions: string[] = []) =>
      deliver(body, suggestions, (clientId) => command("send", { room_id: roomId, body, client_id: clientId, suggestions })),
    [command, deliver],
  );

  /** An approved template (a WhatsApp room outside the contact's window): over the socket as the send command's `template`, else the page's `template` intent. */
  const sendTemplate = useCallback(
    (roomId: string, template: { id: string; variables: string[] }, preview: string) =>
      deliver(preview, [], (clientId) =>
        connection
          ? connection.send("send", { room_id: roomId, client_id: clientId, template })
          : command("template", { room_id: roomId, client_id: clientId, template_id: template.id, variables: template.variables }),
      ),
    [command, connection, deliver],
  );

  const older = useCallback((roomId: string, page: { data: MessageView[]; more: boolean }) => dispatch({ type: "older", roomId, page }), []);

  return { state, command, send, sendTemplate, older, rememberStatus, typingRoom, signalTyping };
}
