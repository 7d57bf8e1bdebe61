/**
 * The set-up and tear-down the end-to-end benches share (dispatch, webhooks): a fresh database
 * `dbName` and a Redis prefix of their own, the real api process, a small pg pool on the database,
 * a JSON POST helper, the demo owner signed in, more processes on the same environment when asked,
 * and at the end the processes stopped, the database dropped and the prefix's keys deleted.
 */
import pg from "pg";
import { benchPlatform, dropDatabase, dropRedisPrefix, sleep, startBun, up } from "./lib.mjs";

/** The seeded demo owner (seeds/demo.ts). */
const DEMO_OWNER = { email: "owner@demo.example", password: "Demo!Mensa#2026" };

/**
 * `name` names the Redis prefix (bench:<name>:<time>:); `extraEnv` is added to the production-mode
 * environment of every process (logins are not rate-limited per IP: the bench signs in often).
 */
export async function benchStack(dbName, name, extraEnv, { poolSize = 2 } = {}) {
  const { databaseUrl, apiPort, env } = await benchPlatform(dbName, `bench:${name}:${Date.now()}:`, { LOGIN_MAX_FAILS_PER_IP: "1000", ...extraEnv }, { fresh: true });
  const procs = [];
  /** Starts `bun <script>` with the stack's environment; stopped by finish(). */
  const start = (script) => {
    const child = startBun(script, env);
    procs.push(child);
    return child;
  };
  start("api/server.ts");
  await up(`http://127.0.0.1:${apiPort}/api/health`);
  const db = new pg.Pool({ connectionString: databaseUrl, max: poolSize });
  /** POST a JSON body to the api (as `token` when given); its JSON answer, or an error naming the status. */
  const api = async (path, body, token) => {
    const res = await fetch(`http://127.0.0.1:${apiPort}${path}`, {
      method: "POST",
      headers: { "Content-Type": "application/json", ...(token ? { Authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
    const json = await res.json();
    if (!res.ok) throw new Error(`${path}: ${res.status} ${JSON.stringify(json).slice(0, 300)}`);
    return json;
  };
  const { token } = await api("/api/auth/login", DEMO_OWNER);
  /** Stops the processes, then drops the database (unless DATABASE_URL named one) and the Redis keys, and exits 0. */
  const finish = async () => {
    for (const p of procs) p.kill("SIGTERM");
    await db.end();
    await sleep(1000);
    if (!process.env.DATABASE_URL) await dropDatabase(dbName);
    await dropRedisPrefix(env.REDIS_URL, env.REDIS_PREFIX);
    process.exit(0);
  };
  return { apiPort, env, db, api, token, start, finish };
}
