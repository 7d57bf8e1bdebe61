#!/usr/bin/env node
/**
 * Requests per second of /health and of an authenticated API call (GET /api/accounts/info with
 * a JWT), on Bun (the real web and api processes) and on Node's http module (the same handlers),
 * printed side by side. Run: `node bench/run.mjs` (PostgreSQL and Redis as for npm start; the
 * widget and the web app are built first when their sources changed, and the Node handler is
 * bundled to bench/.build). Knobs: BENCH_SECONDS (8 per measurement), BENCH_CONNECTIONS (50).
 * Everything runs on loopback; each measurement is bounded in time.
 */
import { spawnSync } from "node:child_process";
import { benchPlatform, bun, freePort, root, startBun, startProcess, startWeb, up } from "./lib.mjs";
import { load } from "./load.mjs";

const seconds = Number(process.env.BENCH_SECONDS ?? 8);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);

const [webPort, nodeHealthPort, nodeApiPort] = await Promise.all([freePort(), freePort(), freePort()]);
const { apiPort, env } = await benchPlatform("mensageria_bench", "bench:", { APP_URL: `http://localhost:${webPort}`, WEB_PORT: String(webPort), WEB_HOST: "127.0.0.1" });
const built = spawnSync(bun, ["build", "bench/servers/api-node.ts", "--target=node", "--format=esm", "--packages=external", "--outfile=bench/.build/api-node.mjs"], {
  cwd: root,
  encoding: "utf8",
});
if (built.status !== 0) throw new Error(built.stderr);

startWeb(env);
startBun("api/server.ts", env);
startProcess("node", ["bench/servers/health-node.mjs"], { ...env, PORT: String(nodeHealthPort) });
startProcess("node", ["bench/.build/api-node.mjs"], { ...env, PORT: String(nodeApiPort) });
await Promise.all([
  up(`http://127.0.0.1:${webPort}/health`),
  up(`http://127.0.0.1:${apiPort}/api/health`),
  up(`http://127.0.0.1:${nodeHealthPort}/health`),
  up(`http://127.0.0.1:${nodeApiPort}/api/accounts/info`),
]);

const login = await fetch(`http://127.0.0.1:${apiPort}/api/auth/login`, {
  method: "POST",
  headers: { "Content-Type": "application/json" },
  body: JSON.stringify({ email: "owner@demo.example", password: "Demo!Mensa#2026" }),
}).then((r) => r.json());
const auth = { Authorization: `Bearer ${login.token}` };
const check = await fetch(`http://127.0.0.1:${nodeApiPort}/api/accounts/info`, { headers: auth }).then((r) => r.json());
if (check.name !== "Demo Comércio Ltda") throw new Error("the Node handler does not answer the same data");

const rows = [];
for (const [name, bunUrl, nodeUrl, headers] of [
  ["GET /health", `http://127.0.0.1:${webPort}/health`, `http://127.0.0.1:${nodeHealthPort}/health`, {}],
  ["GET /api/accounts/info (JWT)", `http://127.0.0.1:${apiPort}/api/accounts/info`, `http://127.0.0.1:${nodeApiPort}/api/accounts/info`, auth],
]) {
  const b = await load(bunUrl, { connections, seconds, headers });
  const n = await load(nodeUrl, { connections, seconds, headers });
  rows.push({ name, b, n });
}

const f = (x) => Math.round(x).toLocaleString("en-US");
const ms = (x) => x.toFixed(1);
console.log(`\n${connections} connections, ${seconds} s each, loopback, ${new Date().toISOString()}`);
console.log("| call | Bun req/s | Node req/s | Bun/Node | Bun p50 / p99 ms | Node p50 / p99 ms | errors (Bun/Node) |");
console.log("|---|---:|---:|---:|---:|---:|---:|");
for (const { name, b, n } of rows) {
  console.log(`| ${name} | ${f(b.rps)} | ${f(n.rps)} | ${(b.rps / n.rps).toFixed(2)}x | ${ms(b.p50)} / ${ms(b.p99)} | ${ms(n.p50)} / ${ms(n.p99)} | ${b.failed} / ${n.failed} |`);
}
process.exit(0);
