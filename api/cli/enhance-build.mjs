#!/usr/bin/env node
/**
 * Builds the enhancement script of the pages served without React (ADR 051):
 * public-src/enhance/index.ts (plain TypeScript, plus the SMS segment counter it shares with the
 * API) -> public/enhance.js, minified, for browsers. Runs before the Remix build (which copies
 * public/ into the served assets) and only when a source is newer than the output;
 * `node api/cli/enhance-build.mjs` builds it by hand, `--out <file>` writes elsewhere.
 */
import { spawnSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { isFresh } from "./widget-build.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
export const ENHANCE_ENTRY = join(root, "public-src", "enhance", "index.ts");
export const ENHANCE_OUT = join(root, "public", "enhance.js");
const SOURCES = [join(root, "public-src", "enhance"), join(root, "api", "sms", "segments.ts")];

export function buildEnhance({ out = ENHANCE_OUT, force = false } = {}) {
  if (!force && isFresh(out, SOURCES)) return out;
  const bun = join(root, "node_modules", ".bin", "bun");
  const r = spawnSync(bun, ["build", ENHANCE_ENTRY, "--minify", "--target", "browser", "--format", "esm", "--outfile", out], { cwd: root, stdio: ["ignore", "ignore", "inherit"] });
  if (r.status !== 0) throw new Error(`enhance build failed (exit ${r.status ?? r.signal})`);
  return out;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const i = process.argv.indexOf("--out");
  console.log(buildEnhance({ out: i > 0 ? process.argv[i + 1] : ENHANCE_OUT, force: true }));
}
