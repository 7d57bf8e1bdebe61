/**
 * A second, private platform for tests that must kill or reconfigure processes (fault tests,
 * throttling, rate limits): its own PostgreSQL database (migrated and seeded), its own Redis
 * (a given URL, e.g. a dedicated `redis-server` this helper can start) and prefix, and its own
 * api, worker(s) and simulator processes on free loopback ports, started with the env you pass.
 * The run's shared processes are never touched.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { freePort, waitFor } from "./net";
import { randomSecrets } from "./secrets";
import { resolve } from "node:path";
import { deleteByPrefix } from "./redis";
import pg from "pg";

const root = resolve(__dirname, "..", "..");
const bun = resolve(root, "node_modules", ".bin", "bun");

/** A dedicated redis-server (./redis-server.mjs, shared with bench/chaos.mjs). */
export { RedisServer } from "./redis-server.mjs";

export type StackOptions = {
  /** Extra/overriding env for every process (SIMULATOR_MAX_RPS, SMS_ROUTE_RATES…). */
  env?: Record<string, string>;
  /** Redis to use (default: the run's shared Redis, with a private prefix). */
  redisUrl?: string;
  workers?: number;
  /** Also start a realtime process (websockets; `realtimeUrl`). */
  realtime?: boolean;
  /** Echo the processes' output (also TEST_SERVER_LOGS=1). */
  logs?: boolean;
  /** APP_URL = the api's own URL (webhook URLs we hand providers then reach this stack's api; there is no web). */
  apiAsAppUrl?: boolean;
  /** Env that depends on the stack's own database (e.g. DATABASE_REPLICA_URL naming it), merged after `env`. */
  databaseEnv?: (database: { name: string; url: string }) => Record<string, string>;
};

export type Stack = Awaited<ReturnType<typeof startStack>>;

