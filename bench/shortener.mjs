#!/usr/bin/env node
/**
 * The URL shortener's redirect host (issue 22, ADR 057): redirects per second and latency
 * (p50/p99/max) of `GET /<slug>` on SHORTENER_HOST, answered by the web process (production mode,
 * its own database `mensageria_bench_shortener`, the seeded demo link "ofertas"), with the worker
 * writing the clicks. BENCH_CONNECTIONS keep-alive connections (default 64) send BENCH_REQUESTS
 * redirects (default 100,000) after a warm-up of 2,000; then the bench waits until every click is
 * in PostgreSQL and prints how many were written (none may be lost) and how long the writer took
 * to catch up. Targets: ≥ 10,000 redirects/s, p99 ≤ 10 ms.
 * Run: `node bench/shortener.mjs` (PostgreSQL and Redis as for npm start). Stops by itself.
 */
import pg from "pg";
import { Pool } from "undici";
import { benchPlatform, freePort, sleep, startBun, startWeb, up } from "./lib.mjs";

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 100_000);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 64);
const WARMUP = 2_000;
const HOST = "short.localhost";

const webPort = await freePort();
const { databaseUrl, env } = await benchPlatform(
  "mensageria_bench_shortener",
  `bench:shortener:${Date.now()}:`,
  { APP_URL: `http://localhost:${webPort}`, WEB_PORT: String(webPort), WEB_HOST: "127.0.0.1", SHORTENER_HOST: HOST },
  { fresh: true },
);
startWeb(env);
startBun("api/worker.ts", env);
await up(`http://127.0.0.1:${webPort}/health`);

const db = new pg.Pool({ connectionString: databaseUrl, max: 2 });
const { rows: links } = await db.query("SELECT id FROM shortener_links WHERE domain = $1 AND slug = 'ofertas'", [HOST]);
if (!links.length) throw new Error("the demo link 'ofertas' is not seeded");
const linkId = links[0].id;
const clicks = async () => Number((await db.query("SELECT count(*) AS n FROM shortener_clicks WHERE link_id = $1", [linkId])).rows[0].n);

const pool = new Pool(`http://127.0.0.1:${webPort}`, { connections: CONNECTIONS, pipelining: 1 });
const headers = { host: `${HOST}:${webPort}`, "user-agent": "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile/15E148", "accept-language": "pt-BR" };

/** `n` redirects over CONNECTIONS workers; answers each one's latency (ms) and the wall time. */
async function run(n) {
  const latencies = new Float64Array(n);
  let next = 0;
  let wrong = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      for (let i = next++; i < n; i = next++) {
        const t0 = performance.now();
        const res = await pool.request({ path: "/ofertas", method: "GET", headers });
        await res.body.dump();
        latencies[i] = performance.now() - t0;
        if (res.statusCode !== 302) wrong++;
      }
    }),
  );
  return { latencies, seconds: (performance.now() - started) / 1000, wrong };
}

const before = await clicks();
await run(WARMUP);
const { latencies, seconds, wrong } = await run(REQUESTS);
const sentAt = performance.now();
latencies.sort();
const pct = (p) => latencies[Math.min(latencies.length - 1, Math.ceil((p / 100) * latencies.length) - 1)];
const expected = before + WARMUP + REQUESTS;
let written = await clicks();
while (written < expected && performance.now() - sentAt < 120_000) {
  await sleep(250);
  written = await clicks();
}
const catchUp = (performance.now() - sentAt) / 1000;
console.log(`shortener redirects (GET /<slug> on ${HOST}, ${CONNECTIONS} keep-alive connections, ${REQUESTS} requests):`);
console.log(`  ${Math.round(REQUESTS / seconds)} redirects/s over ${seconds.toFixed(1)} s; non-302 answers: ${wrong}`);
console.log(`  latency ms: p50 ${pct(50).toFixed(2)}  p90 ${pct(90).toFixed(2)}  p99 ${pct(99).toFixed(2)}  max ${latencies[latencies.length - 1].toFixed(2)}`);
console.log(`  clicks written: ${written - before} of ${WARMUP + REQUESTS} (lost: ${expected - written}), the writer done ${catchUp.toFixed(1)} s after the last redirect`);
await pool.close();
await db.end();
process.exit(written === expected && wrong === 0 ? 0 : 1);
