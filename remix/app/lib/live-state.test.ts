import { describe, expect, it } from "vitest";
import {
  addPending,
  connectionBannerShown,
  parseStoredStatus,
  statusAtConnect,
  applyLiveEvent,
  failPending,
  fromSnapshot,
  isAlert,
  mutedAt,
  needsRead,
  prependOlder,
  syncAndReplay,
  syncSnapshot,
  titleCount,
  undeliveredIds,
  type DeskState,
  type LiveEventMessage,
  type MessageView,
  type RoomView,
} from "./live-state";

const ME = "00000000-0000-4000-8000-00000000000a";
const OTHER = "00000000-0000-4000-8000-00000000000b";

function room(id: string, over: Partial<RoomView> = {}): RoomView {
  return {
    id,
    channel: "webchat",
    username: `Visitante ${id}`,
    email: null,
    phone: null,
    protocol: `20260101${id.padStart(6, "0")}`,
    status: "QUEUE",
    department_id: null,
    agent_id: null,
    tabulation_id: null,
    tags: [],
    locked: false,
    transfer_type: null,
    transfer_to_user_id: null,
    transfer_to_department_id: null,
    transfer_by: null,
    transfer_at: null,
    offline: false,
    idle: false,
    solved: false,
    queued_at: "2026-01-01T10:00:00.000Z",
    assigned_at: null,
    closed_at: null,
    created_at: "2026-01-01T10:00:00.000Z",
    last_message: "Oi",
    last_message_type: "text",
    last_message_at: "2026-01-01T10:00:00.000Z",
    unread_count: 1,
    contact_id: null,
    ...over,
  };
}

let seq = 0;
function msg(over: Partial<MessageView> = {}): MessageView {
  seq++;
  return {
    id: `m${String(seq).padStart(4, "0")}`,
    room_id: "1",
    author: "visitor",
    user_id: null,
    body: `msg ${seq}`,
    attachments: [],
    status: "SENT",
    edited: false,
    client_id: null,
    created_at: new Date(Date.UTC(2026, 0, 1, 10, 0, seq)).toISOString(),
    delivered_at: null,
    read_at: null,
    error: null,
    suggestions: [],
    ...over,
  };
}

function state(over: Partial<DeskState> = {}): DeskState {
  return fromSnapshot({
    me: ME,
    supervisor: false,
    tab: "me",
    rooms: [],
    counts: { queue: 0, me: 0, closed: 0, offline: 0, idle: 0, unread: 0 },
    room: null,
    messages: [],
    more: false,
    incoming: [],
    status: "AVAILABLE",
    ...over,
  });
}

let eventSeq = 0;
const ev = (event: string, data: unknown, room_id?: string): LiveEventMessage => ({
  stream: "account",
  id: `1-${++eventSeq}`,
  event,
  room_id: room_id ?? (data as { room?: { id?: string } } | null)?.room?.id,
  data,
});

