#!/usr/bin/env node
/**
 * RCS (issue 21): messages per second end to end through the real processes (production mode) on a
 * fresh `mensageria_bench_rcs` database, as the demo owner with a launched agent (written by SQL,
 * as platform staff leaves it once Google launched it):
 *   (a) accepted in bulk, POST /api/rcs/campaigns (api/rcs/bulk.ts), one request each:
 *       1. a contact group of BENCH_GROUP (100,000), a text, scheduled (no dispatch);
 *       2. a CSV file of BENCH_GROUP rows uploaded as multipart (the SMS file send's streaming
 *          reader), a card, scheduled;
 *       3. a group of BENCH_DISPATCH (10,000), a card sent now: queued with their outbox rows;
 *       each: messages accepted per second, and the balance moved by exactly the prices (target
 *       ≥ 5,000 msg/s, like the SMS bulk accept);
 *   (b) dispatched: the worker starts and sends pass 3's messages through the RBM adapter to the
 *       simulator's loopback RBM peer, from its start until every one is past `sending`
 *       (sent, delivered, read, or failed): msg/s. Only where the adapter exists
 *       (api/channels/rcs/, ADR 055; built on another branch): without it (b) says so and is skipped.
 * Run: `node bench/rcs.mjs` (PostgreSQL and Redis as for npm start). Stops by itself.
 */
import { createHmac } from "node:crypto";
import { existsSync } from "node:fs";
import { join } from "node:path";
import pg from "pg";
import { benchPlatform, dropDatabase, freePort, root, sleep, startBun, up } from "./lib.mjs";

const GROUP = Number(process.env.BENCH_GROUP ?? 100_000);
const DISPATCH = Number(process.env.BENCH_DISPATCH ?? 10_000);
const dbName = "mensageria_bench_rcs";
const simPort = await freePort();
const { databaseUrl, apiPort, env } = await benchPlatform(
  dbName,
  `bench:rcs:${Date.now()}:`,
  {
    SIMULATOR_PORT: String(simPort),
    SIMULATOR_URL: `http://127.0.0.1:${simPort}`,
    SIMULATOR_DELAY_MS: process.env.SIMULATOR_DELAY_MS ?? "50",
    DISPATCH_CONCURRENCY: "32",
    OUTBOX_POLL_MS: "50",
    LOGIN_MAX_FAILS_PER_IP: "1000",
  },
  { fresh: true },
);
// Production mode speaks RBM only with a service account: the simulator's development one, by its rule
// (api/channels/rcs/rbm-config.ts simulatedRbmKey; a .ts module node cannot import), at the peer's URLs.
const derive = (label) => createHmac("sha256", env.SIMULATOR_API_KEY).update(label).digest();
const der = Buffer.concat([Buffer.from("302e020100300506032b657004220420", "hex"), derive("rbm-service-account")]);
Object.assign(env, {
  RBM_SERVICE_ACCOUNT: JSON.stringify({
    client_email: "platform@rbm-simulator.iam.gserviceaccount.com",
    private_key: `-----BEGIN PRIVATE KEY-----\n${der.toString("base64")}\n-----END PRIVATE KEY-----`,
  }),
  RBM_API_URL: `http://127.0.0.1:${simPort}/rbm`,
  RBM_TOKEN_URL: `http://127.0.0.1:${simPort}/rbm/oauth2/token`,
  RBM_CLIENT_TOKEN: derive("rbm-client-token").toString("base64url").slice(0, 32),
  APP_URL: `http://127.0.0.1:${apiPort}`,
});
const base = `http://127.0.0.1:${apiPort}`;
const children = [startBun("api/server.ts", env)];
await up(`${base}/api/health`);
const db = new pg.Pool({ connectionString: databaseUrl, max: 2 });

const login = await fetch(`${base}/api/auth/login`, {
  method: "POST",
  headers: { "Content-Type": "application/json" },
  body: JSON.stringify({ email: "owner@demo.example", password: "Demo!Mensa#2026" }),
}).then((r) => r.json());
const auth = { Authorization: `Bearer ${login.token}` };
const {
  rows: [{ id: accountId }],
} = await db.query(`SELECT id FROM accounts WHERE name = 'Demo Comércio Ltda'`);
await db.query(`UPDATE account_balances SET balance = 1000000000000 WHERE account_id = $1`, [accountId]);
const balance = async () => Number((await db.query(`SELECT balance FROM account_balances WHERE account_id = $1`, [accountId])).rows[0].balance);
const {
  rows: [agent],
} = await db.query(
  `INSERT INTO rcs_agents (account_id, name, description, logo_url, banner_url, color, phone, website, privacy_url, terms_url, status, rbm_agent_id, launches)
   VALUES ($1, 'Bench RCS', 'Bench', 'https://loja.example/logo.png', 'https://loja.example/banner.png', '#0A7CFF', '+551130000000', 'https://loja.example',
           'https://loja.example/privacidade', 'https://loja.example/termos', 'launched', 'bench_rcs@rbm.goog', '[{"carrier":"Vivo","state":"launched"}]'::jsonb)
   RETURNING id`,
  [accountId],
);

/** A group of `n` new contacts (prefix: the numbers' first digits), set-based. */
async function group(name, n, prefix) {
  const {
    rows: [g],
  } = await db.query(`INSERT INTO contact_groups (account_id, name) VALUES ($1, $2) RETURNING id`, [accountId, name]);
  await db.query(
    `WITH c AS (INSERT INTO contacts (account_id, mobile_number, first_name)
                SELECT $1, $4 || lpad(i::text, 8, '0'), 'Pessoa ' || i FROM generate_series(1, $3::int) i RETURNING id)
     INSERT INTO contact_group_members (group_id, contact_id, account_id) SELECT $2, c.id, $1 FROM c`,
    [accountId, g.id, n, prefix],
  );
  return g.id;
}

