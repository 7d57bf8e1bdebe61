#!/usr/bin/env node
/**
 * Platform administration's reports at platform size (issue 23): a platform of BENCH_ACCOUNTS
 * (2,000) customer accounts — one in ten under the seeded reseller Revenda Azul, one in twenty
 * under a second reseller — with BENCH_MESSAGES (2,000,000) messages over the last BENCH_DAYS (60)
 * days (SMS 70 %, WhatsApp 15 %, e-mail 10 %, RCS 5 %; statuses, three SMS providers on four
 * routes, prices; a few big accounts and many small ones), BENCH_AUDIT (500,000) audit entries over
 * the same days, BENCH_APP_LOGS (100,000: the cap the worker keeps) application logs over 30 days,
 * BENCH_LIVE (100,000) live-chat messages, the ledger's message charges (one posting per account
 * and hour) and provider costs in reais (the USD customers' SMS: "cost unknown").
 *
 * Filled set-based (generate_series) into its own database, mensageria_bench_admin, and reused
 * while it holds the same sizes and was filled in the last 12 hours (the figures are "today" and
 * "the last 30 days"); otherwise the database is dropped and filled again (BENCH_REFILL=1 forces
 * it). Then the real api process (production mode) answers, one request at a time, as platform
 * staff and as the reseller's owner: GET /api/admin/sms/reports, /sms/dashboard, /sms/sales,
 * /api/admin/analytics, /api/admin/audit, /api/admin/logs and /api/customers?q= (the screens'
 * use-cases); /admin/audit/insights has no API, so its loader is timed on the real web process
 * (`?_data=`, the loader's JSON without the page). Each case: BENCH_WARMUP (2) requests, then
 * BENCH_RUNS (20) measured ones, fewer (at least 5) once a case has taken BENCH_CASE_SECONDS (10).
 * Prints p50 / p95 / max per case as a table.
 * Run: `flock /tmp/test.lock node bench/admin-reports.mjs` (PostgreSQL and Redis as for npm start).
 */
import { loadavg } from "node:os";
import pg from "pg";
import { benchPlatform, dropDatabase, freePort, startBun, startWeb, up } from "./lib.mjs";

const SIZES = {
  accounts: Number(process.env.BENCH_ACCOUNTS ?? 2_000),
  messages: Number(process.env.BENCH_MESSAGES ?? 2_000_000),
  days: Number(process.env.BENCH_DAYS ?? 60),
  audit: Number(process.env.BENCH_AUDIT ?? 500_000),
  appLogs: Number(process.env.BENCH_APP_LOGS ?? 100_000),
  live: Number(process.env.BENCH_LIVE ?? 100_000),
};
const RUNS = Number(process.env.BENCH_RUNS ?? 20);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 2);
const CASE_SECONDS = Number(process.env.BENCH_CASE_SECONDS ?? 10);
const DB = "mensageria_bench_admin";
const TZ = "America/Sao_Paulo";
const PASSWORD = "Demo!Mensa#2026";
const STAFF = "staff@demo.example";
const RESELLER = "reseller@demo.example";
/** The version of the fill below: a change to it fills again. */
const FILL_VERSION = 1;

// A DATABASE_URL names the database to use (bench/lib.mjs): only a bench database is ever filled.
if (process.env.DATABASE_URL && !new URL(process.env.DATABASE_URL).pathname.slice(1).startsWith("mensageria_bench")) {
  console.error("DATABASE_URL names a database that is not a bench database (mensageria_bench…): this bench fills it with a platform; unset DATABASE_URL.");
  process.exit(2);
}

const webPort = await freePort();
const webEnv = { APP_URL: `http://localhost:${webPort}`, WEB_PORT: String(webPort), WEB_HOST: "127.0.0.1" };
const prefix = `bench-admin-${Date.now()}:`;
const secs = (t0) => ((Date.now() - t0) / 1000).toFixed(1);

/** The fill's marker: the sizes it was made with, and when (written last, so an interrupted fill is never reused). */
async function filledWith(databaseUrl) {
  const c = new pg.Client({ connectionString: databaseUrl });
  await c.connect();
  try {
    const { rows } = await c.query(`SELECT params, filled_at > now() - interval '12 hours' AS recent FROM bench_admin_fill`);
    return rows[0] ?? null;
  } catch {
    return null;
  } finally {
    await c.end();
  }
}

let platform = await benchPlatform(DB, prefix, webEnv);
const marker = await filledWith(platform.databaseUrl);
const params = { ...SIZES, version: FILL_VERSION };
// jsonb keeps its keys in its own order: compared key by key.
const same = (a, b) => Object.keys(a).length === Object.keys(b).length && Object.keys(a).every((k) => a[k] === b[k]);
const reuse = marker?.recent && same(marker.params, params) && !process.env.BENCH_REFILL;
if (!reuse) {
  // A fresh database (migrated and seeded) each fill: nothing of an earlier or interrupted one stays.
  if (!process.env.DATABASE_URL) await dropDatabase(DB);
  platform = await benchPlatform(DB, prefix, webEnv, { fresh: true });
}
const { databaseUrl, apiPort, env } = platform;
const db = new pg.Client({ connectionString: databaseUrl });
await db.connect();
const one = async (sql, bind = []) => (await db.query(sql, bind)).rows[0];

