import { afterEach, describe, expect, it, vi } from "vitest";
import { every } from "./every";

afterEach(() => vi.useRealTimers());

describe("every(name, ms, fn)", () => {
  it("never overlaps runs: a slow run makes the next tick skip, not stack", async () => {
    vi.useFakeTimers();
    let active = 0;
    let maxActive = 0;
    let runs = 0;
    const finish: Array<() => void> = [];
    const job = every("slow", 100, () => {
      runs++;
      active++;
      maxActive = Math.max(maxActive, active);
      return new Promise<void>((r) =>
        finish.push(() => {
          active--;
          r();
        }),
      );
    });
    await vi.advanceTimersByTimeAsync(1_000); // ten ticks while the first run hangs
    expect(runs).toBe(1);
    finish.shift()!();
    await vi.advanceTimersByTimeAsync(100);
    expect(runs).toBe(2);
    expect(maxActive).toBe(1);
    finish.shift()!();
    await job.stop();
  });

  it("logs a failure with its name and keeps running", async () => {
    vi.useFakeTimers();
    const log = vi.fn();
    let n = 0;
    const job = every(
      "flaky sweep",
      50,
      () => {
        n++;
        if (n === 1) throw new Error("boom");
      },
      log,
    );
    await vi.advanceTimersByTimeAsync(120);
    expect(n).toBe(2);
    expect(log).toHaveBeenCalledTimes(1);
    expect(log.mock.calls[0][0]).toBe("flaky sweep failed");
    await job.stop();
  });

  it("stop() waits for the run in progress and no run starts after it", async () => {
    vi.useFakeTimers();
    let done = false;
    let runs = 0;
    let release!: () => void;
    const job = every("long", 10, () => {
      runs++;
      return new Promise<void>(
        (r) =>
          (release = () => {
            done = true;
            r();
          }),
      );
    });
    await vi.advanceTimersByTimeAsync(10);
    const stopped = job.stop();
    let settled = false;
    void stopped.then(() => (settled = true));
    await vi.advanceTimersByTimeAsync(100);
    expect(settled).toBe(false);
    release();
    await stopped;
    expect(done).toBe(true);
    await vi.advanceTimersByTimeAsync(100);
    expect(runs).toBe(1);
  });
});
