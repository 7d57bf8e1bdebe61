#!/usr/bin/env node
/**
 * WhatsApp (issue 16): template sends accepted and dispatched per second end to end to the
 * loopback Graph peer, and Meta's status webhooks per second with latency percentiles. Runs the
 * real api, worker and simulator processes (production mode, WHATSAPP_API_URL = the simulator's
 * peer, APP_URL = the api so Meta's handshake and webhooks reach it) on a fresh
 * `mensageria_bench_whatsapp` database. As the demo owner, through the API: connect a number,
 * create a template, wait until the peer approves it. Then:
 *   1. accept, the worker not yet running (the accept alone): BENCH_MESSAGES (5,000) POST
 *      /api/whatsapp/messages, one template message each, BENCH_CONNECTIONS (32) in flight: msg/s
 *      and p50/p99 per request; the balance must move by exactly the prices;
 *   2. then the worker starts: from its start until every message is final, `read` or `failed` (it sends each to
 *      the peer, which posts sent, delivered and read, SIMULATOR_DELAY_MS apart): msg/s, and the
 *      status webhooks applied per second in that time;
 *   3. status webhooks alone: the bench posts Meta's signed `messages` webhooks itself (one status
 *      per post, BENCH_CONNECTIONS in flight) for BENCH_MESSAGES messages written `sent` by SQL:
 *      statuses/s and p50/p99 per post, every answer `applied`; then, as Meta sends them under
 *      volume, several per post on BENCH_STATUS_MESSAGES (60,000) more: BENCH_STATUS_BATCH (50) per
 *      post with BENCH_STATUS_CLIENTS (4) in flight (as bench/receipts.mjs measures SMS receipts),
 *      then BENCH_STATUS_BIG_BATCH (100) per post with BENCH_CONNECTIONS in flight;
 *   4. the bulk accept: POST /api/whatsapp/campaigns of BENCH_CAMPAIGN (10,000) numbers, one
 *      request, scheduled (the worker does not dispatch them): messages accepted per second, and
 *      the balance moved by exactly the prices.
 * Bodies are built and signed before the clock starts. Run: `node bench/whatsapp.mjs`.
 */
import { createHmac, randomUUID } from "node:crypto";
import pg from "pg";
import { Agent, request } from "undici";
import { benchPlatform, dropDatabase, freePort, sleep, startBun, up } from "./lib.mjs";

const N = Number(process.env.BENCH_MESSAGES ?? 5000);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const [apiPort, simPort] = [await freePort(), await freePort()];
const dbName = "mensageria_bench_whatsapp";
const { databaseUrl, env } = await benchPlatform(
  dbName,
  `bench:whatsapp:${Date.now()}:`,
  {
    API_PORT: String(apiPort),
    APP_URL: `http://127.0.0.1:${apiPort}`,
    SIMULATOR_PORT: String(simPort),
    SIMULATOR_URL: `http://127.0.0.1:${simPort}`,
    SIMULATOR_DELAY_MS: process.env.SIMULATOR_DELAY_MS ?? "50",
    WHATSAPP_API_URL: `http://127.0.0.1:${simPort}/whatsapp/v19.0`,
    DISPATCH_CONCURRENCY: "32",
    OUTBOX_POLL_MS: "50",
    LOGIN_MAX_FAILS_PER_IP: "1000",
  },
  { fresh: true },
);
const base = `http://127.0.0.1:${apiPort}`;
// The worker starts after the accept pass: the accept is measured alone (as bench/accept.mjs does for SMS).
const children = [startBun("api/server.ts", env), startBun("api/simulator/server.ts", env)];
await Promise.all([up(`${base}/api/health`), up(`http://127.0.0.1:${simPort}/health`)]);
const db = new pg.Pool({ connectionString: databaseUrl, max: 2 });

