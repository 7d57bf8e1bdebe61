import { describe, expect, it } from "vitest";
import { GroupCommit } from "./group-commit";

/** A write that records its batches and finishes when the test says so. */
function recorder() {
  const batches: Array<{ key: string; items: number[] }> = [];
  const pending: Array<() => void> = [];
  const write = (key: string, items: number[]) =>
    new Promise<number[]>((resolve, reject) => {
      batches.push({ key, items });
      pending.push(() => (items.includes(-1) ? reject(new Error("refused")) : resolve(items.map((i) => i * 10))));
    });
  const finishNext = () => pending.shift()?.();
  return { batches, write, finishNext };
}

describe("GroupCommit", () => {
  it("writes an item alone when its key is idle, and the items that arrive meanwhile together, in order", async () => {
    const r = recorder();
    const gc = new GroupCommit(r.write);
    const first = gc.run("a", 1);
    const later = [gc.run("a", 2), gc.run("a", 3), gc.run("a", 4)];
    expect(r.batches).toEqual([{ key: "a", items: [1] }]);
    r.finishNext();
    expect(await first).toBe(10);
    await expect.poll(() => r.batches.length).toBe(2);
    expect(r.batches[1]).toEqual({ key: "a", items: [2, 3, 4] });
    r.finishNext();
    expect(await Promise.all(later)).toEqual([20, 30, 40]);
  });

  it("keeps keys apart: another key's write does not wait", () => {
    const r = recorder();
    const gc = new GroupCommit(r.write);
    void gc.run("a", 1);
    void gc.run("b", 2);
    expect(r.batches).toEqual([
      { key: "a", items: [1] },
      { key: "b", items: [2] },
    ]);
  });

  it("a failed write fails its own batch only; the next batch still runs", async () => {
    const r = recorder();
    const gc = new GroupCommit(r.write);
    const first = gc.run("a", 1);
    const bad = [gc.run("a", -1), gc.run("a", 5)];
    const after = Promise.allSettled(bad);
    r.finishNext();
    await first;
    await expect.poll(() => r.batches.length).toBe(2);
    const next = gc.run("a", 6);
    r.finishNext();
    expect((await after).map((x) => x.status)).toEqual(["rejected", "rejected"]);
    await expect.poll(() => r.batches.length).toBe(3);
    r.finishNext();
    expect(await next).toBe(60);
  });

  it("never writes more than `max` items at once", async () => {
    const r = recorder();
    const gc = new GroupCommit(r.write, 2);
    const all = [1, 2, 3, 4, 5].map((i) => gc.run("a", i));
    for (let n = 1; n <= 3; n++) {
      await expect.poll(() => r.batches.length).toBe(n);
      r.finishNext();
    }
    expect(await Promise.all(all)).toEqual([10, 20, 30, 40, 50]);
    expect(r.batches.map((b) => b.items)).toEqual([[1], [2, 3], [4, 5]]);
  });
});
