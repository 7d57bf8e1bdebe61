/**
 * One isolated platform per test run: its own PostgreSQL database (migrated and seeded), its
 * own Redis key prefix, and the real processes (web, api, worker, realtime, simulator) on free
 * loopback ports. Tests talk to them over HTTP like any client would.
 *
 * With TEST_REDIS_CLUSTER=1 (the second pass of `npm test`, ADR 028) the run gets its own Redis
 * Cluster of 3 masters and 3 replicas on loopback (tests/support/redis-cluster.mjs) instead of
 * the one server, and the job streams are split in 3 shards: the same suite, on a cluster.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { connect } from "node:net";
import { freePort, waitFor } from "../support/net";
import { resolve } from "node:path";
import pg from "pg";
import { deleteByPrefix, openRedis } from "../support/redis";
import { RedisCluster } from "../support/redis-cluster.mjs";
import { SMTPServer } from "smtp-server";
import { startDnsServer } from "../support/dns-server";
import { OAUTH_CLIENT, startOAuthPeer } from "./oauth-peer";
import { randomSecrets } from "../support/secrets";
import type { TestProject } from "vitest/node";

const root = resolve(__dirname, "..", "..");
const bun = resolve(root, "node_modules", ".bin", "bun");

declare module "vitest" {
  export interface ProvidedContext {
    webUrl: string;
    apiUrl: string;
    realtimeUrl: string;
    databaseUrl: string;
    redisUrl: string;
    redisPrefix: string;
    smtpPort: number;
    oauthUrl: string;
    simulatorUrl: string;
    /** The simulator's local SMTP peer (api/simulator/smtp-peer.ts). */
    simulatorSmtpPort: number;
    /** Where the SMTP peer sends its DSN and ARF reports (the inbound listener's port; email-smtp-peer.test.ts listens there itself). */
    emailInboundPort: number;
    /** The simulator's DNS peer (api/simulator/dns-peer.ts), forwarding to the run's DNS server. */
    simulatorDnsPort: number;
    smppPort: number;
    /** A second instance of our SMPP server on the same database and Redis (binds of one user on two instances). */
    smppPort2: number;
    /** This run's secrets (random per run), for tests that sign what the processes verify. */
    sessionSecret: string;
    jwtSecret: string;
    simulatorWebhookSecret: string;
    simulatorApiKey: string;
  }
}

async function waitForPort(port: number, seconds = 60) {
  const until = Date.now() + seconds * 1000;
  while (Date.now() < until) {
    const up = await new Promise<boolean>((res) => {
      const s = connect(port, "127.0.0.1", () => {
        s.destroy();
        res(true);
      });
      s.on("error", () => res(false));
    });
    if (up) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`port ${port} did not open in ${seconds}s`);
}

const children: ChildProcess[] = [];
let cleanup: (() => Promise<void>) | undefined;

