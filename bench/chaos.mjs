#!/usr/bin/env node
/**
 * The fault proof (issue 12), as one command: `npm run chaos`. It starts its own stack — a fresh
 * database, its OWN redis-server without AOF or snapshots on a free port (nothing survives a
 * kill -9, like ours), and the real api, worker, realtime and simulator processes on free loopback
 * ports, with random secrets — and then, under load, breaks it on a schedule:
 *
 *   - kill -9 of the worker (five times, a new one 2 s later),
 *   - kill -9 of Redis, restarted EMPTY on the same port (streams, groups, tickets, presence gone),
 *   - kill -9 of the API, restarted after 5 s (senders retry with the same Idempotency-Key),
 *   - kill -9 of the realtime process, restarted after 2 s (every client reconnects and resumes),
 *   - pg_terminate_backend of every server connection to the stack's database (twice).
 *
 * The load: SMS sent one recipient per request at CHAOS_RATE per second for CHAOS_SECONDS, each
 * with its own Idempotency-Key and retried with that key until answered (network error, 5xx, 429);
 * a customer webhook endpoint on a loopback receiver that records every webhook-id it acknowledges;
 * CHAOS_CLIENTS agents on websockets to the realtime service, reading live events published at
 * 2 per second, reconnecting with their last cursor (`last=account:<id>`) whenever they are cut.
 *
 * Then it waits (at most CHAOS_SETTLE_SECONDS, or until nothing moved for CHAOS_IDLE_SECONDS) until
 * every accepted message is final, every webhook event is received and every client has the last
 * live event, and prints from what the database,
 * the simulator and the receiver recorded (never from what the processes say about themselves):
 *
 *   SMS       accepted (message rows of our sends), final, lost (accepted, not final after the
 *             settle), doubled (a key that made more than one message, or more than one provider
 *             submit of one message: the simulator counts submits per reference), charged twice
 *             (a key charged more than once, or a balance debit beyond prices minus refunds);
 *   webhooks  events created (announced status changes of our messages), delivered (distinct ids
 *             received), lost (created, never received), redelivered (an id received again after
 *             a 2xx: at least once, reported), doubled (one status change of one message received
 *             under two different ids: no receiver can tell those apart);
 *   realtime  clients, cuts, resumed (reconnected after every cut and holding the last event),
 *             events missed (still in the stream, after the client's first connect, never received).
 *
 * CHAOS_INSTANCES=n (default 1) runs n web, n api, n realtime and n worker processes side by
 * side (issue 15), each kind behind a round-robin TCP balancer on loopback (bench/balancer.mjs):
 * the senders and the realtime clients go through the web balancer (web -> api balancer, web ->
 * realtime balancer, as in docs/deploy.md), the simulator posts its receipts to the api balancer,
 * and the faults hit one process of a kind at a time (instance 1, then 2, …) while the others go
 * on serving. Nothing may be lost, doubled or charged twice there either.
 *
 * Exit code 0 only when every lost, doubled and charged-twice count is 0 and no process exited by
 * itself (one that did is started again, so the run goes on, but it is a failure). Everything it started
 * (processes, redis-server, database) is removed at the end, also on failure or Ctrl-C.
 * Run: `npm run chaos` (PostgreSQL as for npm start; redis-server installed). CHAOS_SECONDS (90),
 * CHAOS_CLIENTS (300), CHAOS_RATE (10 sends/s), CHAOS_SETTLE_SECONDS (180), CHAOS_IDLE_SECONDS
 * (90: more than the 33 s lease of a webhook delivery a killed worker held). The processes' output
 * goes to a log file whose path is printed (stack traces of the injected faults are expected there).
 */
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { openSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createServer } from "node:http";
import Redis from "ioredis";
import pg from "pg";
import { WebSocket } from "undici";
import { RedisServer } from "../tests/support/redis-server.mjs";
import { buildWeb } from "../api/cli/web-build.mjs";
import { startBalancer } from "./balancer.mjs";
import { benchPlatform, bun, dropDatabase, freePort, onExit, redisKey, root, sleep, up } from "./lib.mjs";

