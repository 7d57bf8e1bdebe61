/**
 * A real streaming replica of the run's PostgreSQL (ADR 030) on a free loopback port, for the
 * read-replica tests and the suite's replica pass: `pg_basebackup -R` of the primary into a temporary
 * directory (through its own replication slot, so no WAL it needs is recycled before it streams),
 * then that PostgreSQL's own `postgres` binary in hot standby, waited for until it accepts
 * connections, is in recovery and streams. `stop()` stops it, drops the slot and removes the
 * directory. Plain JavaScript, like ./redis-server.mjs, so a Node script or the global set-up can
 * start it as the tests do.
 *
 * PostgreSQL refuses to run as root: when the tests run as root the standby and pg_basebackup run
 * as the `postgres` OS user (the directory is theirs). The primary must allow replication: wal_level
 * replica or logical, free WAL senders and slots, a role with REPLICATION and a pg_hba.conf line for
 * replication from 127.0.0.1. What is missing is said in one sentence; the one thing fixed here is
 * that pg_hba.conf line, and only where loopback is already trusted for every database (nothing new
 * is allowed) and the file is writable.
 *
 *   const replica = await startPgReplica();             // primary: TEST_ADMIN_DATABASE_URL or postgres://postgres@127.0.0.1:5432/postgres
 *   env.DATABASE_REPLICA_URL = replica.urlFor(databaseUrl);  // same user and database, the replica's port
 *   await replica.stop();
 */
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { accessSync, appendFileSync, chownSync, constants, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { freePort } from "./ports.mjs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";

/** Slots of this harness are named `<prefix><pid>_<random>`: a slot whose process is gone is stale. */
const SLOT_PREFIX = "mensageria_test_replica_";
const DEFAULT_PRIMARY = "postgres://postgres@127.0.0.1:5432/postgres";


const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function query(url, sql, params = []) {
  const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  c.on("error", () => undefined);
  await c.connect();
  try {
    return (await c.query(sql, params)).rows;
  } finally {
    await c.end().catch(() => undefined);
  }
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return e.code === "EPERM";
  }
}

/** The server binaries of PostgreSQL `major` (pg_basebackup and postgres must match the primary). */
function binDir(major) {
  for (const dir of [`/usr/lib/postgresql/${major}/bin`, `/usr/pgsql-${major}/bin`]) if (existsSync(join(dir, "postgres"))) return dir;
  const r = spawnSync("pg_config", ["--bindir"], { encoding: "utf8" });
  const dir = r.status === 0 ? r.stdout.trim() : "";
  if (dir && existsSync(join(dir, "postgres"))) {
    const v = spawnSync(join(dir, "postgres"), ["--version"], { encoding: "utf8" }).stdout ?? "";
    if (new RegExp(`\\b${major}\\.`).test(v)) return dir;
  }
  throw new Error(
    `pg-replica: the PostgreSQL ${major} server binaries (postgres, pg_basebackup) were not found under /usr/lib/postgresql/${major}/bin: install the server package of the primary's version (apt-get install postgresql-${major}).`,
  );
}

/** Who runs the standby: this user, or `postgres` when this is root (PostgreSQL refuses root). */
function runAs() {
  if (typeof process.getuid !== "function" || process.getuid() !== 0) return null;
  try {
    const uid = Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8" }).trim());
    const gid = Number(execFileSync("id", ["-g", "postgres"], { encoding: "utf8" }).trim());
    return { uid, gid };
  } catch {
    throw new Error("pg-replica: running as root, and there is no `postgres` OS user to run the standby as (PostgreSQL refuses to run as root).");
  }
}