describe("applyLiveEvent: lists and counts", () => {
  it("a queued room joins the queue tab (oldest first) and its count; assigned to me, it moves to my conversations", () => {
    let s = state({ tab: "queue", rooms: [room("1")], counts: { queue: 1, me: 0, closed: 0, offline: 0, idle: 0, unread: 0 } });
    s = applyLiveEvent(s, ev("queued", { room: room("2") }));
    expect(s.rooms.map((r) => r.id)).toEqual(["1", "2"]);
    expect(s.counts.queue).toBe(2);
    expect(titleCount(s)).toBe(2);
    s = applyLiveEvent(s, ev("assigned", { room: room("2", { status: "OPEN", agent_id: ME }) }));
    expect(s.rooms.map((r) => r.id)).toEqual(["1"]);
    expect(s.counts).toMatchObject({ queue: 1, me: 1, unread: 1 });
    expect(s.lastEventId).toBe(`1-${eventSeq}`);
  });

  it("a room assigned to someone else leaves the queue without touching my conversations", () => {
    let s = state({ tab: "queue", rooms: [room("1")], counts: { queue: 1, me: 0, closed: 0, offline: 0, idle: 0, unread: 0 } });
    s = applyLiveEvent(s, ev("assigned", { room: room("1", { status: "OPEN", agent_id: OTHER }) }));
    expect(s.rooms).toEqual([]);
    expect(s.counts).toMatchObject({ queue: 0, me: 0 });
  });

  it("close, return to queue and transfer to a department take the room out of my conversations", () => {
    const mine = (id: string) => room(id, { status: "OPEN", agent_id: ME, unread_count: 0 });
    let s = state({ rooms: [mine("1"), mine("2"), mine("3")], counts: { queue: 0, me: 3, closed: 0, offline: 0, idle: 0, unread: 0 } });
    s = applyLiveEvent(s, ev("close", { room: room("1", { status: "CLOSED", agent_id: ME, closed_at: "2026-01-01T11:00:00.000Z", unread_count: 0 }) }));
    s = applyLiveEvent(s, ev("return_to_queue", { room: room("2", { status: "QUEUE", unread_count: 0 }), from: ME }));
    s = applyLiveEvent(s, ev("transfer_department", { room: room("3", { status: "QUEUE", locked: true, transfer_type: "department", unread_count: 0 }), from: ME }));
    expect(s.rooms).toEqual([]);
    expect(s.counts).toMatchObject({ me: 0, closed: 1, queue: 2 });
  });

  it("counts follow rooms it never saw, inferring where they were", () => {
    let s = state({ tab: "offline", counts: { queue: 0, me: 2, closed: 0, offline: 0, idle: 0, unread: 3 } });
    s = applyLiveEvent(s, ev("transfer_refused", { room: room("9", { status: "QUEUE", unread_count: 0 }), from: ME }));
    expect(s.counts).toMatchObject({ me: 1, queue: 1 });
    s = applyLiveEvent(s, ev("send", { room: room("8", { status: "OPEN", agent_id: ME, unread_count: 4 }), message: msg({ room_id: "8" }) }));
    expect(s.counts.unread).toBe(4);
  });

  it("a transfer offered to me waits in `incoming` until accepted; then the room is mine", () => {
    const offered = room("5", { status: "OPEN", agent_id: OTHER, locked: true, transfer_type: "agent", transfer_to_user_id: ME, unread_count: 0 });
    let s = state({ counts: { queue: 0, me: 0, closed: 0, offline: 0, idle: 0, unread: 0 } });
    const e = ev("transfer_agent", { room: offered });
    expect(isAlert(s, e)).toBe(true);
    s = applyLiveEvent(s, e);
    expect(s.incoming.map((r) => r.id)).toEqual(["5"]);
    s = applyLiveEvent(s, ev("transfer_accept", { room: { ...offered, agent_id: ME, locked: false, transfer_to_user_id: null }, from: OTHER }));
    expect(s.incoming).toEqual([]);
    expect(s.rooms.map((r) => r.id)).toEqual(["5"]);
    expect(s.counts.me).toBe(1);
  });

  it("my own status changes apply; other agents' statuses and unknown events change nothing", () => {
    let s = state();
    s = applyLiveEvent(s, ev("agent_status", { user_id: OTHER, status: "BREAK" }));
    expect(s.status).toBe("AVAILABLE");
    s = applyLiveEvent(s, ev("agent_status", { user_id: ME, status: "SHORT_BREAK" }));
    expect(s.status).toBe("SHORT_BREAK");
    const before = s;
    expect({ ...applyLiveEvent(s, ev("typing", {})), lastEventId: null }).toEqual({ ...before, lastEventId: null });
  });
});

describe("applyLiveEvent: the open room's thread", () => {
  const open = room("1", { status: "OPEN", agent_id: ME, unread_count: 1 });

  it("appends messages once, in order, and replaces my pending message by the stored one", () => {
    const first = msg();
    let s = state({ room: open, rooms: [open], messages: [first], counts: { queue: 0, me: 1, closed: 0, offline: 0, idle: 0, unread: 1 } });
    s = addPending(s, { clientId: "c-1", body: "Olá!", at: "2026-01-01T10:05:00.000Z" });
    expect(s.messages.at(-1)).toMatchObject({ status: "PENDING", body: "Olá!" });
    const stored = msg({ author: "agent", user_id: ME, body: "Olá!", client_id: "c-1", created_at: "2026-01-01T10:05:00.100Z" });
    s = applyLiveEvent(s, ev("send", { room: open, message: stored }));
    s = applyLiveEvent(s, ev("send", { room: open, message: stored }));
    expect(s.messages.map((m) => m.id)).toEqual([first.id, stored.id]);
    const reply = msg({ body: "Obrigado", created_at: "2026-01-01T10:06:00.000Z" });
    s = applyLiveEvent(s, ev("send", { room: { ...open, unread_count: 2 }, message: reply }));
    expect(s.messages.map((m) => m.body)).toEqual([first.body, "Olá!", "Obrigado"]);
    expect(s.room?.unread_count).toBe(2);
    expect(s.counts.unread).toBe(2);
    // Another room's message does not enter this thread.
    s = applyLiveEvent(s, ev("send", { room: room("2", { status: "QUEUE" }), message: msg({ room_id: "2" }) }));
    expect(s.messages).toHaveLength(3);
  });

  it("delivered and read only move forward", () => {
    const a = msg({ author: "agent", user_id: ME });
    const b = msg({ author: "agent", user_id: ME });
    let s = state({ room: open, messages: [a, b] });
    s = applyLiveEvent(s, ev("read", { room: open, ids: [a.id], by: "visitor" }));
    s = applyLiveEvent(s, ev("delivered", { room: open, ids: [a.id, b.id] }));
    expect(s.messages.map((m) => m.status)).toEqual(["READ", "DELIVERED"]);
    // A late "send" echo of a READ message does not bring it back to SENT.
    s = applyLiveEvent(s, ev("send", { room: open, message: { ...a, status: "SENT" } }));
    expect(s.messages[0].status).toBe("READ");
  });

  it("says what to acknowledge: visitor messages still SENT, and whether the room needs a READ", () => {
    const v1 = msg();
    const v2 = msg({ status: "DELIVERED" });
    const mine = msg({ author: "agent", user_id: ME });
    const s = state({ room: open, messages: [v1, v2, mine] });
    expect(undeliveredIds(s)).toEqual([v1.id]);
    expect(needsRead(s)).toBe(true);
    expect(needsRead(state({ room: { ...open, unread_count: 0 }, messages: [mine] }))).toBe(false);
    // Someone else's room (a supervisor looking): no acknowledgement on the agent's behalf.
    expect(undeliveredIds(state({ room: { ...open, agent_id: OTHER }, messages: [v1] }))).toEqual([]);
  });
});

