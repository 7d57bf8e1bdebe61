import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { Countdown, LiveCommandError, LiveTransport, PendingReplies, RECONNECT_SECONDS, StreamCursor, type LiveTransportHooks } from "./live-transport";

describe("StreamCursor (the resume point)", () => {
  it("starts empty, or where it is told", () => {
    expect(new StreamCursor().toParam()).toBe("");
    expect(new StreamCursor({ account: "5-0" }).toParam()).toBe("account:5-0");
  });

  it("moves to each event seen, per stream, and formats them all for `last`", () => {
    const c = new StreamCursor();
    c.seen("account", "1-0");
    c.seen("room", "7-1");
    c.seen("account", "2-0");
    expect(c.get("account")).toBe("2-0");
    expect(c.toParam()).toBe("account:2-0,room:7-1");
  });

  it("takes a starting point (welcome, a page's mark) only where nothing was seen yet", () => {
    const c = new StreamCursor({ account: "9-0" });
    c.startAt("account", "3-0");
    c.startAt("notifications", "4-0");
    expect(c.toParam()).toBe("account:9-0,notifications:4-0");
  });

  it("forgets everything on clear (another room)", () => {
    const c = new StreamCursor({ room: "1-0" });
    c.clear();
    expect(c.get("room")).toBeUndefined();
    expect(c.toParam()).toBe("");
  });
});

describe("Countdown (the reconnect schedule)", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("ticks 10, 9, …, 1 a second apart and is done one second after the last: a fixed 10 s, no growing back-off", () => {
    const ticks: number[] = [];
    const done = vi.fn();
    const countdown = new Countdown();
    countdown.start((s) => ticks.push(s), done);
    expect(ticks).toEqual([RECONNECT_SECONDS]);
    expect(countdown.running).toBe(true);
    vi.advanceTimersByTime(9_000);
    expect(ticks).toEqual([10, 9, 8, 7, 6, 5, 4, 3, 2, 1]);
    expect(done).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1_000);
    expect(done).toHaveBeenCalledOnce();
    expect(countdown.running).toBe(false);
    // The next drop counts from 10 again.
    countdown.start((s) => ticks.push(s), done);
    expect(ticks.at(-1)).toBe(10);
  });

  it("stops without finishing", () => {
    const done = vi.fn();
    const countdown = new Countdown(3);
    countdown.start(() => undefined, done);
    vi.advanceTimersByTime(1_000);
    countdown.stop();
    vi.advanceTimersByTime(10_000);
    expect(done).not.toHaveBeenCalled();
    expect(countdown.secondsLeft).toBe(0);
  });
});

describe("PendingReplies", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("numbers commands and hands each reply to its command", async () => {
    const p = new PendingReplies();
    const a = p.nextId();
    const b = p.nextId();
    expect([a, b]).toEqual(["c1", "c2"]);
    const first = p.wait(a, 1000);
    const second = p.wait(b, 1000);
    p.settle({ type: "reply", id: b, ok: false, error: { code: "VALIDATION", message: "too long", fields: { message: ["x"] } } });
    p.settle({ type: "reply", id: a, ok: true, data: { done: 1 } });
    await expect(first).resolves.toEqual({ done: 1 });
    await expect(second).rejects.toMatchObject({ code: "VALIDATION", message: "too long", fields: { message: ["x"] } });
  });

  it("a command without a reply in time fails with TIMEOUT; a lost connection fails the others with DISCONNECTED", async () => {
    const p = new PendingReplies();
    const late = p.wait(p.nextId(), 1000);
    const lost = p.wait(p.nextId(), 5000);
    vi.advanceTimersByTime(1000);
    await expect(late).rejects.toMatchObject({ code: "TIMEOUT" });
    p.rejectAll("connection lost");
    await expect(lost).rejects.toMatchObject({ code: "DISCONNECTED", message: "connection lost" });
  });

  it("a reply nobody waits for returns its data or throws its error (an SSE command's answer)", () => {
    const p = new PendingReplies();
    expect(p.settle({ type: "reply", id: null, ok: true, data: 3 })).toBe(3);
    expect(() => p.settle({ type: "reply", id: "c9", ok: false, error: { code: "FORBIDDEN", message: "no" } })).toThrow(LiveCommandError);
  });
});

