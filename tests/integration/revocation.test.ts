/**
 * Revocation (issue 11 items 5 and 6, api/auth/revocation.ts, realtime/revocation.ts): a password
 * change, reset, 2FA change or removal ends the person's other web sessions, refresh tokens and
 * access tokens; stream tickets are single-use, short-lived and die with their session; open
 * websockets and SSE streams close within seconds of logout, removal, a role change or the
 * account's suspension; /realtime/stats is for platform staff only.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { resolve } from "node:path";
import * as OTPAuth from "otpauth";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { api, giveOmni, login, registerPerson, type Person } from "../support/api";
import { lastMailTo, linkIn } from "../support/db";
import { LiveClient, wsUrl } from "../support/live-client";
import { keys } from "../../api/lib/redis-keys";
import { freePort, waitFor } from "../support/net";
import { WebClient, location, signIn } from "../support/web";
import { addLiveAgent, addMember, setAccount } from "../support/factories";

// The product code used below (publishLive, the suspension's revocation event) reads this run's Redis.
process.env.REDIS_URL = inject("redisUrl");
process.env.REDIS_PREFIX = inject("redisPrefix");
process.env.DATABASE_URL = inject("databaseUrl");

const { publishLive } = await import("../../api/live/streams");
const { issueStreamTicket } = await import("../../api/realtime/tickets");
const { redis, closeRedis } = await import("../../api/lib/redis");

const NEXT = "Nova!Chave#2027z";
const rt = () => inject("realtimeUrl");

const signedOut = async (c: WebClient) => location(await c.get("/"))?.startsWith("/login") ?? false;
const signedIn = async (c: WebClient) => (await c.get("/")).status === 200;
const refreshes = async (refresh: string) => (await api("/api/auth/token", { token: refresh })).status === 200;
const accessWorks = async (token: string) => (await api("/api/accounts/info", { token })).status === 200;

/** A verified person with two web sessions (two cookie jars) and an API token pair. */
async function personWithSessions(tag: string) {
  const p = await registerPerson(tag);
  const [a, b] = [await signIn(p.email, p.password), await signIn(p.email, p.password)];
  const tokens = await login(p.email, p.password);
  expect(await signedIn(a)).toBe(true);
  expect(await signedIn(b)).toBe(true);
  expect(await accessWorks(tokens.token)).toBe(true);
  return { p, a, b, tokens };
}

async function ticketOf(c: WebClient) {
  const res = await c.get("/notifications/ticket");
  expect(res.status).toBe(200);
  return ((await res.json()) as { ticket: string }).ticket;
}

/** An SSE reader: the JSON of each `data:` block, and whether the server ended the stream. */
async function openSse(url: string) {
  const controller = new AbortController();
  const res = await fetch(url, { headers: { Accept: "text/event-stream" }, signal: controller.signal });
  const data: any[] = [];
  let ended = !res.ok || !res.body;
  const done = (async () => {
    if (ended) return;
    const reader = res.body!.getReader();
    const dec = new TextDecoder();
    let buf = "";
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buf += dec.decode(value, { stream: true });
        let i: number;
        while ((i = buf.indexOf("\n\n")) >= 0) {
          const m = buf.slice(0, i).match(/^data: ?(.*)$/m);
          buf = buf.slice(i + 2);
          if (m) data.push(JSON.parse(m[1]));
        }
      }
      ended = true;
    } catch {
      /* aborted by us */
    }
  })();
  return {
    res,
    data,
    get ended() {
      return ended;
    },
    close: () => {
      controller.abort();
      return done;
    },
  };
}

