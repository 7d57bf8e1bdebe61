/**
 * Make sure PostgreSQL and Redis are reachable. Order: DATABASE_URL / REDIS_URL when set;
 * otherwise start the local servers if installed; otherwise install them with apt-get when root;
 * otherwise stop with one sentence saying what to provide.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import net from "node:net";
import pg from "pg";

const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
/** Whether `cmd` is on the PATH. */
export const has = (cmd) => spawnSync("sh", ["-c", `command -v ${cmd}`], { stdio: "ignore" }).status === 0;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function fail(sentence) {
  console.error(`\n${sentence}\n`);
  process.exit(1);
}

function portOpen(port, host = "127.0.0.1") {
  return new Promise((resolve) => {
    const s = net.connect({ port, host });
    s.once("connect", () => { s.destroy(); resolve(true); });
    s.once("error", () => resolve(false));
    s.setTimeout(1000, () => { s.destroy(); resolve(false); });
  });
}

async function waitPort(port, seconds) {
  for (let i = 0; i < seconds * 4; i++) {
    if (await portOpen(port)) return true;
    await sleep(250);
  }
  return false;
}

let aptUpdated = false;
function aptInstall(...pkgs) {
  console.log(`Installing ${pkgs.join(", ")} with apt-get…`);
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  if (!aptUpdated) { execFileSync("apt-get", ["update", "-qq"], { stdio: "inherit", env }); aptUpdated = true; }
  execFileSync("apt-get", ["install", "-y", "-qq", ...pkgs], { stdio: "inherit", env });
}

async function ensurePostgres() {
  if (process.env.DATABASE_URL) return process.env.DATABASE_URL;
  if (!(await portOpen(5432))) {
    if (!has("pg_ctlcluster") && isRoot && has("apt-get")) aptInstall("postgresql");
    if (has("pg_ctlcluster") && existsSync("/etc/postgresql")) {
      for (const version of readdirSync("/etc/postgresql")) {
        spawnSync("pg_ctlcluster", ["--skip-systemctl-redirect", version, "main", "start"], { stdio: "inherit" });
      }
    }
    if (!(await waitPort(5432, 20))) {
      fail("PostgreSQL is not reachable: set DATABASE_URL to a PostgreSQL 13+ server (postgres://user:pass@host:5432/db), or install PostgreSQL locally, or run this as root so it can be installed.");
    }
  }
  // Trust auth (the usual dev set-up) needs no password; Debian's default asks for one.
  for (const url of ["postgres://postgres@127.0.0.1:5432/postgres", "postgres://postgres:postgres@127.0.0.1:5432/postgres"]) {
    if (await canConnect(url)) return url;
  }
  if (isRoot && has("su")) {
    spawnSync("su", ["postgres", "-c", `psql -qc "ALTER USER postgres PASSWORD 'postgres'"`], { stdio: "inherit" });
    const url = "postgres://postgres:postgres@127.0.0.1:5432/postgres";
    if (await canConnect(url)) return url;
  }
  fail("PostgreSQL is running on 127.0.0.1:5432 but refuses user postgres: set DATABASE_URL with credentials that can create a database.");
}

async function canConnect(url) {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}

/**
 * A given REDIS_URL (one server, or a cluster's comma-separated seed nodes, ADR 028) must answer
 * before anything starts: a clear sentence naming the addresses tried, not a process that starts
 * and then logs lost connections.
 */
async function checkGivenRedis(value) {
  const seeds = value
    .split(",")
    .map((p) => p.trim())
    .filter(Boolean)
    .map((p) => {
      try {
        const u = new URL(p);
        return { host: u.hostname || "127.0.0.1", port: Number(u.port || 6379) };
      } catch {
        return null;
      }
    });
  if (seeds.length === 0 || seeds.includes(null)) fail(`REDIS_URL is not a Redis URL or a comma-separated list of them: "${value}".`);
  for (let i = 0; i < 20; i++) {
    for (const s of seeds) if (await portOpen(s.port, s.host)) return value;
    await sleep(500);
  }
  fail(`Redis is not reachable at REDIS_URL: none of ${seeds.map((s) => `${s.host}:${s.port}`).join(", ")} answered within 10 s.`);
}

async function ensureRedis() {
  if (process.env.REDIS_URL) return checkGivenRedis(process.env.REDIS_URL);
  if (await portOpen(6379)) return "redis://127.0.0.1:6379/0";
  if (!has("redis-server") && isRoot && has("apt-get")) aptInstall("redis-server");
  if (has("redis-server")) {
    spawnSync("redis-server", ["--daemonize", "yes", "--bind", "127.0.0.1", "--port", "6379", "--save", "", "--appendonly", "no"], { stdio: "inherit" });
  }
  if (!(await waitPort(6379, 15))) {
    fail("Redis is not reachable: set REDIS_URL to a Redis 6.2+ server (redis://host:6379/0), or install redis-server locally, or run this as root so it can be installed.");
  }
  return "redis://127.0.0.1:6379/0";
}

export async function ensureServices() {
  const databaseUrl = await ensurePostgres();
  const redisUrl = await ensureRedis();
  return { databaseUrl, redisUrl };
}

/** Create `name` on the server of `url` when missing; answers the URL of that database. */
export async function ensureDatabase(url, name) {
  const admin = new URL(url);
  const target = new URL(url);
  if (process.env.DATABASE_URL) return url; // a given URL names its own database
  target.pathname = `/${name}`;
  admin.pathname = "/postgres";
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  const { rowCount } = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
  if (!rowCount) await client.query(`CREATE DATABASE "${name.replace(/"/g, "")}"`);
  await client.end();
  return target.toString();
}
