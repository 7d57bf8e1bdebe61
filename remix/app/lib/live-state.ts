/**
 * The agent workspace's client state (/live) and how live events change it. Pure: no React, no
 * network. The page holds a DeskState built from its loader (`fromSnapshot`), applies each live
 * event with `applyLiveEvent` as it arrives, and merges the next loader result with `syncSnapshot`
 * (which keeps older pages of the thread and messages still on their way).
 *
 * The realtime client (live-socket.ts) is plugged in through `LiveConnection`: anything with
 * `onEvent` and `send` will do. Without one, the page refetches its loader every 2 s.
 */
import type { AgentStatus, messageView, roomSummary } from "~api/live/rooms";

/** Dates arrive as ISO strings once serialized. */
type Serialized<T> = { [K in keyof T]: T[K] extends Date ? string : T[K] extends Date | null ? string | null : T[K] };
export type RoomView = Serialized<ReturnType<typeof roomSummary>>;
export type MessageView = Omit<Serialized<ReturnType<typeof messageView>>, "status"> & { status: MessageStatus };
export type MessageStatus = "PENDING" | "SENT" | "DELIVERED" | "READ" | "FAIL" | "DELETED";

export const DESK_LISTS = ["queue", "me", "closed", "offline", "idle"] as const;
export type DeskList = (typeof DESK_LISTS)[number];

/** Agent statuses in the spec's order (the same list as api/live/rooms.ts AGENT_STATUSES, kept browser-safe). */
export const AGENT_STATUS_ORDER = ["AVAILABLE", "UNAVAILABLE", "SHORT_BREAK", "BREAK", "LONG_BREAK", "OFFLINE"] as const satisfies readonly AgentStatus[];

export const parseTab = (v: string | null | undefined): DeskList => ((DESK_LISTS as readonly string[]).includes(v ?? "") ? (v as DeskList) : "me");

/** The workspace URL for a tab, a room, a page of the list and a page of the thread. */
export function deskHref(p: { tab?: string; room?: string | null; page?: number; before?: string | null }) {
  const q = new URLSearchParams();
  if (p.tab) q.set("tab", p.tab);
  if (p.room) q.set("room", p.room);
  if (p.page && p.page > 1) q.set("page", String(p.page));
  if (p.before) q.set("before", p.before);
  const s = q.toString();
  return s ? `/live?${s}` : "/live";
}
export type DeskCounts = Record<DeskList, number> & { unread: number };

/** One live event as the realtime client hands it over. */
// biome-ignore lint/suspicious/noExplicitAny: an event's payload; its shape depends on \`event\` (realtime/, api/live/events)
export type LiveEventMessage = { stream: string; id: string; event: string; room_id?: string | null; data: any };

/** What the page needs from a realtime connection. */
export interface LiveConnection {
  /** Subscribes; returns the unsubscribe function. */
  onEvent(cb: (event: LiveEventMessage) => void): () => void;
  /** A command (send, delivered, read, status, close…) and its payload; resolves with the reply. */
  send(command: string, payload?: unknown): Promise<unknown>;
}

export type DeskState = {
  me: string;
  supervisor: boolean;
  tab: DeskList;
  /** The current tab's page of rooms. */
  rooms: RoomView[];
  counts: DeskCounts;
  /** The open room and its thread, oldest first. */
  room: RoomView | null;
  messages: MessageView[];
  /** Older messages exist before messages[0]. */
  more: boolean;
  /** Transfers offered to me, waiting for accept or refuse. */
  incoming: RoomView[];
  status: string | null;
  lastEventId: string | null;
};

/**
 * A loader result. `mark` is the Redis clock (ms) read before the loader queried the database:
 * any live event whose stream id is at or after it may be missing from the snapshot.
 */
export type DeskSnapshot = Omit<DeskState, "lastEventId"> & { mark?: number | null };

export function fromSnapshot({ mark: _mark, ...s }: DeskSnapshot): DeskState {
  return { ...s, lastEventId: null };
}

/** The millisecond part of a stream id ("ms-seq"); NaN for anything else. */
export const streamMs = (id: string | null | undefined) => Number(String(id ?? "").split("-")[0] || Number.NaN);