if (!reuse) await fill();

async function fill() {
  const t0 = Date.now();
  const n = SIZES;
  // A database named by DATABASE_URL is not dropped: it is filled only while it holds no earlier fill.
  if ((await one(`SELECT to_regclass('bench_acc') IS NOT NULL AS filled`)).filled) {
    console.error("The database DATABASE_URL names holds an earlier fill (other sizes, older, or interrupted): drop it, or unset DATABASE_URL.");
    process.exit(2);
  }
  console.log(
    `Filling ${DB}: ${n.accounts.toLocaleString("en-US")} accounts, ${n.messages.toLocaleString("en-US")} messages over ${n.days} days, ${n.audit.toLocaleString("en-US")} audit entries, ${n.appLogs.toLocaleString("en-US")} app logs, ${n.live.toLocaleString("en-US")} live messages…`,
  );
  await db.query(`SET synchronous_commit = off`);
  await db.query(`SET maintenance_work_mem = '512MB'`);
  await db.query(`SET work_mem = '256MB'`);
  await db.query(`SELECT setseed(0.23)`);
  const platformAcc = await one(`SELECT id FROM accounts WHERE type = 'platform'`);
  const staff = await one(`SELECT id FROM users WHERE email = $1`, [STAFF]);
  const azul = await one(`SELECT id, whitelabel_id FROM accounts WHERE name = 'Revenda Azul'`);
  const verde = await one(
    `INSERT INTO accounts (name, corporate_name, billing_email, type, currency, auth_token, status, created_at, updated_at)
     VALUES ('Revenda Verde', 'Revenda Verde Tecnologia Ltda', 'financeiro@verde.example', 'reseller', 'BRL', 'bench-reseller-verde', 'active', now() - interval '400 days', now())
     RETURNING id`,
  );

  // Customers: names a search finds (kind + place + number); one in forty in USD, some suspended.
  let t = Date.now();
  await db.query(`CREATE TABLE bench_acc (i int PRIMARY KEY, id uuid NOT NULL, currency char(3) NOT NULL, user_id uuid, email text)`);
  await db.query(
    `WITH made AS (
       INSERT INTO accounts (name, corporate_name, billing_email, type, currency, auth_token, parent_account_id, whitelabel_id, status, created_at, updated_at)
       SELECT (ARRAY['Padaria','Farmácia','Auto Peças','Clínica','Mercado','Loja','Escola','Pet Shop','Academia','Imobiliária',
                     'Ótica','Restaurante','Construtora','Transportadora','Consultório','Livraria','Hotel','Pizzaria','Lavanderia','Papelaria'])[1 + g % 20]
              || ' ' || (ARRAY['São Jorge','Boa Vista','Central','do Povo','Santa Luzia','Bela Vista','Primavera','Horizonte','Jardim','Aurora',
                               'Estrela','Paulista','Nordeste','Litoral','Serra'])[1 + (g / 20) % 15] || ' ' || g,
              'Empresa ' || g || ' Ltda', 'financeiro' || g || '@cliente.example', 'customer',
              CASE WHEN g % 40 = 0 THEN 'USD' ELSE 'BRL' END, 'bench-' || g || '-' || md5(g::text),
              CASE WHEN g % 10 = 3 THEN $2::uuid WHEN g % 20 = 7 THEN $3::uuid END,
              CASE WHEN g % 10 = 3 THEN $4::uuid END,
              CASE WHEN g % 101 = 0 THEN 'suspended' ELSE 'active' END,
              now() - ((g * 37) % 720) * interval '1 day' - (g % 24) * interval '1 hour', now()
         FROM generate_series(1, $1::int) g
       RETURNING id, currency, auth_token)
     INSERT INTO bench_acc (i, id, currency) SELECT split_part(auth_token, '-', 2)::int, id, currency FROM made`,
    [n.accounts, azul.id, verde.id, azul.whitelabel_id],
  );
  // One owner each (no password: they never sign in here), for the audit's users.
  await db.query(
    `WITH u AS (
       INSERT INTO users (email, first_name, last_name, email_verified_at, current_account_id, created_at, updated_at)
       SELECT 'dono' || b.i || '@cliente.example', (ARRAY['Ana','Bruno','Carla','Diego','Elisa','Fábio','Gabriela','Hugo'])[1 + b.i % 8],
              (ARRAY['Souza','Lima','Costa','Pereira','Alves','Ribeiro'])[1 + b.i % 6], now(), b.id, now(), now()
         FROM bench_acc b
       RETURNING id, current_account_id)
     UPDATE bench_acc b SET user_id = u.id, email = 'dono' || b.i || '@cliente.example' FROM u WHERE u.current_account_id = b.id`,
  );
  await db.query(`INSERT INTO memberships (account_id, user_id, role, created_at, updated_at) SELECT id, user_id, 'owner', now(), now() FROM bench_acc`);
  // Balances through the ledger's trigger (a top-up posting each).
  await db.query(`SELECT set_config('mensageria.ledger', '{"kind":"topup","reason":"bench"}', false)`);
  await db.query(`UPDATE account_balances ab SET balance = 1000 + (b.i * 7919) % 500000, updated_at = now() FROM bench_acc b WHERE ab.account_id = b.id`);
  await db.query(`SELECT set_config('mensageria.ledger', '', false)`);
  console.log(`  accounts, owners and balances in ${secs(t)} s`);

  // Provider costs (ADR 070), in reais: every provider and route since 120 days, bench-alfa cheaper
  // since 25 days. A provider's route has one cost at a time, here in reais: the USD customers'
  // messages have none ("cost unknown" in dollars).
  await db.query(
    `INSERT INTO provider_costs (provider, route, currency, cost_per_segment, valid_from, created_by)
     SELECT p.provider, r.route, 'BRL', p.base + r.extra, now() - interval '120 days', $1::uuid
       FROM (VALUES ('bench-alfa', 4), ('bench-beta', 3), ('bench-gama', 2)) p(provider, base),
            (VALUES ('T1', 2), ('T2', 1), ('T4', 0), ('T6', 0)) r(route, extra)
     UNION ALL
     SELECT 'bench-alfa', r.route, 'BRL', 3 + r.extra, now() - interval '25 days', $1::uuid
       FROM (VALUES ('T1', 2), ('T2', 1), ('T4', 0), ('T6', 0)) r(route, extra)`,
    [staff.id],
  );

  // Messages: created_at ascending with g (rows arrive in time order, as in production), bulk
  // loaded without the big indexes (rebuilt once after) and without the insert triggers.
  t = Date.now();
  await db.query(`SELECT message_partitions_ensure(now() - make_interval(days => $1::int + 1), now() + interval '1 month')`, [n.days]);
  const { rows: indexes } = await db.query(`SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'messages' AND indexname <> 'messages_pkey'`);
  for (const ix of indexes) await db.query(`DROP INDEX ${ix.indexname}`);
  await db.query(`ALTER TABLE messages DISABLE TRIGGER USER`);
  const batch = 250_000;
  for (let from = 1; from <= n.messages; from += batch) {
    const to = Math.min(n.messages, from + batch - 1);
    await db.query(
      `WITH s AS (
         SELECT g, now() - make_interval(days => $4::int) * (1 - g::float8 / $3) AS t,
                random() AS ra, random() AS rc, random() AS rs, random() AS rp, random() AS rr, random() AS rg, random() AS rd
           FROM generate_series($1::int, $2::int) g
       ), m AS (
         SELECT s.*, b.id AS account_id, b.currency,
                CASE WHEN s.rc < 0.70 THEN 'sms' WHEN s.rc < 0.85 THEN 'whatsapp' WHEN s.rc < 0.95 THEN 'email' ELSE 'rcs' END AS channel,
                CASE WHEN s.rd < 0.03 AND s.rc < 0.85 THEN 'inbound' ELSE 'outbound' END AS direction,
                CASE WHEN s.rg < 0.80 THEN 1 WHEN s.rg < 0.95 THEN 2 ELSE 3 END AS segments,
                CASE WHEN s.rr < 0.60 THEN 'T1' WHEN s.rr < 0.85 THEN 'T2' WHEN s.rr < 0.95 THEN 'T4' ELSE 'T6' END AS route
           FROM s JOIN bench_acc b ON b.i = least($5::int, 1 + floor($5 * s.ra * s.ra)::int)
       ), st AS (
         SELECT m.*,
                CASE WHEN m.direction = 'inbound' THEN 'received'
                     WHEN m.channel = 'sms' THEN CASE WHEN m.rs < 0.80 THEN 'delivered' WHEN m.rs < 0.88 THEN 'failed' WHEN m.rs < 0.91 THEN 'unavailable'
                                                      WHEN m.rs < 0.985 THEN 'sent' WHEN m.rs < 0.995 THEN 'rejected' ELSE 'optout' END
                     WHEN m.channel = 'whatsapp' THEN CASE WHEN m.rs < 0.55 THEN 'read' WHEN m.rs < 0.90 THEN 'delivered' WHEN m.rs < 0.95 THEN 'sent' ELSE 'failed' END
                     WHEN m.channel = 'email' THEN CASE WHEN m.rs < 0.70 THEN 'delivered' WHEN m.rs < 0.85 THEN 'opened' WHEN m.rs < 0.90 THEN 'clicked'
                                                        WHEN m.rs < 0.95 THEN 'bounced' WHEN m.rs < 0.98 THEN 'sent' ELSE 'dropped' END
                     ELSE CASE WHEN m.rs < 0.50 THEN 'read' WHEN m.rs < 0.85 THEN 'delivered' WHEN m.rs < 0.93 THEN 'sent' ELSE 'failed' END END AS status,
                -- a quarter of the SMS failures never reached a provider (refunded: not revenue)
                NOT (m.direction = 'inbound' OR (m.channel = 'sms' AND (m.rs >= 0.985 OR m.rs BETWEEN 0.86 AND 0.88))) AS handed
           FROM m
       )
       INSERT INTO messages (account_id, channel, direction, sender, recipient, body, segments, coding, type, status, provider, route, price, currency,
                             created_at, updated_at, sent_at, delivered_at, failed_at, error_code, carrier)
       SELECT account_id, channel, direction,
              CASE channel WHEN 'sms' THEN (ARRAY['LOJA','AVISO','PROMO','BANCO','SAUDE','29345','40401'])[1 + g % 7]
                           WHEN 'whatsapp' THEN '+551130000' || lpad((g % 1000)::text, 3, '0') WHEN 'email' THEN 'noreply@cliente.example' ELSE 'agente-bench' END,
              CASE WHEN channel = 'email' THEN 'cliente' || (g % 500000) || '@mail.example'
                   ELSE '+55' || (11 + g % 80)::text || '9' || lpad(((g::bigint * 7919) % 100000000)::text, 8, '0') END,
              'Olá! Seu pedido ' || g || ' foi confirmado e chega em breve. Acompanhe a entrega pelo nosso site.',
              CASE WHEN channel = 'sms' THEN segments ELSE 1 END, CASE WHEN channel = 'sms' THEN 'GSM7' END,
              CASE WHEN channel = 'email' THEN 'email' ELSE 'text' END, status,
              CASE WHEN channel = 'sms' AND handed THEN CASE WHEN rp < 0.50 THEN 'bench-alfa' WHEN rp < 0.85 THEN 'bench-beta' ELSE 'bench-gama' END END,
              CASE WHEN channel = 'sms' THEN route END,
              CASE WHEN direction = 'inbound' THEN 0
                   WHEN channel = 'sms' THEN segments * CASE WHEN currency = 'USD' THEN 2 ELSE (CASE route WHEN 'T1' THEN 8 WHEN 'T2' THEN 6 WHEN 'T4' THEN 5 ELSE 4 END) END
                   WHEN channel = 'whatsapp' THEN CASE WHEN currency = 'USD' THEN 7 ELSE 35 END
                   WHEN channel = 'email' THEN 1 ELSE CASE WHEN currency = 'USD' THEN 3 ELSE 12 END END,
              currency, t, t + interval '5 seconds',
              CASE WHEN handed THEN t + interval '1 second' END,
              CASE WHEN status IN ('delivered','read','opened','clicked') THEN t + interval '4 seconds' END,
              CASE WHEN status IN ('failed','unavailable','bounced','dropped') THEN t + interval '4 seconds' END,
              CASE WHEN status = 'failed' THEN 'UNDELIV' WHEN status = 'unavailable' THEN 'EXPIRED' WHEN status = 'bounced' THEN '550' END,
              CASE WHEN channel = 'sms' THEN (ARRAY['Vivo','Claro','TIM','Oi'])[1 + g % 4] END
         FROM st ORDER BY g`,
      [from, to, n.messages, n.days, n.accounts],
    );
    process.stdout.write(`  ${to.toLocaleString("en-US")} messages\r`);
  }
  await db.query(`ALTER TABLE messages ENABLE TRIGGER USER`);
  console.log(`  ${n.messages.toLocaleString("en-US")} messages in ${secs(t)} s`);
  for (const ix of indexes) {
    const ti = Date.now();
    // pg_indexes says "ON ONLY messages" for a partitioned index: built that way it would cover no month.
    await db.query(ix.indexdef.replace(" ON ONLY ", " ON "));
    console.log(`  ${ix.indexname} built in ${secs(ti)} s`);
  }

  // The ledger's message charges: one posting per account and hour (both legs), as batches post them.
  t = Date.now();
  await db.query(`ALTER TABLE ledger_entries DISABLE TRIGGER ledger_entries_immutable`);
  await db.query(
    `WITH c AS (
       SELECT account_id, currency, date_trunc('hour', created_at) + interval '59 minutes' AS at, sum(price) AS amount, gen_random_uuid() AS posting
         FROM messages WHERE direction = 'outbound' AND price > 0 AND account_id IN (SELECT id FROM bench_acc) GROUP BY 1, 2, 3)
     INSERT INTO ledger_entries (account_id, posting, book, amount, currency, kind, reference, created_at)
     SELECT account_id, posting, l.book, l.sign * amount, currency, 'message', 'bench', at
       FROM c, (VALUES ('customer', -1), ('revenue', 1)) l(book, sign)
      ORDER BY at`,
  );
  await db.query(`ALTER TABLE ledger_entries ENABLE TRIGGER ledger_entries_immutable`);
  console.log(`  ledger postings in ${secs(t)} s`);

  // Live chat: rooms of one account in seven, messages of both sides over the days.
  t = Date.now();
  await db.query(
    `INSERT INTO live_rooms (account_id, channel, external_id, username, protocol, status, closed_at, created_at, updated_at)
     SELECT b.id, 'webchat', 'visitor-' || b.i || '-' || r, 'Visitante ' || r, 'B' || b.i || '-' || r, 'CLOSED', now(), now() - interval '1 day' * ($1::int * r / 50.0), now()
       FROM bench_acc b, generate_series(1, 50) r WHERE b.i % 7 = 0`,
    [n.days],
  );
  await db.query(
    `WITH rooms AS (SELECT row_number() OVER (ORDER BY id) AS k, id, account_id FROM live_rooms WHERE account_id IN (SELECT id FROM bench_acc)),
          nr AS (SELECT count(*) AS c FROM rooms)
     INSERT INTO live_messages (account_id, room_id, author, body, status, created_at, updated_at)
     SELECT r.account_id, r.id, CASE WHEN g % 2 = 0 THEN 'visitor' ELSE 'agent' END, 'Mensagem de atendimento ' || g, 'READ', t, t
       FROM generate_series(1, $1::int) g
       CROSS JOIN LATERAL (SELECT now() - make_interval(days => $2::int) * (1 - g::float8 / $1) AS t) tt
       JOIN rooms r ON r.k = 1 + (g::bigint * 7919) % (SELECT c FROM nr)
      ORDER BY g`,
    [n.live, n.days],
  );
  console.log(`  ${n.live.toLocaleString("en-US")} live messages in ${secs(t)} s`);

  // Audit: the accounts' people (the busy accounts the most), failed sign-ins of unknown e-mails,
  // and the staff's changes to customers; actions from common to rare.
  t = Date.now();
  const actions = [
    "sms.accepted",
    "auth.login",
    "whatsapp.accepted",
    "auth.logout",
    "campaigns.accepted",
    "contacts.imported",
    "auth.login_failed",
    "sms.template_created",
    "users.updated",
    "email.accepted",
    "webhook.updated",
    "rcs.campaign_accepted",
    "optout.added",
    "sms.canceled",
    "users.invited",
    "users.invitation_accepted",
    "whatsapp.template_created",
    "denylist.added",
    "shortener.link_created",
    "settings.messages.updated",
    "support.ticket_opened",
    "webhook.created",
    "sms.template_updated",
    "users.removed",
    "smpp_user.updated",
    "rcs.keyword_created",
    "whatsapp.number_connected",
    "webhook.secret_rotated",
    "whitelabel.saved",
    "auth.oauth_login",
  ];
  await db.query(
    `INSERT INTO audit_logs (account_id, user_id, action, ip, user_agent, meta, created_at)
     SELECT CASE WHEN kind = 'staff' THEN $5::uuid WHEN kind = 'unknown' THEN NULL ELSE b.id END,
            CASE WHEN kind = 'staff' THEN $6::uuid WHEN kind = 'unknown' THEN NULL ELSE b.user_id END,
            CASE WHEN kind = 'staff' THEN (ARRAY['customers.updated','customers.suspended','customers.activated','customers.created','customers.user_attached'])[1 + g % 5]
                 WHEN kind = 'unknown' THEN 'auth.login_failed' ELSE action END,
            ('10.' || (g % 200) || '.' || (g / 200 % 250) || '.' || (1 + g % 250))::inet,
            'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36',
            CASE WHEN kind = 'staff' THEN jsonb_build_object('customer_id', b.id, 'changes', jsonb_build_object('status', jsonb_build_object('from', 'active', 'to', 'suspended')))
                 WHEN kind = 'unknown' THEN jsonb_build_object('email', 'desconhecido' || g || '@mail.example')
                 WHEN action LIKE '%.updated' THEN jsonb_build_object('before', jsonb_build_object('name', 'Antigo ' || g), 'after', jsonb_build_object('name', 'Novo ' || g))
                 WHEN action LIKE '%accepted' THEN jsonb_build_object('messages', 1 + g % 500, 'route', 'T1')
                 ELSE jsonb_build_object('id', g) END,
            t
       FROM generate_series(1, $1::int) g
       CROSS JOIN LATERAL (SELECT now() - make_interval(days => $2::int) * (1 - g::float8 / $1) AS t, random() AS ra, random() AS rk, random() AS rx) r
       CROSS JOIN LATERAL (SELECT CASE WHEN r.rk < 0.01 THEN 'staff' WHEN r.rk < 0.03 THEN 'unknown' ELSE 'account' END AS kind,
                                  ($4::text[])[1 + floor(array_length($4::text[], 1) * power(r.rx, 2.5))::int] AS action) k
       JOIN bench_acc b ON b.i = least($3::int, 1 + floor($3 * r.ra * r.ra)::int)
      ORDER BY g`,
    [n.audit, n.days, n.accounts, actions, platformAcc.id, staff.id],
  );
  console.log(`  ${n.audit.toLocaleString("en-US")} audit entries in ${secs(t)} s`);

  // Application logs (the worker keeps 30 days): provider failures and the API's errors.
  t = Date.now();
  await db.query(
    `INSERT INTO app_logs (source, code, message, account_id, detail, created_at)
     SELECT CASE WHEN g % 5 < 3 THEN 'provider' ELSE 'api' END,
            CASE WHEN g % 5 < 3 THEN (ARRAY['UNDELIV','ETIMEDOUT','http_503','THROTTLED','REJECTED','no_provider'])[1 + g % 6]
                 ELSE (ARRAY['TypeError','http_502','http_500','ECONNRESET'])[1 + g % 4] END,
            CASE WHEN g % 5 < 3 THEN (ARRAY['bench-alfa','bench-beta','bench-gama'])[1 + g % 3] || ' answered ' || (ARRAY['503 Service Unavailable','a timeout after 10000 ms','429 Too Many Requests','invalid destination number'])[1 + g % 4]
                 ELSE 'Unexpected error in ' || (ARRAY['POST /api/sms/messages','GET /api/sms/messages','POST /api/whatsapp/messages','POST /api/campaigns'])[1 + g % 4] || ': connection reset by peer' END,
            CASE WHEN g % 10 < 7 THEN b.id END,
            CASE WHEN g % 5 < 3 THEN jsonb_build_object('channel', 'sms', 'provider', (ARRAY['bench-alfa','bench-beta','bench-gama'])[1 + g % 3], 'message_id', gen_random_uuid(), 'kind', 'transient')
                 ELSE jsonb_build_object('method', 'POST', 'path', '/api/sms/messages', 'status', 502) END,
            now() - interval '30 days' * (1 - g::float8 / $1)
       FROM generate_series(1, $1::int) g JOIN bench_acc b ON b.i = 1 + (g::bigint * 7919) % $2
      ORDER BY g`,
    [n.appLogs, n.accounts],
  );
  console.log(`  ${n.appLogs.toLocaleString("en-US")} app logs in ${secs(t)} s`);

  t = Date.now();
  for (const table of [
    "accounts",
    "users",
    "memberships",
    "account_balances",
    "messages",
    "ledger_entries",
    "live_rooms",
    "live_messages",
    "audit_logs",
    "app_logs",
    "provider_costs",
  ]) {
    await db.query(`VACUUM ANALYZE ${table}`);
  }
  console.log(`  VACUUM ANALYZE in ${secs(t)} s`);
  await db.query(`CREATE TABLE bench_admin_fill (params jsonb NOT NULL, filled_at timestamptz NOT NULL DEFAULT now())`);
  await db.query(`INSERT INTO bench_admin_fill (params) VALUES ($1)`, [JSON.stringify(params)]);
  console.log(`Filled in ${secs(t0)} s`);
}