describe("syncSnapshot, older pages and failures", () => {
  const open = room("1", { status: "OPEN", agent_id: ME });

  it("keeps older pages and pending messages across a refetch, and takes the server's newest page", () => {
    const older = [msg(), msg()];
    const page = [msg(), msg()];
    let s = state({ room: open, messages: page, more: true });
    s = prependOlder(s, "1", { data: older, more: false });
    expect(s.messages.map((m) => m.id)).toEqual([...older, ...page].map((m) => m.id));
    expect(s.more).toBe(false);
    s = addPending(s, { clientId: "c-9", body: "pendente", at: "2026-01-02T00:00:00.000Z" });
    const newer = msg();
    const snap = {
      me: ME,
      supervisor: false,
      tab: "me" as const,
      rooms: [open],
      counts: { queue: 0, me: 1, closed: 0, offline: 0, idle: 0, unread: 0 },
      room: open,
      messages: [page[1], newer],
      more: true,
      incoming: [],
      status: "AVAILABLE",
    };
    s = syncSnapshot(s, snap);
    expect(s.messages.map((m) => m.body)).toEqual([...older, ...page, newer].map((m) => m.body).concat("pendente"));
    expect(s.more).toBe(false);
    // The server now has the pending one: it is replaced, not doubled.
    const stored = msg({ author: "agent", client_id: "c-9", body: "pendente", created_at: "2026-01-02T00:00:00.500Z" });
    s = syncSnapshot(s, { ...snap, messages: [newer, stored] });
    expect(s.messages.filter((m) => m.body === "pendente")).toHaveLength(1);
    expect(s.messages.at(-1)?.id).toBe(stored.id);
  });

  it("another room in the snapshot replaces the thread; a failed send is marked", () => {
    let s = state({ room: open, messages: [msg()] });
    s = addPending(s, { clientId: "c-2", body: "x", at: "2026-01-03T00:00:00.000Z" });
    s = failPending(s, "c-2");
    expect(s.messages.at(-1)?.status).toBe("FAIL");
    const other = room("2", { status: "OPEN", agent_id: ME });
    s = syncSnapshot(s, { me: ME, supervisor: false, tab: "me", rooms: [], counts: s.counts, room: other, messages: [], more: false, incoming: [], status: null });
    expect(s.room?.id).toBe("2");
    expect(s.messages).toEqual([]);
    expect(prependOlder(s, "1", { data: [msg()], more: true })).toBe(s);
  });

  it("a refetch read before a live message does not take it off the screen: events since its mark are applied again", () => {
    const first = msg();
    const base = {
      me: ME,
      supervisor: true,
      tab: "me" as const,
      rooms: [],
      counts: { queue: 0, me: 0, closed: 0, offline: 0, idle: 0, unread: 0 },
      room: open,
      more: false,
      incoming: [],
      status: "AVAILABLE",
    };
    let s = syncSnapshot(null, { ...base, messages: [first] });
    // The refetch starts (mark 5000), then a visitor message arrives live (stream time 5200)…
    const late = msg({ body: "escrita durante a recarga" });
    const arrived = { stream: "account", id: "5200-0", event: "send", room_id: "1", data: { room: { ...open, last_message: late.body }, message: late } };
    const earlier = { stream: "account", id: "4000-0", event: "send", room_id: "1", data: { room: open, message: first } };
    s = applyLiveEvent(s, arrived);
    expect(s.messages.map((m) => m.body)).toContain(late.body);
    // …and the refetch answers without it.
    const stale = { ...base, messages: [first], mark: 5000 };
    expect(syncSnapshot(s, stale).messages.map((m) => m.body)).not.toContain(late.body);
    const merged = syncAndReplay(s, stale, [earlier, arrived]);
    expect(merged.messages.map((m) => m.id)).toEqual([first.id, late.id]);
    expect(merged.room?.last_message).toBe(late.body);
    // A snapshot read after the event (mark later) is taken as it is; one without a mark too.
    expect(syncAndReplay(s, { ...stale, mark: 6000 }, [arrived]).messages.map((m) => m.id)).toEqual([first.id]);
    expect(syncAndReplay(s, { ...base, messages: [first] }, [arrived]).messages.map((m) => m.id)).toEqual([first.id]);
    // Applying it again over a snapshot that already has it changes nothing.
    const fresh = syncAndReplay(s, { ...base, messages: [first, late], mark: 5000 }, [arrived]);
    expect(fresh.messages.map((m) => m.id)).toEqual([first.id, late.id]);
  });
});

