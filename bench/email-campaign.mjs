#!/usr/bin/env node
/**
 * E-mail campaign end to end (issue 17, ADR 038): BENCH_RECIPIENTS (100,000) contacts with an
 * e-mail in one group, one POST /api/email/campaigns to the group ({{first_name}} in subject and
 * HTML), then the worker renders each message, DKIM-signs it with the domain's key and sends it
 * over the pooled SMTP adapter (EMAIL_SMTP_POOL connections, DISPATCH_CONCURRENCY in flight) to the
 * simulator's local SMTP peer, which verifies DKIM (every message, or 1 in SIMULATOR_DKIM_SAMPLE),
 * records it and sends a success DSN to our inbound listener (the `inbound-mail` process), which
 * marks it delivered. Real api, worker, simulator and inbound-mail processes in production mode on
 * a fresh `mensageria_bench_email` database; DNS (domain validation and the peer's DKIM look-ups)
 * on the simulator's DNS peer.
 * Prints: the accept (one request, set-based) in messages/s; sent/s from the worker's start until
 * the peer took all (every message `sent` or further); delivered/s until every DSN was applied;
 * the peak RSS (VmHWM) and the CPU seconds of each process. Run: `node bench/email-campaign.mjs` (not part of npm test).
 */
import { readFileSync } from "node:fs";
import pg from "pg";
import { benchPlatform, freePort, sleep, startBun, up } from "./lib.mjs";

const N = Number(process.env.BENCH_RECIPIENTS ?? 100_000);
const [apiPort, simPort, dnsPort, inboundPort] = [await freePort(), await freePort(), await freePort(), await freePort()];
const { databaseUrl, env } = await benchPlatform(
  "mensageria_bench_email",
  `bench:email:${Date.now()}:`,
  {
    API_PORT: String(apiPort),
    APP_URL: `http://127.0.0.1:${apiPort}`,
    SIMULATOR_PORT: String(simPort),
    SIMULATOR_URL: `http://127.0.0.1:${simPort}`,
    SIMULATOR_DNS_PORT: String(dnsPort),
    SIMULATOR_DELAY_MS: process.env.SIMULATOR_DELAY_MS ?? "50",
    EMAIL_DNS_SERVERS: `127.0.0.1:${dnsPort}`,
    EMAIL_INBOUND_PORT: String(inboundPort),
    EMAIL_SMTP_POOL: process.env.EMAIL_SMTP_POOL ?? "16",
    DISPATCH_CONCURRENCY: process.env.DISPATCH_CONCURRENCY ?? "32",
    OUTBOX_POLL_MS: "50",
    LOGIN_MAX_FAILS_PER_IP: "1000",
    ...(process.env.SIMULATOR_DKIM_SAMPLE ? { SIMULATOR_DKIM_SAMPLE: process.env.SIMULATOR_DKIM_SAMPLE } : {}),
  },
  { fresh: true },
);
const base = `http://127.0.0.1:${apiPort}`;
const procs = { api: startBun("api/server.ts", env), simulator: startBun("api/simulator/server.ts", env), "inbound-mail": startBun("api/email/inbound-server.ts", env) };
await Promise.all([up(`${base}/api/health`), up(`http://127.0.0.1:${simPort}/health`)]);
const db = new pg.Pool({ connectionString: databaseUrl, max: 2 });

