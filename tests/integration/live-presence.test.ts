/**
 * Automatic distribution follows presence (issue 12 item 8): only agents with a live connection
 * (websocket open on the realtime process), AVAILABLE and under capacity get rooms; when an
 * agent's last connection closes, after LIVE_DISCONNECT_GRACE_SECONDS the rooms they have not
 * answered go back to the queue (and to another connected agent), the ones they answered stay;
 * a reconnect within the grace keeps everything. A private stack (api, worker, realtime) with a
 * grace of 2 s.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LiveClient, wsUrl } from "../support/live-client";
import { startStack, type Stack } from "../support/stack";
import { closeLiveRooms, setLiveSettings } from "../support/factories";

const GRACE_MS = 2000;
let stack: Stack;
let accountId: string;
let widgetKey: string;
type Agent = { userId: string; token: string };
let admin: Agent;
let other: Agent;
const clients: LiveClient[] = [];

async function agent(email: string): Promise<Agent> {
  const res = await stack.api("/api/auth/login", { body: { email, password: "Demo!Mensa#2026" } });
  expect(res.status).toBe(200);
  const [{ id }] = await stack.query<{ id: string }>(`SELECT id FROM users WHERE email = $1`, [email]);
  return { userId: id, token: res.body.token };
}

async function connect(a: Agent) {
  const c = new LiveClient(wsUrl(stack.realtimeUrl, { token: a.token, account: accountId }), { url: stack.redisUrl, prefix: stack.redisPrefix });
  clients.push(c);
  await c.welcome();
  return c;
}

let visitors = 0;
async function visitor() {
  const res = await stack.api(`/api/widget/${widgetKey}/messages`, { body: { name: `Visitante ${++visitors}`, message: "Olá, alguém aí?" } });
  expect(res.status).toBe(200);
  return res.body.room.id as string;
}

const room = async (id: string) => (await stack.query<{ status: string; agent_id: string | null }>(`SELECT status, agent_id FROM live_rooms WHERE id = $1`, [id]))[0];
const events = async (id: string) => (await stack.query<{ type: string }>(`SELECT type FROM live_room_events WHERE room_id = $1 ORDER BY created_at, id`, [id])).map((e) => e.type);
const available = async (a: Agent) => expect((await stack.api("/api/webchat/status", { method: "PUT", body: { status: "AVAILABLE" }, token: a.token })).status).toBe(200);

/** Every socket of an earlier test closed, every room closed. */
async function reset() {
  for (const c of clients.splice(0)) await c.close().catch(() => undefined);
  await closeLiveRooms(accountId, stack.query);
}

beforeAll(async () => {
  stack = await startStack({ realtime: true, env: { LIVE_DISCONNECT_GRACE_SECONDS: String(GRACE_MS / 1000) } });
  [{ account_id: accountId }] = await stack.query<{ account_id: string }>(
    `SELECT m.account_id FROM memberships m JOIN users u ON u.id = m.user_id WHERE u.email = 'admin@demo.example'`,
  );
  widgetKey = await setLiveSettings(accountId, { acceptanceOption: "automatic", queuedEnabled: true, defaultCapacity: 3 }, stack.query);
  // Distribution is what this file is about: the demo's welcome flow (seeds/demo.ts) would hold new rooms as BOT.
  await stack.query(`UPDATE flows SET status = 'inactive' WHERE account_id = $1 AND status = 'active'`, [accountId]);
  admin = await agent("admin@demo.example");
  other = await agent("agent@demo.example");
  // The agent became available first: the least-busy order (then status time) prefers them.
  await available(other);
  await available(admin);
}, 180_000);

afterAll(async () => {
  for (const c of clients) await c.close().catch(() => undefined);
  await stack?.stop();
});

describe("distribution follows presence", () => {
  it("gives rooms only to the connected agent; when their socket closes, after the grace their unanswered room returns to the queue and to another connected agent", async () => {
    await reset();
    const adminSocket = await connect(admin);
    const waiting = await visitor();
    const answered = await visitor();
    await expect.poll(() => room(waiting), { timeout: 10_000 }).toEqual({ status: "OPEN", agent_id: admin.userId });
    await expect.poll(() => room(answered), { timeout: 10_000 }).toEqual({ status: "OPEN", agent_id: admin.userId });
    // The other agent is AVAILABLE with room to spare, but has no connection: nothing for them.
    expect((await stack.query(`SELECT 1 FROM live_rooms WHERE account_id = $1 AND agent_id = $2`, [accountId, other.userId])).length).toBe(0);

    // The admin answers one of the two.
    expect((await stack.api("/api/omni/messages", { body: { room_id: answered, message: "Olá! Já vou ver." }, token: admin.token })).status).toBe(200);

    // The other agent connects now (the queue is empty), then the admin's socket closes.
    await connect(other);
    await adminSocket.close();
    const closedAt = Date.now();
    await expect.poll(() => room(waiting), { timeout: 15_000 }).toEqual({ status: "OPEN", agent_id: other.userId });
    expect(Date.now() - closedAt).toBeGreaterThanOrEqual(GRACE_MS - 100);
    expect(await events(waiting)).toEqual(expect.arrayContaining(["agent_absent"]));
    expect((await events(waiting)).slice(-2)).toEqual(["agent_absent", "assigned"]);
    // The answered one stays with the admin.
    expect(await room(answered)).toEqual({ status: "OPEN", agent_id: admin.userId });
  });

  it("a reconnect within the grace keeps the rooms; an agent who stays away loses theirs", async () => {
    await reset();
    const otherSocket = await connect(other);
    const adminSocket = await connect(admin);
    const first = await visitor();
    const second = await visitor();
    // One each (least busy first).
    await expect.poll(async () => [(await room(first)).agent_id, (await room(second)).agent_id].sort(), { timeout: 10_000 }).toEqual([admin.userId, other.userId].sort());
    const adminRoom = (await room(first)).agent_id === admin.userId ? first : second;
    const otherRoom = adminRoom === first ? second : first;

    // Both sockets drop together; the admin comes back at once, the other agent does not.
    await Promise.all([adminSocket.close(), otherSocket.close()]);
    await connect(admin);
    // Once the grace has passed for the other agent (their room returns to the queue — and so to the
    // admin, the one online), the admin's own room is still theirs.
    await expect.poll(async () => (await events(otherRoom)).includes("agent_absent"), { timeout: 15_000 }).toBe(true);
    await expect.poll(() => room(otherRoom), { timeout: 10_000 }).toEqual({ status: "OPEN", agent_id: admin.userId });
    expect(await room(adminRoom)).toEqual({ status: "OPEN", agent_id: admin.userId });
    expect(await events(adminRoom)).not.toContain("agent_absent");
  });
});
