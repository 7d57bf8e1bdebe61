/**
 * The read replica (issue 15, ADR 030) against a real streaming replica of the run's PostgreSQL
 * (tests/support/pg-replica.mjs: pg_basebackup, hot standby on loopback) and a private stack whose
 * api process alone is given DATABASE_REPLICA_URL (its worker reads the primary), so everything the
 * replica serves to the stack's database is the api's:
 * - the SMS history list and the charts are served by the replica: with replay paused they do
 *   not show a message sent after the pause, while GET of that message (the primary) shows it at
 *   once; the replica's pg_stat_activity shows the history's query under the readers' name;
 * - replay paused past REPLICA_MAX_LAG_MS: the reads go to the primary, logged once, and come back
 *   (logged once) when replay resumes;
 * - the replica stopped: the reads go to the primary at once (no failed request), logged once;
 * - at start, a replica that does not answer: the api starts, reads the primary, says so once;
 *   a malformed DATABASE_REPLICA_URL stops it at start with a sentence naming the variable.
 */
import { spawnSync } from "node:child_process";
import { resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PgReplica } from "../support/pg-replica.mjs";
import { startStack, type Stack } from "../support/stack";
import { setAccount } from "../support/factories";

const root = resolve(__dirname, "..", "..");
const bun = resolve(root, "node_modules", ".bin", "bun");

/** The readers' application_name (api/lib/read-replica.ts REPLICA_APPLICATION_NAME; not imported: that module needs the server's env). */
const READERS = "mensageria-replica-reader";
/** The measuring connection's (REPLICA_CHECK_APPLICATION_NAME). */
const CHECK = "mensageria-replica-check";
/** Wide enough that the reads right after a pause are done long before it (a loaded machine included). */
const WIDE_BOUND_MS = 20_000;
/** Narrow, so the fallback comes soon after a pause. */
const NARROW_BOUND_MS = 1000;

let replica: PgReplica;
let stack: Stack;
let token: string;
let serial = 0;

const replicaEnv = (bound: number) => ({
  DATABASE_REPLICA_URL: replica.urlFor(stack.databaseUrl),
  REPLICA_MAX_LAG_MS: String(bound),
  REPLICA_CHECK_MS: "200",
});

/** The api's log lines about the replica. */
const replicaLines = () =>
  stack
    .output("api")
    .split("\n")
    .filter((l) => l.startsWith("read replica "));
const fallbacks = () => replicaLines().filter((l) => l.includes("lag-tolerant reads go to the primary"));
const returns = () => replicaLines().filter((l) => /(answers|is back) \(lag \d+ ms\): lag-tolerant reads go to it/.test(l));

/** Restarts the api with `env` over the stack's and waits for its first word about the replica. */
async function restartApi(env: Record<string, string>) {
  await stack.stopApi();
  const before = replicaLines().length;
  await stack.startApi(env);
  await expect.poll(() => replicaLines().length, { timeout: 20_000 }).toBeGreaterThan(before);
}