describe("a password or 2FA change, a reset or a removal ends the other sessions and tokens", () => {
  it("changing the password keeps the session that changed it and ends the other one, the refresh token and the access token", async () => {
    const { p, a, b, tokens } = await personWithSessions("rv-pass");
    const res = await a.post("/user/settings", { intent: "password", currentPassword: p.password, password: NEXT, confirmPassword: NEXT });
    expect(res.status).toBe(302);
    expect(await signedIn(a)).toBe(true);
    expect(await signedOut(b)).toBe(true);
    expect(await refreshes(tokens.refresh_token!)).toBe(false);
    expect(await accessWorks(tokens.token)).toBe(false);
    // Signing in again works at once (a token issued after the change is valid).
    expect(await accessWorks((await login(p.email, NEXT)).token)).toBe(true);
  });

  it("a password reset ends every session and token", async () => {
    const { p, a, b, tokens } = await personWithSessions("rv-reset");
    const guest = new WebClient();
    await guest.get("/reset-password");
    await guest.post("/reset-password", { email: p.email });
    const link = linkIn(await lastMailTo(p.email), "/reset-verification/");
    const done = await guest.post(link, { token: link.split("/").pop()!, password: NEXT, confirmPassword: NEXT });
    expect(location(done)).toBe("/login");
    expect(await signedOut(a)).toBe(true);
    expect(await signedOut(b)).toBe(true);
    expect(await refreshes(tokens.refresh_token!)).toBe(false);
    expect(await accessWorks(tokens.token)).toBe(false);
  });

  it("enabling 2FA on the web keeps that session and ends the other one and the tokens", async () => {
    const { a, b, tokens } = await personWithSessions("rv-2fa");
    expect((await a.post("/user/settings", { intent: "totp-begin" })).status).toBe(302);
    const secret = (await a.page("/user/settings")).html.match(/data-secret="([A-Z2-7]+)"/)![1];
    const code = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), algorithm: "SHA1", digits: 6, period: 30 }).generate();
    expect((await a.post("/user/settings", { intent: "totp-confirm", code })).status).toBe(302);
    expect(await signedIn(a)).toBe(true);
    expect(await signedOut(b)).toBe(true);
    expect(await refreshes(tokens.refresh_token!)).toBe(false);
    expect(await accessWorks(tokens.token)).toBe(false);
  });

  it("a 2FA change through the API keeps the caller's tokens and ends the others and the web sessions", async () => {
    const { p, a, tokens: other } = await personWithSessions("rv-2fa-api");
    const caller = await login(p.email, p.password);
    const enrol = await api("/api/2fa/enrol", { method: "POST", token: caller.token });
    const code = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(enrol.body.secret), algorithm: "SHA1", digits: 6, period: 30 }).generate();
    expect((await api("/api/2fa/enrol/confirm", { token: caller.token, body: { secret: enrol.body.secret, code } })).status).toBe(200);
    expect(await accessWorks(caller.token)).toBe(true);
    expect(await refreshes(caller.refresh_token!)).toBe(true);
    expect(await accessWorks(other.token)).toBe(false);
    expect(await refreshes(other.refresh_token!)).toBe(false);
    expect(await signedOut(a)).toBe(true);
  });

  it("removal from the account ends the person's sessions and tokens", async () => {
    const owner = await registerPerson("rv-rm-owner");
    const { p, a, b, tokens } = await personWithSessions("rv-rm");
    await addMember(owner.accountId, p.userId, { role: "analyst", isAgent: false });
    const ownerToken = (await login(owner.email, owner.password)).token;
    expect((await api(`/api/users/${p.userId}`, { method: "DELETE", token: ownerToken })).status).toBe(200);
    expect(await signedOut(a)).toBe(true);
    expect(await signedOut(b)).toBe(true);
    expect(await refreshes(tokens.refresh_token!)).toBe(false);
    expect(await accessWorks(tokens.token)).toBe(false);
  });
});

describe("stream tickets", () => {
  it("are single-use and live at most a minute", async () => {
    const p = await registerPerson("rv-ticket");
    const c = await signIn(p.email, p.password);
    const ticket = await ticketOf(c);
    const ttl = await redis().ttl(keys.realtimeTicket(ticket));
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(60);
    const first = await openSse(`${rt()}/realtime/notifications?ticket=${ticket}`);
    expect(first.res.status).toBe(200);
    const second = await openSse(`${rt()}/realtime/notifications?ticket=${ticket}`);
    expect(second.res.status).toBe(401);
    const ws = new LiveClient(wsUrl(rt(), { ticket }));
    expect((await ws.closed).code).toBe(4401);
    await first.close();
  });

  it("of a session that logged out are refused", async () => {
    const p = await registerPerson("rv-ticket-out");
    const c = await signIn(p.email, p.password);
    const ticket = await ticketOf(c);
    expect(location(await c.post("/logout", {}))).toBe("/login");
    expect((await fetch(`${rt()}/realtime/notifications?ticket=${ticket}`)).status).toBe(401);
  });
});