const SECONDS = Number(process.env.CHAOS_SECONDS ?? 90);
const CLIENTS = Number(process.env.CHAOS_CLIENTS ?? 300);
const RATE = Number(process.env.CHAOS_RATE ?? 10);
const SETTLE = Number(process.env.CHAOS_SETTLE_SECONDS ?? 180);
const IDLE = Number(process.env.CHAOS_IDLE_SECONDS ?? 90);
const INSTANCES = Math.max(1, Number(process.env.CHAOS_INSTANCES ?? 1));
const LIVE_EVERY_MS = 500;
const FINAL_STATUSES = ["delivered", "failed", "unavailable", "read", "expired", "rejected", "optout", "canceled"];
const runId = `${Date.now().toString(36)}_${randomBytes(3).toString("hex")}`;
const dbName = `mensageria_chaos_${runId}`;
const prefix = `chaos:${runId}:`;
const t0 = Date.now();
/** How the clients' sockets closed, by close code (1006: the connection dropped). */
const closeCodes = {};
/** The processes' output (stack traces of the faults we inject are expected there) goes to one file, kept after the run. */
const logFile = join(tmpdir(), `mensageria-chaos-${runId}.log`);
const logFd = openSync(logFile, "a");
const log = (msg) => console.log(`[${((Date.now() - t0) / 1000).toFixed(1).padStart(6)} s] ${msg}`);

// ---- the stack -----------------------------------------------------------------------------------

/** Our own redis-server: no AOF, no snapshot, so a kill -9 loses everything; restartable on its port (the fault tests' one). */
const redisServer = new RedisServer(await freePort());

function killChild(child, signal = "SIGKILL") {
  return new Promise((res) => {
    if (!child || child.exitCode !== null || child.signalCode !== null) return res();
    const force = setTimeout(() => child.kill("SIGKILL"), 5000);
    child.once("exit", () => {
      clearTimeout(force);
      res();
    });
    child.kill(signal);
  });
}

await redisServer.start();
const [simPort, realtimePort, receiverPort, webPort] = [await freePort(), await freePort(), await freePort(), await freePort()];
/** With one instance, api and realtime listen on the public ports themselves; with more, a balancer does. */
const ports = async () => (INSTANCES === 1 ? [] : Promise.all(Array.from({ length: INSTANCES }, () => freePort())));
const [apiPorts, realtimePorts, webPorts] = [await ports(), await ports(), await ports()];
const { databaseUrl, apiPort, env } = await benchPlatform(
  dbName,
  prefix,
  {
    // Not production: production refuses OUTBOUND_ALLOW_PRIVATE, and our webhook receiver is on loopback.
    // Every secret is still given explicitly (random per run, from benchPlatform), none from a file.
    NODE_ENV: "development",
    OUTBOUND_ALLOW_PRIVATE: "true",
    REDIS_URL: redisServer.url,
    SIMULATOR_PORT: String(simPort),
    SIMULATOR_URL: `http://127.0.0.1:${simPort}`,
    SIMULATOR_DELAY_MS: "200",
    REALTIME_PORT: String(realtimePort),
    // Recovery timings as the fault tests use them (tests/support/stack.ts): seconds, not minutes.
    DISPATCH_RETRY_IDLE_MS: "1000",
    DISPATCH_RECOVER_SECONDS: "3",
    DISPATCH_SWEEP_SECONDS: "1",
    OUTBOX_POLL_MS: "50",
    WEBHOOK_SWEEP_MS: "200",
    WEBHOOK_TIMEOUT_MS: "3000",
    WEBHOOK_RETRY_SCALE: "0.01",
    LOGIN_MAX_FAILS_PER_IP: "1000",
  },
  { fresh: true },
);
const ticketKey = redisKey(env, "realtimeTicket", "TICKET");
// With several instances: the web processes' (and the simulator's receipts') way is through the api and realtime balancers.
if (INSTANCES > 1) Object.assign(env, { API_URL: `http://127.0.0.1:${apiPort}`, REALTIME_URL: `http://127.0.0.1:${realtimePort}` });

/**
 * A process of the stack that can be killed and started again with the same env and port. One
 * that exits by itself (not killed by us) is a finding: it is logged and counted.
 */
