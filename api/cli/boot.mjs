#!/usr/bin/env node
/**
 * `npm start` and `npm test` land here. Plain Node (the only prerequisite): it makes sure
 * PostgreSQL and Redis are there, prepares the database, builds the web app, then either runs
 * the Procfile processes with prefixed logs, restarting any that crashes (start, ./supervisor.mjs),
 * or the whole test suite (test).
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { ensureServices, ensureDatabase, has } from "./services.mjs";
import { buildWeb } from "./web-build.mjs";
import { parseProcfile, supervise } from "./supervisor.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const bin = (name) => join(root, "node_modules", ".bin", name);
const mode = process.argv[2] ?? "start";

function run(cmd, args, env) {
  const r = spawnSync(cmd, args, { cwd: root, stdio: "inherit", env: { ...process.env, ...env } });
  if (r.status !== 0) {
    console.error(`\n${[cmd.split("/").pop(), ...args].join(" ")} failed (exit ${r.status ?? r.signal}).`);
    process.exit(r.status ?? 1);
  }
}

/** The widget and the web app, when their sources changed (./web-build.mjs); a failed build stops here. */
function build() {
  try {
    buildWeb();
  } catch (e) {
    console.error(`\n${e.message}.`);
    process.exit(e.exitCode ?? 1);
  }
}

/** The Procfile's processes, supervised (a crashed one restarts with back-off; Ctrl-C stops all). */
function runAll(env) {
  const procs = parseProcfile(readFileSync(join(root, "Procfile"), "utf8"));
  supervise(procs, { cwd: root, env: { ...process.env, ...env }, resolve: (cmd) => (cmd === "bun" ? bin("bun") : cmd) });
}

/** Integration files left off the Redis Cluster pass: every Redis command family they use, another file on the pass uses too (ADR 040). */
const CLUSTER_COVERED = [
  "admin-audit", "admin-catalogue", "admin-customers-crud", "agent-charges", "api-tenancy", "billing-cycles", "campaigns-all-web",
  "catalog", "contacts", "contacts-web", "customer-products", "dev-mailbox-registrant", "email-report-screens", "email-reports",
  "email-templates", "entry-points-web", "flows-web", "live-channels-web", "live-reports", "live-web", "live-widget-report",
  "locales", "lookup-web", "message-settings", "oauth", "onboarding", "pipelines-boards", "pipelines-links", "pipelines-web",
  "plan-change", "platform", "policy", "provider-costs", "providers-admin", "query-params", "rcs-agents-web", "rcs-campaigns-web",
  "rcs-reports", "rcs-reports-web", "rcs-web", "reclame-aqui", "security-public", "shortener-web", "smpp-web", "sms-history",
  "sms-history-web", "sms-reports", "sms-send-web", "sql", "staff-adjustments", "support-tickets", "trial", "usage",
  "web-accounts", "web-settings", "webhooks-web", "whatsapp-admin-reports", "whatsapp-history",
];

