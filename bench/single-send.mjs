#!/usr/bin/env node
/**
 * One message at a time (issue 14): the figures integrators compare, on the real api and smpp
 * processes of a fresh `mensageria_bench_single` database, every message really accepted (priced,
 * debited, written with its outbox row, event and audit entry, committed before the answer; the
 * worker is not running, so this is the accept step alone). Prints:
 *   1. single accept: POST /api/sms/messages, one unique recipient per request, 32 in flight,
 *      BENCH_REQUESTS requests (10,000), one account; then the same with 4 accounts at once
 *      (8 in flight each); the balances must move by exactly the prices of the messages written;
 *   2. status read: GET /api/sms/messages/{id} of the messages just sent, and the authenticated read
 *      GET /api/accounts/info, 32 in flight;
 *   3. SMPP: submit_sm on one transceiver bind with a window of 10 outstanding PDUs (user tps
 *      5,000), then with tps 200 (the excess must be ESME_RTHROTTLED, answered as fast);
 *   4. bad input under load: 24 clients sending valid requests alone, then the same 24 while 8
 *      others send malformed numbers, empty bodies, bodies over the size limit and sends of an
 *      account whose balance runs out; each bad kind's answer and p99, and the valid ones' figures
 *      beside their own alone.
 * Run: `node bench/single-send.mjs` (PostgreSQL and Redis as for npm start). Loopback only.
 */
import pg from "pg";
import smpp from "smpp";
import { Agent, request } from "undici";
import { benchPlatform, freePort, startBun, up } from "./lib.mjs";

const total = Number(process.env.BENCH_REQUESTS ?? 10_000);
const inFlight = 32;
const DB = "mensageria_bench_single";
const smppPort = await freePort();
const { databaseUrl, apiPort, env } = await benchPlatform(DB, `bench-single-${Date.now()}:`, { LOGIN_MAX_FAILS_PER_IP: "100000", SMPP_PORT: String(smppPort) }, { fresh: true });
startBun("api/server.ts", env);
startBun("api/smpp/server.ts", env);
const base = `http://127.0.0.1:${apiPort}/api`;
await up(`${base}/health`);

const db = new pg.Client({ connectionString: databaseUrl });
await db.connect();
const json = (path, body, token, method = "POST") =>
  fetch(`${base}${path}`, { method, headers: { "Content-Type": "application/json", ...(token ? { Authorization: `Bearer ${token}` } : {}) }, body: JSON.stringify(body) });

/** A company registered and verified through the API, signed in, with `balance` centavos. */
async function company(n, balance) {
  const email = `bench.single.${n}.${Date.now().toString(36)}@bench.example`;
  const password = "Rv8#Tq2!Lm5@Wx";
  const reg = await json("/auth/register", {
    firstName: "Bench",
    lastName: `Envio ${n}`,
    email,
    password,
    confirmPassword: password,
    companyName: `Bench Envios ${n} Ltda`,
    acceptTerms: true,
  });
  if (!reg.ok) throw new Error(`register: ${reg.status} ${await reg.text()}`);
  const accountId = (await reg.json()).account.id;
  const { rows: mails } = await db.query("SELECT text_body FROM outbound_emails WHERE to_address = $1 ORDER BY created_at DESC LIMIT 1", [email]);
  await json(`/auth/verify-email/${/\/email-verify\/([^\s]+)/.exec(mails[0].text_body)[1]}`, {});
  const { token } = await json("/auth/login", { email, password }).then((r) => r.json());
  await db.query("UPDATE account_balances SET balance = $2 WHERE account_id = $1", [accountId, balance]);
  return { accountId, token };
}

const accounts = [];
for (let n = 1; n <= 4; n++) accounts.push(await company(n, 100_000_000_000));

let seq = 10_000_000;
const number = () => `+55119${String(seq++).padStart(8, "0")}`;
const agent = new Agent({ connections: 256, pipelining: 1, keepAliveTimeout: 10_000 });

