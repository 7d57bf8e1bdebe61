#!/usr/bin/env node
/**
 * `npm start` and `npm test` land here. Plain Node (the only prerequisite): it makes sure
 * PostgreSQL and Redis are there, prepares the database, builds the web app, then either runs
 * the four Procfile processes with prefixed logs (start) or the whole test suite (test).
 */
import { spawn, spawnSync, execFileSync } from "node:child_process";
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { ensureServices, ensureDatabase } from "./services.mjs";
import { buildWidget } from "./widget-build.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const bin = (name) => join(root, "node_modules", ".bin", name);
const mode = process.argv[2] ?? "start";

function run(cmd, args, env) {
  const r = spawnSync(cmd, args, { cwd: root, stdio: "inherit", env: { ...process.env, ...env } });
  if (r.status !== 0) {
    console.error(`\n${[cmd.split("/").pop(), ...args].join(" ")} failed (exit ${r.status ?? r.signal}).`);
    process.exit(r.status ?? 1);
  }
}

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === "node_modules" || entry.name === "build") continue;
    const p = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return newest;
}

/**
 * Build the Remix app when its sources changed since the last build. The stamp records the
 * newest source time seen when the build STARTED, so an edit made during a build triggers the next one.
 */
export function buildWeb() {
  // The embeddable widget first: the Remix build copies public/ (and so public/widget.js) into its assets.
  buildWidget();
  const stamp = join(root, "remix", "build", ".sources-mtime");
  const sources = Math.max(newestMtime(join(root, "remix")), newestMtime(join(root, "api")), newestMtime(join(root, "models")), newestMtime(join(root, "public")));
  const built = existsSync(stamp) && existsSync(join(root, "remix", "build", "server", "index.js")) ? Number(readFileSync(stamp, "utf8")) : 0;
  if (built >= sources) return;
  console.log("Building the web app…");
  run(bin("remix"), ["vite:build", "--config", "remix/vite.config.ts"], { NODE_ENV: "production" });
  writeFileSync(stamp, String(sources));
}

function procfile() {
  return readFileSync(join(root, "Procfile"), "utf8")
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith("#"))
    .map((l) => {
      const i = l.indexOf(":");
      return { name: l.slice(0, i).trim(), command: l.slice(i + 1).trim() };
    });
}

const colors = [36, 35, 33, 32, 34, 31];
function runAll(env) {
  const procs = procfile();
  const width = Math.max(...procs.map((p) => p.name.length));
  const children = procs.map((p, i) => {
    const [cmd, ...args] = p.command.split(/\s+/);
    const child = spawn(cmd === "bun" ? bin("bun") : cmd, args, { cwd: root, env: { ...process.env, ...env } });
    const prefix = `\x1b[${colors[i % colors.length]}m${p.name.padEnd(width)} |\x1b[0m `;
    for (const stream of [child.stdout, child.stderr]) {
      let buffer = "";
      stream.on("data", (chunk) => {
        buffer += chunk;
        const lines = buffer.split("\n");
        buffer = lines.pop();
        for (const line of lines) process.stdout.write(prefix + line + "\n");
      });
    }
    child.on("exit", (code, signal) => {
      process.stdout.write(`${prefix}exited (${code ?? signal})\n`);
      if (!stopping) stop(code ?? 1);
    });
    return child;
  });
  let stopping = false;
  function stop(code) {
    stopping = true;
    for (const c of children) c.kill("SIGTERM");
    setTimeout(() => process.exit(code), 1500).unref();
  }
  process.on("SIGINT", () => stop(0));
  process.on("SIGTERM", () => stop(0));
}

const services = await ensureServices();
if (mode === "start") {
  const databaseUrl = await ensureDatabase(services.databaseUrl, "mensageria");
  const env = { DATABASE_URL: databaseUrl, REDIS_URL: services.redisUrl };
  run(bin("bun"), ["models/migrate.ts", "up"], env);
  run(bin("bun"), ["seeds/run.ts"], env);
  buildWeb();
  console.log(`\nOpen http://localhost:${process.env.WEB_PORT ?? 3000} and sign in with one of the demo logins above.\n`);
  runAll({ ...env, NODE_ENV: process.env.NODE_ENV ?? "development" });
} else if (mode === "test") {
  buildWeb();
  run(bin("vitest"), ["run", "--config", "tests/vitest.config.ts", ...process.argv.slice(3)], {
    TEST_ADMIN_DATABASE_URL: services.databaseUrl,
    REDIS_URL: services.redisUrl,
  });
} else {
  console.error(`Unknown mode "${mode}": use start or test.`);
  process.exit(2);
}