// What the platform holds, for the table's heading.
const sizes = await one(
  `SELECT (SELECT count(*) FROM accounts WHERE type = 'customer')::int AS customers,
          (SELECT count(*) FROM accounts c JOIN accounts r ON r.id = c.parent_account_id WHERE r.name = 'Revenda Azul')::int AS azul,
          (SELECT count(*) FROM accounts c JOIN accounts r ON r.id = c.parent_account_id WHERE r.name = 'Revenda Verde')::int AS verde,
          (SELECT count(*) FROM messages)::int AS messages,
          (SELECT count(*) FROM messages WHERE channel = 'sms')::int AS sms,
          (SELECT count(*) FROM audit_logs)::int AS audit,
          (SELECT count(*) FROM app_logs)::int AS app_logs,
          (SELECT count(*) FROM live_messages)::int AS live,
          (SELECT count(*) FROM ledger_entries)::int AS ledger,
          (SELECT count(*) FROM provider_costs)::int AS costs,
          pg_size_pretty((SELECT sum(pg_total_relation_size(inhrelid)) FROM pg_inherits WHERE inhparent = 'messages'::regclass)) AS messages_size,
          pg_size_pretty(pg_total_relation_size('audit_logs')) AS audit_size`,
);
const today = (await one(`SELECT to_char((now() AT TIME ZONE '${TZ}')::date, 'YYYY-MM-DD') AS d`)).d;
const dayBefore = (days) => new Date(Date.parse(`${today}T00:00:00Z`) - days * 86_400_000).toISOString().slice(0, 10);
const azulId = (await one(`SELECT id FROM accounts WHERE name = 'Revenda Azul'`)).id;
// The busiest account, a middling one, and the reseller's busiest customer; an owner's e-mail.
const big = await one(`SELECT id FROM bench_acc WHERE i = 1`);
const mid = await one(`SELECT id, email FROM bench_acc WHERE i = $1`, [Math.ceil(SIZES.accounts / 4)]);
const azulBig = await one(`SELECT b.id FROM bench_acc b JOIN accounts a ON a.id = b.id WHERE a.parent_account_id = $1 ORDER BY b.i LIMIT 1`, [azulId]);

