/**
 * The realtime service (issue 5, ADR 015) with two realtime processes of its own behind the
 * run's Redis: websocket clients on each get every live event exactly once and in order,
 * reconnecting with their last ids gets exactly what they missed, wrong credentials are refused,
 * "already connected elsewhere" and its take-over work across processes, and the SSE fallback
 * carries the same events. Events are published with the product's own publishLive.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { giveOmni, login, registerPerson, type Person } from "../support/api";
import { freePort, waitFor } from "../support/net";
import { LiveClient as Client, wsUrl } from "../support/live-client";
import { addMember } from "../support/factories";

// The product code used below (publishLive, tickets, visitor tokens) reads this run's Redis.
process.env.REDIS_URL = inject("redisUrl");
process.env.REDIS_PREFIX = inject("redisPrefix");
process.env.DATABASE_URL = inject("databaseUrl");

const { publishLive, accountLiveStream } = await import("../../api/live/streams");
const { issueStreamTicket } = await import("../../api/realtime/tickets");
const { issueVisitorToken } = await import("../../api/live/visitor-tokens");
const { dispatchLiveCommand, registerLiveCommand, unregisterLiveCommand } = await import("../../api/live/commands");
const { AppError } = await import("../../api/lib/errors");
const { redis, closeRedis } = await import("../../api/lib/redis");
const { notificationStream } = await import("../../api/notifications/services");

const root = resolve(__dirname, "..", "..");
const bun = resolve(root, "node_modules", ".bin", "bun");

/** An SSE reader collecting `{id, event, data}` blocks. */
async function sse(url: string, lastEventId?: string) {
  const controller = new AbortController();
  const res = await fetch(url, { headers: lastEventId ? { "Last-Event-ID": lastEventId } : {}, signal: controller.signal });
  const blocks: Array<{ id?: string; event?: string; data: any }> = [];
  const done = (async () => {
    if (!res.ok || !res.body) return;
    const reader = res.body.getReader();
    const dec = new TextDecoder();
    let buf = "";
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buf += dec.decode(value, { stream: true });
        let i: number;
        while ((i = buf.indexOf("\n\n")) >= 0) {
          const block = buf.slice(0, i);
          buf = buf.slice(i + 2);
          const f: Record<string, string> = {};
          for (const line of block.split("\n")) {
            const m = line.match(/^(id|event|data): ?(.*)$/);
            if (m) f[m[1]] = m[2];
          }
          if (f.data) blocks.push({ id: f.id, event: f.event, data: JSON.parse(f.data) });
        }
      }
    } catch {
      /* aborted */
    }
  })();
  return {
    res,
    blocks,
    async until(pred: () => boolean, what: string, ms = 8000) {
      const end = Date.now() + ms;
      while (!pred()) {
        if (Date.now() > end) throw new Error(`timed out waiting for ${what}; blocks: ${JSON.stringify(blocks).slice(0, 2000)}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    async close() {
      controller.abort();
      await done;
    },
  };
}

const procs: ChildProcess[] = [];
let rt: string[] = [];
let owner: Person;
let agent: Person;
let other: Person;
let agentToken: string;

const ticketFor = (p: Person, accountId = owner.accountId) => issueStreamTicket({ userId: p.userId, accountId });

beforeAll(async () => {
  const ports = [await freePort(), await freePort()];
  for (const port of ports) {
    const child = spawn(bun, ["realtime/server.ts"], {
      cwd: root,
      env: {
        ...process.env,
        NODE_ENV: "test",
        DATABASE_URL: inject("databaseUrl"),
        REDIS_URL: inject("redisUrl"),
        REDIS_PREFIX: inject("redisPrefix"),
        REALTIME_PORT: String(port),
      },
      stdio: ["ignore", "ignore", "pipe"],
    });
    child.stderr?.on("data", (c: Buffer) => process.stderr.write(`[realtime ${port}] ${c}`));
    procs.push(child);
  }
  rt = ports.map((p) => `http://127.0.0.1:${p}`);
  await Promise.all(rt.map((u) => waitFor(`${u}/realtime/health`, 60, 100)));

  // A fresh account with the omni plan: its owner (a supervisor), an agent and a non-agent analyst.
  [owner, agent, other] = await Promise.all([registerPerson("rt-owner"), registerPerson("rt-agent"), registerPerson("rt-analyst")]);
  await giveOmni(owner.accountId);
  await addMember(owner.accountId, agent.userId, { role: "agent", isAgent: true });
  await addMember(owner.accountId, other.userId, { role: "analyst", isAgent: false });
  agentToken = (await login(agent.email, agent.password)).token;
});

afterAll(async () => {
  for (const p of procs) p.kill("SIGTERM");
  await closeRedis();
});

describe("realtime fan-out across two processes", () => {
  it("delivers every event once, in order, to each client wherever it is connected; agents see theirs, supervisors all, visitors their room", async () => {
    const room = "11111111-1111-4111-8111-111111111111";
    const visitorToken = await issueVisitorToken(owner.accountId, room);
    const clients = {
      agent: new Client(wsUrl(rt[0], { ticket: await ticketFor(agent) })),
      owner: new Client(wsUrl(rt[1], { ticket: await ticketFor(owner) })),
      visitor1: new Client(wsUrl(rt[0], { visitor: visitorToken })),
      visitor2: new Client(wsUrl(rt[1], { visitor: visitorToken })),
    };
    const welcomes = await Promise.all(Object.values(clients).map((c) => c.welcome()));
    expect(welcomes.map((w) => [w.kind, w.supervisor])).toEqual([
      ["agent", false],
      ["agent", true],
      ["visitor", false],
      ["visitor", false],
    ]);

    const published: Array<{ n: number; to: "*" | string[]; visitor: boolean }> = [];
    for (let n = 0; n < 40; n++) {
      const to = n % 4 === 0 ? [other.userId] : n % 4 === 1 ? [agent.userId, other.userId] : "*";
      published.push({ n, to, visitor: n % 3 === 0 });
    }
    // In a few pipelines, as the use-cases publish them.
    for (let i = 0; i < published.length; i += 10) {
      await publishLive(published.slice(i, i + 10).map((p) => ({ accountId: owner.accountId, roomId: room, event: "send", data: { n: p.n }, to: p.to, visitor: p.visitor })));
    }
    const forAgent = published.filter((p) => p.to === "*" || p.to.includes(agent.userId)).map((p) => p.n);
    const forVisitor = published.filter((p) => p.visitor).map((p) => p.n);
    await clients.agent.until((c) => c.events("account").length >= forAgent.length, "agent events");
    await clients.owner.until((c) => c.events("account").length >= published.length, "owner events");
    await clients.visitor1.until((c) => c.events("room").length >= forVisitor.length, "visitor1 events");
    await clients.visitor2.until((c) => c.events("room").length >= forVisitor.length, "visitor2 events");
    // Signal that nothing more is on its way: a marker published after them (to all, visitors
    // included) reaches every client, so each was sent everything before it — exactly once.
    await publishLive([{ accountId: owner.accountId, roomId: room, event: "send", data: { n: "end" }, to: "*", visitor: true }]);
    for (const c of Object.values(clients)) await c.until((x) => x.events().some((f) => f.data.n === "end"), "the end marker");

    expect(clients.agent.events().map((f) => f.data.n)).toEqual([...forAgent, "end"]);
    expect(clients.owner.events().map((f) => f.data.n)).toEqual([...published.map((p) => p.n), "end"]);
    expect(clients.visitor1.events().map((f) => f.data.n)).toEqual([...forVisitor, "end"]);
    expect(clients.visitor2.events().map((f) => f.data.n)).toEqual([...forVisitor, "end"]);
    // Each frame names its stream and stream id; ids only grow.
    const ids = clients.owner.events().map((f) => f.id as string);
    expect(new Set(ids).size).toBe(ids.length);
    const num = (id: string) => id.split("-").map(Number);
    expect(ids).toEqual([...ids].sort((a, b) => num(a)[0] - num(b)[0] || num(a)[1] - num(b)[1]));
    expect(clients.agent.events()[0]).toMatchObject({ type: "event", stream: "account", event: "send", room_id: room });
    expect(clients.visitor1.events()[0]).toMatchObject({ stream: "room", id: expect.stringMatching(/^\d+-\d+$/) });

    // Notifications reach agents on their own stream: to all, or personal.
    await redis().xadd(notificationStream(owner.accountId), "*", "event", "new-notification", "id", "7", "user", agent.userId);
    await redis().xadd(notificationStream(owner.accountId), "*", "event", "new-notification", "id", "8", "user", owner.userId);
    await clients.agent.until((c) => c.events("notifications").length >= 1, "agent notification");
    await clients.owner.until((c) => c.events("notifications").length >= 1, "owner notification");
    // Signal: a notification to all, added after them, reaches both (the visitors share their processes).
    await redis().xadd(notificationStream(owner.accountId), "*", "event", "new-notification", "id", "end", "user", "*");
    for (const c of [clients.agent, clients.owner]) await c.until((x) => x.events("notifications").some((f) => f.data.id === "end"), "the end notification");
    expect(clients.agent.events("notifications").map((f) => f.data.id)).toEqual(["7", "end"]);
    expect(clients.owner.events("notifications").map((f) => f.data.id)).toEqual(["8", "end"]);
    expect(clients.visitor1.events("notifications")).toEqual([]);
    await Promise.all(Object.values(clients).map((c) => c.close()));
  });

  it("a client that reconnects with its last ids gets exactly what it missed, then live events", async () => {
    const first = new Client(wsUrl(rt[0], { ticket: await ticketFor(agent) }));
    await first.welcome();
    await publishLive([1, 2, 3].map((n) => ({ accountId: owner.accountId, event: "queued" as const, data: { n } })));
    await first.until((c) => c.events().length >= 3, "first events");
    const last = first.events().at(-1)!.id as string;
    await first.close();

    // Missed while away: four for everyone or for this agent, one for someone else.
    await publishLive([
      { accountId: owner.accountId, event: "queued", data: { n: 4 } },
      { accountId: owner.accountId, event: "assigned", data: { n: 5 }, to: [agent.userId] },
      { accountId: owner.accountId, event: "assigned", data: { n: 6 }, to: [other.userId] },
      { accountId: owner.accountId, event: "queued", data: { n: 7 } },
      { accountId: owner.accountId, event: "close", data: { n: 8 }, to: "*" },
    ]);
    const second = new Client(wsUrl(rt[1], { ticket: await ticketFor(agent), last: `account:${last}` }));
    const w = await second.welcome();
    expect(w.cursors.account).toBe(last);
    await second.until((c) => c.events().length >= 4, "missed events");
    await publishLive([{ accountId: owner.accountId, event: "queued", data: { n: 9 } }]);
    await second.until((c) => c.events().length >= 5, "live event after catch-up");
    // Signal: one more live event arrives, so nothing (no duplicate of the catch-up) came before it.
    await publishLive([{ accountId: owner.accountId, event: "queued", data: { n: 10 } }]);
    await second.until((c) => c.events().some((f) => f.data.n === 10), "the end marker");
    expect(second.events().map((f) => f.data.n)).toEqual([4, 5, 7, 8, 9, 10]);
    // The welcome's cursors are the resume point when nothing has arrived yet.
    const all = (await redis().xrange(accountLiveStream(owner.accountId), "-", "+")).map(([id]) => id);
    expect(second.events().map((f) => f.id)).toEqual(all.slice(all.indexOf(last) + 1).filter((_, i) => i !== 2));
    await second.close();
  });
});

describe("realtime authentication", () => {
  it("accepts a stream ticket, a JWT access token and a visitor token; refuses wrong ones with 4401 (websocket) or 401 (SSE)", async () => {
    const good = new Client(wsUrl(rt[0], { token: agentToken, account: owner.accountId }));
    expect(await good.welcome()).toMatchObject({ kind: "agent", live: true });
    await good.close();

    const tampered = agentToken.slice(0, -3) + (agentToken.endsWith("AAA") ? "BBB" : "AAA");
    const wrong: Record<string, string>[] = [{ ticket: "not-a-ticket" }, { token: tampered }, { token: "abc.def.ghi" }, { visitor: "not-a-visitor-token" }, {}];
    for (const params of wrong) {
      const c = new Client(wsUrl(rt[1], params));
      expect((await c.closed).code, JSON.stringify(params)).toBe(4401);
      expect(c.frames).toEqual([]);
      const res = await fetch(`${rt[0]}/realtime/sse?${new URLSearchParams(params)}`);
      expect(res.status, JSON.stringify(params)).toBe(401);
      await res.body?.cancel();
    }
    // A JWT for an account the person does not belong to is refused too.
    const stranger = new Client(wsUrl(rt[0], { token: (await login(other.email, other.password)).token, account: "00000000-0000-4000-8000-000000000000" }));
    expect((await stranger.closed).code).toBe(4401);
  });

  it("a person without the live audience (an analyst) reads notifications only", async () => {
    const c = new Client(wsUrl(rt[0], { ticket: await ticketFor(other) }));
    expect(await c.welcome()).toMatchObject({ live: false, cursors: { notifications: expect.any(String) } });
    expect(Object.keys((await c.welcome()).cursors)).toEqual(["notifications"]);
    await c.close();
  });
});

describe("already connected elsewhere", () => {
  it("a second agent connection is told so; its take-over disconnects the first one on the other process", async () => {
    const first = new Client(wsUrl(rt[0], { ticket: await ticketFor(agent) }));
    await first.welcome();
    const second = new Client(wsUrl(rt[1], { token: agentToken, account: owner.accountId }));
    await second.until((c) => c.frames.some((f) => f.type === "already_connected"), "already_connected");
    expect(second.frames.some((f) => f.type === "welcome")).toBe(false);
    // Nothing reaches the waiting connection, and its commands are refused.
    await publishLive([{ accountId: owner.accountId, event: "queued", data: { n: "before" } }]);
    await first.until((c) => c.events().length >= 1, "first gets it");
    expect(second.events()).toEqual([]);
    expect((await second.command("c1", "heart_beat")).error.code).toBe("ALREADY_CONNECTED");

    second.send({ type: "takeover" });
    const closed = await first.closed;
    expect(closed.code).toBe(4409);
    expect(first.frames.at(-1)).toMatchObject({ type: "disconnect", reason: "connected_elsewhere" });
    await second.welcome();
    await publishLive([{ accountId: owner.accountId, event: "queued", data: { n: "after" } }]);
    await second.until((c) => c.events().some((f) => f.data.n === "after"), "second gets it");
    // The first connection is closed (awaited above): no frame can reach it any more.
    expect(first.events().map((f) => f.data.n)).toEqual(["before"]);

    // A third one sees "already connected" again; once the holder closes, a new one connects at once.
    await second.close();
    const third = new Client(wsUrl(rt[0], { ticket: await ticketFor(agent) }));
    await third.welcome();
    await third.close();
  });

  it("the same client reconnecting with its previous connection id takes over without a prompt", async () => {
    const first = new Client(wsUrl(rt[0], { ticket: await ticketFor(agent) }));
    const w = await first.welcome();
    const again = new Client(wsUrl(rt[1], { ticket: await ticketFor(agent), replacing: w.connection_id }));
    await again.welcome();
    expect((await first.closed).code).toBe(4409);
    await again.close();
  });
});

describe("commands", () => {
  it("answers heart_beat, unknown commands, and runs registered ones (a room use-case's error comes back translated) with the request's id", async () => {
    const c = new Client(wsUrl(rt[0], { ticket: await ticketFor(agent), lang: "en" }));
    await c.welcome();
    const beat = await c.command("b1", "heart_beat");
    expect(beat).toMatchObject({ type: "reply", id: "b1", ok: true, data: { at: expect.any(Number) } });
    expect(await c.command("u1", "fly_away")).toEqual({
      type: "reply",
      id: "u1",
      ok: false,
      error: { code: "UNKNOWN_COMMAND", message: "Unknown command: fly_away", params: { command: "fly_away" } },
    });
    const close = await c.command("x1", "close", { room_id: "r" });
    expect(close).toMatchObject({ id: "x1", ok: false, error: { code: "NOT_FOUND" } });
    await c.close();

    // Over the SSE fallback's POST.
    const res = await fetch(`${rt[1]}/realtime/command?${new URLSearchParams({ ticket: await ticketFor(agent) })}`, {
      method: "POST",
      body: JSON.stringify({ id: 9, command: "heart_beat" }),
    });
    expect(await res.json()).toMatchObject({ id: 9, ok: true });
  });

  it("dispatches to a registered handler with who calls, and translates its AppError", async () => {
    const seen: unknown[] = [];
    registerLiveCommand("transfer_agent", (caller, payload) => {
      seen.push([caller.kind, caller.kind === "agent" ? caller.ctx.actor.userId : null, payload]);
      if ((payload as { to?: string }).to === "nobody") throw new AppError("NOT_FOUND");
      return { transferred: true };
    });
    const actor = { userId: agent.userId, accountId: owner.accountId } as any;
    const conn = { kind: "agent" as const, locale: "en", caller: async () => ({ kind: "agent" as const, ctx: { actor }, connectionId: "c" }) };
    expect(await dispatchLiveCommand(conn, { id: "a", command: "transfer_agent", payload: { to: "u2" } })).toEqual({
      type: "reply",
      id: "a",
      ok: true,
      data: { transferred: true },
    });
    const failed = await dispatchLiveCommand(conn, { id: "b", command: "transfer_agent", payload: { to: "nobody" } });
    expect(failed).toMatchObject({ id: "b", ok: false, error: { code: "NOT_FOUND", message: expect.any(String) } });
    expect(seen).toEqual([
      ["agent", agent.userId, { to: "u2" }],
      ["agent", agent.userId, { to: "nobody" }],
    ]);
    // Agents-only by default: a visitor is refused before the handler runs.
    const visitor = {
      kind: "visitor" as const,
      locale: "en",
      caller: async () => ({ kind: "visitor" as const, ctx: {}, visitor: { accountId: owner.accountId, roomId: "r" }, connectionId: "v" }),
    };
    expect(await dispatchLiveCommand(visitor, { id: 3, command: "transfer_agent", payload: {} })).toMatchObject({ id: 3, ok: false, error: { code: "FORBIDDEN" } });
    expect(seen).toHaveLength(2);
    unregisterLiveCommand("transfer_agent");
    expect(await dispatchLiveCommand(conn, { id: "c", command: "transfer_agent" })).toMatchObject({ ok: false, error: { code: "COMMAND_UNAVAILABLE" } });
  });
});

describe("SSE fallback", () => {
  it("carries the same events as the websocket, and Last-Event-ID resumes every stream", async () => {
    // The agent on a websocket, the owner (a supervisor: sees the agent's entries too) on SSE.
    const ws = new Client(wsUrl(rt[0], { ticket: await ticketFor(agent) }));
    await ws.welcome();
    const first = await sse(`${rt[1]}/realtime/sse?${new URLSearchParams({ ticket: await ticketFor(owner) })}`);
    expect(first.res.headers.get("content-type")).toContain("text/event-stream");
    await first.until(() => first.blocks.some((b) => b.data.type === "welcome"), "sse welcome");
    await publishLive([1, 2, 3].map((n) => ({ accountId: owner.accountId, event: "send" as const, data: { n }, to: [agent.userId] })));
    await redis().xadd(notificationStream(owner.accountId), "*", "event", "new-notification", "id", "42", "user", "*");
    await ws.until((c) => c.events().length >= 4, "ws events");
    await first.until(() => first.blocks.filter((b) => b.data.type === "event").length >= 4, "sse events");
    // The same frames per stream (two streams interleave in whatever order each is read).
    const sseEvents = first.blocks.filter((b) => b.data.type === "event").map((b) => b.data);
    for (const stream of ["account", "notifications"]) expect(sseEvents.filter((f) => f.stream === stream)).toEqual(ws.events(stream));
    expect(sseEvents).toHaveLength(4);
    const connectionId = first.blocks.find((b) => b.data.type === "welcome")!.data.connection_id;
    const lastId = first.blocks.at(-1)!.id!;
    expect(lastId).toContain("account:");
    expect(lastId).toContain("notifications:");
    await first.close();

    await publishLive([{ accountId: owner.accountId, event: "send", data: { n: 4 } }]);
    const second = await sse(`${rt[0]}/realtime/sse?${new URLSearchParams({ ticket: await ticketFor(owner), replacing: connectionId })}`, lastId);
    await second.until(() => second.blocks.filter((b) => b.data.type === "event").length >= 1, "resumed sse");
    // Signal: a live event published now arrives, so everything resumed before it has been sent.
    await publishLive([{ accountId: owner.accountId, event: "send", data: { n: 5 } }]);
    await second.until(() => second.blocks.some((b) => b.data.type === "event" && b.data.data.n === 5), "the end marker");
    expect(second.blocks.filter((b) => b.data.type === "event").map((b) => b.data.data.n)).toEqual([4, 5]);
    await second.close();
    await ws.close();
  });
});

describe("through the web process", () => {
  it("relays websocket upgrades on /realtime/* both ways, close codes included", async () => {
    const web = inject("webUrl");
    const c = new Client(wsUrl(web, { ticket: await ticketFor(owner), lang: "en" }));
    await c.welcome();
    await publishLive([{ accountId: owner.accountId, event: "room_updated", data: { n: "web" } }]);
    await c.until((x) => x.events().some((f) => f.data.n === "web"), "event through the web process");
    expect((await c.command("w1", "heart_beat")).ok).toBe(true);
    await c.close();
    const refused = new Client(wsUrl(web, { ticket: "nope" }));
    expect((await refused.closed).code).toBe(4401);
  });
});
