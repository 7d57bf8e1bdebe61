/**
 * /notifications: the translated list, unread highlight, filters, keyset "load more", mark read
 * (one / all), and the live stream behind it (SSE through the web process, resumable with
 * Last-Event-ID). Each test works on a fresh account.
 */
import type Redis from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inject } from "vitest";
import { query, uniqueEmail } from "../support/db";
import { location, signIn, type WebClient } from "../support/web";
import { makeNotification, setUserByEmail } from "../support/factories";
import { openRedis, keysOf } from "../support/redis";

const PASSWORD = "Fresh!Pwd#2026x";

async function freshOwner(tag: string) {
  const email = uniqueEmail(tag);
  const res = await fetch(new URL("/api/auth/register", inject("webUrl")), {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ firstName: "Nina", lastName: "Alves", email, password: PASSWORD, confirmPassword: PASSWORD, companyName: `Empresa ${tag}`, acceptTerms: true }),
  });
  expect(res.status).toBe(201);
  const user = await setUserByEmail(email, { verified: true });
  return { c: await signIn(email, PASSWORD), email, userId: user.id, accountId: user.current_account_id };
}

async function addNotification(accountId: string, userId: string | null, kind: string, params: Record<string, unknown> = {}) {
  return makeNotification(accountId, { userId, kind, params });
}

const itemIds = (html: string) => [...html.matchAll(/data-notification-id="(\d+)"/g)].map((m) => Number(m[1]));

describe("/notifications list", () => {
  let me: Awaited<ReturnType<typeof freshOwner>>;
  beforeAll(async () => {
    me = await freshOwner("notif");
  });

  it("shows the person's notifications translated, unread ones highlighted, others' hidden", async () => {
    const mine = await addNotification(me.accountId, me.userId, "user_joined", { name: "Carla Souza" });
    const everyone = await addNotification(me.accountId, null, "invitation_accepted", { name: "Davi Rocha" });
    const other = await freshOwner("notif-other");
    const foreign = await addNotification(other.accountId, other.userId, "user_joined", { name: "Pessoa Estranha" });

    const { res, html } = await me.c.page("/notifications");
    expect(res.status).toBe(200);
    expect(html).toContain("Carla Souza entrou na conta");
    expect(html).toContain("Davi Rocha aceitou o convite");
    expect(html).not.toContain("Pessoa Estranha");
    const ids = itemIds(html);
    expect(ids).toContain(mine);
    expect(ids.indexOf(everyone)).toBeGreaterThanOrEqual(0);
    expect(ids.indexOf(everyone)).toBeLessThan(ids.indexOf(mine)); // newest first
    expect(html).toMatch(new RegExp(`data-notification-id="${mine}"[^>]*data-unread="true"`));
    expect(itemIds(html)).not.toContain(foreign);
    expect(html).toMatch(/data-stream-ticket="[A-Za-z0-9_-]{20,}"/);
  });

  it("falls back to a generic text for an unknown kind", async () => {
    await addNotification(me.accountId, me.userId, "kind_from_the_future", {});
    const { html } = await me.c.page("/notifications");
    expect(html).toContain("Você tem uma nova notificação");
  });

  it("marks one as read (read_at set, no longer highlighted, gone from the unread filter)", async () => {
    const id = await addNotification(me.accountId, me.userId, "welcome");
    const res = await me.c.post("/notifications?index&filter=unread", { intent: "read", id: String(id) });
    expect(res.status).toBe(302);
    expect(location(res)).toBe("/notifications?filter=unread");
    const [row] = await query<{ read_at: Date | null }>("SELECT read_at FROM notifications WHERE id = $1", [id]);
    expect(row.read_at).not.toBeNull();
    const all = await me.c.page("/notifications");
    expect(all.html).toContain("Notificações marcadas como lidas");
    expect(all.html).toMatch(new RegExp(`data-notification-id="${id}"(?![^>]*data-unread)`));
    const unread = await me.c.page("/notifications?filter=unread");
    expect(itemIds(unread.html)).not.toContain(id);
    expect(itemIds(unread.html).length).toBeGreaterThan(0);
  });

  it("cannot mark another account's notification", async () => {
    const other = await freshOwner("notif-foreign");
    const foreign = await addNotification(other.accountId, other.userId, "welcome");
    const res = await me.c.post("/notifications?index", { intent: "read", id: String(foreign) });
    expect(res.status).toBe(302);
    const [row] = await query<{ read_at: Date | null }>("SELECT read_at FROM notifications WHERE id = $1", [foreign]);
    expect(row.read_at).toBeNull();
  });

  it("marks all as read", async () => {
    await addNotification(me.accountId, me.userId, "balance_low", { balance: "R$ 3,00" });
    const res = await me.c.post("/notifications?index", { intent: "read-all" });
    expect(res.status).toBe(302);
    const rows = await query("SELECT id FROM notifications WHERE account_id = $1 AND (user_id = $2 OR user_id IS NULL) AND read_at IS NULL", [me.accountId, me.userId]);
    expect(rows).toHaveLength(0);
    const { html } = await me.c.page("/notifications?filter=unread");
    expect(itemIds(html)).toEqual([]);
    expect(html).toContain("Nenhuma notificação por aqui.");
  });

  it("pages with a keyset 'load more' link (?before=<id>), without gaps or repeats", async () => {
    const fresh = await freshOwner("notif-pages");
    const ids: number[] = [];
    for (let i = 0; i < 25; i++) ids.push(await addNotification(fresh.accountId, fresh.userId, "user_joined", { name: `Pessoa ${i}` }));
    const first = await fresh.c.page("/notifications");
    const page1 = itemIds(first.html);
    expect(page1).toEqual(ids.slice(-20).reverse());
    const more = first.html.match(/href="(\/notifications\?before=\d+)"/)?.[1];
    expect(more).toBe(`/notifications?before=${page1[19]}`);
    const second = await fresh.c.page(more!);
    expect(itemIds(second.html).slice(0, 5)).toEqual(ids.slice(0, 5).reverse());
    expect(itemIds(second.html).some((id) => page1.includes(id))).toBe(false);
  });

  it("refuses mark-read forms without the CSRF token", async () => {
    const id = await addNotification(me.accountId, me.userId, "welcome");
    expect((await me.c.post("/notifications?index", { intent: "read", id: String(id) }, { csrf: null })).status).toBe(403);
    expect((await me.c.post("/notifications?index", { intent: "read-all" }, { csrf: null })).status).toBe(403);
    const [row] = await query<{ read_at: Date | null }>("SELECT read_at FROM notifications WHERE id = $1", [id]);
    expect(row.read_at).toBeNull();
  });
});

