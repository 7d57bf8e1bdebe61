/**
 * The lag-tolerant reader (ADR 030): the one place that decides whether a read that may be a few
 * seconds old (SMS history, reports, insights, dashboards, live reports and history, the export's
 * COPY) runs on the streaming read replica of DATABASE_REPLICA_URL or on the primary.
 *
 * Each process measures its replica on its own, every REPLICA_CHECK_MS (nothing shared between
 * processes): it reads the primary's current WAL position, then asks the replica until it has
 * replayed that position. The time that takes is the lag. Measured this way an idle primary has no
 * lag (its position does not move, the replica has it already), unlike `now() -
 * pg_last_xact_replay_timestamp()`, which grows without end when nothing is written. A replica that
 * does not answer, is not in recovery, is a replica of another server, or has not caught up within
 * REPLICA_MAX_LAG_MS sends the reads to the primary, logged once; its return is logged once too.
 *
 * Reads that must see the caller's own writes (the message just sent, GET of one message, lists
 * the person has just added to) and everything in a transaction stay on `sequelize()`.
 */
import pg from "pg";
import { QueryTypes, Sequelize } from "sequelize";
import { sequelize } from "../../models/db";
import { every, type Every } from "../jobs/every";
import { env } from "./env";
import { measureLag, parseLsn } from "./replica-lag";

/** The replica pool's application_name (pg_stat_activity on the replica shows who reads there). */
export const REPLICA_APPLICATION_NAME = "mensageria-replica-reader";
/** The measuring connection's own name: a busy reader pool never delays a check, nor shows as one. */
export const REPLICA_CHECK_APPLICATION_NAME = "mensageria-replica-check";
/** How long a connection to the replica, or a check's statement, may take before it counts as not answering. */
const CONNECT_TIMEOUT_MS = 3000;
/** How often a check asks the replica again while it catches up. */
const POLL_MS = 50;

/** Where lag-tolerant reads go now; null before the first check. */
export type ReaderState = { on: "replica"; lagMs: number } | { on: "primary"; reason: string };

let pool: Sequelize | undefined;
let checkClient: pg.Client | undefined;
let state: ReaderState | null = null;
let checker: Every | undefined;
let firstCheck: Promise<void> | undefined;
let primaryIdentity: Promise<{ system: string; database: string }> | undefined;

/** host:port/database of a URL, never its credentials (log lines). */
export function describeDatabaseUrl(url: string) {
  const u = new URL(url);
  return `${u.hostname}:${u.port || "5432"}${u.pathname}`;
}

function replicaPool(url: string): Sequelize {
  pool ??= new Sequelize(url, {
    dialect: "postgres",
    dialectModule: pg,
    logging: false,
    timezone: "+00:00",
    pool: { max: 10, min: 0, idle: 10_000 },
    dialectOptions: { application_name: REPLICA_APPLICATION_NAME, connectionTimeoutMillis: CONNECT_TIMEOUT_MS },
    define: { underscored: true, timestamps: true },
  });
  return pool;
}

function setState(next: ReaderState, url: string) {
  const before = state;
  state = next;
  const where = `read replica ${describeDatabaseUrl(url)}`;
  if (next.on === "replica" && before?.on !== "replica") {
    console.log(`${where} ${before ? "is back" : "answers"} (lag ${next.lagMs} ms): lag-tolerant reads go to it`);
  } else if (next.on === "primary" && before?.on !== "primary") {
    console.warn(`${where} ${next.reason}: lag-tolerant reads go to the primary until it answers within REPLICA_MAX_LAG_MS`);
  }
}

type ReplicaStatus = { standby: boolean; replayed: string | null; system: string; database: string };

/** The replica as the check sees it, on one connection of its own (opened again after any failure). */
async function replicaStatus(url: string): Promise<ReplicaStatus> {
  try {
    if (!checkClient) {
      const client = new pg.Client({
        connectionString: url,
        application_name: REPLICA_CHECK_APPLICATION_NAME,
        connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
        query_timeout: CONNECT_TIMEOUT_MS,
      });
      client.on("error", () => undefined); // a dropped connection fails the next query, which resets it
      checkClient = client;
      await client.connect();
    }
    const { rows } = await checkClient.query<ReplicaStatus>(
      `SELECT pg_is_in_recovery() AS standby, pg_last_wal_replay_lsn()::text AS replayed,
              (pg_control_system()).system_identifier::text AS system, current_database() AS database`,
    );
    return rows[0];
  } catch (e) {
    const client = checkClient;
    checkClient = undefined;
    await client?.end().catch(() => undefined);
    throw e;
  }
}