const crashes = [];
function proc(name, script, health, own = {}) {
  return {
    name,
    child: null,
    start() {
      const child = spawn(bun, [script], { cwd: root, env: { ...process.env, ...env, ...own }, stdio: ["ignore", logFd, logFd] });
      child.on("exit", (code, signal) => {
        if (child.killedByUs) return;
        crashes.push(`${name} (${signal ?? `exit ${code}`})`);
        log(`${name} exited by itself (${signal ?? `exit ${code}`}); started again`);
        if (this.child === child) void this.start();
      });
      this.child = child;
      return health ? up(health) : Promise.resolve();
    },
    async kill9() {
      if (this.child) this.child.killedByUs = true;
      await killChild(this.child);
    },
    stop() {
      if (this.child) this.child.killedByUs = true;
      return killChild(this.child, "SIGTERM");
    },
  };
}
/** n processes of a kind; with one, named as before (api, worker, realtime). */
const kind = (name, make) => Array.from({ length: INSTANCES }, (_, i) => make(INSTANCES === 1 ? name : `${name} ${i + 1}`, i));
const apis = kind("api", (name, i) =>
  INSTANCES === 1
    ? proc(name, "api/server.ts", `http://127.0.0.1:${apiPort}/api/health`)
    : proc(name, "api/server.ts", `http://127.0.0.1:${apiPorts[i]}/api/health`, { API_PORT: String(apiPorts[i]) }),
);
const workers = kind("worker", (name) => proc(name, "api/worker.ts"));
const realtimes = kind("realtime", (name, i) =>
  INSTANCES === 1
    ? proc(name, "realtime/server.ts", `http://127.0.0.1:${realtimePort}/realtime/health`)
    : proc(name, "realtime/server.ts", `http://127.0.0.1:${realtimePorts[i]}/realtime/health`, { REALTIME_PORT: String(realtimePorts[i]) }),
);
const webs = INSTANCES === 1 ? [] : kind("web", (name, i) => proc(name, "remix/server.ts", `http://127.0.0.1:${webPorts[i]}/health`, { WEB_PORT: String(webPorts[i]) }));
const simulator = proc("simulator", "api/simulator/server.ts", `http://127.0.0.1:${simPort}/health`);
const procs = [...apis, ...workers, ...realtimes, ...webs, simulator];
const balancers = [];
onExit(() => {
  for (const p of procs) p.child?.kill("SIGKILL");
});

// Our own connections are named, so terminating the stack's backends never cuts the observer.
const db = new pg.Pool({ connectionString: databaseUrl, max: 3, application_name: "chaos-observer" });
db.on("error", () => undefined);
const redis = new Redis(redisServer.url, { maxRetriesPerRequest: 1, retryStrategy: () => 200 });
redis.on("error", () => undefined);

let exitCode = 1;
let receiver;
const clients = [];
// Whatever goes wrong, the run's processes, redis-server and database go (lib.mjs only kills what it started).
onExit(() => redisServer.killNow());
let cleaning = null;
const abort = (why) => {
  console.error(why);
  (cleaning ??= cleanup()).finally(() => process.exit(1));
};
process.removeAllListeners("SIGINT");
process.on("SIGINT", () => abort("interrupted"));
process.on("uncaughtException", abort);
process.on("unhandledRejection", abort);
try {
  if (INSTANCES > 1) {
    buildWeb(); // the web app's build, when its sources changed (as npm start does)
    balancers.push(await startBalancer(apiPort, apiPorts), await startBalancer(realtimePort, realtimePorts), await startBalancer(webPort, webPorts));
  }
  await Promise.all(procs.map((p) => p.start()));
  log(
    INSTANCES === 1
      ? `stack up: api :${apiPort}, realtime :${realtimePort}, simulator :${simPort}, redis-server :${redisServer.port}, database ${dbName}`
      : `stack up: ${INSTANCES} of each behind balancers — web :${webPort} (${webPorts.join(", ")}), api :${apiPort} (${apiPorts.join(", ")}), realtime :${realtimePort} (${realtimePorts.join(", ")}), ${INSTANCES} workers; simulator :${simPort}, redis-server :${redisServer.port}, database ${dbName}`,
  );
  exitCode = await run();
} catch (e) {
  console.error(e);
} finally {
  await (cleaning ??= cleanup());
}
process.exit(exitCode);

// ---- the run -------------------------------------------------------------------------------------

