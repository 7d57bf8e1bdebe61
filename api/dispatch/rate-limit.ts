/**
 * Per-route (later: per provider connection) submit rate limits, shared by every worker through
 * Redis: one Lua script, atomic, on Redis's own clock (TIME), so workers on other machines agree.
 *
 * The bucket is a token bucket written as GCRA ("generic cell rate algorithm"): the key holds the
 * theoretical arrival time (TAT) of the next message; each `acquire` RESERVES the next slot and
 * answers how long to wait for it. Callers therefore sleep once, to an absolute slot, with no
 * polling and no thundering herd: N concurrent callers get N consecutive slots 1/rate apart, and
 * up to `burst` of them at once after a quiet period. Over any window W at most burst + rate × W
 * submits pass, and a backlog flows at exactly `rate`.
 *
 * A provider that throttles us (429 Retry-After, SMPP ESME_RTHROTTLED) is honoured with `pause`:
 * every worker's next `acquire` on that bucket waits until the pause ends.
 */
import { createHash } from "node:crypto";
import { redis } from "../lib/redis";
import { keys } from "../lib/redis-keys";

const SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local pause = redis.call('PTTL', KEYS[2])
local rate = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local earliest = now
if pause > 0 then earliest = now + pause end
if rate <= 0 then return earliest - now end
local interval = 1000 / rate
local tat = tonumber(redis.call('GET', KEYS[1]) or '0')
if tat < earliest then tat = earliest end
local allowAt = tat - (burst - 1) * interval
if allowAt < earliest then allowAt = earliest end
local newTat = tat + interval
redis.call('SET', KEYS[1], tostring(newTat), 'PX', math.ceil(newTat - now + burst * interval + 1000))
return math.ceil(allowAt - now)
`;

/** The script's SHA1, computed here: EVALSHA runs it where Redis has it cached. */
const SHA = createHash("sha1").update(SCRIPT).digest("hex");

async function run(bucketKey: string, rate: number, burst: number): Promise<number> {
  const both = [keys.dispatchBucket(bucketKey), keys.dispatchBucketPause(bucketKey)];
  const r = redis();
  try {
    return Number(await r.evalsha(SHA, 2, ...both, String(rate), String(burst)));
  } catch (e) {
    if (!String(e).includes("NOSCRIPT")) throw e;
  }
  // Not cached on the node that holds these keys (a restarted Redis, or on a cluster another master
  // than a SCRIPT LOAD would reach, which has no key to route by): EVAL runs it there and caches it.
  return Number(await r.eval(SCRIPT, 2, ...both, String(rate), String(burst)));
}

/**
 * Reserves the next submit slot of `bucketKey` and returns the milliseconds to wait for it (0 = go now).
 * `ratePerSecond <= 0` means no limit of ours (only a provider's pause is waited for).
 */
export function acquire(bucketKey: string, ratePerSecond: number, burst = 1): Promise<number> {
  return run(bucketKey, ratePerSecond, Math.max(1, Math.floor(burst)));
}

/** How many times a lane woken past its slot takes a new one before it submits anyway. */
const MAX_LATE = 5;

/**
 * Takes a slot of `bucketKey` and waits for it (`sleep` waits; it may keep the caller's job alive
 * meanwhile). A slot is a moment, not a ticket: a worker whose event loop was starved (a busy CPU,
 * a long GC) wakes its waiting lanes late and together, and had they all submitted then, the route
 * would have seen a burst above its rate. A lane woken more than one interval past its slot takes a
 * new one instead (after the slots reserved meanwhile, so the late lanes spread out again), at most
 * MAX_LATE times so a starved worker still makes progress. Answers how many slots were retaken.
 */
export async function waitForSlot(bucketKey: string, ratePerSecond: number, burst: number, sleep: (ms: number) => Promise<void>): Promise<number> {
  for (let late = 0; ; late++) {
    const wait = await acquire(bucketKey, ratePerSecond, burst);
    if (wait <= 0) return late;
    const slot = Date.now() + wait;
    await sleep(wait);
    if (ratePerSecond <= 0 || late >= MAX_LATE || Date.now() - slot <= 1000 / ratePerSecond) return late;
  }
}

/** The provider asked us to slow down: nobody submits on `bucketKey` for `ms`. Extends, never shortens, a pause. */
export async function pause(bucketKey: string, ms: number): Promise<void> {
  const k = keys.dispatchBucketPause(bucketKey);
  const ttl = Math.max(1, Math.ceil(ms));
  const current = await redis().pttl(k);
  if (current < ttl) await redis().set(k, "1", "PX", ttl);
}

/** The bucket of a message: per channel, provider and route (a provider connection's own key can replace it). */
export const bucketFor = (channel: string, provider: string, route: string | null) => `${channel}:${provider}:${route ?? "default"}`;
