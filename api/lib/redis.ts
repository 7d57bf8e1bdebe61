import Redis from "ioredis";
import { env } from "./env";

let shared: Redis | undefined;

/** The process's shared connection (never used for blocking reads). */
export function redis(): Redis {
  if (!shared) shared = connect();
  return shared;
}

/** A fresh connection: blocking stream reads (XREADGROUP BLOCK) need their own. */
export function connect(): Redis {
  return new Redis(env().REDIS_URL, { maxRetriesPerRequest: 3, lazyConnect: false });
}

/** Every key goes through here so a test run can namespace its data. */
export function key(...parts: Array<string | number>): string {
  return env().REDIS_PREFIX + parts.join(":");
}

export async function closeRedis() {
  await shared?.quit();
  shared = undefined;
}
