#!/usr/bin/env node
/**
 * Requests per second of /health and of an authenticated API call (GET /api/accounts/info with
 * a JWT), on Bun (the real web and api processes) and on Node's http module (the same handlers),
 * printed side by side. Run: `node bench/run.mjs` (PostgreSQL and Redis as for npm start).
 * Everything runs on loopback; each measurement is bounded in time.
 */
import { spawn, spawnSync } from "node:child_process";
import { createServer } from "node:net";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { ensureDatabase, ensureServices } from "../api/cli/services.mjs";
import { load } from "./load.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const bun = join(root, "node_modules", ".bin", "bun");
const seconds = Number(process.env.BENCH_SECONDS ?? 8);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);

const freePort = () => new Promise((res) => { const s = createServer(); s.listen(0, "127.0.0.1", () => { const { port } = s.address(); s.close(() => res(port)); }); });
const children = [];
function start(cmd, args, env) {
  const child = spawn(cmd, args, { cwd: root, env: { ...process.env, ...env }, stdio: ["ignore", "ignore", "inherit"] });
  children.push(child);
  return child;
}
async function up(url) {
  for (let i = 0; i < 150; i++) {
    try { await fetch(url); return; } catch {}
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} did not start`);
}
process.on("exit", () => children.forEach((c) => c.kill()));

const services = await ensureServices();
const databaseUrl = await ensureDatabase(services.databaseUrl, "mensageria_bench");
const [webPort, apiPort, nodeHealthPort, nodeApiPort] = await Promise.all([freePort(), freePort(), freePort(), freePort()]);
const env = { DATABASE_URL: databaseUrl, REDIS_URL: services.redisUrl, REDIS_PREFIX: "bench:", NODE_ENV: "production", SESSION_SECRET: "bench-secret-0123456789-0123456789-abcdef", JWT_SECRET: "bench-jwt-secret-0123456789-0123456789-abc", SIMULATOR_WEBHOOK_SECRET: "bench-simulator-webhook-secret-0123456789", APP_URL: `http://localhost:${webPort}`, WEB_PORT: String(webPort), API_PORT: String(apiPort), WEB_HOST: "127.0.0.1" };
for (const script of ["models/migrate.ts", "seeds/run.ts"]) {
  const r = spawnSync(bun, [script], { cwd: root, env: { ...process.env, ...env }, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`${script}: ${r.stderr}`);
}
const built = spawnSync(bun, ["build", "bench/servers/api-node.ts", "--target=node", "--format=esm", "--packages=external", "--outfile=bench/.build/api-node.mjs"], { cwd: root, encoding: "utf8" });
if (built.status !== 0) throw new Error(built.stderr);

start(bun, ["remix/server.ts"], env);
start(bun, ["api/server.ts"], env);
start("node", ["bench/servers/health-node.mjs"], { ...env, PORT: String(nodeHealthPort) });
start("node", ["bench/.build/api-node.mjs"], { ...env, PORT: String(nodeApiPort) });
await Promise.all([up(`http://127.0.0.1:${webPort}/health`), up(`http://127.0.0.1:${apiPort}/api/health`), up(`http://127.0.0.1:${nodeHealthPort}/health`), up(`http://127.0.0.1:${nodeApiPort}/api/accounts/info`)]);

const login = await fetch(`http://127.0.0.1:${apiPort}/api/auth/login`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ email: "owner@demo.example", password: "Demo!Mensa#2026" }) }).then((r) => r.json());
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