/** A browser WebSocket stand-in: records what the transport opens and sends; the test plays the server. */
class FakeSocket {
  static readonly OPEN = 1;
  static opened: FakeSocket[] = [];
  readyState = 0;
  sent: unknown[] = [];
  closedWith: number | undefined | null = null;
  onopen: (() => void) | null = null;
  onmessage: ((ev: { data: string }) => void) | null = null;
  onclose: ((ev: { code: number }) => void) | null = null;
  constructor(readonly url: string) {
    FakeSocket.opened.push(this);
  }
  send(data: string) {
    this.sent.push(JSON.parse(data));
  }
  close(code?: number) {
    this.closedWith = code;
    this.readyState = 3;
  }
  // server side
  accept(frames: object[]) {
    this.readyState = 1;
    this.onopen?.();
    for (const f of frames) this.onmessage?.({ data: JSON.stringify(f) });
  }
  drop(code: number) {
    this.readyState = 3;
    this.onclose?.({ code });
  }
  get last() {
    return new URL(this.url).searchParams.get("last");
  }
}

describe("LiveTransport over a websocket", () => {
  beforeEach(() => {
    vi.useFakeTimers();
    FakeSocket.opened = [];
    vi.stubGlobal("WebSocket", FakeSocket);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  const start = (hooks: LiveTransportHooks = {}, last?: Record<string, string>) => {
    const t = new LiveTransport({ baseUrl: "http://app.test", auth: () => ({ visitor: "tok" }), last, commandTimeoutMs: 10_000, hooks });
    t.connect();
    return t;
  };
  const opened = async (n: number) => {
    await vi.waitFor(() => expect(FakeSocket.opened).toHaveLength(n));
    return FakeSocket.opened[n - 1];
  };

  it("resumes after a drop from the last id seen, once the 10 s countdown ran out", async () => {
    const waiting: number[] = [];
    const events: string[] = [];
    const t = start({ waiting: (s) => waiting.push(s), frame: (f) => f.type === "event" && events.push(String(f.id)) }, { room: "1-0" });
    const first = await opened(1);
    expect(first.url).toBe("ws://app.test/realtime/ws?visitor=tok&last=room%3A1-0");
    first.accept([
      { type: "welcome", connection_id: "k1", cursors: { room: "0-5" } },
      { type: "event", stream: "room", id: "2-0", event: "send", data: {} },
      { type: "event", stream: "room", id: "3-0", event: "send", data: {} },
    ]);
    expect(events).toEqual(["2-0", "3-0"]);
    expect(t.connectionId).toBe("k1");
    first.drop(1006);
    expect(waiting).toEqual([10]);
    expect(t.idle).toBe(false);
    vi.advanceTimersByTime(9_999);
    expect(FakeSocket.opened).toHaveLength(1);
    vi.advanceTimersByTime(1);
    const second = await opened(2);
    expect(waiting).toEqual([10, 9, 8, 7, 6, 5, 4, 3, 2, 1]);
    expect(second.last).toBe("room:3-0");
  });

  it("a close code the client treats as final (null) stays down; close() rejects what waits for a reply", async () => {
    const t = start({ closed: (code) => (code === 4401 ? null : `closed ${code}`) });
    const ws = await opened(1);
    ws.accept([{ type: "welcome", connection_id: "k1", cursors: {} }]);
    const reply = t.command("read", {});
    expect(ws.sent).toEqual([{ type: "command", id: "c1", command: "read", payload: {} }]);
    ws.drop(4401);
    await expect(reply).rejects.toMatchObject({ code: "DISCONNECTED" });
    expect(t.idle).toBe(true);
    vi.advanceTimersByTime(30_000);
    expect(FakeSocket.opened).toHaveLength(1);

    t.connect();
    const again = await opened(2);
    again.accept([]);
    const pending = t.command("send", { message: "oi" });
    t.close(1000);
    expect(again.closedWith).toBe(1000);
    await expect(pending).rejects.toMatchObject({ code: "DISCONNECTED", message: "closed" });
    await expect(t.command("send", {})).rejects.toMatchObject({ code: "DISCONNECTED" });
  });

  it("commands fail at once while disconnected (no queue: the clients have their own fallback)", async () => {
    const t = start();
    await expect(t.command("send", { message: "oi" })).rejects.toBeInstanceOf(LiveCommandError);
    const ws = await opened(1);
    ws.accept([]);
    expect(ws.sent).toEqual([]);
  });
});