type SseEvent = { id: string; event: string; data: Record<string, string> };

/** An open SSE connection through the web process, collecting events as they arrive. */
async function openStream(ticket: string, lastEventId?: string) {
  const controller = new AbortController();
  const res = await fetch(`${inject("webUrl")}/realtime/notifications?ticket=${encodeURIComponent(ticket)}`, {
    headers: { Accept: "text/event-stream", ...(lastEventId ? { "Last-Event-ID": lastEventId } : {}) },
    signal: controller.signal,
  });
  const events: SseEvent[] = [];
  let connected = false;
  const done = (async () => {
    if (!res.body) return;
    const reader = res.body.getReader();
    const decoder = new TextDecoder();
    let buffer = "";
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        let i: number;
        while ((i = buffer.indexOf("\n\n")) >= 0) {
          const block = buffer.slice(0, i);
          buffer = buffer.slice(i + 2);
          if (block.includes(": connected")) connected = true;
          const fields: Record<string, string> = {};
          for (const line of block.split("\n")) {
            const m = line.match(/^(id|event|data): ?(.*)$/);
            if (m) fields[m[1]] = m[2];
          }
          if (fields.event) events.push({ id: fields.id, event: fields.event, data: JSON.parse(fields.data ?? "{}") });
        }
      }
    } catch {
      /* aborted */
    }
  })();
  const waitFor = async (pred: () => boolean, ms = 8000) => {
    const until = Date.now() + ms;
    while (!pred()) {
      if (Date.now() > until) throw new Error(`timed out; events so far: ${JSON.stringify(events)}`);
      await new Promise((r) => setTimeout(r, 25));
    }
  };
  return {
    res,
    events,
    waitFor,
    ready: () => waitFor(() => connected),
    close: async () => {
      controller.abort();
      await done;
    },
  };
}