export async function setup(project: TestProject) {
  const admin = process.env.TEST_ADMIN_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
  const cluster = process.env.TEST_REDIS_CLUSTER === "1" ? await RedisCluster.start() : undefined;
  const redisUrl = cluster?.url ?? process.env.REDIS_URL ?? "redis://127.0.0.1:6379/0";
  // The key scheme's shard counts, the same in the processes and in the test workers (which inherit process.env).
  Object.assign(process.env, { REDIS_URL: redisUrl, STREAM_SHARDS: cluster ? "3" : "1" });
  const id = `${Date.now().toString(36)}_${randomBytes(3).toString("hex")}`;
  const dbName = `mensageria_test_${id}`;
  const redisPrefix = `test:${id}:`;

  // What this set-up started is stopped again by `cleanup`, which exists from the first resource
  // on: a set-up that fails half-way (a process that never comes up) leaves nothing running.
  const stops: Array<() => Promise<void>> = [];
  if (cluster) stops.push(() => cluster.stop());
  cleanup = async () => {
    for (const stop of stops.reverse()) await stop().catch((e) => process.stderr.write(`cleanup: ${e}\n`));
    stops.length = 0;
  };
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  await client.query(`CREATE DATABASE "${dbName}"`);
  await client.end();
  stops.push(async () => {
    const c = new pg.Client({ connectionString: admin });
    await c.connect();
    await c.query(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`);
    await c.end();
  });
  stops.push(() => deleteByPrefix(redisUrl, redisPrefix));
  try {
    await startAll();
  } catch (e) {
    await cleanup();
    throw e;
  }

  async function startAll() {
    const dbUrl = new URL(admin);
    dbUrl.pathname = `/${dbName}`;
    const databaseUrl = dbUrl.toString();

    const [web, api, realtime, smtpPort, oauthPort, simulator, smppPort, smppPort2, dnsPort, simulatorSmtpPort, emailInboundPort, simulatorDnsPort] = await Promise.all([
      freePort(),
      freePort(),
      freePort(),
      freePort(),
      freePort(),
      freePort(),
      freePort(),
      freePort(),
      freePort(),
      freePort(),
      freePort(),
      freePort(),
    ]);
    // Google sign-in is configured against a loopback authorization server; Facebook stays unconfigured.
    const oauth = await startOAuthPeer(oauthPort);
    stops.push(() => oauth.close());

    // A real SMTP peer on loopback: the worker delivers every e-mail to it; tests read what arrived.
    const received = openRedis(redisUrl);
    const smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS"],
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on("data", (c: Buffer) => chunks.push(c));
        stream.on("end", () => {
          const raw = Buffer.concat(chunks).toString("utf8");
          const to = session.envelope.rcptTo.map((r) => r.address.toLowerCase());
          received
            .rpush(`${redisPrefix}smtp:received`, JSON.stringify({ from: session.envelope.mailFrom && session.envelope.mailFrom.address, to, raw }))
            .then(() => callback(), callback);
        });
      },
    });
    await new Promise<void>((r) => smtp.listen(smtpPort, "127.0.0.1", () => r()));
    stops.push(async () => {
      await new Promise<void>((r) => smtp.close(() => r()));
      await received.quit();
    });
    // A DNS server on loopback that sending domains are checked against (its zone in Redis: tests/support/dns-server.ts).
    const zone = openRedis(redisUrl);
    const dns = await startDnsServer(dnsPort, zone, redisPrefix);
    stops.push(async () => {
      await dns.close();
      await zone.quit();
    });
    // This run's own random secrets, for every process it starts; in process.env too, so the test
    // workers (which inherit it) and the processes tests spawn with it agree with them.
    const secrets = randomSecrets();
    // The platform's mail host too: tests address its feedback-loop mailbox (fbl@EMAIL_HOST).
    Object.assign(process.env, secrets, { EMAIL_HOST: "mail.mensageria.test" });
    const env = {
      ...process.env,
      ...secrets,
      NODE_ENV: "test",
      DATABASE_URL: databaseUrl,
      REDIS_URL: redisUrl,
      REDIS_PREFIX: redisPrefix,
      WEB_PORT: String(web),
      API_PORT: String(api),
      REALTIME_PORT: String(realtime),
      WEB_HOST: "127.0.0.1",
      APP_URL: `http://localhost:${web}`,
      // Every test reaches the web from 127.0.0.1: the per-IP limits are out of the way here; tests of
      // them send their own X-Forwarded-For to the API or run a private stack (tests/support/stack.ts).
      LOGIN_MAX_FAILS_PER_IP: "1000",
      REGISTER_MAX_PER_IP: "1000",
      RESET_MAX_PER_IP: "1000",
      RESET_SUBMIT_MAX_PER_IP: "1000",
      RESEND_VERIFICATION_MAX_PER_IP: "1000",
      // Every test calls the widget from loopback: the widget limits are tested on a private stack (security-widget-limits).
      WIDGET_CALLS_PER_IP_PER_MINUTE: "100000",
      WIDGET_CALLS_PER_KEY_PER_MINUTE: "100000",
      WIDGET_STARTS_PER_IP_PER_HOUR: "100000",
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
      EMAIL_DNS_SERVERS: `127.0.0.1:${dnsPort}`,
      EMAIL_DNS_TIMEOUT_MS: "1500",
      EMAIL_HOST: "mail.mensageria.test",
      EMAIL_DOMAIN_SWEEP_MS: "500",
      // A pending domain is rechecked every 2 s (a tenth of this), a validated one every 20 s.
      EMAIL_DOMAIN_RECHECK_MS: "20000",
      MAIL_SWEEP_SECONDS: "2",
      IMPORT_SWEEP_SECONDS: "2",
      // Reclame Aqui (ADR 067): the worker syncs a connection not synced for 10 s (its sweep: every 10 s).
      RA_SYNC_SECONDS: "10",
      IDEMPOTENCY_SWEEP_SECONDS: "2",
      GOOGLE_CLIENT_ID: OAUTH_CLIENT.id,
      GOOGLE_CLIENT_SECRET: OAUTH_CLIENT.secret,
      GOOGLE_AUTH_URL: `http://127.0.0.1:${oauthPort}/authorize`,
      GOOGLE_TOKEN_URL: `http://127.0.0.1:${oauthPort}/token`,
      GOOGLE_USERINFO_URL: `http://127.0.0.1:${oauthPort}/userinfo`,
      // Live channel providers stay on loopback (the OAuth peer answers them 404); the channel tests run their own peers.
      TELEGRAM_API_URL: `http://127.0.0.1:${oauthPort}/telegram`,
      GRAPH_API_URL: `http://127.0.0.1:${oauthPort}/graph/v19.0`,
      GBM_API_URL: `http://127.0.0.1:${oauthPort}/businessmessages`,
      UNSUBSCRIBE_HOST: "unsubscribe.localhost",
      // The provider simulator (its own process); receipts go to this run's API (default URL).
      SIMULATOR_PORT: String(simulator),
      SIMULATOR_URL: `http://127.0.0.1:${simulator}`,
      SIMULATOR_DELAY_MS: "200",
      // The simulator's SMTP peer, and where it sends its reports (ADR 036).
      SIMULATOR_SMTP_PORT: String(simulatorSmtpPort),
      // The simulator's DNS peer: its own port; what it does not know it asks the run's DNS server.
      SIMULATOR_DNS_PORT: String(simulatorDnsPort),
      SIMULATOR_DNS_FORWARD: `127.0.0.1:${dnsPort}`,
      EMAIL_INBOUND_HOST: "127.0.0.1",
      EMAIL_INBOUND_PORT: String(emailInboundPort),
      WHATSAPP_TEMPLATE_SWEEP_MS: "500",
      // A tracking switch or a domain's key applies to the very next e-mail (tests change them and send at once).
      EMAIL_SEND_CACHE_MS: "0",
      // Dispatch retries quickly in tests: a failed attempt is redelivered after 1 s, dead after 3.
      DISPATCH_RETRY_IDLE_MS: "1000",
      DISPATCH_MAX_ATTEMPTS: "3",
      // Scheduled SMS are released within 200 ms of being due.
      SCHEDULE_SWEEP_MS: "200",
      // Our SMPP server for SMPP users (tests bind to it with a real SMPP client).
      SMPP_PORT: String(smppPort),
      SMPP_HOST: "127.0.0.1",
      // Customer webhooks: the retry schedule shrunk 10,000× (the whole ≥ 24 h schedule in ~10 s); outbound requests may reach loopback receivers (ADR 021).
      WEBHOOK_RETRY_SCALE: "0.0001",
      WEBHOOK_SWEEP_MS: "100",
      LIVE_IDLE_SWEEP_MS: "200",
      // Flows: timers and lost wake-ups looked at every 200 ms (ADR 054).
      FLOW_SWEEP_MS: "200",
      WEBHOOK_TIMEOUT_MS: "3000",
      OUTBOUND_ALLOW_PRIVATE: "true",
    } as NodeJS.ProcessEnv;
    for (const script of ["models/migrate.ts", "seeds/run.ts"]) {
      const r = spawnSync(bun, [script], { cwd: root, env, encoding: "utf8" });
      if (r.status !== 0) throw new Error(`${script} failed:\n${r.stdout}\n${r.stderr}`);
    }
    // The tests write history from the past (a campaign of 40 days ago, a year of figures): its
    // months exist, as they do on a database that has been running that long. A fresh database's
    // migration creates them from the month before now only (migration 0040; the worker keeps the
    // months ahead), so on the first days of a month a message of 40 days ago had no partition.
    // Twelve months: within every plan's retention, so the worker's job never archives them.
    const history = new pg.Client({ connectionString: databaseUrl });
    await history.connect();
    await history.query(`SELECT message_partitions_ensure(now() - interval '12 months', now())`);
    await history.end();
    const procs: Record<string, string> = {
      web: "remix/server.ts",
      api: "api/server.ts",
      worker: "api/worker.ts",
      realtime: "realtime/server.ts",
      simulator: "api/simulator/server.ts",
      smpp: "api/smpp/server.ts",
      // Our inbound SMTP listener: the local SMTP peer's DSNs and complaints come back here (ADR 036).
      "inbound-mail": "api/email/inbound-server.ts",
    };
    const procEnv: Record<string, NodeJS.ProcessEnv> = { smpp2: { ...env, SMPP_PORT: String(smppPort2) } };
    procs.smpp2 = "api/smpp/server.ts";
    for (const [name, script] of Object.entries(procs)) {
      const child = spawn(bun, [script], { cwd: root, env: procEnv[name] ?? env, stdio: ["ignore", "pipe", "pipe"] });
      const echo = (chunk: Buffer) => {
        if (process.env.TEST_SERVER_LOGS) process.stdout.write(`[${name}] ${chunk}`);
      };
      child.stdout?.on("data", echo);
      child.stderr?.on("data", (chunk: Buffer) => process.stderr.write(`[${name}] ${chunk}`));
      children.push(child);
    }
    stops.push(() => Promise.all(children.splice(0).map((c) => stopChild(c))).then(() => undefined));
    // A bound, not a pause: the processes usually answer within seconds; on a loaded machine
    // (the suite run three times side by side) the web build and six processes need longer.
    const upWithin = 180;
    await Promise.all([
      waitFor(`http://127.0.0.1:${web}/health`, upWithin),
      waitFor(`http://127.0.0.1:${api}/api/health`, upWithin),
      waitFor(`http://127.0.0.1:${realtime}/realtime/health`, upWithin),
      waitFor(`http://127.0.0.1:${simulator}/health`, upWithin),
      waitForPort(smppPort, upWithin),
      waitForPort(smppPort2, upWithin),
      waitForPort(emailInboundPort, upWithin),
    ]);

    project.provide("webUrl", `http://localhost:${web}`);
    project.provide("apiUrl", `http://127.0.0.1:${api}`);
    project.provide("realtimeUrl", `http://127.0.0.1:${realtime}`);
    project.provide("databaseUrl", databaseUrl);
    project.provide("redisUrl", redisUrl);
    project.provide("redisPrefix", redisPrefix);
    project.provide("smtpPort", smtpPort);
    project.provide("oauthUrl", `http://127.0.0.1:${oauthPort}`);
    project.provide("simulatorUrl", `http://127.0.0.1:${simulator}`);
    project.provide("simulatorSmtpPort", simulatorSmtpPort);
    project.provide("emailInboundPort", emailInboundPort);
    project.provide("simulatorDnsPort", simulatorDnsPort);
    project.provide("smppPort", smppPort);
    project.provide("smppPort2", smppPort2);
    project.provide("sessionSecret", secrets.SESSION_SECRET);
    project.provide("jwtSecret", secrets.JWT_SECRET);
    project.provide("simulatorWebhookSecret", secrets.SIMULATOR_WEBHOOK_SECRET);
    project.provide("simulatorApiKey", secrets.SIMULATOR_API_KEY);
  }
}

/** SIGTERM, then SIGKILL if the process has not exited within 10 s; resolves once it has exited. */
function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise<void>((resolveExit) => {
    const force = setTimeout(() => child.kill("SIGKILL"), 10_000);
    child.once("exit", () => {
      clearTimeout(force);
      resolveExit();
    });
    child.kill("SIGTERM");
  });
}

export async function teardown() {
  await cleanup?.();
}
