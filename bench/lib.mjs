/**
 * What the bench scripts share: free loopback ports, waiting for a process to answer, and a fresh
 * database migrated and seeded with the production-mode environment the api processes need.
 */
import { spawn, spawnSync } from "node:child_process";
import { createServer } from "node:net";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { ensureDatabase, ensureServices } from "../api/cli/services.mjs";

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
process.on("exit", () => children.forEach((c) => c.kill()));

/** Starts `bun <script>` with `env`, killed when the bench exits. */
export function startBun(script, env) {
  const child = spawn(bun, [script], { cwd: root, env: { ...process.env, ...env }, stdio: ["ignore", "ignore", "inherit"] });
  children.push(child);
  return child;
}

/**
 * A fresh-or-reused database `name` on the local (or configured) PostgreSQL, migrated and seeded,
 * and the production-mode environment for an api process on a free port with its own Redis prefix.
 */
export async function benchPlatform(name, prefix, extra = {}) {
  const services = await ensureServices();
  const databaseUrl = await ensureDatabase(services.databaseUrl, name);
  const apiPort = await freePort();
  const env = {
    DATABASE_URL: databaseUrl, REDIS_URL: services.redisUrl, REDIS_PREFIX: prefix, NODE_ENV: "production",
    SESSION_SECRET: "bench-secret-0123456789-0123456789-abcdef", JWT_SECRET: "bench-jwt-secret-0123456789-0123456789-abc",
    SIMULATOR_WEBHOOK_SECRET: "bench-simulator-webhook-secret-0123456789", SIMULATOR_API_KEY: "bench-simulator-api-key-0123456789",
    APP_URL: "http://localhost:3000", API_PORT: String(apiPort), ...extra,
  };
  for (const script of ["models/migrate.ts", "seeds/run.ts"]) {
    const r = spawnSync(bun, [script], { cwd: root, env: { ...process.env, ...env }, encoding: "utf8" });
    if (r.status !== 0) throw new Error(`${script}: ${r.stderr}`);
  }
  return { databaseUrl, apiPort, env };
}