/** `clients` loops, each sending `make()` until `count` requests were sent in all; latencies of each kind. */
async function drive(clients, count, make) {
  const stats = new Map();
  let sent = 0;
  const t0 = performance.now();
  await Promise.all(
    clients.map(async (c) => {
      while (sent < count) {
        sent++;
        const r = make(c);
        const t = performance.now();
        const res = await request(r.url, { dispatcher: agent, method: r.method ?? "GET", headers: r.headers, body: r.body });
        const text = await res.body.text();
        const kind = r.kind ?? "valid";
        const s = stats.get(kind) ?? { latencies: [], statuses: new Map(), answers: [] };
        s.latencies.push(performance.now() - t);
        s.statuses.set(res.statusCode, (s.statuses.get(res.statusCode) ?? 0) + 1);
        if (r.keep) s.answers.push({ status: res.statusCode, text });
        stats.set(kind, s);
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  for (const s of stats.values()) {
    s.latencies.sort((a, b) => a - b);
    const pct = (p) => s.latencies[Math.min(s.latencies.length - 1, Math.floor(s.latencies.length * p))] ?? 0;
    s.rps = s.latencies.length / seconds;
    s.p50 = pct(0.5);
    s.p99 = pct(0.99);
  }
  return stats;
}

const sendTo = (a, extra = {}) => ({
  url: `${base}/sms/messages`,
  method: "POST",
  headers: { "content-type": "application/json", authorization: `Bearer ${a.token}` },
  body: JSON.stringify({ to: number(), body: "Seu código de verificação é 482913", ...extra }),
  keep: true,
});

async function money() {
  const { rows } = await db.query(
    `SELECT b.account_id, b.balance::bigint AS balance, (SELECT count(*) FROM messages m WHERE m.account_id = b.account_id)::int AS messages,
            (SELECT COALESCE(sum(price), 0) FROM messages m WHERE m.account_id = b.account_id)::bigint AS spent
       FROM account_balances b WHERE b.account_id = ANY($1::uuid[])`,
    [accounts.map((a) => a.accountId)],
  );
  return new Map(rows.map((r) => [r.account_id, { balance: Number(r.balance), messages: r.messages, spent: Number(r.spent) }]));
}
function exact(before, after, answered) {
  let ok = true;
  let written = 0;
  for (const [id, a] of after) {
    const b = before.get(id);
    written += a.messages - b.messages;
    if (b.balance - a.balance !== a.spent - b.spent) ok = false;
  }
  return { ok: ok && written === answered, written };
}

const f = (x) => Math.round(x).toLocaleString("en-US");
const ms = (x) => x.toFixed(1);
const out = [];
const row = (label, s, note = "") => out.push(`| ${label} | ${f(s.rps)} | ${ms(s.p50)} / ${ms(s.p99)} | ${note} |`);

// Warm-up, not counted: JIT tiers, pools, prepared statements, and the first autovacuum and
// analyze passes of the fresh tables as they grow from zero (with 3,000 the first measured row
// was 1,500-2,200 req/s and the same row after it 2,300-2,600: start-up, not the steady state).
await drive(Array(inFlight).fill(accounts[0]), 12_000, (a) => sendTo(a));

// 1. Single accept, one account, then four.
let before = await money();
const one = await drive(Array(inFlight).fill(accounts[0]), total, (a) => sendTo(a));
const v1 = one.get("valid");
const ids = v1.answers.filter((x) => x.status === 200).map((x) => JSON.parse(x.text).data[0].id);
let check = exact(before, await money(), ids.length);
row("POST /api/sms/messages, 1 account, 32 in flight", v1, `${[...v1.statuses].map(([k, n]) => `${n} × ${k}`).join(", ")}; balance ${check.ok ? "exact" : "MISMATCH"}`);
before = await money();
const four = await drive(
  accounts.flatMap((a) => Array(inFlight / accounts.length).fill(a)),
  total,
  (a) => sendTo(a),
);
const v4 = four.get("valid");
check = exact(before, await money(), v4.statuses.get(200) ?? 0);
row(
  "POST /api/sms/messages, 4 accounts at once (8 in flight each)",
  v4,
  `${[...v4.statuses].map(([k, n]) => `${n} × ${k}`).join(", ")}; balances ${check.ok ? "exact" : "MISMATCH"}`,
);

// 2. Reads.
let next = 0;
const status = await drive(Array(inFlight).fill(accounts[0]), total, (a) => ({
  url: `${base}/sms/messages/${ids[next++ % ids.length]}`,
  headers: { authorization: `Bearer ${a.token}` },
}));
row("GET /api/sms/messages/{id}, 32 in flight", status.get("valid"), [...status.get("valid").statuses].map(([k, n]) => `${n} × ${k}`).join(", "));
const info = await drive(Array(inFlight).fill(accounts[0]), total, (a) => ({ url: `${base}/accounts/info`, headers: { authorization: `Bearer ${a.token}` } }));
row("GET /api/accounts/info, 32 in flight", info.get("valid"), [...info.get("valid").statuses].map(([k, n]) => `${n} × ${k}`).join(", "));

// 3. SMPP: one transceiver bind, a window of 10.
async function smppUser(tps) {
  const res = await json("/smpp/users", { system_id: `bench${tps}${Date.now().toString(36).slice(-4)}`, route: "T1", tps }, accounts[1].token);
  if (res.status !== 201) throw new Error(`smpp user: ${res.status} ${await res.text()}`);
  const body = await res.json();
  return { system_id: body.data.system_id, password: body.password };
}
function smppRun(user, count, window) {
  return new Promise((resolve, reject) => {
    const session = smpp.connect({ url: `smpp://127.0.0.1:${smppPort}` });
    session.on("error", reject);
    session.on("connect", () =>
      session.bind_transceiver(user, (bound) => {
        if (bound.command_status !== 0) return reject(new Error(`bind: ${bound.command_status}`));
        const latencies = [];
        const statuses = new Map();
        let sent = 0;
        let done = 0;
        let outOfOrder = 0;
        let lastSeq = 0;
        const t0 = performance.now();
        const one = () => {
          if (sent >= count) return;
          sent++;
          const t = performance.now();
          const pdu = new smpp.PDU("submit_sm", { destination_addr: number().slice(1), short_message: "Seu código é 482913" });
          session.send(pdu, (resp) => {
            latencies.push(performance.now() - t);
            statuses.set(resp.command_status, (statuses.get(resp.command_status) ?? 0) + 1);
            if (resp.sequence_number < lastSeq) outOfOrder++;
            lastSeq = Math.max(lastSeq, resp.sequence_number);
            if (++done === count) {
              const seconds = (performance.now() - t0) / 1000;
              latencies.sort((a, b) => a - b);
              const pct = (p) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))];
              session.close();
              resolve({ rps: count / seconds, p50: pct(0.5), p99: pct(0.99), statuses, outOfOrder });
            } else one();
          });
        };
        for (let i = 0; i < window; i++) one();
      }),
    );
  });
}
const smppCount = Math.min(total, 10_000);
const fast = await smppRun(await smppUser(5000), smppCount, 10);
row(
  "SMPP submit_sm, 1 transceiver bind, window 10, tps 5,000",
  fast,
  `${[...fast.statuses].map(([k, n]) => `${n} × ${k === 0 ? "ESME_ROK" : `0x${k.toString(16)}`}`).join(", ")}; ${fast.outOfOrder} answered out of order`,
);
const slow = await smppRun(await smppUser(200), Math.min(smppCount, 3000), 10);
row(
  "SMPP submit_sm, window 10, user tps 200",
  slow,
  `${[...slow.statuses].map(([k, n]) => `${n} × ${k === 0 ? "ESME_ROK" : k === 0x58 ? "ESME_RTHROTTLED" : `0x${k.toString(16)}`}`).join(", ")} (answers per second, all kinds)`,
);

// 4. Bad input under load: 24 clients send valid requests, 8 others the bad kinds in turn.
const poor = await company(5, 8 * 100); // the T1 default R$ 0,08: money for 100 one-segment messages
await db.query("UPDATE accounts SET credit_limit = 0 WHERE id = $1", [poor.accountId]);
const big = JSON.stringify({ to: "+5511912345678", body: "x".repeat(1_100_000) });
const bad = [
  () => ({ ...sendTo(accounts[2]), body: JSON.stringify({ to: "+55 11 1234", body: "Seu código é 1" }), kind: "malformed number", keep: false }),
  () => ({ ...sendTo(accounts[2]), body: JSON.stringify({ to: number(), body: "" }), kind: "empty body", keep: false }),
  () => ({ ...sendTo(accounts[2]), body: big, kind: "body over 1 MB", keep: false }),
  () => ({ ...sendTo(poor), kind: "balance runs out (100 fit)", keep: false }),
];
const alone = await drive(Array(24).fill("valid"), total, () => sendTo(accounts[0]));
row("valid sends alone (24 in flight), for comparison", alone.get("valid"), [...alone.get("valid").statuses].map(([k, n]) => `${n} × ${k}`).join(", "));
let turn = 0;
const mixed = await drive([...Array(24).fill("valid"), ...Array(8).fill("bad")], total + Math.floor(total / 3), (c) =>
  c === "valid" ? sendTo(accounts[0]) : bad[turn++ % bad.length](),
);
row("valid sends among the bad ones (24 in flight + 8 sending bad ones)", mixed.get("valid"), [...mixed.get("valid").statuses].map(([k, n]) => `${n} × ${k}`).join(", "));
for (const [kind, s] of mixed) if (kind !== "valid") row(`— ${kind} (rate of that kind)`, s, [...s.statuses].map(([k, n]) => `${n} × ${k}`).join(", "));
const { rows: poorRows } = await db.query("SELECT balance FROM account_balances WHERE account_id = $1", [poor.accountId]);

await db.end();
await agent.close();
console.log(`\nSingle-message sends, ${f(total)} requests per row, loopback, ${new Date().toISOString()}`);
console.log("| what | req/s | p50 / p99 ms | answers |");
console.log("|---|---:|---:|---|");
for (const line of out) console.log(line);
console.log(`the account that ran out ends at balance ${poorRows[0].balance} (never below 0)`);
process.exit(0);