describe("open websockets and SSE streams close when their person loses access", () => {
  let owner: Person;
  let observer: LiveClient;

  beforeAll(async () => {
    owner = await registerPerson("rv-rt-owner");
    await giveOmni(owner.accountId);
    // The owner (a supervisor) watches the account stream: what they receive, a removed agent must not.
    observer = new LiveClient(wsUrl(rt(), { ticket: await issueStreamTicket({ userId: owner.userId, accountId: owner.accountId }) }));
    await observer.welcome();
  });
  afterAll(async () => {
    await observer.close();
  });

  /** An agent of the owner's account, signed in on the web in that account. */
  async function agentOf() {
    const p = await registerPerson("rv-rt-agent");
    await addLiveAgent(owner.accountId, p.userId);
    return { p, web: await signIn(p.email, p.password) };
  }

  /** The agent's live connection (websocket, or SSE) and notification bell stream, both open. */
  async function streamsOf(web: WebClient, live: "ws" | "sse") {
    const bell = await openSse(`${rt()}/realtime/notifications?ticket=${await ticketOf(web)}`);
    expect(bell.res.status).toBe(200);
    if (live === "ws") {
      const ws = new LiveClient(wsUrl(rt(), { ticket: await ticketOf(web) }));
      expect((await ws.welcome()).kind).toBe("agent");
      return { bell, ws, sse: null };
    }
    const sse = await openSse(`${rt()}/realtime/sse?ticket=${await ticketOf(web)}`);
    await expect.poll(() => sse.data.some((f) => f.type === "welcome")).toBe(true);
    return { bell, ws: null, sse };
  }

  /** Closed within 5 s, and a conversation opened afterwards reaches the observer but not them. */
  async function expectCut(s: Awaited<ReturnType<typeof streamsOf>>) {
    let wsCode: number | null = null;
    void s.ws?.closed.then((c) => (wsCode = c.code));
    await expect.poll(() => s.bell.ended, { timeout: 5000 }).toBe(true);
    if (s.ws) await expect.poll(() => wsCode, { timeout: 5000 }).toBe(4401);
    if (s.sse) await expect.poll(() => s.sse!.ended, { timeout: 5000 }).toBe(true);
    const marker = `rv-${Math.random().toString(36).slice(2)}`;
    await publishLive([{ accountId: owner.accountId, event: "queued", roomId: null, data: { contact: { name: marker, phone: "+5511999990000" } } }]);
    await observer.until((c) => JSON.stringify(c.events("account")).includes(marker), "the observer's copy");
    expect(JSON.stringify(s.ws?.frames ?? s.sse!.data)).not.toContain(marker);
    await s.bell.close();
    await s.sse?.close();
  }

  it("removal from the account closes the agent's SSE live stream and bell", async () => {
    const { p, web } = await agentOf();
    const s = await streamsOf(web, "sse");
    const ownerToken = (await login(owner.email, owner.password)).token;
    expect((await api(`/api/users/${p.userId}`, { method: "DELETE", token: ownerToken })).status).toBe(200);
    await expectCut(s);
  });

  it("a role change closes the agent's websocket and bell (they reconnect under the new role)", async () => {
    const { p, web } = await agentOf();
    const s = await streamsOf(web, "ws");
    const ownerToken = (await login(owner.email, owner.password)).token;
    const res = await api(`/api/users/${p.userId}`, { method: "PUT", token: ownerToken, body: { firstName: "Ex", role: "analyst", isAgent: false } });
    expect(res.status).toBe(200);
    await expectCut(s);
    // The session itself goes on, under the new role.
    expect(await signedIn(web)).toBe(true);
  });

  it("logout closes the websocket and bell opened from that session only", async () => {
    const { p, web } = await agentOf();
    const s = await streamsOf(web, "ws");
    const elsewhere = await signIn(p.email, p.password);
    const other = await openSse(`${rt()}/realtime/notifications?ticket=${await ticketOf(elsewhere)}`);
    expect(location(await web.post("/logout", {}))).toBe("/login");
    await expectCut(s);
    expect(other.ended).toBe(false);
    await other.close();
  });

  it("an API logout ends the access token of that sign-in and closes the websocket opened with it, and only those", async () => {
    const { p } = await agentOf();
    const [mine, other] = [await login(p.email, p.password), await login(p.email, p.password)];
    const ws = new LiveClient(wsUrl(rt(), { token: mine.token }));
    expect((await ws.welcome()).kind).toBe("agent");
    let code: number | null = null;
    void ws.closed.then((c) => (code = c.code));
    expect((await api("/api/auth/logout", { method: "POST", body: { refresh_token: mine.refresh_token } })).status).toBe(200);
    await expect.poll(() => code, { timeout: 5000 }).toBe(4401);
    expect(await accessWorks(mine.token)).toBe(false);
    expect(await accessWorks(other.token)).toBe(true);
  });

  it("the account's suspension closes its people's connections", async () => {
    const { web } = await agentOf();
    const s = await streamsOf(web, "sse");
    await setAccount(owner.accountId, { status: "suspended" });
    try {
      // What suspending an account does (there is no suspension screen yet): the account's revocation event.
      const { revokeAccountConnections } = await import("../../api/auth/revocation");
      await revokeAccountConnections(owner.accountId);
      await expect.poll(() => s.bell.ended, { timeout: 5000 }).toBe(true);
      await expect.poll(() => s.sse!.ended, { timeout: 5000 }).toBe(true);
    } finally {
      await setAccount(owner.accountId, { status: "active" });
      await s.bell.close();
      await s.sse?.close();
    }
  });
});