async function login() {
  const res = await stack.api("/api/auth/login", { body: { email: "owner@demo.example", password: "Demo!Mensa#2026" } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  token = res.body.token;
}

/**
 * A POST after a long idle gap (stopping the replica takes seconds on a loaded machine) can meet
 * the keep-alive connection the api (Bun, 10 s idle timeout) is closing at that instant: undici
 * answers "other side closed" without the request having been read. Only then, and only when the
 * api still answers its health check (it did not crash), the POST is sent once more.
 */
async function post(path: string, body: unknown) {
  try {
    return await stack.api(path, { token, body });
  } catch (e) {
    if ((e as { cause?: { code?: string } }).cause?.code !== "UND_ERR_SOCKET") throw e;
    expect((await stack.api("/api/health")).status).toBe(200);
    return stack.api(path, { token, body });
  }
}

async function send() {
  const res = await post("/api/sms/messages", { to: `+55219${String(70000000 + serial++).padStart(8, "0")}`, body: "Réplica de leitura" });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data[0].id as string;
}

async function historyIds() {
  const res = await stack.api("/api/sms/messages?limit=200", { token });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body.data as Array<{ id: string }>).map((m) => m.id);
}

async function chartTotal() {
  const res = await stack.api("/api/sms/messages/charts?days=7", { token });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.totals.total as number;
}

/** The replica's clock now, and when the api's check connection last asked it something (ms since the epoch). */
async function replicaClock() {
  const [r] = await replica.query<{ now: number; asked: number | null }>(
    `SELECT extract(epoch FROM now()) * 1000 AS now,
            (SELECT extract(epoch FROM max(query_start)) * 1000 FROM pg_stat_activity WHERE application_name = $1) AS asked`,
    [CHECK],
  );
  return { now: Number(r.now), asked: Number(r.asked ?? 0) };
}

beforeAll(async () => {
  replica = await PgReplica.start({ primaryUrl: process.env.TEST_ADMIN_DATABASE_URL });
  stack = await startStack();
  await login();
  const [{ accountId }] = await stack.query<{ accountId: string }>(
    `SELECT m.account_id AS "accountId" FROM memberships m JOIN users u ON u.id = m.user_id WHERE u.email = 'owner@demo.example' LIMIT 1`,
  );
  await setAccount(accountId, { balance: 10_000_000 }, stack.query);
}, 180_000);

afterAll(async () => {
  await stack?.stop();
  await replica?.stop();
});

describe("read replica", () => {
  it("serves the history and the charts; GET of the message just sent comes from the primary", async () => {
    await restartApi(replicaEnv(WIDE_BOUND_MS));
    expect(returns().at(-1)).toMatch(new RegExp(`^read replica 127\\.0\\.0\\.1:${replica.port}/\\S+ answers`));
    const fellBack = fallbacks().length;

    const first = await send();
    await replica.caughtUp();
    expect(await historyIds()).toContain(first);
    const total = await chartTotal();

    await replica.pauseReplay();
    try {
      const second = await send();
      // Read your own write: the message itself is read on the primary, at once.
      const one = await stack.api(`/api/sms/messages/${second}`, { token });
      expect(one.status, JSON.stringify(one.body)).toBe(200);
      expect(one.body.data.id).toBe(second);
      // The lag-tolerant reads come from the paused replica: they do not have it yet.
      const ids = await historyIds();
      expect(ids).toContain(first);
      expect(ids).not.toContain(second);
      expect(await chartTotal()).toBe(total);
      const readers = await replica.query<{ query: string }>("SELECT query FROM pg_stat_activity WHERE application_name = $1", [READERS]);
      expect(readers.some((r) => /FROM messages/.test(r.query))).toBe(true);
      // Still within the bound: nothing switched.
      expect(fallbacks()).toHaveLength(fellBack);
    } finally {
      await replica.resumeReplay();
    }
    await replica.caughtUp();
    expect(await chartTotal()).toBe(total + 1);
  });

  it("goes to the primary when replay lags past REPLICA_MAX_LAG_MS, logged once, and back when it catches up", async () => {
    await restartApi(replicaEnv(NARROW_BOUND_MS));
    const backBefore = returns().length;
    const fellBack = fallbacks().length;
    await replica.pauseReplay();
    const id = await send().catch(async (e) => {
      await replica.resumeReplay();
      throw e;
    });
    try {
      // The lag passes the bound: the history (now from the primary) shows the new message.
      await expect.poll(historyIds, { timeout: 30_000 }).toContain(id);
      expect(fallbacks()).toHaveLength(fellBack + 1);
      expect(fallbacks().at(-1)).toMatch(/lags more than REPLICA_MAX_LAG_MS=1000 ms .*: lag-tolerant reads go to the primary/);
      // Positive signal that more checks ran while it still lagged: a lagging check asks the replica
      // for 1 s (the bound), then the next starts 200 ms later, so the check connection still asking
      // 2.5 s after the fallback was logged means at least two more lagging checks.
      const { now } = await replicaClock();
      await expect.poll(async () => (await replicaClock()).asked, { timeout: 30_000 }).toBeGreaterThan(now + 2500);
      expect(fallbacks()).toHaveLength(fellBack + 1);
    } finally {
      await replica.resumeReplay();
    }
    await expect.poll(() => returns().length, { timeout: 20_000 }).toBe(backBefore + 1);
    expect(returns().at(-1)).toMatch(/is back \(lag \d+ ms\)/);
    expect(await historyIds()).toContain(id);
    expect(fallbacks()).toHaveLength(fellBack + 1);
  });

  it("goes to the primary at once when the replica stops, and a restart with it still down starts on the primary", async () => {
    await restartApi(replicaEnv(WIDE_BOUND_MS));
    const fellBack = fallbacks().length;
    await replica.stop();
    const id = await send();
    // No failed request: a read that loses the replica runs again on the primary.
    await expect.poll(historyIds, { timeout: 20_000 }).toContain(id);
    await expect.poll(() => fallbacks().length, { timeout: 20_000 }).toBe(fellBack + 1);
    expect(fallbacks().at(-1)).toMatch(/does not answer \(.+\): lag-tolerant reads go to the primary/);
    expect(await chartTotal()).toBeGreaterThan(0);
    const logged = fallbacks().length;

    // Started with a replica that does not answer: the api comes up, says so once, reads the primary.
    await restartApi(replicaEnv(WIDE_BOUND_MS));
    expect(fallbacks()).toHaveLength(logged + 1);
    expect(fallbacks().at(-1)).toMatch(new RegExp(`read replica 127\\.0\\.0\\.1:${replica.port}/\\S+ does not answer`));
    const later = await send();
    expect(await historyIds()).toContain(later);
  });

  it("refuses a malformed DATABASE_REPLICA_URL at start, naming it", () => {
    const r = spawnSync(bun, ["api/server.ts"], {
      cwd: root,
      env: { ...stack.env, DATABASE_REPLICA_URL: "replica.internal:5432/mensageria" },
      encoding: "utf8",
      timeout: 30_000,
    });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/DATABASE_REPLICA_URL: (is not a URL|must start with postgres)/);
  });
});