const call = async (path, body, token) => {
  const res = await fetch(`${base}${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers: { "Content-Type": "application/json", ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await res.json();
  if (res.status >= 300) throw new Error(`${path}: ${res.status} ${JSON.stringify(json).slice(0, 300)}`);
  return json;
};
const { token } = await call("/api/auth/login", { email: "owner@demo.example", password: "Demo!Mensa#2026" });
// The peer's app secret, by its rule (api/simulator/whatsapp-cloud.ts simulatedAppSecret; a .ts module node cannot import).
const appSecret = createHmac("sha256", env.SIMULATOR_API_KEY).update("whatsapp-cloud-app-secret").digest("base64url");
const phoneNumberId = "551140000001";
const wabaId = "551140000000";
const { data: number } = await call(
  "/api/whatsapp/numbers",
  { phone_number_id: phoneNumberId, waba_id: wabaId, access_token: `EAAbench${randomUUID()}`, app_secret: appSecret },
  token,
);
const { data: template } = await call(
  "/api/whatsapp/templates",
  { number_id: number.id, name: "bench_pedido", category: "utility", language: "pt_BR", body: "Olá {{1}}, seu pedido {{2}} saiu.", body_examples: ["Ana", "1"] },
  token,
);
for (let i = 0; (await call(`/api/whatsapp/templates/${template.id}`, undefined, token)).data.status !== "approved"; i++) {
  if (i > 100) throw new Error("the template was not approved");
  await sleep(100);
}
const [{ account_id: accountId }] = (await db.query(`SELECT account_id FROM whatsapp_numbers WHERE id = $1`, [number.id])).rows;
await db.query(`UPDATE account_balances SET balance = 1000000000 WHERE account_id = $1`, [accountId]);
const balance = async () => Number((await db.query(`SELECT balance FROM account_balances WHERE account_id = $1`, [accountId])).rows[0].balance);

/** `bodies` posted `CONNECTIONS` at a time; each answer checked by `ok`. Answers msg/s and latency percentiles. */
async function load(url, posts, ok, connections = CONNECTIONS) {
  const agent = new Agent({ connections, pipelining: 1, keepAliveTimeout: 10_000 });
  const latencies = [];
  let next = 0;
  let bad = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (next < posts.length) {
        const p = posts[next++];
        const t = performance.now();
        const res = await request(url, { dispatcher: agent, method: "POST", headers: p.headers, body: p.body });
        const text = await res.body.text();
        latencies.push(performance.now() - t);
        if (!ok(res.statusCode, text)) bad++;
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  await agent.close();
  latencies.sort((a, b) => a - b);
  const pct = (q) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * q))];
  return { perSecond: posts.length / seconds, p50: pct(0.5), p99: pct(0.99), bad, seconds };
}

// 1 + 2. Accept, then end to end until every message is read.
const before = await balance();
const sends = Array.from({ length: N }, (_, i) => ({
  headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
  body: JSON.stringify({
    from: number.id,
    to: `+55119${String(10_000_000 + i).padStart(8, "0")}`,
    type: "template",
    template: { name: "bench_pedido", language: "pt_BR", variables: ["Ana", String(i)] },
  }),
}));
const accept = await load(`${base}/api/whatsapp/messages`, sends, (s) => s === 202);
const t0 = Date.now();
children.push(startBun("api/worker.ts", env));
const debited = before - (await balance());
const { rows: priced } = await db.query(`SELECT count(*)::int AS n, coalesce(sum(price), 0)::bigint AS sum FROM messages WHERE account_id = $1 AND channel = 'whatsapp'`, [
  accountId,
]);
let read = 0;
for (;;) {
  // Final: read, or failed (the peer fails recipients ending in 0001, as Meta's 131026).
  read = (await db.query(`SELECT count(*)::int AS n FROM messages WHERE account_id = $1 AND channel = 'whatsapp' AND status IN ('read', 'failed')`, [accountId])).rows[0].n;
  if (read >= N || Date.now() - t0 > Number(process.env.BENCH_SETTLE_SECONDS ?? 120) * 1000) break;
  await sleep(200);
}
const endToEnd = (Date.now() - t0) / 1000;

// 3. Status webhooks alone, on messages written `sent` by SQL.
const run = randomUUID().slice(0, 8);
await db.query(
  `INSERT INTO messages (account_id, channel, direction, sender, recipient, body, segments, status, provider, provider_message_id, price, type, queued_at, sent_at)
   SELECT $1, 'whatsapp', 'outbound', $2, '+5521' || lpad((900000000 + g)::text, 9, '0'), 'bench', 1, 'sent', 'whatsapp_cloud', 'wamid.bench_${run}_' || g, 6, 'template', now(), now()
   FROM generate_series(1, $3) g`,
  [accountId, phoneNumberId, N],
);
const statusPosts = Array.from({ length: N }, (_, i) => {
  const body = JSON.stringify({
    object: "whatsapp_business_account",
    entry: [
      {
        id: wabaId,
        time: Math.floor(Date.now() / 1000),
        changes: [
          {
            field: "messages",
            value: {
              messaging_product: "whatsapp",
              metadata: { phone_number_id: phoneNumberId },
              statuses: [{ id: `wamid.bench_${run}_${i + 1}`, status: "delivered", timestamp: String(Math.floor(Date.now() / 1000)) }],
            },
          },
        ],
      },
    ],
  });
  return { body, headers: { "content-type": "application/json", "x-hub-signature-256": `sha256=${createHmac("sha256", appSecret).update(body).digest("hex")}` } };
});
const statuses = await load(`${base}/api/webhooks/whatsapp/${number.id}`, statusPosts, (s, text) => s === 200 && text.includes('"applied"'));

// 3b. Statuses as Meta sends them under volume, several per post, on STATUS_MESSAGES more messages
// written `sent`: first `delivered` as bench/receipts.mjs measures SMS receipts (issue 4's pass 3:
// BATCH per post, STATUS_CLIENTS in flight), then `read` in posts of BIG_BATCH with CONNECTIONS in
// flight (throughput under pressure: BIG_BATCH × CONNECTIONS statuses wait at once, so a post's
// latency there is mostly its place in that queue, not its own cost).
const BATCH = Number(process.env.BENCH_STATUS_BATCH ?? 50);
const STATUS_CLIENTS = Number(process.env.BENCH_STATUS_CLIENTS ?? 4);
const BIG_BATCH = Number(process.env.BENCH_STATUS_BIG_BATCH ?? 100);
const STATUS_MESSAGES = Number(process.env.BENCH_STATUS_MESSAGES ?? 60_000);
await db.query(
  `INSERT INTO messages (account_id, channel, direction, sender, recipient, body, segments, status, provider, provider_message_id, price, type, queued_at, sent_at)
   SELECT $1, 'whatsapp', 'outbound', $2, '+5521' || lpad((800000000 + g)::text, 9, '0'), 'bench', 1, 'sent', 'whatsapp_cloud', 'wamid.batch_${run}_' || g, 6, 'template', now(), now()
   FROM generate_series(1, $3) g`,
  [accountId, phoneNumberId, STATUS_MESSAGES],
);
const statusBatches = (size, status) => {
  const posts = [];
  for (let i = 0; i < STATUS_MESSAGES; i += size) {
    const list = Array.from({ length: Math.min(size, STATUS_MESSAGES - i) }, (_, j) => ({
      id: `wamid.batch_${run}_${i + j + 1}`,
      status,
      timestamp: String(Math.floor(Date.now() / 1000)),
    }));
    const body = JSON.stringify({
      object: "whatsapp_business_account",
      entry: [
        {
          id: wabaId,
          time: Math.floor(Date.now() / 1000),
          changes: [{ field: "messages", value: { messaging_product: "whatsapp", metadata: { phone_number_id: phoneNumberId }, statuses: list } }],
        },
      ],
    });
    posts.push({ body, headers: { "content-type": "application/json", "x-hub-signature-256": `sha256=${createHmac("sha256", appSecret).update(body).digest("hex")}` } });
  }
  return posts;
};
const everyApplied = (s, text) => s === 200 && !text.includes('"unknown_message"') && !text.includes('"duplicate"') && !text.includes('"unchanged"');
const batched = await load(`${base}/api/webhooks/whatsapp/${number.id}`, statusBatches(BATCH, "delivered"), everyApplied, STATUS_CLIENTS);
const pressed = await load(`${base}/api/webhooks/whatsapp/${number.id}`, statusBatches(BIG_BATCH, "read"), everyApplied, CONNECTIONS);
const { rows: readRows } = await db.query(`SELECT count(*)::int AS n FROM messages WHERE account_id = $1 AND provider_message_id LIKE $2 AND status = 'read'`, [
  accountId,
  `wamid.batch_${run}_%`,
]);

// 4. The bulk accept: one campaign of CAMPAIGN numbers, scheduled (not dispatched).
const CAMPAIGN = Number(process.env.BENCH_CAMPAIGN ?? 10_000);
const beforeCampaign = await balance();
const campaignBody = JSON.stringify({
  from: number.id,
  to: Array.from({ length: CAMPAIGN }, (_, i) => `+55129${String(10_000_000 + i).padStart(8, "0")}`),
  scheduled_at: new Date(Date.now() + 86_400_000).toISOString(),
  template: { name: "bench_pedido", language: "pt_BR", variables: ["Ana", "BF"] },
});
const tc = performance.now();
const campaignRes = await fetch(`${base}/api/whatsapp/campaigns`, {
  method: "POST",
  headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
  body: campaignBody,
});
const campaignMs = performance.now() - tc;
const campaign = await campaignRes.json();
const campaignExact = campaignRes.status === 201 && beforeCampaign - (await balance()) === campaign.data.total_price && campaign.data.summary.sendable === CAMPAIGN;

const f = (x) => Math.round(x).toLocaleString("en-US");
console.log(`\nWhatsApp, ${N.toLocaleString("en-US")} template messages, ${CONNECTIONS} in flight, simulator delay ${env.SIMULATOR_DELAY_MS} ms, ${new Date().toISOString()}`);
console.log("| what | per second | p50 / p99 ms | errors |");
console.log("|---|---:|---:|---:|");
console.log(`| accept (POST /api/whatsapp/messages, one template message each) | ${f(accept.perSecond)} | ${accept.p50.toFixed(1)} / ${accept.p99.toFixed(1)} | ${accept.bad} |`);
console.log(
  `| dispatch to final: worker started -> sent to the peer -> sent, delivered, read (or failed) applied (${f(read)} final in ${endToEnd.toFixed(1)} s) | ${f(read / endToEnd)} messages, ≈ ${f((read * 3) / endToEnd)} statuses | — | ${N - read} not final |`,
);
console.log(`| status webhooks alone (signed, one status per post) | ${f(statuses.perSecond)} | ${statuses.p50.toFixed(1)} / ${statuses.p99.toFixed(1)} | ${statuses.bad} |`);
console.log(
  `| status webhooks, ${BATCH} statuses per post, ${STATUS_CLIENTS} in flight (as SMS receipts, bench/receipts.mjs) | ${f(STATUS_MESSAGES / batched.seconds)} statuses, ${f(batched.perSecond)} posts | ${batched.p50.toFixed(1)} / ${batched.p99.toFixed(1)} per post | ${batched.bad} |`,
);
console.log(
  `| status webhooks, ${BIG_BATCH} statuses per post, ${CONNECTIONS} in flight (${f(readRows[0].n)} of ${f(STATUS_MESSAGES)} read) | ${f(STATUS_MESSAGES / pressed.seconds)} statuses, ${f(pressed.perSecond)} posts | ${pressed.p50.toFixed(1)} / ${pressed.p99.toFixed(1)} per post | ${pressed.bad} |`,
);
console.log(
  `| bulk accept (POST /api/whatsapp/campaigns, ${f(CAMPAIGN)} numbers in one request, scheduled) | ${f(CAMPAIGN / (campaignMs / 1000))} messages | ${campaignMs.toFixed(0)} ms the request | ${campaignExact ? 0 : 1} |`,
);
console.log(`balance debited ${f(debited)} = sum of prices ${f(Number(priced[0].sum))} of ${f(priced[0].n)} messages: ${debited === Number(priced[0].sum) ? "exact" : "MISMATCH"}`);
if (read < N) {
  const { rows: stuck } = await db.query(
    `SELECT status, count(*)::int AS n FROM messages WHERE account_id = $1 AND channel = 'whatsapp' AND recipient LIKE '+55119%' AND status NOT IN ('read', 'failed') GROUP BY status`,
    [accountId],
  );
  console.log(`not final, by status: ${JSON.stringify(stuck)}`);
}
await db.end();
// The processes first (lib.mjs kills them on exit), then the database.
for (const p of children) p.kill("SIGTERM");
await sleep(1000);
if (!process.env.BENCH_KEEP_DB) await dropDatabase(dbName).catch(() => undefined);
process.exit(
  accept.bad || statuses.bad || batched.bad || pressed.bad || readRows[0].n < STATUS_MESSAGES || !campaignExact || read < N || debited !== Number(priced[0].sum) ? 1 : 0,
);
