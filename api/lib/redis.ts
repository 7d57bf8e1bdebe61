import Redis from "ioredis";
import { env } from "./env";

let shared: Redis | undefined;

/** The process's shared connection (never used for blocking reads). */
export function redis(): Redis {
  if (!shared) shared = connect("shared");
  return shared;
}

/**
 * A fresh connection: blocking stream reads (XREADGROUP BLOCK) need their own. Every client of
 * every process (api, worker, realtime, smpp, simulator, web) is made here, so each gets the one
 * state listener below. `name` only labels its log lines.
 */
export function connect(name = "client"): Redis {
  const client = new Redis(env().REDIS_URL, { maxRetriesPerRequest: 3, lazyConnect: false });
  watchState(client, name);
  return client;
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

/** Every key goes through here so a test run can namespace its data. */
export function key(...parts: Array<string | number>): string {
  return env().REDIS_PREFIX + parts.join(":");
}

export async function closeRedis() {
  await shared?.quit();
  shared = undefined;
}
