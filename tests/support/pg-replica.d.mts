/** Types of ./pg-replica.mjs (plain JavaScript, so a Node script or the global set-up can start it too). */
export type PgReplicaOptions = {
  /** The primary, as a superuser or a REPLICATION role (default TEST_ADMIN_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/postgres). */
  primaryUrl?: string;
};

export declare class PgReplica {
  readonly primaryUrl: string;
  readonly port: number;
  readonly dir: string;
  readonly dataDir: string;
  readonly slot: string;
  /** The replica's URL for `database` (default: the primary URL's database). */
  url(database?: string): string;
  /** The replica's URL for the same database and user as `databaseUrl` (a database on the primary). */
  urlFor(databaseUrl: string): string;
  /** A statement on the replica (database `postgres` unless named). */
  query<T = Record<string, unknown>>(sql: string, params?: unknown[], database?: string): Promise<T[]>;
  pauseReplay(): Promise<void>;
  resumeReplay(): Promise<void>;
  /** Waits until the replica has replayed everything the primary had written when called. */
  caughtUp(seconds?: number): Promise<void>;
  logTail(lines?: number): string;
  readonly running: boolean;
  static start(opts?: PgReplicaOptions): Promise<PgReplica>;
  /** Fast shutdown, then the slot is dropped and the directory removed. */
  stop(): Promise<void>;
  killNow(): void;
}

/** For the global set-up: a running replica; `urlFor(databaseUrl)` is DATABASE_REPLICA_URL; `stop()` in the teardown. */
export declare function startPgReplica(opts?: PgReplicaOptions): Promise<PgReplica>;