/** Everything the primary must allow, checked before copying anything; throws one sentence per problem. */
async function checkPrimary(primaryUrl) {
  const [s] = await query(
    primaryUrl,
    `SELECT current_setting('wal_level') AS wal_level,
            current_setting('max_wal_senders')::int AS senders,
            (SELECT count(*)::int FROM pg_stat_replication) AS senders_used,
            current_setting('max_replication_slots')::int AS slots,
            (SELECT count(*)::int FROM pg_replication_slots) AS slots_used,
            (SELECT rolreplication OR rolsuper FROM pg_roles WHERE rolname = current_user) AS may_replicate,
            current_user AS role,
            current_setting('server_version_num')::int / 10000 AS major`,
  );
  const problems = [];
  if (s.wal_level === "minimal") problems.push("wal_level is minimal: set wal_level = replica (the default) in postgresql.conf and restart PostgreSQL");
  if (s.senders - s.senders_used < 2) problems.push(`max_wal_senders is ${s.senders} with ${s.senders_used} in use: a base backup needs 2 free (raise it and restart PostgreSQL)`);
  if (s.slots - s.slots_used < 1) problems.push(`max_replication_slots is ${s.slots} with ${s.slots_used} in use: raise it and restart PostgreSQL`);
  if (!s.may_replicate) problems.push(`role ${s.role} may not replicate: ALTER ROLE ${s.role} REPLICATION`);
  if (problems.length) throw new Error(`pg-replica: the primary (${describe(primaryUrl)}) cannot feed a streaming replica: ${problems.join("; ")}.`);
  return s;
}

/** Slots left by a harness whose process died (a crashed test run): they would keep WAL forever. */
async function dropStaleSlots(primaryUrl) {
  const slots = await query(primaryUrl, `SELECT slot_name FROM pg_replication_slots WHERE slot_name LIKE $1 AND NOT active`, [`${SLOT_PREFIX}%`]);
  for (const { slot_name } of slots) {
    const pid = Number(slot_name.slice(SLOT_PREFIX.length).split("_")[0]);
    if (pid && alive(pid)) continue;
    await query(primaryUrl, `SELECT pg_drop_replication_slot($1)`, [slot_name]).catch(() => undefined);
  }
}

const describe = (url) => {
  const u = new URL(url);
  return `${u.hostname}:${u.port || 5432}`;
};

/**
 * pg_basebackup failed for want of a pg_hba.conf line: add `host replication all 127.0.0.1/32 trust`
 * when loopback is already trusted for every database and the file is ours to write; else say what to add.
 */
async function allowReplication(primaryUrl) {
  const [hba] = await query(primaryUrl, `SELECT current_setting('hba_file') AS file`);
  let loopbackTrusted = false;
  try {
    const [rule] = await query(
      primaryUrl,
      `SELECT auth_method FROM pg_hba_file_rules
        WHERE type = 'host' AND database = '{all}' AND user_name = '{all}' AND address = '127.0.0.1' AND netmask = '255.255.255.255'
        ORDER BY line_number LIMIT 1`,
    );
    loopbackTrusted = rule?.auth_method === "trust";
  } catch {}
  const line = "host replication all 127.0.0.1/32 trust";
  let writable = false;
  try {
    accessSync(hba.file, constants.W_OK);
    writable = true;
  } catch {}
  if (!loopbackTrusted || !writable) {
    throw new Error(
      `pg-replica: the primary (${describe(primaryUrl)}) refuses replication connections from 127.0.0.1: add a line such as "host replication <user> 127.0.0.1/32 <method>" to ${hba.file} and reload it (SELECT pg_reload_conf()).`,
    );
  }
  appendFileSync(
    hba.file,
    `\n# Added by tests/support/pg-replica.mjs (streaming replicas for the read-replica tests): loopback is trusted above for every database already.\n${line}\n`,
  );
  await query(primaryUrl, `SELECT pg_reload_conf()`);
  process.stderr.write(`pg-replica: added "${line}" to ${hba.file} and reloaded PostgreSQL (loopback was already trusted for every database).\n`);
}

export class PgReplica {
  /** @type {import("node:child_process").ChildProcess | undefined} */
  #child;
  #exitHook = () => this.killNow();

  constructor(o) {
    this.primaryUrl = o.primaryUrl;
    this.port = o.port;
    this.dir = o.dir;
    this.dataDir = join(o.dir, "data");
    this.slot = o.slot;
    this.bin = o.bin;
    this.owner = o.owner;
    this.settings = o.settings;
  }

  /** The replica's URL for `database` (default: the primary URL's database), with the primary URL's user. */
  url(database) {
    const u = new URL(this.primaryUrl);
    u.hostname = "127.0.0.1";
    u.port = String(this.port);
    if (database) u.pathname = `/${database}`;
    return u.toString();
  }

  /** The replica's URL for the same database and user as `databaseUrl` (a database on the primary). */
  urlFor(databaseUrl) {
    const u = new URL(databaseUrl);
    u.hostname = "127.0.0.1";
    u.port = String(this.port);
    return u.toString();
  }