describe("live notifications (SSE through the web process)", () => {
  let redis: Redis;
  let me: Awaited<ReturnType<typeof freshOwner>>;
  const stream = () => keysOf(inject("redisPrefix")).notificationStream(me.accountId);
  const ticketOf = async (c: WebClient) => (await c.page("/notifications")).html.match(/data-stream-ticket="([^"]+)"/)![1];

  beforeAll(async () => {
    redis = openRedis(inject("redisUrl"));
    me = await freshOwner("notif-live");
  });
  afterAll(async () => {
    await redis.quit();
  });
  /** Without Last-Event-ID the realtime process starts reading at "$" after its hello. Signal that
   * it reads: a probe added now reaches the connection (earlier probes may be missed; the checks
   * below leave probes out). */
  const PROBE = "probe";
  const listening = (s: Awaited<ReturnType<typeof openStream>>) =>
    expect
      .poll(
        async () => {
          const id = await redis.xadd(stream(), "*", "event", "new-notification", "id", PROBE, "user", "*");
          return s
            .waitFor(() => s.events.some((e) => e.id === id), 500)
            .then(
              () => true,
              () => false,
            );
        },
        { timeout: 15_000, interval: 0 },
      )
      .toBe(true);
  const real = (s: Awaited<ReturnType<typeof openStream>>) => s.events.filter((e) => e.data.id !== PROBE);

  it("pushes new-notification events, and a reconnect with Last-Event-ID gets exactly what came after", async () => {
    const ticket = await ticketOf(me.c);
    const first = await openStream(ticket);
    expect(first.res.status).toBe(200);
    expect(first.res.headers.get("content-type")).toContain("text/event-stream");
    await first.ready();
    await listening(first);
    const id1 = await redis.xadd(stream(), "*", "event", "new-notification", "id", "101", "user", "*");
    await first.waitFor(() => real(first).length >= 1);
    expect(real(first)[0]).toEqual({ id: id1, event: "new-notification", data: { event: "new-notification", id: "101", user: "*" } });
    await first.close();

    // Sent while nobody listens: not missed after the reconnect.
    const id2 = await redis.xadd(stream(), "*", "event", "new-notification", "id", "102", "user", me.userId);
    // Someone else's personal notification is never delivered to this person.
    await redis.xadd(stream(), "*", "event", "new-notification", "id", "103", "user", "00000000-0000-0000-0000-000000000000");
    // A reconnect takes a new ticket: tickets are single-use.
    const second = await openStream(await ticketOf(me.c), id1!);
    await second.ready();
    const id4 = await redis.xadd(stream(), "*", "event", "new-notification", "id", "104", "user", "*");
    // Signal: a marker added after everything else arrives, so the process has read (and skipped
    // or sent) every earlier entry; then nothing else came in between.
    const marker = await redis.xadd(stream(), "*", "event", "new-notification", "id", "105", "user", "*");
    await second.waitFor(() => second.events.some((e) => e.id === marker));
    expect(second.events.map((e) => e.id)).toEqual([id2, id4, marker]);
    expect(second.events.map((e) => e.data.id)).toEqual(["102", "104", "105"]);
    await second.close();
  });

  it("announces a notification created by the product's notify path on the same stream", async () => {
    const ticket = await ticketOf(me.c);
    const s = await openStream(ticket);
    await s.ready();
    await listening(s);
    // What notify() does: the row, then the XADD carrying its id.
    const id = await addNotification(me.accountId, me.userId, "user_joined", { name: "Elisa Prado" });
    await redis.xadd(stream(), "MAXLEN", "~", "10000", "*", "event", "new-notification", "id", String(id), "user", me.userId);
    await s.waitFor(() => s.events.some((e) => e.data.id === String(id)));
    await s.close();
    // The list the browser revalidates on that event now has it.
    expect((await me.c.page("/notifications")).html).toContain("Elisa Prado entrou na conta");
  });

  it("hands out tickets from /notifications/ticket to signed-in people only", async () => {
    const res = await me.c.get("/notifications/ticket");
    expect(res.status).toBe(200);
    const { ticket } = (await res.json()) as { ticket: string };
    const s = await openStream(ticket);
    expect(s.res.status).toBe(200);
    await s.close();
    const agent = await signIn("agent@demo.example");
    expect((await agent.get("/notifications/ticket")).status).toBe(200);
    const guest = await fetch(`${inject("webUrl")}/notifications/ticket`, { redirect: "manual" });
    expect(guest.status).toBe(302);
  });

  it("answers 401 to an invalid ticket", async () => {
    const res = await fetch(`${inject("webUrl")}/realtime/notifications?ticket=not-a-real-ticket`);
    expect(res.status).toBe(401);
    const none = await fetch(`${inject("webUrl")}/realtime/notifications`);
    expect(none.status).toBe(401);
  });
});