async function run() {
  // Integrators call the api; with several instances they (and the agents' sockets) go through the web balancer.
  const base = INSTANCES === 1 ? `http://127.0.0.1:${apiPort}` : `http://127.0.0.1:${webPort}`;
  let token = null;
  let signingIn = null;
  const signIn = () =>
    (signingIn ??= (async () => {
      for (let i = 0; i < 60; i++) {
        try {
          const res = await fetch(`${base}/api/auth/login`, {
            method: "POST",
            headers: { "Content-Type": "application/json" },
            body: JSON.stringify({ email: "owner@demo.example", password: "Demo!Mensa#2026" }),
          });
          if (res.ok) return (token = (await res.json()).token);
        } catch {}
        await sleep(1000);
      }
      throw new Error("could not sign in");
    })().finally(() => (signingIn = null)));
  await signIn();

  const [{ account_id: accountId }] = (await db.query(`SELECT m.account_id FROM memberships m JOIN users u ON u.id = m.user_id WHERE u.email = 'owner@demo.example' LIMIT 1`)).rows;
  // The account's own short code (issue 11: a send may only use the account's senders) and a balance for the whole run.
  const shortCode = await (async () => {
    for (;;) {
      const number = String(10_000_000 + Math.floor(Math.random() * 89_999_999));
      const { rows } = await db.query(
        `INSERT INTO short_codes (account_id, number, nickname, deliverability, status) VALUES ($1, $2, 'Chaos', '{Vivo,Claro,TIM}', 'active') ON CONFLICT (number) DO NOTHING RETURNING number`,
        [accountId, number],
      );
      if (rows[0]) return rows[0].number;
    }
  })();
  await db.query(`UPDATE account_balances SET balance = 10000000000 WHERE account_id = $1`, [accountId]);
  const balanceBefore = Number((await db.query(`SELECT balance FROM account_balances WHERE account_id = $1`, [accountId])).rows[0].balance);

  // ---- the webhook receiver: what it acknowledged, per webhook-id ----
  const acked = new Map();
  const firstAck = new Map();
  const repeatGaps = [];
  // Delivery is at least once (ADR 012): the same webhook-id again is a redelivery the receiver's
  // idempotency absorbs (reported, not a failure). "Doubled" is what no receiver can absorb: one
  // status change of one message arriving under two different ids.
  let redelivered = 0;
  const idsPerChange = new Map();
  receiver = createServer((req, res) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      const id = req.headers["webhook-id"];
      if (typeof id === "string") {
        if (acked.has(id)) {
          redelivered++;
          repeatGaps.push(Date.now() - firstAck.get(id));
        } else firstAck.set(id, Date.now());
        acked.set(id, (acked.get(id) ?? 0) + 1);
        try {
          const { data } = JSON.parse(Buffer.concat(chunks).toString("utf8"));
          if (data?.message_id && data?.status) {
            const change = `${data.message_id}:${data.previous_status ?? ""}>${data.status}`;
            if (!idsPerChange.has(change)) idsPerChange.set(change, new Set());
            idsPerChange.get(change).add(id);
          }
        } catch {}
      }
      res.writeHead(200, { "Content-Type": "application/json" }).end('{"ok":true}');
    });
  });
  await new Promise((r) => receiver.listen(receiverPort, "127.0.0.1", r));
  const endpoint = await fetch(`${base}/api/webhooks`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
    body: JSON.stringify({ url: `http://127.0.0.1:${receiverPort}/hook`, events: ["message.status_changed"], description: "chaos receiver" }),
  });
  if (!endpoint.ok) throw new Error(`webhook endpoint: ${endpoint.status} ${await endpoint.text()}`);

  // ---- realtime: CLIENTS agents of the account, each with its own ticket ----
  await db.query(
    `INSERT INTO users (email, first_name) SELECT 'chaos-agent-' || i || '@chaos.example', 'Agent ' || i FROM generate_series(1, $1) i ON CONFLICT (email) DO NOTHING`,
    [CLIENTS],
  );
  await db.query(
    `INSERT INTO memberships (account_id, user_id, role, is_agent) SELECT $1, id, 'agent', true FROM users WHERE email LIKE 'chaos-agent-%@chaos.example' ON CONFLICT (account_id, user_id) DO NOTHING`,
    [accountId],
  );
  const agents = (await db.query(`SELECT id FROM users WHERE email LIKE 'chaos-agent-%@chaos.example' ORDER BY email LIMIT $1`, [CLIENTS])).rows.map((r) => r.id);
  const liveStream = redisKey(env, "accountLiveStream", accountId);
  let stopping = false;
  for (const userId of agents) clients.push(liveClient(userId, accountId, () => stopping));
  await waitFor(() => clients.every((c) => c.connects > 0), 60_000);
  log(`${clients.length} realtime clients connected`);

  // Live events: 2 a second, each acknowledged XADD remembered by its stream id.
  const published = new Map();
  let seq = 0;
  const publishing = setInterval(() => {
    const n = seq++;
    redis
      .xadd(liveStream, "MAXLEN", "~", "50000", "*", "event", "chaos", "to", "*", "data", JSON.stringify({ seq: n }), "at", String(Date.now()))
      .then((id) => published.set(id, n))
      .catch(() => undefined);
  }, LIVE_EVERY_MS);

  // ---- the senders: RATE a second, each retried with its key until answered ----
  const sends = [];
  let number = 0;
  const sendUntil = Date.now() + SECONDS * 1000;
  const giveUpAt = sendUntil + 60_000;
  async function send(i) {
    const s = { key: `chaos-${runId}-${i}`, attempts: 0, id: null, status: null, answer: null };
    sends.push(s);
    const body = JSON.stringify({ to: `+55119${String(10_000_000 + number++).padStart(8, "0")}`, body: `Chaos ${runId} ${i}`, from: shortCode });
    while (Date.now() < giveUpAt) {
      s.attempts++;
      try {
        const res = await fetch(`${base}/api/sms/messages`, {
          method: "POST",
          headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}`, "Idempotency-Key": s.key },
          body,
          signal: AbortSignal.timeout(15_000),
        });
        const text = await res.text();
        s.status = res.status;
        if (res.status === 200) {
          s.answer = JSON.parse(text);
          s.id = s.answer.data[0].id;
          return;
        }
        if (res.status === 401) await signIn();
        else if (res.status < 500 && res.status !== 429 && res.status !== 408) {
          s.error = text.slice(0, 200);
          return; // a refusal is an answer: not retried, reported
        }
      } catch {
        s.status = "network";
      }
      await sleep(500);
    }
  }

  // ---- the faults, spread over the run ----
  const faults = [];
  const fault = async (what, f) => {
    log(`FAULT ${what}`);
    faults.push(what);
    await f().catch((e) => log(`fault ${what} failed: ${e.message}`));
  };
  // With several of a kind, each fault hits the next one in turn while the others serve.
  const turn = { worker: 0, api: 0, realtime: 0, web: 0 };
  const pick = (list, k) => list[turn[k]++ % list.length];
  const killWorker = () => {
    const worker = pick(workers, "worker");
    return fault(`kill -9 ${worker.name} (new one after 2 s)`, async () => {
      await worker.kill9();
      await sleep(2000);
      await worker.start();
    });
  };
  const terminateBackends = () =>
    fault("pg_terminate_backend of the stack's connections", async () => {
      const { rows } = await db.query(
        `SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid() AND application_name <> 'chaos-observer'`,
        [dbName],
      );
      log(`  ${rows[0].n} backends terminated`);
    });
  const schedule = [
    [0.08, killWorker],
    [0.16, terminateBackends],
    [0.24, killWorker],
    [
      0.32,
      () => {
        const api = pick(apis, "api");
        return fault(`kill -9 ${api.name} (new one after 5 s; senders retry with their Idempotency-Key)`, async () => {
          await api.kill9();
          await sleep(5000);
          await api.start();
        });
      },
    ],
    [
      0.44,
      () =>
        fault("kill -9 redis-server, restarted EMPTY (no AOF) after 1 s", async () => {
          await redisServer.kill();
          await sleep(1000);
          await redisServer.start();
        }),
    ],
    [0.54, killWorker],
    [
      0.64,
      () => {
        const realtime = pick(realtimes, "realtime");
        return fault(`kill -9 ${realtime.name} (new one after 2 s)`, async () => {
          await realtime.kill9();
          await sleep(2000);
          await realtime.start();
        });
      },
    ],
    [0.74, killWorker],
    [0.8, terminateBackends],
    [0.88, killWorker],
  ];
  if (INSTANCES > 1) {
    // The front processes too: a web (its agents' sockets and requests in flight cut), and the next api.
    const killFront = (list, k, pause) => () => {
      const p = pick(list, k);
      return fault(`kill -9 ${p.name} (new one after ${pause / 1000} s)`, async () => {
        await p.kill9();
        await sleep(pause);
        await p.start();
      });
    };
    schedule.push([0.5, killFront(webs, "web", 3000)], [0.84, killFront(apis, "api", 5000)]);
    schedule.sort((a, b) => a[0] - b[0]);
  }
  const t0Run = Date.now();
  const faulting = (async () => {
    for (const [at, f] of schedule) {
      const wait = t0Run + at * SECONDS * 1000 - Date.now();
      if (wait > 0) await sleep(wait);
      await f();
    }
  })();

  const inFlight = [];
  log(`sending ${RATE} SMS/s for ${SECONDS} s with ${clients.length} realtime clients`);
  for (let i = 0; Date.now() < sendUntil; i++) {
    const due = t0Run + (i * 1000) / RATE;
    const wait = due - Date.now();
    if (wait > 0) await sleep(wait);
    if (Date.now() >= sendUntil) break;
    inFlight.push(send(i));
  }
  await faulting;
  await Promise.all(inFlight);
  log(`sending done: ${sends.length} sends, ${sends.filter((s) => s.id).length} answered 200; settling (at most ${SETTLE} s)`);

  // ---- settle: every accepted message final, every webhook event received, every client at the last live event ----
  const ours = `SELECT id FROM messages WHERE account_id = $1 AND body LIKE $2`;
  const like = `Chaos ${runId} %`;
  const pendingState = async () => {
    const {
      rows: [m],
    } = await db.query(`SELECT count(*)::int AS accepted, count(*) FILTER (WHERE status = ANY($3::text[]))::int AS final FROM messages WHERE account_id = $1 AND body LIKE $2`, [
      accountId,
      like,
      FINAL_STATUSES,
    ]);
    const {
      rows: [w],
    } = await db.query(
      `SELECT array_agg('evt_ms_' || e.public_id) AS ids FROM message_events e WHERE e.account_id = $1 AND e.message_id IN (${ours}) AND COALESCE(e.payload->>'applied', 'true') <> 'false'`,
      [accountId, like],
    );
    const events = w.ids ?? [];
    return { ...m, events, eventsReceived: events.filter((id) => acked.has(id)).length };
  };
  const settleUntil = Date.now() + SETTLE * 1000;
  let state;
  let lastLog = 0;
  let probe = null;
  let progress = { at: Date.now(), mark: "" };
  for (;;) {
    state = await pendingState().catch(() => null);
    if (state) {
      const mark = `${state.accepted}/${state.final}/${state.events.length}/${state.eventsReceived}/${probe ? clients.filter((c) => c.received.has(probe)).length : 0}`;
      if (mark !== progress.mark) progress = { at: Date.now(), mark };
      // The probe: one more live event after every fault; every client must get it.
      if (!probe) probe = await redis.xadd(liveStream, "*", "event", "chaos", "to", "*", "data", JSON.stringify({ seq: -1 }), "at", String(Date.now())).catch(() => null);
      const clientsDone = probe && clients.every((c) => c.received.has(probe));
      const done = state.final === state.accepted && state.eventsReceived === state.events.length && clientsDone;
      if (Date.now() - lastLog > 10_000 || done) {
        lastLog = Date.now();
        log(
          `settle: messages final ${state.final}/${state.accepted}, webhook events received ${state.eventsReceived}/${state.events.length}, clients at the last live event ${probe ? clients.filter((c) => c.received.has(probe)).length : 0}/${clients.length}`,
        );
      }
      if (done) break;
    }
    if (Date.now() > settleUntil) {
      log("settle time over");
      break;
    }
    // Nothing moved for IDLE seconds (longer than every lease and recovery delay of the stack): what is missing stays missing.
    if (Date.now() - progress.at > IDLE * 1000) {
      log(`no progress for ${IDLE} s: settled`);
      break;
    }
    await sleep(1000);
  }
  clearInterval(publishing);
  stopping = true;

  // ---- the figures, from the database, the simulator and the receiver ----
  const { rows: byKey } = await db.query(
    `SELECT body, count(*)::int AS n, array_agg(id) AS ids, sum(price)::bigint AS price, array_agg(status) AS statuses FROM messages WHERE account_id = $1 AND body LIKE $2 GROUP BY body`,
    [accountId, like],
  );
  const rows = byKey.flatMap((k) => k.ids.map((id, i) => ({ id, status: k.statuses[i] })));
  const accepted = rows.length;
  const finalRows = rows.filter((r) => FINAL_STATUSES.includes(r.status));
  const statusCount = tally(rows.map((r) => r.status));
  const notFinal = rows.filter((r) => !FINAL_STATUSES.includes(r.status));
  const { rows: unpublished } = await db.query(
    `SELECT count(*)::int AS n FROM outbox WHERE published_at IS NULL AND topic <> 'webhooks:events' AND payload->>'message_id' = ANY($1::text[])`,
    [notFinal.map((r) => r.id)],
  );
  const answeredIds = new Set(sends.filter((s) => s.id).map((s) => s.id));
  const rowIds = new Set(rows.map((r) => r.id));
  const answeredWithoutRow = [...answeredIds].filter((id) => !rowIds.has(id)).length;
  const lostSms = notFinal.length + answeredWithoutRow;
  const keysDoubled = byKey.filter((k) => k.n > 1).length;

  const sim = await fetch(`http://127.0.0.1:${simPort}/v1/stats`, { headers: { Authorization: `Bearer ${env.SIMULATOR_API_KEY}` } }).then((r) => r.json());
  const submits = rows.map((r) => sim.references[r.id] ?? 0);
  const submittedTwice = submits.filter((n) => n > 1).length;
  const neverSubmitted = rows.filter((r, i) => submits[i] === 0 && !["optout", "rejected"].includes(r.status)).length;

  const balanceAfter = Number((await db.query(`SELECT balance FROM account_balances WHERE account_id = $1`, [accountId])).rows[0].balance);
  const prices = byKey.reduce((a, k) => a + Number(k.price), 0);
  const {
    rows: [refund],
  } = await db.query(
    `SELECT coalesce(sum((payload->>'price')::bigint), 0)::bigint AS sum, count(*)::int AS n, count(DISTINCT message_id)::int AS distinct FROM message_events WHERE status = 'refund' AND message_id = ANY($1::uuid[])`,
    [rows.map((r) => r.id)],
  );
  const debited = balanceBefore - balanceAfter;
  const expectedDebit = prices - Number(refund.sum);
  const unitPrice = accepted ? prices / accepted : 1;
  const overcharge = Math.max(0, debited - expectedDebit);
  const chargedTwice = keysDoubled + (refund.n - refund.distinct) + (overcharge > 0 ? Math.max(1, Math.round(overcharge / unitPrice)) : 0);

  const events = state?.events ?? [];
  const { rows: deliveryRows } = await db.query(`SELECT event_id, status FROM webhook_deliveries WHERE account_id = $1`, [accountId]);
  const deliveries = new Map(deliveryRows.map((d) => [d.event_id, d.status]));
  const eventsLost = events.filter((id) => !acked.has(id));
  const lostNoDelivery = eventsLost.filter((id) => !deliveries.has(id)).length;

  const cuts = clients.reduce((a, c) => a + c.cuts, 0);
  const resumed = clients.filter((c) => c.welcomesAfterCut >= c.cuts && probe && c.received.has(probe)).length;
  const survivors = probe ? await redis.xrange(liveStream, "-", "+").catch(() => []) : [];
  let missed = 0;
  let dupEvents = 0;
  for (const c of clients) {
    dupEvents += c.duplicates;
    for (const [id] of survivors) if (c.firstCursor && cmpId(id, c.firstCursor) > 0 && !c.received.has(id)) missed++;
  }
  const wiped = [...published.keys()].filter((id) => !survivors.some(([s]) => s === id)).length;

  const unanswered = sends.filter((s) => !s.id);
  const line = (label, value, note = "") => console.log(`| ${label} | ${value} |${note ? ` ${note}` : ""}`);
  console.log(
    `\nChaos: ${SECONDS} s at ${RATE} SMS/s, ${CLIENTS} realtime clients, ${INSTANCES === 1 ? "one process of each kind" : `${INSTANCES} web, api, realtime and worker processes behind balancers`}, ${new Date().toISOString()}`,
  );
  console.log(`faults: ${faults.join("; ")}`);
  console.log(`processes that exited by themselves: ${crashes.length ? crashes.join(", ") : "none"}; their output: ${logFile}\n`);
  console.log("| SMS | count |");
  console.log("|---|---:|");
  line("sends (one Idempotency-Key each)", sends.length);
  line("answered 200", sends.length - unanswered.length);
  line("not answered / refused", unanswered.length, unanswered.length ? `(${JSON.stringify(tally(unanswered.map((s) => `${s.status}${s.error ? ` ${s.error}` : ""}`)))})` : "");
  line("retried (answered after more than one attempt)", sends.filter((s) => s.id && s.attempts > 1).length);
  line("accepted (message rows)", accepted);
  line("final", finalRows.length, `(${JSON.stringify(statusCount)})`);
  line("**lost** (not final after the settle, or answered without a row)", lostSms, notFinal.length ? `(${unpublished[0].n} still unpublished in the outbox)` : "");
  line("**doubled** (a key that made 2+ messages + messages submitted 2+ times)", keysDoubled + submittedTwice, `(keys ${keysDoubled}, provider submits ${submittedTwice})`);
  line("never reached the provider", neverSubmitted);
  line("**charged twice**", chargedTwice, `(balance debited ${debited} = prices ${prices} - refunds ${refund.sum}: ${debited === expectedDebit ? "exact" : "MISMATCH"})`);
  console.log("\n| Webhooks (message.status_changed) | count |");
  console.log("|---|---:|");
  line("events created", events.length);
  line("delivered (distinct ids received)", events.length - eventsLost.length);
  line(
    "**lost** (created, never received)",
    eventsLost.length,
    eventsLost.length
      ? `(${lostNoDelivery} never fanned out into a delivery, ${JSON.stringify(tally(eventsLost.filter((id) => deliveries.has(id)).map((id) => deliveries.get(id))))} of the others)`
      : "",
  );
  const doubledWebhooks = [...idsPerChange.values()].filter((ids) => ids.size > 1).length;
  const gaps = repeatGaps.sort((a, b) => a - b).map((g) => (g / 1000).toFixed(1));
  line(
    "redelivered (the same id again after a 2xx: at least once, absorbed by the receiver's idempotency)",
    redelivered,
    gaps.length ? `(again after ${gaps[0]}–${gaps.at(-1)} s)` : "",
  );
  line("**doubled** (one status change of one message under two different ids)", doubledWebhooks);
  console.log("\n| Realtime | count |");
  console.log("|---|---:|");
  line("clients", clients.length);
  line("cuts (connections closed under a client)", cuts);
  line("reconnected after every cut (welcome)", clients.filter((c) => c.welcomesAfterCut >= c.cuts).length);
  line(
    "receiving events on their current connection",
    clients.filter((c) => c.eventsSinceWelcome > 0).length,
    `(events received in all ${clients.reduce((a, c) => a + c.events, 0)})`,
  );
  line("resumed (reconnected after every cut, holding the last live event)", resumed);
  line("live events published (XADD acknowledged)", published.size, `(${wiped} wiped by the Redis restart)`);
  line("events missed (in the stream, not received)", missed);
  line("events received twice", dupEvents);
  console.log(`closes by code: ${JSON.stringify(closeCodes)}`);
  // A process that ended by itself (an uncaught error under a fault) is a failure too, even when its restart hid it.
  const bad = lostSms + keysDoubled + submittedTwice + chargedTwice + eventsLost.length + doubledWebhooks + (clients.length - resumed) + missed + dupEvents + crashes.length;
  console.log(
    `\n${bad === 0 ? "PASS: nothing lost, doubled or charged twice; every client resumed; no process ended by itself" : `FAIL: see the bold rows above${crashes.length ? ` and the processes that exited by themselves (${crashes.join(", ")})` : ""}`}`,
  );
  return bad === 0 ? 0 : 1;
}

// ---- a realtime client ---------------------------------------------------------------------------

/** Compares stream ids `ms-seq`. */
function cmpId(a, b) {
  const [am, as] = a.split("-").map(Number);
  const [bm, bs] = b.split("-").map(Number);
  return am - bm || as - bs;
}

/**
 * One agent on a websocket: a fresh ticket each connect (tickets are single-use), `last` = the
 * last account-stream id it got and `replacing` = its previous connection (its own stale presence
 * hold is no obstacle); takes over when told it is connected elsewhere. Reconnects until stopped.
 */
function liveClient(userId, accountId, stopped) {
  const c = {
    connects: 0,
    cuts: 0,
    welcomesAfterCut: 0,
    events: 0,
    eventsSinceWelcome: 0,
    cursor: null,
    firstCursor: null,
    connectionId: null,
    received: new Set(),
    duplicates: 0,
    ws: null,
  };
  const connect = async () => {
    if (stopped()) return;
    const ticket = randomBytes(24).toString("base64url");
    try {
      await redis.set(ticketKey.replace("TICKET", ticket), JSON.stringify({ userId, accountId, sessionId: null }), "EX", 60);
    } catch {
      return setTimeout(connect, 500 + Math.random() * 500);
    }
    const q = new URLSearchParams({ ticket });
    if (c.cursor) q.set("last", `account:${c.cursor}`);
    if (c.connectionId) q.set("replacing", c.connectionId);
    const ws = new WebSocket(`ws://127.0.0.1:${INSTANCES === 1 ? realtimePort : webPort}/realtime/ws?${q}`);
    c.ws = ws;
    let welcomed = false;
    ws.addEventListener("message", (ev) => {
      if (c.ws !== ws) return;
      const f = JSON.parse(String(ev.data));
      if (f.type === "welcome") {
        welcomed = true;
        c.connectionId = f.connection_id;
        c.firstCursor ??= f.cursors?.account ?? null;
        c.cursor ??= f.cursors?.account ?? null;
        c.eventsSinceWelcome = 0;
        if (c.connects++ > 0) c.welcomesAfterCut++;
      } else if (f.type === "already_connected") ws.send(JSON.stringify({ type: "takeover" }));
      else if (f.type === "event" && f.stream === "account") {
        c.events++;
        c.eventsSinceWelcome++;
        if (c.received.has(f.id)) c.duplicates++;
        c.received.add(f.id);
        c.cursor = f.id;
      }
    });
    // A refused connect may end with `error` alone (no `close`): either one ends this socket, once.
    let ended = false;
    const end = (how) => {
      if (ended) return;
      ended = true;
      const code = `${how}${welcomed ? "" : " before welcome"}`;
      closeCodes[code] = (closeCodes[code] ?? 0) + 1;
      // Only the current socket reconnects: a stale one closing late must not start a second.
      if (stopped() || c.ws !== ws) return;
      if (welcomed) c.cuts++;
      setTimeout(connect, 250 + Math.random() * 750);
    };
    ws.addEventListener("close", (ev) => end(String(ev.code)));
    ws.addEventListener("error", () => end("error"));
  };
  void connect();
  return c;
}

// ---- helpers -------------------------------------------------------------------------------------

function tally(list) {
  const out = {};
  for (const x of list) out[x] = (out[x] ?? 0) + 1;
  return out;
}

async function waitFor(pred, ms) {
  const until = Date.now() + ms;
  while (!pred()) {
    if (Date.now() > until) throw new Error("timed out");
    await sleep(100);
  }
}

async function cleanup() {
  for (const c of clients) {
    try {
      c.ws?.close();
    } catch {}
  }
  await Promise.all(procs.map((p) => p.stop()));
  await Promise.all(balancers.map((b) => b.close()));
  receiver?.close();
  await db.end().catch(() => undefined);
  redis.disconnect();
  await redisServer.kill();
  if (!process.env.DATABASE_URL) await dropDatabase(dbName).catch((e) => console.error(`could not drop ${dbName}: ${e.message}`));
}
