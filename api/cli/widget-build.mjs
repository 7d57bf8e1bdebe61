#!/usr/bin/env node
/**
 * Builds the embeddable webchat widget: public-src/widget/index.ts (plain TypeScript, plus the
 * markup renderer and the realtime transport it shares with the web app, and the widget's locales) -> public/widget.js, minified, for browsers.
 * Runs before the Remix build (which copies public/ into the served assets) and only when a
 * source is newer than the output (the bundling itself is api/cli/widget-bundle.ts, on Bun). `node api/cli/widget-build.mjs` builds it by hand;
 * `--out <file>` writes elsewhere (the size test uses it). Beside it goes the same CSS as a file
 * (public/widget.css): the styles of browsers without constructable stylesheets (ADR 018).
 */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
export const WIDGET_ENTRY = join(root, "public-src", "widget", "index.ts");
export const WIDGET_OUT = join(root, "public", "widget.js");
/** The stylesheet written beside a widget script. */
export const widgetCss = (out) => `${out.replace(/\.js$/, "")}.css`;
const SOURCES = [join(root, "public-src"), join(root, "api", "cli", "widget-bundle.ts"), join(root, "remix", "app", "lib", "markup.ts"), join(root, "remix", "app", "lib", "live-transport.ts"), ...["pt-BR", "en", "es", "zh"].map((l) => join(root, "public", "locales", l, "widget.json"))];

function newest(p) {
  if (!existsSync(p)) return 0;
  const s = statSync(p);
  if (!s.isDirectory()) return s.mtimeMs;
  return Math.max(0, ...readdirSync(p).map((e) => newest(join(p, e))));
}

/** `out` exists and is newer than every file of `sources` (files or folders): no build needed. Also for ./enhance-build.mjs. */
export function isFresh(out, sources) {
  return existsSync(out) && statSync(out).mtimeMs >= Math.max(...sources.map(newest));
}

export function buildWidget({ out = WIDGET_OUT, force = false } = {}) {
  if (!force && isFresh(out, SOURCES) && isFresh(widgetCss(out), SOURCES)) return out;
  const bun = join(root, "node_modules", ".bin", "bun");
  const r = spawnSync(bun, [join(root, "api", "cli", "widget-bundle.ts"), WIDGET_ENTRY, out], { cwd: root, stdio: ["ignore", "ignore", "inherit"] });
  if (r.status !== 0) throw new Error(`widget build failed (exit ${r.status ?? r.signal})`);
  return out;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const i = process.argv.indexOf("--out");
  console.log(buildWidget({ out: i > 0 ? process.argv[i + 1] : WIDGET_OUT, force: true }));
}
