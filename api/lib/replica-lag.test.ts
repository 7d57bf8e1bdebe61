import { describe, expect, it } from "vitest";
import { measureLag, parseLsn } from "./replica-lag";

describe("parseLsn", () => {
  it("reads PostgreSQL's X/Y form as one ordered number", () => {
    expect(parseLsn("0/0")).toBe(0n);
    expect(parseLsn("16/B374D848")).toBe((0x16n << 32n) + 0xb374d848n);
    expect(parseLsn("1/0") > parseLsn("0/FFFFFFFF")).toBe(true);
    expect(() => parseLsn("16-B374")).toThrow("not a WAL position");
  });
});

/** A clock that only moves when the check sleeps. */
function clock() {
  let t = 1000;
  return { now: () => t, sleep: async (ms: number) => void (t += ms) };
}

describe("measureLag", () => {
  it("is 0 when the replica already has the primary's position (an idle primary: nothing to replay)", async () => {
    const c = clock();
    expect(await measureLag({ target: 500n, since: 1000, replayed: async () => 500n, boundMs: 5000, pollMs: 50, ...c })).toEqual({ caughtUp: true, lagMs: 0 });
  });

  it("is the time until the replica has replayed the position", async () => {
    const c = clock();
    const positions = [100n, 300n, 499n, 600n];
    const r = await measureLag({ target: 500n, since: 1000, replayed: async () => positions.shift()!, boundMs: 5000, pollMs: 50, ...c });
    expect(r).toEqual({ caughtUp: true, lagMs: 150 });
  });

  it("gives up past the bound when replay does not move (paused, or WAL not arriving)", async () => {
    const c = clock();
    let asked = 0;
    const r = await measureLag({
      target: 500n,
      since: 1000,
      replayed: async () => {
        asked++;
        return 100n;
      },
      boundMs: 1000,
      pollMs: 50,
      ...c,
    });
    expect(r.caughtUp).toBe(false);
    expect(r.lagMs).toBeGreaterThan(1000);
    expect(r.lagMs).toBeLessThanOrEqual(1051);
    expect(asked).toBeLessThanOrEqual(23);
  });
});