/** Does the room belong in a list for me (mirrors api/live/rooms.ts LIST_WHERE)? */
export function belongs(room: RoomView | null, list: DeskList, me: string, supervisor: boolean): boolean {
  if (!room) return false;
  const mineOrSup = supervisor || room.agent_id === me;
  switch (list) {
    case "queue":
      return room.status === "QUEUE";
    case "me":
      return room.status === "OPEN" && room.agent_id === me;
    case "idle":
      return room.status === "OPEN" && room.idle && mineOrSup;
    case "closed":
      return room.status === "CLOSED" && !room.offline && mineOrSup;
    case "offline":
      return room.status === "CLOSED" && room.offline && !room.solved;
  }
}

const ORDER: Record<MessageStatus, number> = { PENDING: 0, SENT: 1, DELIVERED: 2, READ: 3, FAIL: 4, DELETED: 5 };

/** Forward only: SENT -> DELIVERED -> READ, and nothing changes a READ, FAIL or DELETED message. */
export function forwardStatus(current: MessageStatus, next: MessageStatus): MessageStatus {
  if (current === "READ" || current === "FAIL" || current === "DELETED") return current;
  return ORDER[next] > ORDER[current] ? next : current;
}

const byTime = (a: MessageView, b: MessageView) => (a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** Adds or replaces a message (by id, or the pending one with the same client id), kept in order. */
export function upsertMessage(messages: MessageView[], m: MessageView): MessageView[] {
  const i = messages.findIndex((x) => x.id === m.id || (m.client_id && x.client_id === m.client_id && x.status === "PENDING"));
  if (i >= 0) {
    const next = messages.slice();
    const old = messages[i];
    next[i] = old.id === m.id ? { ...m, status: m.status === "DELETED" ? "DELETED" : forwardStatus(old.status, m.status) } : m;
    return next.sort(byTime);
  }
  return [...messages, m].sort(byTime);
}

/** What the room looked like before this event, when we never saw it (for the tab counts). */
function inferPrevious(event: string, room: RoomView, data: LiveEventMessage["data"]): RoomView | null {
  switch (event) {
    case "queued":
      return null;
    case "assigned":
      return { ...room, status: "QUEUE", agent_id: null };
    case "close":
      return { ...room, status: "OPEN", closed_at: null };
    case "return_to_queue":
    case "room_refused":
    case "transfer_department":
    case "transfer_refused":
      return { ...room, status: "OPEN", agent_id: data?.from ?? null, locked: false };
    case "transfer_accept":
      return { ...room, agent_id: data?.from ?? null };
    case "send":
      return data?.message?.author === "visitor" ? { ...room, unread_count: Math.max(0, room.unread_count - 1) } : room;
    default:
      return room;
  }
}

function known(state: DeskState, id: string): RoomView | undefined {
  if (state.room?.id === id) return state.room;
  return state.rooms.find((r) => r.id === id) ?? state.incoming.find((r) => r.id === id);
}

function placeInTab(rooms: RoomView[], room: RoomView, state: DeskState): RoomView[] {
  const inTab = belongs(room, state.tab, state.me, state.supervisor);
  const i = rooms.findIndex((r) => r.id === room.id);
  if (!inTab) return i >= 0 ? rooms.filter((r) => r.id !== room.id) : rooms;
  if (i >= 0) {
    const next = rooms.slice();
    next[i] = room;
    return next;
  }
  // The queue is oldest first; every other list newest first.
  return state.tab === "queue" ? [...rooms, room] : [room, ...rooms];
}

const offeredToMe = (room: RoomView, me: string) => room.locked && room.transfer_type === "agent" && room.transfer_to_user_id === me;

/** One live event applied to the workspace. Unknown or foreign events leave the state as it is. */
export function applyLiveEvent(state: DeskState, e: LiveEventMessage): DeskState {
  let next: DeskState = { ...state, lastEventId: e.id ?? state.lastEventId };
  const data = e.data ?? {};
  if (e.event === "agent_status") {
    return data.user_id === state.me ? { ...next, status: data.status ?? next.status } : next;
  }
  const room: RoomView | undefined = data.room;
  if (room && room.id) {
    const prev = known(state, room.id) ?? inferPrevious(e.event, room, data);
    const counts = { ...next.counts };
    for (const list of DESK_LISTS)
      counts[list] = Math.max(0, counts[list] + Number(belongs(room, list, state.me, state.supervisor)) - Number(belongs(prev, list, state.me, state.supervisor)));
    const unreadOf = (r: RoomView | null) => (belongs(r, "me", state.me, state.supervisor) ? r!.unread_count : 0);
    counts.unread = Math.max(0, counts.unread + unreadOf(room) - unreadOf(prev));
    next = {
      ...next,
      counts,
      rooms: placeInTab(next.rooms, room, state),
      room: next.room?.id === room.id ? room : next.room,
      incoming: offeredToMe(room, state.me)
        ? next.incoming.some((r) => r.id === room.id)
          ? next.incoming.map((r) => (r.id === room.id ? room : r))
          : [...next.incoming, room]
        : next.incoming.filter((r) => r.id !== room.id),
    };
  }
  const roomId = e.room_id || room?.id;
  if (!next.room || roomId !== next.room.id) return next;
  switch (e.event) {
    case "send":
    case "edited":
    case "deleted":
    case "send-historic":
      if (data.message?.id) next = { ...next, messages: upsertMessage(next.messages, data.message) };
      break;
    case "delivered":
    case "read": {
      const ids = new Set<string>(Array.isArray(data.ids) ? data.ids : []);
      const to: MessageStatus = e.event === "read" ? "READ" : "DELIVERED";
      if (ids.size) next = { ...next, messages: next.messages.map((m) => (ids.has(m.id) ? { ...m, status: forwardStatus(m.status, to) } : m)) };
      break;
    }
  }
  return next;
}

/**
 * The next loader result merged into the state: lists, counts, the room and the newest messages
 * come from the server; older pages loaded while scrolling and messages still pending stay.
 */
export function syncSnapshot(state: DeskState | null, s: DeskSnapshot): DeskState {
  if (!state || !s.room || state.room?.id !== s.room.id) return { ...fromSnapshot(s), lastEventId: state?.lastEventId ?? null };
  const fresh = new Map(s.messages.map((m) => [m.id, m]));
  const freshClientIds = new Set(s.messages.map((m) => m.client_id).filter(Boolean));
  const oldest = s.messages[0];
  const kept = state.messages.filter((m) => {
    if (fresh.has(m.id)) return false;
    if (m.status === "PENDING" || m.status === "FAIL") return !(m.client_id && freshClientIds.has(m.client_id));
    // Older than the server's page: a page loaded by scrolling up.
    return oldest ? byTime(m, oldest) < 0 : false;
  });
  const merged = [
    ...kept,
    ...s.messages.map((m) => {
      const had = state.messages.find((x) => x.id === m.id);
      return had ? { ...m, status: forwardStatus(had.status, m.status) } : m;
    }),
  ].sort(byTime);
  const hadOlder = kept.some((m) => m.status !== "PENDING" && m.status !== "FAIL");
  return { ...fromSnapshot(s), messages: merged, more: hadOlder ? state.more : s.more, lastEventId: state.lastEventId };
}

/**
 * The next loader result, then the live events that may have happened while it was read (stream
 * time at or after its `mark`), applied again. A refetch started before a message arrived but
 * answered after it would otherwise take the message off the screen until the next event.
 * Applying an event twice is harmless: rooms are replaced, messages upserted by id, statuses only
 * move forward.
 */
export function syncAndReplay(state: DeskState | null, s: DeskSnapshot, recent: readonly LiveEventMessage[]): DeskState {
  let next = syncSnapshot(state, s);
  if (s.mark == null) return next;
  for (const e of recent) if (streamMs(e.id) >= s.mark!) next = applyLiveEvent(next, e);
  return next;
}

/** A page of older messages (scrolling up) put before the thread. */
export function prependOlder(state: DeskState, roomId: string, page: { data: MessageView[]; more: boolean }): DeskState {
  if (state.room?.id !== roomId) return state;
  let messages = state.messages;
  for (const m of page.data) if (!messages.some((x) => x.id === m.id)) messages = [...messages, m];
  return { ...state, messages: messages.sort(byTime), more: page.more };
}

/** My message shown at once, before the server answers. */
export function addPending(state: DeskState, m: { clientId: string; body: string; at: string; suggestions?: string[] }): DeskState {
  if (!state.room) return state;
  const pending: MessageView = {
    id: `pending:${m.clientId}`,
    room_id: state.room.id,
    author: "agent",
    user_id: state.me,
    body: m.body,
    attachments: [],
    status: "PENDING",
    edited: false,
    client_id: m.clientId,
    created_at: m.at,
    delivered_at: null,
    read_at: null,
    error: null,
    suggestions: m.suggestions ?? [],
  };
  return { ...state, messages: [...state.messages, pending] };
}

/** The send failed: the pending message says so. */
export function failPending(state: DeskState, clientId: string): DeskState {
  return { ...state, messages: state.messages.map((m) => (m.client_id === clientId && m.status === "PENDING" ? { ...m, status: "FAIL" } : m)) };
}

/** Visitor messages on screen not yet acknowledged (DELIVERED after 500 ms). */
export function undeliveredIds(state: DeskState): string[] {
  if (!state.room || state.room.agent_id !== state.me) return [];
  return state.messages.filter((m) => m.author === "visitor" && m.status === "SENT").map((m) => m.id);
}

/** The room needs a READ: it is mine and has unread visitor messages. */
export function needsRead(state: DeskState): boolean {
  if (!state.room || state.room.agent_id !== state.me || state.room.status !== "OPEN") return false;
  return state.room.unread_count > 0 || state.messages.some((m) => m.author === "visitor" && (m.status === "SENT" || m.status === "DELIVERED"));
}

/** The page title's number: queued plus unread (spec section 9). */
export function titleCount(state: Pick<DeskState, "counts">): number {
  return state.counts.queue + state.counts.unread;
}

/** Does this event deserve the new-message sound (a visitor wrote in my room, or someone queued)? */
export function isAlert(state: DeskState, e: LiveEventMessage): boolean {
  if (e.event === "queued") return true;
  if (e.event === "send" && e.data?.message?.author === "visitor") return e.data?.room?.agent_id === state.me || e.data?.room?.status === "QUEUE";
  if (e.event === "transfer_agent") return e.data?.room?.transfer_to_user_id === state.me;
  return false;
}

/** Whether the agent's sound is muted at `now`: a timed mute that ran out while the screen was open no longer mutes. */
export function mutedAt(sound: { muted: boolean; muteUntil?: string | null }, now = Date.now()): boolean {
  return sound.muted && (!sound.muteUntil || now < Date.parse(sound.muteUntil));
}

/** This browser's last status choice as stored (`{status, at}`; an older plain string counts as chosen at no known time). */
export function parseStoredStatus(raw: string | null): { status: string; at: number } | null {
  if (!raw) return null;
  try {
    const v = JSON.parse(raw) as { status?: unknown; at?: unknown };
    if (v && typeof v.status === "string" && typeof v.at === "number") return { status: v.status, at: v.at };
  } catch {
    // The format before the time was kept: a bare status.
  }
  return (AGENT_STATUS_ORDER as readonly string[]).includes(raw) ? { status: raw, at: 0 } : null;
}

/**
 * The status to set at the first connect, or null to leave the server's (issue 19: the agent's
 * choice stands). The latest choice wins: this browser's when it is newer than the one the server
 * holds (made here, then lost), else the server's (chosen in another browser, a form without
 * JavaScript, the API); an agent who never chose becomes AVAILABLE (spec section 4's default).
 */
export function statusAtConnect(stored: { status: string; at: number } | null, server: { status: string; status_at: string | null }): string | null {
  const serverAt = server.status_at ? Date.parse(server.status_at) : null;
  const wanted = stored && (serverAt === null || stored.at > serverAt) ? stored.status : serverAt === null ? "AVAILABLE" : server.status;
  return wanted === server.status ? null : wanted;
}

/** Whether the connection banner shows on `pathname`: its trouble is news everywhere, but "connected elsewhere" only on /live (the one place one connection per agent matters). */
export function connectionBannerShown(status: string | undefined, reason: string | undefined, pathname: string): boolean {
  if (!status || status === "open" || status === "connecting") return false;
  const elsewhere = status === "already_connected" || (status === "disconnected" && reason === "connected_elsewhere");
  return !elsewhere || pathname === "/live";
}