/** One measurement: where the reads go until the next one. */
async function check(url: string): Promise<void> {
  const bound = env().REPLICA_MAX_LAG_MS;
  let target: bigint;
  let since: number;
  let primary: { system: string; database: string };
  try {
    primaryIdentity ??= sequelize()
      .query<{ system: string; database: string }>(`SELECT (pg_control_system()).system_identifier::text AS system, current_database() AS database`, {
        type: QueryTypes.SELECT,
      })
      .then(([r]) => r);
    primary = await primaryIdentity;
    since = Date.now();
    const [p] = await sequelize().query<{ lsn: string }>(`SELECT pg_current_wal_lsn()::text AS lsn`, { type: QueryTypes.SELECT });
    target = parseLsn(p.lsn);
  } catch {
    primaryIdentity = undefined;
    return; // the primary does not answer: nothing to compare with, and every read fails anyway
  }
  try {
    const first = await replicaStatus(url);
    if (first.system !== primary.system) {
      return setState({ on: "primary", reason: `is not a replica of DATABASE_URL's server (system identifier ${first.system}, primary ${primary.system})` }, url);
    }
    if (first.database !== primary.database) return setState({ on: "primary", reason: `is database ${first.database}, not ${primary.database}` }, url);
    if (!first.standby || first.replayed === null) return setState({ on: "primary", reason: "is not in recovery (a promoted or stand-alone server, not a replica)" }, url);
    let replayed: bigint | null = parseLsn(first.replayed);
    const lag = await measureLag({
      target,
      since,
      boundMs: bound,
      pollMs: POLL_MS,
      replayed: async () => {
        if (replayed !== null) {
          const r = replayed;
          replayed = null;
          return r;
        }
        const s = await replicaStatus(url);
        return s.replayed === null ? -1n : parseLsn(s.replayed);
      },
    });
    if (lag.caughtUp) setState({ on: "replica", lagMs: lag.lagMs }, url);
    else setState({ on: "primary", reason: `lags more than REPLICA_MAX_LAG_MS=${bound} ms (has not replayed the primary's ${lsnText(target)} after ${lag.lagMs} ms)` }, url);
  } catch (e) {
    setState({ on: "primary", reason: `does not answer (${errorText(e)})` }, url);
  }
}

const lsnText = (lsn: bigint) => `${(lsn >> 32n).toString(16).toUpperCase()}/${(lsn & 0xffffffffn).toString(16).toUpperCase()}`;

function errorText(e: unknown): string {
  const err = e as { message?: string; parent?: { message?: string }; original?: { message?: string } };
  return (err?.original?.message || err?.parent?.message || err?.message || String(e)).split("\n")[0];
}

/** Starts this process's checks (once) and waits for the first. Without DATABASE_REPLICA_URL, nothing. */
export function watchReadReplica(): Promise<void> {
  const url = env().DATABASE_REPLICA_URL;
  if (!url) return Promise.resolve();
  if (!checker) {
    checker = every("read replica check", env().REPLICA_CHECK_MS, () => check(url));
    firstCheck = checker.kick();
  }
  return firstCheck!;
}

/** Where lag-tolerant reads go now (null: no replica configured, or not checked yet). */
export function readerState(): ReaderState | null {
  return state;
}

/**
 * The connection for a read that tolerates lag: the replica's pool while it is healthy, else the
 * primary's `sequelize()`. Never use it inside a transaction or for a read-your-own-write screen.
 * A process's first call starts the checks and does not wait for them: until the first check has
 * answered (api and worker start it at boot), reads go to the primary.
 */
export function readReplica(): Sequelize {
  const url = env().DATABASE_REPLICA_URL;
  if (!url) return sequelize();
  void watchReadReplica();
  return state?.on === "replica" ? replicaPool(url) : sequelize();
}

/** The same choice as a connection string, for raw pg clients (the export's COPY stream). */
export function readerUrl(): string {
  const url = env().DATABASE_REPLICA_URL;
  if (!url) return env().DATABASE_URL;
  void watchReadReplica();
  return state?.on === "replica" ? url : env().DATABASE_URL;
}

/** SQLSTATEs after which a read is simply run again on the primary. */
const LOST = /^(08|57P0[123])/; // connection exceptions; admin/crash shutdown, cannot connect now
const CONFLICT = "40001"; // "canceling statement due to conflict with recovery" on a standby

/**
 * Runs a lag-tolerant read: on the replica when healthy; if the replica fails under it (went away
 * between two checks, or cancelled the statement for a conflict with recovery), once more on the
 * primary — a read can always be repeated. A lost replica is marked down at once (logged once).
 */
export async function onReader<T>(read: (db: Sequelize) => Promise<T>): Promise<T> {
  const db = readReplica();
  const primary = sequelize();
  if (db === primary) return read(db);
  try {
    return await read(db);
  } catch (e) {
    const code = (e as { original?: { code?: string }; parent?: { code?: string } }).original?.code ?? (e as { parent?: { code?: string } }).parent?.code;
    const name = (e as { name?: string }).name ?? "";
    const lost =
      name.startsWith("SequelizeConnection") ||
      name === "SequelizeHostNotFoundError" ||
      (code !== undefined && LOST.test(code)) ||
      /Connection terminated|ECONNRESET|ECONNREFUSED/.test(errorText(e));
    if (lost) setState({ on: "primary", reason: `does not answer (${errorText(e)})` }, env().DATABASE_REPLICA_URL!);
    else if (code !== CONFLICT) throw e;
    return read(primary);
  }
}

/** Stops the checks and closes the replica pool (scripts and tests that end their process). */
export async function closeReadReplica() {
  await checker?.stop();
  checker = undefined;
  firstCheck = undefined;
  state = null;
  primaryIdentity = undefined;
  await checkClient?.end().catch(() => undefined);
  checkClient = undefined;
  await pool?.close();
  pool = undefined;
}