const call = async (path, body, token, method) => {
  const res = await fetch(`${base}${path}`, {
    method: method ?? (body === undefined ? "GET" : "POST"),
    headers: { "Content-Type": "application/json", ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await res.json();
  if (res.status >= 300) throw new Error(`${path}: ${res.status} ${JSON.stringify(json).slice(0, 300)}`);
  return json;
};
const { token } = await call("/api/auth/login", { email: "owner@demo.example", password: "Demo!Mensa#2026" });
const {
  rows: [{ account_id: accountId }],
} = await db.query("SELECT m.account_id FROM memberships m JOIN users u ON u.id = m.user_id WHERE u.email = 'owner@demo.example' LIMIT 1");

// A sending domain: registered through the API, its records on the simulator's DNS peer, validated.
const domainName = "bench-envio.test";
const { data: domain } = await call("/api/email/domains", { domain: domainName }, token);
for (const r of domain.records) {
  const res = await fetch(`http://127.0.0.1:${simPort}/email/_sim/dns`, {
    method: "POST",
    headers: { Authorization: `Bearer ${env.SIMULATOR_API_KEY}`, "Content-Type": "application/json" },
    body: JSON.stringify({ name: r.host, type: r.type, values: [r.value] }),
  });
  if (!res.ok) throw new Error(`DNS publish: ${res.status}`);
}
const { data: checked } = await call(`/api/email/domains/validate/${domain.id}`, undefined, token, "POST");
if (checked.status !== "validated") throw new Error(`domain ${checked.status}`);

// N contacts with an e-mail in one group, by SQL.
const t0 = performance.now();
const {
  rows: [group],
} = await db.query("INSERT INTO contact_groups (account_id, name) VALUES ($1, 'Bench e-mail') RETURNING id", [accountId]);
await db.query(
  `WITH c AS (
     INSERT INTO contacts (account_id, first_name, email) SELECT $1, 'Cliente ' || i, 'cliente' || i || '@destino-bench.test' FROM generate_series(1, $2) i RETURNING id
   ) INSERT INTO contact_group_members (group_id, contact_id, account_id) SELECT $3, id, $1 FROM c`,
  [accountId, N, group.id],
);
await db.query("UPDATE account_balances SET balance = balance + $2 WHERE account_id = $1", [accountId, N * 100]);
console.log(`setup: ${N} contacts in a group in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

// 1. The accept: one request, set-based.
const a0 = performance.now();
const accepted = await call(
  "/api/email/campaigns",
  {
    from: `ofertas@${domainName}`,
    from_name: "Loja Bench",
    group_id: group.id,
    subject: "Oi {{first_name}}, ofertas da semana",
    html: `<html><body><h1>Olá {{first_name}}</h1>${"<p>Ofertas da semana para você.</p>".repeat(40)}</body></html>`,
    text: "Olá {{first_name}}, ofertas da semana.",
  },
  token,
);
const acceptS = (performance.now() - a0) / 1000;
const campaignId = accepted.data.campaign_id;
console.log(`accept: ${accepted.data.summary.messages} messages in ${acceptS.toFixed(2)} s = ${Math.round(N / acceptS)} msg/s`);

// 2. The worker sends them.
const w0 = performance.now();
procs.worker = startBun("api/worker.ts", env);
const progress = async () => {
  const {
    rows: [r],
  } = await db.query(
    `SELECT count(*) FILTER (WHERE status IN ('sent','delivered','bounced','dropped','blocked','failed'))::int AS past,
            count(*) FILTER (WHERE status = 'delivered')::int AS delivered FROM messages WHERE campaign_id = $1`,
    [campaignId],
  );
  return r;
};
const peak = {};
const cpu = {};
const sample = () => {
  for (const [name, child] of Object.entries(procs)) {
    try {
      const hwm = /VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, "utf8"));
      if (hwm) peak[name] = Math.max(peak[name] ?? 0, Number(hwm[1]) / 1024);
      // utime + stime (fields 14 and 15 of /proc/pid/stat, after the command's closing parenthesis), in clock ticks (100/s).
      const stat = readFileSync(`/proc/${child.pid}/stat`, "utf8");
      const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      cpu[name] = (Number(f[11]) + Number(f[12])) / 100;
    } catch {}
  }
};
const pgCpu = async () => {
  // PostgreSQL's own CPU: every backend of the bench database, summed from /proc (same machine).
  const { rows } = await db.query("SELECT pid FROM pg_stat_activity WHERE datname = current_database()");
  let s = 0;
  for (const { pid } of rows) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      s += (Number(f[11]) + Number(f[12])) / 100;
    } catch {}
  }
  return s;
};
let sentS = null;
let last = -1;
let still = 0;
for (;;) {
  await sleep(1000);
  sample();
  const { past, delivered } = await progress();
  if (sentS === null && past >= N) sentS = (performance.now() - w0) / 1000;
  process.stdout.write(`\r${Math.round((performance.now() - w0) / 1000)} s: past sending ${past}, delivered ${delivered}   `);
  if (delivered >= N) break;
  still = delivered === last ? still + 1 : 0;
  last = delivered;
  if (still > 120) throw new Error(`stalled at ${delivered} delivered`);
}
const deliveredS = (performance.now() - w0) / 1000;
sample();
const pgSeconds = await pgCpu();
const { rows: byStatus } = await db.query("SELECT status, count(*)::int AS n FROM messages WHERE campaign_id = $1 GROUP BY status", [campaignId]);
console.log(`\nsent (the peer took every message): ${sentS.toFixed(1)} s = ${Math.round(N / sentS)} msg/s`);
console.log(`delivered (every DSN applied): ${deliveredS.toFixed(1)} s = ${Math.round(N / deliveredS)} msg/s`);
console.log(`statuses: ${JSON.stringify(Object.fromEntries(byStatus.map((r) => [r.status, r.n])))}`);
console.log(
  `peak RSS (VmHWM) MB: ${Object.entries(peak)
    .map(([k, v]) => `${k} ${v.toFixed(0)}`)
    .join(", ")}`,
);
console.log(
  `CPU seconds during the run: ${Object.entries(cpu)
    .map(([k, v]) => `${k} ${v.toFixed(1)}`)
    .join(", ")}, PostgreSQL backends still connected ${pgSeconds.toFixed(1)}`,
);
await db.end();
for (const child of Object.values(procs)) child.kill();
process.exit(0);
