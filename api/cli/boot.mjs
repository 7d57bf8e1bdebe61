#!/usr/bin/env node
/**
 * `npm start` and `npm test` land here. Plain Node (the only prerequisite): it makes sure
 * PostgreSQL and Redis are there, prepares the database, builds the web app, then either runs
 * the Procfile processes with prefixed logs, restarting any that crashes (start, ./supervisor.mjs),
 * or the whole test suite (test).
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { ensureServices, ensureDatabase } from "./services.mjs";
import { buildWidget } from "./widget-build.mjs";
import { parseProcfile, supervise } from "./supervisor.mjs";

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

/** The Procfile's processes, supervised (a crashed one restarts with back-off; Ctrl-C stops all). */
function runAll(env) {
  const procs = parseProcfile(readFileSync(join(root, "Procfile"), "utf8"));
  supervise(procs, { cwd: root, env: { ...process.env, ...env }, resolve: (cmd) => (cmd === "bun" ? bin("bun") : cmd) });
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
