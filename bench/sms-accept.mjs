#!/usr/bin/env node
/**
 * Accepted SMS per second through the real api process (POST /api/sms/messages with a JWT):
 *   - single: one number per request, BENCH_CONNECTIONS requests in flight, for BENCH_SECONDS;
 *   - bulk list: 1,000 numbers per request, 4 in flight, for BENCH_SECONDS;
 *   - group: one send to a group of BENCH_GROUP contacts (default 20,000), expanded set-based:
 *     the same text, {{first_name}}, and two links shortened per recipient (shorten_links, ADR 060).
 * Every send is scheduled 80 days ahead, so no worker or provider is involved: this measures the
 * accept transaction (lock, price, opt-out/deny check, debit, messages + outbox/events, audit).
 * Run: `node bench/sms-accept.mjs` (PostgreSQL and Redis as for npm start). Stops by itself.
 */
import pg from "pg";
import { benchPlatform, startBun, up } from "./lib.mjs";

const seconds = Number(process.env.BENCH_SECONDS ?? 8);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 16);
const groupSize = Number(process.env.BENCH_GROUP ?? 20_000);
const DB = "mensageria_bench_sms_accept";

const { databaseUrl, apiPort, env } = await benchPlatform(DB, `bench-sms-accept-${Date.now()}:`, { LOGIN_MAX_FAILS_PER_IP: "100000" }, { fresh: true });
startBun("api/server.ts", env);
const base = `http://127.0.0.1:${apiPort}/api`;
await up(`${base}/health`);

// A company with a large balance, registered and verified through the API.
const db = new pg.Client({ connectionString: databaseUrl });
await db.connect();
const email = `bench.${Date.now().toString(36)}@bench.example`;
const password = "Rv8#Tq2!Lm5@Wx";
const post = (path, body, token) =>
  fetch(`${base}${path}`, { method: "POST", headers: { "Content-Type": "application/json", ...(token ? { Authorization: `Bearer ${token}` } : {}) }, body: JSON.stringify(body) });
const reg = await post("/auth/register", {
  firstName: "Bench",
  lastName: "Envio",
  email,
  password,
  confirmPassword: password,
  companyName: "Bench Envios Ltda",
  acceptTerms: true,
});
if (!reg.ok) throw new Error(`register: ${reg.status} ${await reg.text()}`);
const accountId = (await reg.clone().json()).account.id;
const { rows: mails } = await db.query("SELECT text_body FROM outbound_emails WHERE to_address = $1 ORDER BY created_at DESC LIMIT 1", [email]);
await post(`/auth/verify-email/${/\/email-verify\/([^\s]+)/.exec(mails[0].text_body)[1]}`, {});
const { token } = await post("/auth/login", { email, password }).then((r) => r.json());
await db.query("UPDATE account_balances SET balance = 1000000000000 WHERE account_id = $1", [accountId]);

const later = () => new Date(Date.now() + 80 * 86_400_000).toISOString();
let seq = 10_000_000;
const number = () => `+55119${String(seq++).padStart(8, "0")}`;
const f = (x) => Math.round(x).toLocaleString("en-US");

/** `inFlight` loops sending `make()` until the time is up; answers messages accepted per second. */
async function run(label, inFlight, make) {
  let messages = 0;
  let failures = 0;
  const until = performance.now() + seconds * 1000;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (performance.now() < until) {
        const body = make();
        const res = await post("/sms/messages", body, token);
        if (res.status === 200) messages += Array.isArray(body.to) ? body.to.length : 1;
        else failures++;
        await res.arrayBuffer();
      }
    }),
  );
  const rate = messages / ((performance.now() - t0) / 1000);
  console.log(`${label.padEnd(38)} ${f(rate).padStart(8)} messages/s  (${f(messages)} accepted${failures ? `, ${failures} refused` : ""})`);
  return rate;
}

console.log(`SMS accept through the api process (${seconds} s each)`);
await run(`single, ${connections} in flight`, connections, () => ({ to: number(), body: "Seu pedido saiu para entrega", scheduled_at: later() }));
await run("bulk list of 1,000, 4 in flight", 4, () => ({ to: Array.from({ length: 1000 }, number), body: "Oferta da semana", scheduled_at: later() }));

// A group of contacts, inserted set-based, then one send to all of them.
const {
  rows: [g],
} = await db.query("INSERT INTO contact_groups (account_id, name) VALUES ($1, 'Bench') RETURNING id", [accountId]);
await db.query(
  `WITH c AS (INSERT INTO contacts (account_id, mobile_number, first_name)
              SELECT $1, '+55118' || lpad(i::text, 8, '0'), 'Pessoa ' || i FROM generate_series(1, $3::int) i RETURNING id)
   INSERT INTO contact_group_members (group_id, contact_id, account_id) SELECT $2, c.id, $1 FROM c`,
  [accountId, g.id, groupSize],
);
for (const [label, body, shorten] of [
  ["group, same text", "Aviso a todos os clientes", false],
  ["group, {{first_name}} rendered in SQL", "Olá {{first_name}}, sua oferta chegou", false],
  // ADR 060: two links, each recipient its own code of each (40,000 codes drawn and written).
  ["group, 2 links shortened per recipient", "Olá {{first_name}}: https://loja.example.com.br/oferta e https://loja.example.com.br/app", true],
]) {
  const t0 = performance.now();
  const res = await post("/sms/messages", { group_id: g.id, body, scheduled_at: later(), shorten_links: shorten }, token);
  const ms = performance.now() - t0;
  const answer = await res.json();
  if (res.status !== 200) throw new Error(`group send: ${res.status} ${JSON.stringify(answer)}`);
  console.log(`${`${label}, ${f(groupSize)} contacts`.padEnd(38)} ${f(answer.summary.messages / (ms / 1000)).padStart(8)} messages/s  (${f(ms)} ms for the send)`);
}
await db.end();
process.exit(0);