const later = () => new Date(Date.now() + 80 * 86_400_000).toISOString();
const text = { type: "text", messageText: "Black Friday: 30% em tudo hoje" };
const cardContent = { type: "card", messageText: "Oferta da semana", messageDescription: "Só hoje", imageUrl: "https://loja.example/oferta.png" };

/** One campaign request; answers msg/s, the request's ms, and whether the balance moved by exactly its messages' prices. */
async function campaign(label, init, expected) {
  const before = await balance();
  const t0 = performance.now();
  const res = await fetch(`${base}/api/rcs/campaigns`, { method: "POST", ...init, headers: { ...auth, ...init.headers } });
  const ms = performance.now() - t0;
  const answer = await res.json();
  if (res.status !== 201) throw new Error(`${label}: ${res.status} ${JSON.stringify(answer).slice(0, 300)}`);
  const { rows } = await db.query(`SELECT count(*)::int AS n, coalesce(sum(price), 0)::bigint AS sum FROM messages WHERE campaign_id = $1`, [answer.data.campaign_id]);
  const exact = before - (await balance()) === Number(rows[0].sum) && rows[0].n === expected && answer.data.summary.sendable === expected;
  return { label, perSecond: expected / (ms / 1000), ms, exact, id: answer.data.campaign_id, price: answer.data.price };
}

const json = (body) => ({ headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
const results = [];
// 1. A group, scheduled.
const big = await group("Bench RCS", GROUP, "+55118");
results.push(
  await campaign(`group of ${GROUP.toLocaleString("en-US")}, a text (basic), scheduled`, json({ agent_id: agent.id, group_id: big, content: text, scheduled_at: later() }), GROUP),
);
// 2. A CSV file, scheduled.
const csv = `nome;celular\n${Array.from({ length: GROUP }, (_, i) => `Pessoa ${i};+55119${String(10_000_000 + i)}`).join("\n")}\n`;
const form = new FormData();
form.append("agent_id", agent.id);
form.append("content", JSON.stringify(cardContent));
form.append("scheduled_at", later());
form.append("file", new Blob([csv]), "clientes.csv");
results.push(await campaign(`CSV file of ${GROUP.toLocaleString("en-US")} rows (${(csv.length / 1e6).toFixed(1)} MB, multipart), a card (rich), scheduled`, { body: form }, GROUP));
// 3. A group sent now: queued, one outbox row each.
const small = await group("Bench RCS agora", DISPATCH, "+55116");
const now = await campaign(
  `group of ${DISPATCH.toLocaleString("en-US")}, a card (rich), sent now (queued + outbox)`,
  json({ agent_id: agent.id, group_id: small, content: cardContent }),
  DISPATCH,
);
results.push(now);

// (b) Dispatch to the loopback RBM peer, where the adapter exists.
const adapter = existsSync(join(root, "api", "channels", "rcs"));
let dispatch = null;
if (adapter) {
  children.push(startBun("api/simulator/server.ts", env));
  await up(`http://127.0.0.1:${simPort}/health`);
  const t0 = Date.now();
  children.push(startBun("api/worker.ts", env));
  let done = 0;
  for (;;) {
    done = (await db.query(`SELECT count(*)::int AS n FROM messages WHERE campaign_id = $1 AND status NOT IN ('queued', 'sending')`, [now.id])).rows[0].n;
    if (done >= DISPATCH || Date.now() - t0 > Number(process.env.BENCH_SETTLE_SECONDS ?? 180) * 1000) break;
    await sleep(200);
  }
  const seconds = (Date.now() - t0) / 1000;
  const { rows: byStatus } = await db.query(`SELECT status, count(*)::int AS n FROM messages WHERE campaign_id = $1 GROUP BY status ORDER BY status`, [now.id]);
  dispatch = { done, seconds, byStatus };
}

const f = (x) => Math.round(x).toLocaleString("en-US");
console.log(`\nRCS, api${adapter ? ", worker and simulator (RBM peer)" : ""} in production mode, ${new Date().toISOString()}`);
console.log("| what | msg/s | the request | balance = sum of prices |");
console.log("|---|---:|---:|---|");
for (const r of results) console.log(`| (a) bulk accept, ${r.label} | ${f(r.perSecond)} | ${f(r.ms)} ms | ${r.exact ? "exact" : "MISMATCH"} |`);
if (dispatch) {
  console.log(
    `| (b) dispatched to the loopback RBM peer: worker started -> past sending (${f(dispatch.done)} of ${f(DISPATCH)} in ${dispatch.seconds.toFixed(1)} s) | ${f(dispatch.done / dispatch.seconds)} | — | ${JSON.stringify(dispatch.byStatus)} |`,
  );
} else {
  console.log("(b) not measured: no RBM adapter in this checkout (api/channels/rcs/, ADR 055); it runs once the adapter and the simulator's RBM peer are merged");
}
await db.end();
for (const p of children) p.kill("SIGTERM");
await sleep(1000);
if (!process.env.BENCH_KEEP_DB) await dropDatabase(dbName).catch(() => undefined);
process.exit(results.every((r) => r.exact) && (!dispatch || dispatch.done >= DISPATCH) ? 0 : 1);