describe("the periodic re-check (when a revocation event is lost)", () => {
  let child: ChildProcess;
  let own: string;
  beforeAll(async () => {
    const port = await freePort();
    const root = resolve(__dirname, "..", "..");
    child = spawn(resolve(root, "node_modules", ".bin", "bun"), ["realtime/server.ts"], {
      cwd: root,
      env: { ...process.env, NODE_ENV: "test", REALTIME_PORT: String(port), REALTIME_REVALIDATE_SECONDS: "1" },
      stdio: ["ignore", "ignore", "pipe"],
    });
    child.stderr?.on("data", (c: Buffer) => process.stderr.write(`[realtime ${port}] ${c}`));
    own = `http://127.0.0.1:${port}`;
    await waitFor(`${own}/realtime/health`, 60, 100);
  });
  afterAll(() => {
    child.kill("SIGTERM");
  });

  it("closes a websocket whose account was suspended without any event", async () => {
    const p = await registerPerson("rv-backstop");
    await giveOmni(p.accountId);
    const ws = new LiveClient(wsUrl(own, { ticket: await ticketOf(await signIn(p.email, p.password)) }));
    await ws.welcome();
    await setAccount(p.accountId, { status: "suspended" });
    let code: number | null = null;
    void ws.closed.then((c) => (code = c.code));
    await expect.poll(() => code, { timeout: 5000 }).toBe(4401);
  });
});

describe("/realtime/stats", () => {
  it("answers 401 without credentials, 403 to a customer, 200 to platform staff", async () => {
    expect((await fetch(`${rt()}/realtime/stats`)).status).toBe(401);
    const customer = await registerPerson("rv-stats");
    const token = (await login(customer.email, customer.password)).token;
    expect((await fetch(`${rt()}/realtime/stats?${new URLSearchParams({ token })}`)).status).toBe(403);
    const staff = (await login("staff@demo.example", "Demo!Mensa#2026")).token;
    const ok = await fetch(`${rt()}/realtime/stats?${new URLSearchParams({ token: staff })}`);
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual(expect.objectContaining({ streams: expect.any(Number), connections: expect.any(Number) }));
  });
});

afterAll(async () => {
  await closeRedis();
});
