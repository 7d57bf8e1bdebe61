/**
 * The retry schedule of customer webhooks (pure: no clock, no randomness of its own).
 * After attempt n fails, the next one waits RETRY_DELAYS_MS[n-1] (± up to 10 % jitter, so many
 * deliveries failing together do not come back together); after the last entry the delivery is
 * `failed`. The waits add up to 27 h 35 min 5 s: an endpoint down for a whole day still gets it.
 * `scale` shrinks the schedule in tests (env WEBHOOK_RETRY_SCALE).
 */
const S = 1000;
const M = 60 * S;
const H = 60 * M;

export const RETRY_DELAYS_MS = [5 * S, 5 * M, 30 * M, 2 * H, 5 * H, 10 * H, 10 * H] as const;
/** First attempt + one per delay. */
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;
export const JITTER = 0.1;

/**
 * Milliseconds to wait before the next attempt, given how many attempts were made so far
 * (≥ 1), or null when there is none left. `random` is in [0, 1): 0.5 means no jitter.
 */
export function retryDelayMs(attemptsMade: number, opts: { scale?: number; random?: number } = {}): number | null {
  if (!Number.isInteger(attemptsMade) || attemptsMade < 1 || attemptsMade > RETRY_DELAYS_MS.length) return null;
  const base = RETRY_DELAYS_MS[attemptsMade - 1] * (opts.scale ?? 1);
  const random = Math.min(Math.max(opts.random ?? 0.5, 0), 1);
  return Math.max(1, Math.round(base * (1 + JITTER * (2 * random - 1))));
}

/** The whole schedule without jitter (what the screen and the ADR describe). */
export function totalRetryWindowMs(scale = 1): number {
  return RETRY_DELAYS_MS.reduce((sum, d) => sum + d * scale, 0);
}