  /** A statement on the replica (database `postgres` unless named). */
  query(sql, params = [], database = "postgres") {
    return query(this.url(database), sql, params);
  }

  /** Replay stops (WAL still arrives): the replica falls behind as the primary writes. */
  async pauseReplay() {
    await this.query("SELECT pg_wal_replay_pause()");
  }

  async resumeReplay() {
    await this.query("SELECT pg_wal_replay_resume()");
  }

  /** Waits until the replica has replayed everything the primary had written when called. */
  async caughtUp(seconds = 30) {
    const [{ lsn }] = await query(this.primaryUrl, "SELECT pg_current_wal_lsn()::text AS lsn");
    const until = Date.now() + seconds * 1000;
    for (;;) {
      const [r] = await this.query("SELECT pg_last_wal_replay_lsn() >= $1::pg_lsn AS done", [lsn]);
      if (r.done) return;
      if (Date.now() > until) throw new Error(`pg-replica on ${this.port} has not replayed ${lsn} in ${seconds} s`);
      await sleep(50);
    }
  }

  static async start(opts = {}) {
    const primaryUrl = opts.primaryUrl ?? process.env.TEST_ADMIN_DATABASE_URL ?? DEFAULT_PRIMARY;
    const s = await checkPrimary(primaryUrl);
    const bin = binDir(s.major);
    await dropStaleSlots(primaryUrl);
    // Settings a hot standby must have at least as high as its primary (else it refuses to start).
    const [settings] = await query(
      primaryUrl,
      `SELECT current_setting('max_connections') AS max_connections, current_setting('max_worker_processes') AS max_worker_processes,
              current_setting('max_wal_senders') AS max_wal_senders, current_setting('max_prepared_transactions') AS max_prepared_transactions,
              current_setting('max_locks_per_transaction') AS max_locks_per_transaction`,
    );
    const owner = runAs();
    const dir = mkdtempSync(join(tmpdir(), "pg-replica-"));
    if (owner) chownSync(dir, owner.uid, owner.gid);
    const replica = new PgReplica({
      primaryUrl,
      port: await freePort(),
      dir,
      slot: `${SLOT_PREFIX}${process.pid}_${Math.random().toString(36).slice(2, 8)}`,
      bin,
      owner,
      settings,
    });
    process.once("exit", replica.#exitHook);
    try {
      await replica.#backup();
      await replica.#run();
      return replica;
    } catch (e) {
      await replica.stop().catch(() => undefined);
      throw e;
    }
  }

  #as() {
    return this.owner ? { uid: this.owner.uid, gid: this.owner.gid } : {};
  }

