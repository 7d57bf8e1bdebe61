#!/usr/bin/env node
/**
 * Which Redis command families each test file uses that most files do not (ADR 040, amendment of
 * 2026-12-01): the evidence for taking a file off the Redis Cluster pass. A family is a command and
 * its key with the ids taken out (`xadd {jobs:sms-exports}`, `evalsha {live}:presence:U`).
 *
 * Collect the input on a single Redis, one file at a time so each command falls in one file's window:
 *   redis-cli monitor > /tmp/monitor.txt &
 *   npm test -- <files> --no-file-parallelism --reporter=default --reporter=json --outputFile.json=/tmp/files.json
 *   kill %1; node .ci/redis-families.mjs /tmp/monitor.txt /tmp/files.json
 * A file that prints nothing uses only what half the files use (sign-in, sessions, the sends'
 * buckets and streams); one that prints a family must keep it covered by a file left on the pass.
 */
import { createReadStream, readFileSync } from "node:fs";
import { createInterface } from "node:readline";

const [monitorPath, reportPath] = process.argv.slice(2);
if (!monitorPath || !reportPath) {
  console.error("usage: node .ci/redis-families.mjs <redis-cli monitor output> <vitest json report>");
  process.exit(2);
}
const report = JSON.parse(readFileSync(reportPath, "utf8"));
const windows = report.testResults
  .map((t) => ({ start: t.startTime / 1000, end: t.endTime / 1000, name: t.name.split("/").pop().replace(/\.test\.ts$/, "") }))
  .sort((a, b) => a.start - b.start);

// A test run's keys are `test:<run id>:{tag}rest` (tests/setup/global.ts).
const KEY = /"(test:[a-z0-9]+_[0-9a-f]+:[^"]*)"/g;
const LINE = /^(\d+\.\d+) \[[^\]]*\] "([^"]*)"(?: "([^"]*)")?/;
const WITH_SUBFAMILY = new Set(["rl", "bucket", "jobs", "messages", "flows", "shortener", "channel"]);

/** A key without its run prefix and ids: the tag's family (and sub-family), the rest with ids as X or U. */
function family(key) {
  const bare = key.replace(/^test:[^:]+:/, "");
  const m = /^\{([^}]*)\}(.*)$/.exec(bare);
  if (!m) return bare;
  const parts = m[1].split(":");
  const tag = (WITH_SUBFAMILY.has(parts[0]) ? parts.slice(0, 2) : parts.slice(0, 1)).join(":");
  const rest = m[2].replace(/[0-9a-f]{8}-[0-9a-f-]{27}/g, "U").replace(/:[^:]*[0-9][^:]*/g, ":X");
  return `{${tag}}${rest}`;
}

const byFile = new Map();
const lines = createInterface({ input: createReadStream(monitorPath, "utf8"), crlfDelay: Number.POSITIVE_INFINITY });
let w = 0;
for await (const line of lines) {
  const m = LINE.exec(line);
  if (!m) continue;
  const at = Number(m[1]);
  let command = m[2].toLowerCase();
  if (command === "evalsha" || command === "eval") command = `${command}:${(m[3] ?? "").slice(0, 8)}`;
  const keys = [...line.matchAll(KEY)].slice(0, 2).map((k) => k[1]);
  if (keys.length === 0) continue;
  while (w + 1 < windows.length && windows[w + 1].start <= at) w++;
  const name = windows[w] && at >= windows[w].start && at <= windows[w].end ? windows[w].name : "(between files)";
  if (!byFile.has(name)) byFile.set(name, new Set());
  for (const key of keys) byFile.get(name).add(`${command} ${family(key)}`);
}

const files = [...byFile.keys()].filter((n) => n !== "(between files)");
const count = new Map();
for (const name of files) for (const f of byFile.get(name)) count.set(f, (count.get(f) ?? 0) + 1);
const common = new Set([...count].filter(([, c]) => c >= files.length / 2).map(([f]) => f));
for (const f of byFile.get("(between files)") ?? []) common.add(f);
for (const name of files.sort()) {
  const own = [...byFile.get(name)].filter((f) => !common.has(f)).sort();
  console.log(`${name}: ${own.length ? own.join(" | ") : "-"}`);
}