const services = await ensureServices();
if (mode === "start") {
  const databaseUrl = await ensureDatabase(services.databaseUrl, "mensageria");
  const env = { DATABASE_URL: databaseUrl, REDIS_URL: services.redisUrl };
  run(bin("bun"), ["models/migrate.ts", "up"], env);
  run(bin("bun"), ["seeds/run.ts"], env);
  build();
  console.log(`\nOpen http://localhost:${process.env.WEB_PORT ?? 3000} and sign in with one of the demo logins above.\n`);
  runAll({ ...env, NODE_ENV: process.env.NODE_ENV ?? "development" });
} else if (mode === "test") {
  build();
  const args = process.argv.slice(3);
  const env = { TEST_ADMIN_DATABASE_URL: services.databaseUrl, REDIS_URL: services.redisUrl };
  const whole = args.length === 0;
  // The Redis failover test (a 20,000-message dispatch on a cluster of its own) and the two-of-each
  // chaos run (ten processes under kills) and the 10,000-address e-mail campaign each load both
  // cores for a minute or more: in a whole run they go after the rest, one after the other, so
  // they slow no other test and not each other.
  // The SMPP server's file too: with four files at once its binds and receipts timed out on CI
  // (ADR 040); alone it takes half a minute. On the cluster pass it runs alone as well, after the rest.
  const SMPP_SERVER = "tests/integration/smpp-server.test.ts";
  // The ledger's proof sends 10,000 messages as fast as the API takes them (issue 18): alone too.
  // So do the two campaign dispatch proofs (20,000 messages with a worker killed and Redis
  // restarted; a campaign to every outcome): beside three other files they took 587 s and 234 s of
  // a CI run (16 s alone for the second) and loaded both cores while browser tests timed out.
  const ALONE = [
    "tests/integration/redis-failover.test.ts",
    "tests/integration/chaos-instances.test.ts",
    "tests/integration/email-campaign-10k.test.ts",
    "tests/integration/ledger.test.ts",
    "tests/integration/dispatch-faults.test.ts",
    "tests/integration/dispatch-campaign.test.ts",
    // Two timing proofs: a route's rate within 5 % (a starved worker's timers fire together and its
    // submits bunch: 52–59 in 2 s against 48 in three CI runs), and a silent endpoint not delaying others.
    "tests/integration/dispatch-rate.test.ts",
    "tests/integration/webhooks-faults.test.ts",
    // The flow runtime's crash proof: 1,000 conversations, a worker child SIGKILLed mid-way, two more side by side.
    "tests/integration/flows-crash.test.ts",
    SMPP_SERVER,
  ];
  if (whole) {
    // The browser files on their own, two at once (ADR 040): each drives a Chromium against the
    // one stack, and beside three other files on two cores their pages took 7× longer than alone
    // and five of them hit their timeouts in one CI run. The rest goes four at once first.
    const BROWSER = "tests/e2e";
    run(bin("vitest"), ["run", "--config", "tests/vitest.config.ts", ...[...ALONE, `${BROWSER}/**`].flatMap((f) => ["--exclude", f])], env);
    run(bin("vitest"), ["run", "--config", "tests/vitest.config.ts", BROWSER], { ...env, TEST_WORKERS: process.env.TEST_BROWSER_WORKERS ?? "2" });
  } else run(bin("vitest"), ["run", "--config", "tests/vitest.config.ts", ...args], env);
  if (whole) {
    run(bin("vitest"), ["run", "--config", "tests/vitest.config.ts", "--no-file-parallelism", ...ALONE.filter((f) => f !== SMPP_SERVER)], env);
    // The SMPP server's file on a stack of its own: after the 10,000- and 20,000-message proofs the
    // shared worker may still be draining their receipts, and its receipt-timing test waited 60 s
    // once in a CI rehearsal (35 s for the whole file on a fresh stack).
    run(bin("vitest"), ["run", "--config", "tests/vitest.config.ts", SMPP_SERVER], env);
  }
  // The whole suite runs a second time on a local Redis Cluster (3 masters, 3 replicas; ADR 028):
  // the integration tests, where every Redis command of every process is exercised. Only for the
  // whole suite (`npm test` without arguments); TEST_REDIS_CLUSTER=1 runs a chosen file on one.
  if (whole && process.env.TEST_REDIS_CLUSTER !== "0") {
    if (has("redis-server")) {
      console.log("\nSecond pass: the integration tests on a Redis Cluster (TEST_REDIS_CLUSTER=0 skips it).\n");
      // Not again: redis-failover (ran above, on a cluster of its own), the fault tests and the chaos
      // run that start a single redis-server of their own (the cluster would not be what they
      // test), boot and the PostgreSQL replica (no Redis of the run); and the files whose subject
      // is the web layer, the API document or PostgreSQL alone (ADR 040): their only Redis is the
      // sign-in every other file does too, so on the cluster they would test nothing new.
      const notAgain = [
        // The campaign dispatch and rate proofs run on the cluster too (their streams and buckets are the point there).
        // (dispatch-rate on the cluster runs alone below: its 20 msg/s measure fell to 16.7 beside another file once.)
        ...ALONE.filter((f) => f !== "tests/integration/dispatch-campaign.test.ts"),
        "tests/integration/dispatch-faults.test.ts",
        "tests/integration/webhooks-faults.test.ts",
        "tests/integration/redis-logs.test.ts",
        "tests/integration/boot-supervisor.test.ts",
        "tests/integration/read-replica.test.ts",
        // ADR 040: web layer, document, PostgreSQL only.
        "tests/integration/roles-walk.test.ts",
        "tests/integration/openapi.test.ts",
        "tests/integration/web-security.test.ts",
        "tests/integration/dev-secrets.test.ts",
        "tests/integration/outbound-guard.test.ts",
        "tests/integration/partitions.test.ts",
        "tests/integration/import-web.test.ts",
        "tests/integration/compression.test.ts",
        "tests/integration/page-namespaces.test.ts",
        "tests/integration/page-weight.test.ts",
        "tests/integration/sidebar.test.ts",
        // Screens, reports and PostgreSQL-only subjects whose Redis commands, measured one file at a
        // time (.ci/redis-families.mjs; ADR 040, amendment of 2026-12-01), are all made by files that
        // stay on the pass: sign-in, sessions, the sends' buckets and streams, revocations (revocation,
        // web-users), the exports job (whatsapp-reports), the simulator's PSP (billing-topup),
        // presence and realtime streams (live-presence, live-realtime, web-notifications, pipelines-moves),
        // the short-link cache and clicks (shortener), look-ups (lookup), the rate limits (auth-limits,
        // web-auth, api-auth), the SMPP bind limit (smpp-server, alone below).
        ...CLUSTER_COVERED.map((f) => `tests/integration/${f}.test.ts`),
      ].flatMap((f) => ["--exclude", f]);
      // Four files at once, as in the first pass (ADR 040, amendment of 2026-12-01): it was two while
      // the SMPP server's file timed out here at four; that file runs alone below, and the fault
      // behind it (a session unbound while binding, api/smpp/bound.ts) is fixed.
      run(bin("vitest"), ["run", "--config", "tests/vitest.config.ts", "tests/integration", ...notAgain], { ...env, TEST_REDIS_CLUSTER: "1" });
      // The SMPP server's file alone on the cluster too: even at two files at once one of its submits
      // went unanswered there in two CI runs (the suspended-account test hung 60 s; ADR 040).
      // The route-rate proof too: it measures the simulator's arrival times, which a second file's load skews.
      run(bin("vitest"), ["run", "--config", "tests/vitest.config.ts", "--no-file-parallelism", SMPP_SERVER, "tests/integration/dispatch-rate.test.ts"], { ...env, TEST_REDIS_CLUSTER: "1" });
    } else if (process.env.CI) {
      console.error("\nThe Redis Cluster pass needs redis-server on the PATH (apt-get install -y redis-server).");
      process.exit(1);
    } else console.warn("\nSkipped the Redis Cluster pass: no redis-server on the PATH (apt-get install -y redis-server).");
  }
} else {
  console.error(`Unknown mode "${mode}": use start or test.`);
  process.exit(2);
}