  async #backup() {
    const args = ["-d", this.primaryUrl, "-D", this.dataDir, "-X", "stream", "-R", "-C", "-S", this.slot, "--checkpoint=fast", "--no-sync"];
    // HOME: libpq looks for ~/.pgpass there, and root's is not the postgres user's to read.
    const env = { ...process.env, HOME: this.dir };
    for (let attempt = 1; ; attempt++) {
      const r = spawnSync(join(this.bin, "pg_basebackup"), args, { encoding: "utf8", env, cwd: this.dir, ...this.#as() });
      if (r.status === 0) return;
      const why = `${r.stderr ?? ""}${r.error ? String(r.error) : ""}`.trim();
      rmSync(this.dataDir, { recursive: true, force: true });
      // The slot is created before the copy; a failed copy may leave it behind.
      await query(this.primaryUrl, "SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots WHERE slot_name = $1 AND NOT active", [this.slot]).catch(
        () => undefined,
      );
      if (attempt === 1 && /no pg_hba\.conf entry for replication connection/.test(why)) {
        await allowReplication(this.primaryUrl);
        continue;
      }
      // A reload takes effect in the postmaster a moment later.
      if (attempt < 5 && /no pg_hba\.conf entry for replication connection/.test(why)) {
        await sleep(200 * attempt);
        continue;
      }
      throw new Error(`pg-replica: pg_basebackup of ${describe(this.primaryUrl)} failed: ${why}`);
    }
  }

  async #run() {
    const conf = join(this.dir, "replica.conf");
    const hba = join(this.dir, "replica_hba.conf");
    const ident = join(this.dir, "replica_ident.conf");
    const s = this.settings;
    writeFileSync(
      conf,
      [
        `port = ${this.port}`,
        "listen_addresses = '127.0.0.1'",
        `unix_socket_directories = '${this.dir}'`,
        "hot_standby = on",
        "ssl = off",
        "fsync = off",
        "shared_buffers = '32MB'",
        "logging_collector = off",
        `hba_file = '${hba}'`,
        `ident_file = '${ident}'`,
        `max_connections = ${s.max_connections}`,
        `max_worker_processes = ${s.max_worker_processes}`,
        `max_wal_senders = ${s.max_wal_senders}`,
        `max_prepared_transactions = ${s.max_prepared_transactions}`,
        `max_locks_per_transaction = ${s.max_locks_per_transaction}`,
        "",
      ].join("\n"),
    );
    writeFileSync(hba, "local all all trust\nhost all all 127.0.0.1/32 trust\n");
    writeFileSync(ident, "");
    if (this.owner) for (const f of [conf, hba, ident]) chownSync(f, this.owner.uid, this.owner.gid);
    mkdirSync(join(this.dir, "log"), { recursive: true });
    const log = openSync(join(this.dir, "log", "postgres.log"), "a");
    this.#child = spawn(join(this.bin, "postgres"), ["-D", this.dataDir, "-c", `config_file=${conf}`], {
      stdio: ["ignore", log, log],
      env: { ...process.env, HOME: this.dir },
      ...this.#as(),
    });
    const until = Date.now() + 60_000;
    for (;;) {
      if (this.#child.exitCode !== null || this.#child.signalCode !== null) throw new Error(`pg-replica: the standby exited at start:\n${this.logTail()}`);
      try {
        const [r] = await this.query("SELECT pg_is_in_recovery() AS standby, (SELECT status FROM pg_stat_wal_receiver) AS receiver");
        if (!r.standby) throw new Error("pg-replica: the copy started as a primary, not a standby (no standby.signal?)");
        if (r.receiver === "streaming") return;
      } catch (e) {
        if (String(e.message).startsWith("pg-replica:")) throw e;
      }
      if (Date.now() > until) throw new Error(`pg-replica: the standby on ${this.port} did not stream within 60 s:\n${this.logTail()}`);
      await sleep(100);
    }
  }

  /** The last lines of the standby's log (for errors). */
  logTail(lines = 30) {
    try {
      return readFileSync(join(this.dir, "log", "postgres.log"), "utf8").split("\n").slice(-lines).join("\n");
    } catch {
      return "(no log)";
    }
  }

  /** True while the standby process runs. */
  get running() {
    const c = this.#child;
    return Boolean(c && c.exitCode === null && c.signalCode === null);
  }

  /** Fast shutdown (SIGINT), then the slot is dropped and the directory removed. Safe to call twice. */
  async stop() {
    const c = this.#child;
    if (c && c.exitCode === null && c.signalCode === null) {
      await new Promise((resolve) => {
        const force = setTimeout(() => c.kill("SIGKILL"), 10_000);
        c.once("exit", () => {
          clearTimeout(force);
          resolve(undefined);
        });
        c.kill("SIGINT");
      });
    }
    // The primary's WAL sender ends a moment after the standby: drop the slot once it is inactive.
    const until = Date.now() + 10_000;
    for (;;) {
      const [r] = await query(this.primaryUrl, "SELECT active FROM pg_replication_slots WHERE slot_name = $1", [this.slot]).catch(() => [{ active: false }]);
      if (!r) break;
      if (!r.active) {
        await query(this.primaryUrl, "SELECT pg_drop_replication_slot($1)", [this.slot]).catch(() => undefined);
        break;
      }
      if (Date.now() > until) break;
      await sleep(100);
    }
    rmSync(this.dir, { recursive: true, force: true });
    process.removeListener("exit", this.#exitHook);
  }

  /** SIGKILL and remove the directory without waiting (exit hooks cannot wait; the slot is dropped by the next start). */
  killNow() {
    this.#child?.kill("SIGKILL");
    try {
      rmSync(this.dir, { recursive: true, force: true });
    } catch {}
  }
}

/**
 * For the global set-up: a running replica of `primaryUrl` (default TEST_ADMIN_DATABASE_URL, else
 * postgres://postgres@127.0.0.1:5432/postgres). `replica.urlFor(databaseUrl)` is the
 * DATABASE_REPLICA_URL for a database of that primary; `replica.stop()` in the teardown.
 */
export function startPgReplica(opts = {}) {
  return PgReplica.start(opts);
}
