import { afterEach, describe, expect, it, vi } from "vitest";
import { shortLived } from "./memo";

afterEach(() => vi.useRealTimers());

describe("shortLived", () => {
  it("loads a key once while it is fresh, and again after ttlMs", async () => {
    vi.useFakeTimers();
    const load = vi.fn(async (k: string) => `${k}:${load.mock.calls.length}`);
    const memo = shortLived(1000, load);
    expect(await Promise.all([memo.get("a"), memo.get("a")])).toEqual(["a:1", "a:1"]);
    expect(await memo.get("b")).toBe("b:2");
    vi.advanceTimersByTime(999);
    expect(await memo.get("a")).toBe("a:1");
    vi.advanceTimersByTime(2);
    expect(await memo.get("a")).toBe("a:3");
    expect(load).toHaveBeenCalledTimes(3);
  });

  it("does not keep a failed load", async () => {
    let fail = true;
    const memo = shortLived(60_000, async () => {
      if (fail) throw new Error("down");
      return 1;
    });
    await expect(memo.get("k")).rejects.toThrow("down");
    fail = false;
    expect(await memo.get("k")).toBe(1);
  });

  it("holds at most max keys, dropping the oldest", async () => {
    const load = vi.fn(async (k: string) => k);
    const memo = shortLived(60_000, load, 2);
    await memo.get("a");
    await memo.get("b");
    await memo.get("c");
    await memo.get("b");
    await memo.get("a");
    expect(load.mock.calls.map((c) => c[0])).toEqual(["a", "b", "c", "a"]);
  });
});
