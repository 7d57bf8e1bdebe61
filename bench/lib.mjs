/**
 * What the bench scripts share: free loopback ports, waiting for a process to answer, child
 * processes killed when the bench exits (their output shown with BENCH_LOGS=1), the web process
 * started on a current build, and a fresh (or reused) database migrated and seeded with the
 * production-mode environment the processes need.
 */
import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createServer } from "node:net";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { ensureDatabase, ensureServices } from "../api/cli/services.mjs";
import { buildWeb } from "../api/cli/web-build.mjs";

export const root = join(dirname(fileURLToPath(import.meta.url)), "..");
export const bun = join(root, "node_modules", ".bin", "bun");

export const freePort = () =>
  new Promise((res) => {
    const s = createServer();
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => res(port));
    });
  });

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export async function up(url) {
  for (let i = 0; i < 150; i++) {
    try {
      await fetch(url);
      return;
    } catch {}
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} did not start`);
}

const children = [];
const exitHooks = [];
process.on("exit", () => {
  for (const c of children) c.kill();
  for (const f of exitHooks) f();
});
process.on("SIGINT", () => process.exit(130));

/** Runs `f` (synchronous) when the bench exits, after its processes are killed: e.g. removing a temporary directory. */
export const onExit = (f) => exitHooks.push(f);

/** Starts `cmd args` in the repository with `env`, killed when the bench exits; stdout shown with BENCH_LOGS=1. */
export function startProcess(cmd, args, env) {
  const child = spawn(cmd, args, { cwd: root, env: { ...process.env, ...env }, stdio: ["ignore", process.env.BENCH_LOGS ? "inherit" : "ignore", "inherit"] });
  children.push(child);
  return child;
}

/**
 * Starts `bun <script>` with `env`, killed when the bench exits. BENCH_BUN_FLAGS (e.g.
 * "--cpu-prof-md --cpu-prof-dir=/tmp/prof") is passed to Bun, to profile what a bench measures.
 */
/**
 * A key of the key scheme (api/lib/redis-keys.ts, ADR 028) under `env`'s prefix: benches never
 * build keys by hand. For a key made per call (a ticket), pass a placeholder and replace it.
 */
export function redisKey(env, family, ...args) {
  const r = spawnSync(bun, ["api/cli/redis-key.ts", family, ...args], { cwd: root, env: { ...process.env, ...env }, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`redis-key ${family}: ${r.stderr}`);
  return r.stdout.trim();
}

export const startBun = (script, env) => startProcess(bun, [...(process.env.BENCH_BUN_FLAGS ?? "").split(" ").filter(Boolean), script], env);

/**
 * Starts the web process (`bun remix/server.ts`) with `env`, after building what it serves (the
 * widget and remix/build) when their sources changed, as `npm start` does: a fresh clone needs no
 * earlier `npm start`. Only the web needs a build; api, worker, realtime and simulator run their sources.
 */
export function startWeb(env) {
  buildWeb();
  return startBun("remix/server.ts", env);
}

/** Drops database `name` on the local (or configured) PostgreSQL, if it exists. */
export async function dropDatabase(name) {
  const services = await ensureServices();
  const admin = new URL(services.databaseUrl);
  admin.pathname = "/postgres";
  const c = new pg.Client({ connectionString: admin.toString() });
  await c.connect();
  await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await c.end();
}

/** Deletes a run's Redis keys (streams, rate-limit buckets…): everything under `prefix`. */
export async function dropRedisPrefix(url, prefix) {
  // A cluster (a seed list) is the bench's own and is stopped whole.
  if (url.includes(",")) return;
  const { default: Redis } = await import("ioredis");
  const r = new Redis(url);
  let cursor = "0";
  do {
    const [next, keys] = await r.scan(cursor, "MATCH", `${prefix}*`, "COUNT", 1000);
    cursor = next;
    if (keys.length) await r.del(...keys);
  } while (cursor !== "0");
  await r.quit();
}

/**
 * A fresh-or-reused database `name` on the local (or configured) PostgreSQL, migrated and seeded,
 * and the production-mode environment for an api process on a free port with its own Redis prefix.
 * `fresh`: drop the database first (unless DATABASE_URL names one), so the bench starts empty.
 */
export async function benchPlatform(name, prefix, extra = {}, { fresh = false } = {}) {
  const services = await ensureServices();
  if (fresh && !process.env.DATABASE_URL) await dropDatabase(name);
  const databaseUrl = await ensureDatabase(services.databaseUrl, name);
  const apiPort = await freePort();
  const env = {
    DATABASE_URL: databaseUrl,
    REDIS_URL: services.redisUrl,
    REDIS_PREFIX: prefix,
    NODE_ENV: "production",
    // Production mode needs real secrets: random ones per bench run, none written in the source.
    ...Object.fromEntries(["SESSION_SECRET", "JWT_SECRET", "SIMULATOR_WEBHOOK_SECRET", "SIMULATOR_API_KEY"].map((k) => [k, randomBytes(32).toString("base64url")])),
    APP_URL: "http://localhost:3000",
    API_PORT: String(apiPort),
    // The simulator's SMTP and DNS peers on ports of their own (an `npm start` may hold the defaults).
    SIMULATOR_SMTP_PORT: String(await freePort()),
    SIMULATOR_DNS_PORT: String(await freePort()),
    ...extra,
  };
  for (const script of ["models/migrate.ts", "seeds/run.ts"]) {
    const r = spawnSync(bun, [script], { cwd: root, env: { ...process.env, ...env }, encoding: "utf8" });
    if (r.status !== 0) throw new Error(`${script}: ${r.stderr}`);
  }
  return { databaseUrl, apiPort, env };
}

/**
 * The screens' stack for a browser bench: database `name` (benchPlatform), then api, realtime and
 * web processes on free ports, up. Returns the web's base URL, the environment and the web process.
 */
export async function webStack(name, prefix) {
  const webPort = await freePort();
  const realtimePort = await freePort();
  const { apiPort, env } = await benchPlatform(name, prefix, {
    APP_URL: `http://localhost:${webPort}`,
    WEB_PORT: String(webPort),
    WEB_HOST: "127.0.0.1",
    REALTIME_PORT: String(realtimePort),
    REALTIME_URL: `http://127.0.0.1:${realtimePort}`,
  });
  env.API_URL = `http://127.0.0.1:${apiPort}`;
  startBun("api/server.ts", env);
  startBun("realtime/server.ts", env);
  const web = startWeb(env);
  const base = `http://localhost:${webPort}`;
  await up(`${env.API_URL}/api/health`);
  await up(`http://127.0.0.1:${realtimePort}/realtime/health`);
  await up(`${base}/health`);
  return { base, env, web };
}
