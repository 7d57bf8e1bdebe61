/**
 * The one request limiter: a fixed-window counter per (rule, subject) in Redis, shared by every
 * process (no per-process state). Rules name what they protect ("password-check", "widget-ip"…);
 * a subject is what is counted (a user id, an IP, a widget key, an e-mail+IP pair).
 *
 * `hit` counts one attempt and throws TOO_MANY_ATTEMPTS (429, translated, with the minutes left)
 * once the window holds more than `limit`; `peek` only looks; `reset` forgets a subject (after a
 * success, where the rule says so).
 */
import { AppError } from "./errors";
import { redis } from "./redis";
import { keys } from "./redis-keys";

export type Rule = { name: string; limit: number; windowSeconds: number };

const counterKey = (rule: Rule, subject: string) => keys.rateLimit(rule.name, subject.toLowerCase());

async function minutesLeft(k: string, windowSeconds: number) {
  const ttl = await redis().ttl(k);
  return Math.max(1, Math.ceil((ttl > 0 ? ttl : windowSeconds) / 60));
}

/** Counts one attempt; throws TOO_MANY_ATTEMPTS when the subject is over the rule's limit. */
export async function hit(rule: Rule, subject: string): Promise<void> {
  const k = counterKey(rule, subject);
  const [[, count]] = (await redis().multi().incr(k).expire(k, rule.windowSeconds, "NX").exec()) as [[unknown, number], unknown];
  if (count > rule.limit) throw new AppError("TOO_MANY_ATTEMPTS", { params: { minutes: await minutesLeft(k, rule.windowSeconds) } });
}

/** Throws TOO_MANY_ATTEMPTS when the subject has already used up the rule's limit (counts nothing). */
export async function peek(rule: Rule, subject: string): Promise<void> {
  const k = counterKey(rule, subject);
  if (Number((await redis().get(k)) ?? 0) >= rule.limit) throw new AppError("TOO_MANY_ATTEMPTS", { params: { minutes: await minutesLeft(k, rule.windowSeconds) } });
}

/** Counts one attempt without throwing; answers how many the window holds now. */
export async function count(rule: Rule, subject: string): Promise<number> {
  const k = counterKey(rule, subject);
  const [[, n]] = (await redis().multi().incr(k).expire(k, rule.windowSeconds, "NX").exec()) as [[unknown, number], unknown];
  return n;
}

export async function reset(rule: Rule, subject: string): Promise<void> {
  await redis().del(counterKey(rule, subject));
}

/** How many attempts the subject's window holds (counts nothing, throws nothing). */
export async function current(rule: Rule, subject: string): Promise<number> {
  return Number((await redis().get(counterKey(rule, subject))) ?? 0);
}
