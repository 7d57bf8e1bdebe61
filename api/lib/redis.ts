/**
 * Every Redis client of every process (api, worker, realtime, smpp, simulator, web) is made here.
 * REDIS_URL is either one server (`redis://host:6379/0`, the default for `npm start`) or a Redis
 * Cluster: a comma-separated list of seed nodes (`redis://10.0.0.1:6379,redis://10.0.0.2:6379`),
 * or one seed written `redis+cluster://host:port`. A cluster is reached with ioredis' Cluster
 * client; the command API is the same, so the rest of the code sees one `Redis` type.
 *
 * Keys are built only by api/lib/redis-keys.ts (the key scheme, ADR 028): every key carries a hash
 * tag, so the keys of one multi-key command, MULTI, script or pipeline share a slot.
 */
import Redis, { Cluster } from "ioredis";
import { env } from "./env";
import { parseRedisUrl } from "./redis-url";

export { parseRedisUrl } from "./redis-url";

let shared: Redis | undefined;

/** The process's shared connection (never used for blocking reads). */
export function redis(): Redis {
  if (!shared) shared = connect("shared");
  return shared;
}

/** Is this process talking to a Redis Cluster? (Then multi-key commands must stay in one slot.) */
export const isCluster = () => parseRedisUrl(env().REDIS_URL).cluster;

/**
 * A fresh connection: blocking stream reads (XREADGROUP BLOCK) and subscribers need their own.
 * Each gets the one state listener below; `name` only labels its log lines. `autoPipeline`: the
 * commands issued in one tick of the event loop go out as one write (ioredis' auto-pipelining):
 * for a hot path many requests use at once (the short links' redirect); never with blocking reads.
 */
export function connect(name = "client", opts: { autoPipeline?: boolean } = {}): Redis {
  const target = parseRedisUrl(env().REDIS_URL);
  const enableAutoPipelining = opts.autoPipeline ?? false;
  const client = target.cluster
    ? (new Cluster(target.seeds, {
        enableAutoPipelining,
        redisOptions: { maxRetriesPerRequest: 3, password: target.password, username: target.username },
        // A failover or a resharding answers MOVED / TRYAGAIN / CLUSTERDOWN for a moment: wait and retry.
        retryDelayOnFailover: 200,
        retryDelayOnClusterDown: 300,
        retryDelayOnTryAgain: 200,
        slotsRefreshTimeout: 2000,
      }) as unknown as Redis)
    : new Redis(target.url, { maxRetriesPerRequest: 3, lazyConnect: false, enableAutoPipelining });
  watchState(client, name);
  return client;
}

const CRC16 = (() => {
  const table = new Uint16Array(256);
  for (let i = 0; i < 256; i++) {
    let c = i << 8;
    for (let j = 0; j < 8; j++) c = c & 0x8000 ? ((c << 1) ^ 0x1021) & 0xffff : (c << 1) & 0xffff;
    table[i] = c;
  }
  return table;
})();

/**
 * The slot (0-16383) a key lives in on a cluster, as Redis computes it: CRC16-XMODEM of the hash
 * tag (the text between the first "{" and the next "}", when not empty), else of the whole key.
 */
export function slotOf(key: string): number {
  const bytes = Buffer.from(key, "utf8");
  let start = 0;
  let end = bytes.length;
  const open = bytes.indexOf(0x7b);
  if (open >= 0) {
    const close = bytes.indexOf(0x7d, open + 1);
    if (close > open + 1) {
      start = open + 1;
      end = close;
    }
  }
  let crc = 0;
  for (let i = start; i < end; i++) crc = ((crc << 8) & 0xffff) ^ CRC16[((crc >> 8) ^ bytes[i]) & 0xff];
  return crc & 16383;
}

/**
 * Runs `fn` once per slot with the keys of that slot (in their order): a command over many keys
 * (DEL of a person's sessions, a pipeline of XADDs to several streams) must not cross slots on
 * a cluster. On one server every key is one group.
 */
export async function perSlot<T>(keys: readonly string[], fn: (keys: string[]) => Promise<T>): Promise<T[]> {
  if (keys.length === 0) return [];
  if (!isCluster()) return [await fn([...keys])];
  const groups = new Map<number, string[]>();
  for (const k of keys) {
    const slot = slotOf(k);
    const g = groups.get(slot);
    if (g) g.push(k);
    else groups.set(slot, [k]);
  }
  return Promise.all([...groups.values()].map(fn));
}

/** A client whose link flaps logs its "lost" line at most once in this many ms; the flaps left out are counted in the next one. */
export const STATE_LOG_INTERVAL_MS = 10_000;

/**
 * One 'error' listener per client (without one, ioredis prints a stack per failed retry: a Redis
 * outage flooded the logs) that logs one line per state change: lost (with the first error's
 * cause) and back. Rate limit: a "lost" line at most once per STATE_LOG_INTERVAL_MS, and a "back"
 * line only after a logged "lost" line, so a flapping link writes at most two lines per interval.
 */
export function watchState(client: Redis, name: string, log: (line: string) => void = (l) => console.warn(l)) {
  let down = false;
  let logged = false;
  let errors = 0;
  let lastLost = -Infinity;
  let flaps = 0;
  client.on("error", (e: Error & { code?: string }) => {
    errors++;
    if (down) return;
    down = true;
    logged = Date.now() - lastLost >= STATE_LOG_INTERVAL_MS;
    if (!logged) return void flaps++;
    lastLost = Date.now();
    log(`redis ${name}: connection lost (${e.code ?? e.message}); retrying quietly${flaps ? ` (${flaps} earlier loss(es) not logged)` : ""}`);
    flaps = 0;
  });
  client.on("ready", () => {
    if (!down) return;
    down = false;
    if (logged) log(`redis ${name}: connected again after ${errors} error(s)`);
    errors = 0;
  });
}

export async function closeRedis() {
  await shared?.quit();
  shared = undefined;
}