export async function startStack(opts: StackOptions = {}) {
  const admin = process.env.TEST_ADMIN_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
  const id = `${Date.now().toString(36)}_${randomBytes(3).toString("hex")}`;
  const dbName = `mensageria_stack_${id}`;
  const redisUrl = opts.redisUrl ?? process.env.REDIS_URL ?? "redis://127.0.0.1:6379/0";
  const redisPrefix = `stack:${id}:`;
  const c = new pg.Client({ connectionString: admin });
  await c.connect();
  await c.query(`CREATE DATABASE "${dbName}"`);
  await c.end();
  const dbUrl = new URL(admin);
  dbUrl.pathname = `/${dbName}`;
  const databaseUrl = dbUrl.toString();
  const [apiPort, simulatorPort, realtimePort] = await Promise.all([freePort(), freePort(), freePort()]);
  const env = {
    ...process.env,
    // Its own random secrets (never the run's, never the checkout's file); opts.env may set others.
    ...randomSecrets(),
    NODE_ENV: "test",
    DATABASE_URL: databaseUrl,
    REDIS_URL: redisUrl,
    REDIS_PREFIX: redisPrefix,
    API_PORT: String(apiPort),
    WEB_PORT: String(await freePort()),
    REALTIME_PORT: String(realtimePort),
    SIMULATOR_PORT: String(simulatorPort),
    SIMULATOR_URL: `http://127.0.0.1:${simulatorPort}`,
    // Its simulator's SMTP peer on a port of its own (the run's simulator holds another).
    SIMULATOR_SMTP_PORT: String(await freePort()),
    SIMULATOR_DNS_PORT: String(await freePort()),
    SIMULATOR_DELAY_MS: "100",
    DISPATCH_RETRY_IDLE_MS: "1000",
    DISPATCH_MAX_ATTEMPTS: "3",
    DISPATCH_RECOVER_SECONDS: "3",
    DISPATCH_SWEEP_SECONDS: "1",
    OUTBOX_POLL_MS: "50",
    EMAIL_SEND_CACHE_MS: "0",
    MAIL_SWEEP_SECONDS: "60",
    IMPORT_SWEEP_SECONDS: "60",
    LOGIN_MAX_FAILS_PER_IP: "1000",
    ...(opts.apiAsAppUrl ? { APP_URL: `http://127.0.0.1:${apiPort}` } : {}),
    ...opts.env,
  } as NodeJS.ProcessEnv;
  // The run's DATABASE_REPLICA_URL (a suite pass with a read replica) names the run's database, not
  // this one (the processes would refuse it): a private stack reads the primary unless given one.
  delete env.DATABASE_REPLICA_URL;
  Object.assign(env, opts.databaseEnv?.({ name: dbName, url: databaseUrl }));
  for (const script of ["models/migrate.ts", "seeds/run.ts"]) {
    const r = spawnSync(bun, [script], { cwd: root, env, encoding: "utf8" });
    if (r.status !== 0) throw new Error(`${script} failed:\n${r.stdout}\n${r.stderr}`);
  }
  const logs = opts.logs || Boolean(process.env.TEST_SERVER_LOGS);
  // Each process's output (stdout and stderr, across restarts), for tests that check what was logged.
  const outputs = new Map<string, string>();
  const spawnProc = (name: string, script: string, procEnv: NodeJS.ProcessEnv = env) => {
    const child = spawn(bun, [script], { cwd: root, env: procEnv, stdio: ["ignore", "pipe", "pipe"] });
    const keep = (chunk: Buffer) => outputs.set(name, (outputs.get(name) ?? "") + chunk.toString());
    child.stdout?.on("data", (chunk: Buffer) => {
      keep(chunk);
      if (logs) process.stdout.write(`[stack ${name}] ${chunk}`);
    });
    child.stderr?.on("data", (chunk: Buffer) => {
      keep(chunk);
      if (logs) process.stderr.write(`[stack ${name}] ${chunk}`);
    });
    return child;
  };
  let api = spawnProc("api", "api/server.ts");
  const simulator = spawnProc("simulator", "api/simulator/server.ts");
  const realtime = opts.realtime ? spawnProc("realtime", "realtime/server.ts") : null;
  const workers: ChildProcess[] = [];
  const startWorker = () => {
    const w = spawnProc(`worker${workers.length}`, "api/worker.ts");
    workers.push(w);
    return w;
  };
  for (let i = 0; i < (opts.workers ?? 1); i++) startWorker();
  // Each process up, or the failure says why: it exited first, or it never answered (with what it printed).
  const upOrDied = async (name: string, child: ChildProcess, url: string) => {
    let onExit: ((code: number | null) => void) | undefined;
    const died = new Promise<never>((_, fail) => {
      onExit = (code) => fail(new Error(`${name} exited (${code}) before ${url} came up`));
      child.once("exit", onExit);
    });
    died.catch(() => undefined);
    try {
      await Promise.race([waitFor(url, 60, 100), died]);
    } catch (e) {
      throw new Error(`${(e as Error).message}\n${name}'s output:\n${(outputs.get(name) ?? "").slice(-4000)}`);
    } finally {
      if (onExit) child.off("exit", onExit);
    }
  };
  await Promise.all([
    upOrDied("api", api, `http://127.0.0.1:${apiPort}/api/health`),
    upOrDied("simulator", simulator, `http://127.0.0.1:${simulatorPort}/health`),
    realtime ? upOrDied("realtime", realtime, `http://127.0.0.1:${realtimePort}/realtime/health`) : null,
  ]);
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 3 });
  // stop() drops the database WITH (FORCE): a pooled connection still closing then gets
  // "terminating connection due to administrator command", expected, not a test failure.
  pool.on("error", () => undefined);
  const apiUrl = `http://127.0.0.1:${apiPort}`;
  const simulatorUrl = `http://127.0.0.1:${simulatorPort}`;

  const kill = (child: ChildProcess, signal: NodeJS.Signals) =>
    new Promise<void>((r) => {
      if (child.exitCode !== null || child.signalCode !== null) return r();
      const force = setTimeout(() => child.kill("SIGKILL"), 5000);
      child.once("exit", () => {
        clearTimeout(force);
        r();
      });
      child.kill(signal);
    });

  return {
    apiUrl,
    simulatorUrl,
    realtimeUrl: `http://127.0.0.1:${realtimePort}`,
    databaseUrl,
    redisUrl,
    redisPrefix,
    env,
    workers,
    startWorker,
    kill,
    /** Stops the API process (SIGTERM): its port refuses connections until startApi(). */
    async stopApi() {
      await kill(api, "SIGTERM");
    },
    /** Starts the API process again on the same port (with `extraEnv` over the stack's env) and waits until it answers. */
    async startApi(extraEnv: Record<string, string> = {}) {
      api = spawnProc("api", "api/server.ts", { ...env, ...extraEnv });
      await waitFor(`${apiUrl}/api/health`, 60, 100);
    },
    /** What a process ("api", "worker0", "simulator", "realtime") has written to stdout and stderr so far. */
    output(name: string) {
      return outputs.get(name) ?? "";
    },
    async query<T = Record<string, unknown>>(sql: string, params: unknown[] = []) {
      return (await pool.query(sql, params)).rows as T[];
    },
    /** JSON call to this stack's API. */
    async api<T = any>(path: string, o: { method?: string; body?: unknown; token?: string; lang?: string } = {}) {
      const res = await fetch(new URL(path, apiUrl), {
        method: o.method ?? (o.body === undefined ? "GET" : "POST"),
        headers: {
          ...(o.body === undefined ? {} : { "Content-Type": "application/json" }),
          ...(o.token ? { Authorization: `Bearer ${o.token}` } : {}),
          ...(o.lang ? { "Accept-Language": o.lang } : {}),
        },
        body: o.body === undefined ? undefined : JSON.stringify(o.body),
      });
      const text = await res.text();
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {}
      return { status: res.status, body: body as T, headers: res.headers };
    },
    /** The seeded demo owner (seeds/demo.ts) signed in on this stack: a token, and the demo account's id. */
    async signInDemoOwner(): Promise<{ token: string; accountId: string }> {
      const res = await this.api("/api/auth/login", { body: { email: "owner@demo.example", password: "Demo!Mensa#2026" } });
      if (res.status !== 200) throw new Error(`demo owner sign-in: ${res.status} ${JSON.stringify(res.body)}`);
      const [{ id }] = await this.query<{ id: string }>("SELECT id FROM accounts WHERE name = 'Demo Comércio Ltda'");
      return { token: res.body.token, accountId: id };
    },
    /** The simulator's GET /v1/stats (or another path) with its key. */
    async simulator<T = any>(path = "/v1/stats") {
      const res = await fetch(new URL(path, simulatorUrl), { headers: { Authorization: `Bearer ${env.SIMULATOR_API_KEY}` } });
      return (await res.json()) as T;
    },
    async stop() {
      await Promise.all([api, simulator, ...(realtime ? [realtime] : []), ...workers].map((p) => kill(p, "SIGTERM")));
      await pool.end();
      const a = new pg.Client({ connectionString: admin });
      await a.connect();
      await a.query(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`);
      await a.end();
      if (!opts.redisUrl) {
        await deleteByPrefix(redisUrl, redisPrefix);
      }
    },
  };
}

export { freePort };
