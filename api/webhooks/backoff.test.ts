import { describe, expect, it } from "vitest";
import { JITTER, MAX_ATTEMPTS, RETRY_DELAYS_MS, retryDelayMs, totalRetryWindowMs } from "./backoff";

describe("webhook retry schedule", () => {
  it("retries for at least 24 hours, even with the most negative jitter", () => {
    let worst = 0;
    for (let n = 1; retryDelayMs(n, { random: 0 }) !== null; n++) worst += retryDelayMs(n, { random: 0 })!;
    expect(worst).toBeGreaterThanOrEqual(24 * 3600 * 1000);
    expect(totalRetryWindowMs()).toBe((5 + 300 + 1800 + 7200 + 18000 + 36000 + 36000) * 1000);
  });

  it("grows, starts at 5 s and ends after the last delay", () => {
    expect(retryDelayMs(1)).toBe(5000);
    expect(retryDelayMs(2)).toBe(5 * 60 * 1000);
    for (let n = 2; n <= RETRY_DELAYS_MS.length; n++) expect(retryDelayMs(n)!).toBeGreaterThanOrEqual(retryDelayMs(n - 1)!);
    expect(retryDelayMs(MAX_ATTEMPTS)).toBeNull();
    expect(retryDelayMs(0)).toBeNull();
    expect(retryDelayMs(1.5)).toBeNull();
  });

  it("jitters within ±10 % and scales for tests", () => {
    expect(retryDelayMs(3, { random: 0 })).toBe(Math.round(30 * 60 * 1000 * (1 - JITTER)));
    expect(retryDelayMs(3, { random: 0.999999 })).toBeLessThanOrEqual(30 * 60 * 1000 * (1 + JITTER));
    expect(retryDelayMs(2, { scale: 0.001 })).toBe(300);
    expect(totalRetryWindowMs(0.001)).toBeCloseTo(totalRetryWindowMs() / 1000);
  });
});
