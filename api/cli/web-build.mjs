#!/usr/bin/env node
/**
 * Builds what the web process (`bun remix/server.ts`) serves: the embeddable widget
 * (./widget-build.mjs), the enhancement script (./enhance-build.mjs) and the Remix app (remix/build), each only when its sources changed.
 * `npm start`, `npm test` (./boot.mjs) and the benchmarks that start the web (bench/lib.mjs
 * `startWeb`) call `buildWeb()`; `node api/cli/web-build.mjs` runs it by hand.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildEnhance } from "./enhance-build.mjs";
import { buildWidget } from "./widget-build.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

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
  // The enhancement script of the pages served without React (ADR 051), copied the same way.
  buildEnhance();
  const stamp = join(root, "remix", "build", ".sources-mtime");
  const sources = Math.max(newestMtime(join(root, "remix")), newestMtime(join(root, "api")), newestMtime(join(root, "models")), newestMtime(join(root, "public")));
  const built = existsSync(stamp) && existsSync(join(root, "remix", "build", "server", "index.js")) ? Number(readFileSync(stamp, "utf8")) : 0;
  if (built >= sources) return;
  console.log("Building the web app…");
  const r = spawnSync(join(root, "node_modules", ".bin", "remix"), ["vite:build", "--config", "remix/vite.config.ts"], {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, NODE_ENV: "production" },
  });
  if (r.status !== 0) throw Object.assign(new Error(`remix vite:build --config remix/vite.config.ts failed (exit ${r.status ?? r.signal})`), { exitCode: r.status ?? 1 });
  writeFileSync(stamp, String(sources));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) buildWeb();