describe("mutedAt", () => {
  const now = Date.parse("2026-11-25T12:00:00.000Z");
  it("a timed mute mutes until it runs out, then no longer (without a reload)", () => {
    const sound = { muted: true, muteUntil: "2026-11-25T12:00:30.000Z" };
    expect(mutedAt(sound, now)).toBe(true);
    expect(mutedAt(sound, now + 30_000)).toBe(false);
  });
  it("'always' has no end; not muted is never muted", () => {
    expect(mutedAt({ muted: true, muteUntil: null }, now + 1e12)).toBe(true);
    expect(mutedAt({ muted: false, muteUntil: "2026-11-25T13:00:00.000Z" }, now)).toBe(false);
  });
});

describe("the agent's status at connect (issue 19: the agent's choice stands)", () => {
  const at = (iso: string) => Date.parse(iso);
  it("keeps an Offline chosen elsewhere (another browser, a form without JavaScript) over nothing stored here", () => {
    expect(statusAtConnect(null, { status: "OFFLINE", status_at: "2026-11-29T10:00:00Z" })).toBeNull();
  });
  it("keeps the server's choice when it is newer than this browser's", () => {
    expect(statusAtConnect({ status: "AVAILABLE", at: at("2026-11-29T09:00:00Z") }, { status: "OFFLINE", status_at: "2026-11-29T10:00:00Z" })).toBeNull();
  });
  it("restores this browser's choice when it is the newer one", () => {
    expect(statusAtConnect({ status: "BREAK", at: at("2026-11-29T11:00:00Z") }, { status: "AVAILABLE", status_at: "2026-11-29T10:00:00Z" })).toBe("BREAK");
  });
  it("makes an agent who never chose AVAILABLE, or what this browser stored", () => {
    expect(statusAtConnect(null, { status: "OFFLINE", status_at: null })).toBe("AVAILABLE");
    expect(statusAtConnect({ status: "SHORT_BREAK", at: 1 }, { status: "OFFLINE", status_at: null })).toBe("SHORT_BREAK");
  });
  it("reads the stored choice with its time, an older bare status, and ignores junk", () => {
    expect(parseStoredStatus(JSON.stringify({ status: "BREAK", at: 5 }))).toEqual({ status: "BREAK", at: 5 });
    expect(parseStoredStatus("OFFLINE")).toEqual({ status: "OFFLINE", at: 0 });
    expect(parseStoredStatus("nonsense")).toBeNull();
    expect(parseStoredStatus(null)).toBeNull();
  });
});

describe("the connection banner (issue 19)", () => {
  it("warns of another connection only on /live; a countdown or a closed session everywhere", () => {
    expect(connectionBannerShown("already_connected", undefined, "/live")).toBe(true);
    expect(connectionBannerShown("already_connected", undefined, "/contacts")).toBe(false);
    expect(connectionBannerShown("disconnected", "connected_elsewhere", "/sms/send")).toBe(false);
    expect(connectionBannerShown("disconnected", "connected_elsewhere", "/live")).toBe(true);
    expect(connectionBannerShown("disconnected", "closed", "/contacts")).toBe(true);
    expect(connectionBannerShown("waiting", undefined, "/contacts")).toBe(true);
    expect(connectionBannerShown("open", undefined, "/live")).toBe(false);
  });
});
