/**
 * A read the hot path repeats for every message of a batch (the sending domain's DKIM key, the
 * account's tracking settings), answered from memory for `ttlMs` after it was loaded: a 10,000-
 * message campaign reads each once per `ttlMs` instead of once per message. Concurrent callers of
 * a key share the one load in flight; a failed load is not kept. Not state: a cache of rows the
 * database keeps, so a change reaches every process within `ttlMs` (each caller names what that
 * delay means for it), and `max` keys at most are held (the oldest dropped first).
 */
export type ShortLived<V> = { get(key: string): Promise<V>; clear(): void };

export function shortLived<V>(ttlMs: number, load: (key: string) => Promise<V>, max = 1000): ShortLived<V> {
  const held = new Map<string, { until: number; value: Promise<V> }>();
  return {
    get(key) {
      const now = Date.now();
      const hit = held.get(key);
      if (hit && hit.until > now) return hit.value;
      if (hit) held.delete(key);
      if (held.size >= max) held.delete(held.keys().next().value!);
      const value = load(key);
      held.set(key, { until: now + ttlMs, value });
      value.catch(() => {
        if (held.get(key)?.value === value) held.delete(key);
      });
      return value;
    },
    clear: () => held.clear(),
  };
}
