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

/** At most one line per client in this many ms (a flapping link); the lines left out are counted in the next one. */
export const STATE_LOG_INTERVAL_MS = 10_000;

/**
 * One 'error' listener per client (without one, ioredis prints a stack per failed retry: a Redis
 * outage flooded the logs) that logs one line per state change — down (with the first error's
 * cause), back up — and no more than one line per STATE_LOG_INTERVAL_MS.
 */
export function watchState(client: Redis, name: string, log: (line: string) => void = (l) => console.warn(l)) {
  let down = false;
  let errors = 0;
  let lastLine = -Infinity;
  let skipped = 0;
  const say = (line: string) => {
    const now = Date.now();
    if (now - lastLine < STATE_LOG_INTERVAL_MS) return void skipped++;
    lastLine = now;
    log(skipped ? `${line} (${skipped} state change(s) not logged)` : line);
    skipped = 0;
  };
  client.on("error", (e: Error & { code?: string }) => {
    errors++;
    if (down) return;
    down = true;
    say(`redis ${name}: connection lost (${e.code ?? e.message}); retrying quietly`);
  });
  client.on("ready", () => {
    if (!down) return;
    down = false;
    say(`redis ${name}: connected again after ${errors} error(s)`);
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