env.API_URL = `http://127.0.0.1:${apiPort}`;
startBun("api/server.ts", env);
startWeb(env);
const api = `http://127.0.0.1:${apiPort}`;
const web = `http://127.0.0.1:${webPort}`;
await up(`${api}/api/health`);
await up(`${web}/health`);

async function token(email) {
  const res = await fetch(`${api}/api/auth/login`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ email, password: PASSWORD }) });
  const body = await res.json();
  if (!res.ok) throw new Error(`login of ${email}: ${res.status} ${JSON.stringify(body).slice(0, 200)}`);
  return { Authorization: `Bearer ${body.token}` };
}

/** Signs in on the web's form (no JavaScript: the CSRF field of the page) and answers the session's Cookie header. */
async function webSession(email) {
  const jar = new Map();
  const store = (res) => {
    for (const line of res.headers.getSetCookie()) {
      const pair = line.split(";")[0];
      const i = pair.indexOf("=");
      const value = pair.slice(i + 1).trim();
      if (value) jar.set(pair.slice(0, i).trim(), value);
      else jar.delete(pair.slice(0, i).trim());
    }
  };
  const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
  const page = await fetch(`${web}/login`, { redirect: "manual" });
  store(page);
  const csrf = /name="csrf"[^>]*value="([^"]+)"|value="([^"]+)"[^>]*name="csrf"/.exec(await page.text());
  if (!csrf) throw new Error("no CSRF field on /login");
  const res = await fetch(`${web}/login`, {
    method: "POST",
    redirect: "manual",
    headers: { Cookie: cookie(), "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ email, password: PASSWORD, csrf: csrf[1] ?? csrf[2] }),
  });
  store(res);
  if (res.status !== 302) throw new Error(`web sign-in of ${email}: ${res.status}`);
  return { Cookie: cookie() };
}

const who = {
  staff: { api: await token(STAFF), web: await webSession(STAFF) },
  reseller: { api: await token(RESELLER), web: await webSession(RESELLER) },
};

const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
const results = [];

/**
 * Times GET `url` as `as` (staff or reseller): WARMUP requests, then up to RUNS (at least 5, fewer
 * once CASE_SECONDS have passed). `what` says what the answer held (from its JSON).
 */
async function measure(label, as, base, path, what) {
  const headers = { ...(base === web ? who[as].web : who[as].api), "Accept-Language": "pt-BR" };
  const once = async () => {
    const t = performance.now();
    const res = await fetch(`${base}${path}`, { headers, redirect: "manual" });
    const body = await res.json();
    const ms = performance.now() - t;
    if (res.status !== 200) throw new Error(`${label} (${as}): ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
    return { ms, body };
  };
  let last;
  for (let i = 0; i < WARMUP; i++) last = (await once()).body;
  const times = [];
  const started = performance.now();
  while (times.length < RUNS && (times.length < 5 || performance.now() - started < CASE_SECONDS * 1000)) {
    const r = await once();
    times.push(r.ms);
    last = r.body;
  }
  times.sort((a, b) => a - b);
  const row = { label, as, n: times.length, p50: pct(times, 50), p95: pct(times, 95), max: times.at(-1), what: what(last) };
  results.push(row);
  console.log(
    `${`${label} [${as}]`.padEnd(64)} n ${String(row.n).padStart(2)}  p50 ${row.p50.toFixed(1).padStart(7)}  p95 ${row.p95.toFixed(1).padStart(7)}  max ${row.max.toFixed(1).padStart(7)}  ${row.what}`,
  );
}

const q = (params) => `?${new URLSearchParams(params)}`;
const month = { from: dayBefore(30), to: today };
const count = (n) => Number(n).toLocaleString("en-US");
const report = (b) => `${count(b.data.messages)} SMS, ${b.data.customers.length} customers`;
const sales = (b) => `${count(b.data.messages)} SMS, margin ${b.data.margin ? b.data.margin.map((m) => `${m.currency} ${m.margin ?? "unknown"}`).join(", ") : "hidden"}`;
const page = (b) => `${b.data.length} rows${b.next_cursor ? ", more" : ""}`;
const A = "/api/admin";

console.log(
  `\nPlatform: ${count(sizes.customers)} customers (${sizes.azul} under Revenda Azul, ${sizes.verde} under Revenda Verde); ${count(sizes.messages)} messages (${count(sizes.sms)} SMS, ${sizes.messages_size}) over ${SIZES.days} days; ${count(sizes.audit)} audit entries (${sizes.audit_size}); ${count(sizes.app_logs)} app logs; ${count(sizes.live)} live messages; ${count(sizes.ledger)} ledger entries; ${sizes.costs} provider costs. Today ${today} (São Paulo).`,
);
const load = () =>
  loadavg()
    .map((x) => x.toFixed(1))
    .join(" ");
console.log(
  `Load average before: ${load()}. ${WARMUP} warm-up requests, then up to ${RUNS} (at least ${Math.min(5, RUNS)}; fewer after ${CASE_SECONDS} s) one after the other; ms end to end over loopback.\n`,
);

for (const as of ["staff", "reseller"]) {
  await measure("GET /admin/sms/reports (last 7 days)", as, api, `${A}/sms/reports`, report);
  await measure("GET /admin/sms/reports (31 days)", as, api, `${A}/sms/reports${q(month)}`, report);
  await measure("GET /admin/sms/reports (31 days, status=failed, route=T1)", as, api, `${A}/sms/reports${q({ ...month, status: "failed", route: "T1" })}`, report);
  await measure("GET /admin/sms/reports (31 days, one account)", as, api, `${A}/sms/reports${q({ ...month, account_id: as === "staff" ? big.id : azulBig.id })}`, report);
  await measure("GET /admin/sms/dashboard (today, 7, 30 days)", as, api, `${A}/sms/dashboard`, (b) => `${count(b.data.last30.messages)} SMS in 30 days`);
  await measure("GET /admin/sms/sales (last 7 days)", as, api, `${A}/sms/sales`, sales);
  await measure("GET /admin/sms/sales (31 days)", as, api, `${A}/sms/sales${q(month)}`, sales);
  if (as === "staff")
    await measure(
      "GET /admin/analytics (30 days + the 30 before)",
      as,
      api,
      `${A}/analytics`,
      (b) => `${count(b.data.messages.value)} messages, ${b.data.active_accounts.value} active`,
    );
  await measure("GET /admin/audit (page 1)", as, api, `${A}/audit`, page);
  await measure("GET /admin/audit (action=users.invited)", as, api, `${A}/audit${q({ action: "users.invited" })}`, page);
  await measure("GET /admin/audit (action prefix auth.)", as, api, `${A}/audit${q({ action: "auth." })}`, page);
  if (as === "staff") {
    await measure("GET /admin/audit (rare action customers.suspended)", as, api, `${A}/audit${q({ action: "customers.suspended" })}`, page);
    await measure("GET /admin/audit (user = an owner's e-mail)", as, api, `${A}/audit${q({ user: mid.email })}`, page);
    await measure("GET /admin/audit (one account)", as, api, `${A}/audit${q({ account: mid.id })}`, page);
  }
  await measure("GET /admin/audit (one day, 10 days ago)", as, api, `${A}/audit${q({ from: dayBefore(10), to: dayBefore(10) })}`, page);
  const insights = "?_data=routes%2F_app.admin.audit.insights";
  await measure("web /admin/audit/insights loader (30 days)", as, web, `/admin/audit/insights${insights}`, (b) => `${count(b.insights.total)} entries`);
  await measure(
    "web /admin/audit/insights loader (30 days, one account)",
    as,
    web,
    `/admin/audit/insights${insights}&${new URLSearchParams({ account: as === "staff" ? mid.id : azulBig.id })}`,
    (b) => `${count(b.insights.total)} entries`,
  );
  if (as === "staff") {
    await measure("GET /admin/logs (page 1)", as, api, `${A}/logs`, page);
    await measure("GET /admin/logs (q=timeout)", as, api, `${A}/logs${q({ q: "timeout" })}`, page);
    await measure("GET /admin/logs (q=no match: every row read)", as, api, `${A}/logs${q({ q: "nada-disso" })}`, page);
    await measure("GET /admin/logs (source=provider, one account)", as, api, `${A}/logs${q({ source: "provider", account: mid.id })}`, page);
  }
  await measure("GET /customers (page 1, by name)", as, api, `/api/customers`, page);
  await measure("GET /customers?q=vista (Boa Vista, Bela Vista…)", as, api, `/api/customers${q({ q: "vista" })}`, page);
  await measure("GET /customers?q=no match", as, api, `/api/customers${q({ q: "nada-disso" })}`, page);
}

console.log("\n| screen / query | as | n | p50 ms | p95 ms | max ms | answer |");
console.log("|---|---|---:|---:|---:|---:|---|");
for (const r of results) console.log(`| ${r.label} | ${r.as} | ${r.n} | ${r.p50.toFixed(1)} | ${r.p95.toFixed(1)} | ${r.max.toFixed(1)} | ${r.what} |`);
const slow = results.filter((r) => r.p50 > 1000);
console.log(`\nLoad average after: ${load()}.`);
console.log(slow.length ? `\nOver 1 s (p50): ${slow.map((r) => `${r.label} [${r.as}]`).join("; ")}` : "\nNo case over 1 s (p50).");
await db.end();
process.exit(0);
