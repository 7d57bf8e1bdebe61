import { describe, expect, it } from "vitest";
import { refreshBound } from "./bound";

type User = { id: string; enabled: boolean; tps: number };
type B = { name: string; user: User };

/** A read of the users that answers only when told to, as a slow query does. */
function slowRead(rows: User[]) {
  let answer: () => void = () => undefined;
  const asked: string[][] = [];
  const read = (ids: string[]) =>
    new Promise<User[]>((resolve) => {
      asked.push(ids);
      answer = () => resolve(rows.filter((u) => ids.includes(u.id)));
    });
  return { read, asked, answer: () => answer() };
}

describe("refreshBound", () => {
  it("unbinds a disabled or deleted user's sessions and gives the others their fresh settings", async () => {
    const a: B = { name: "a", user: { id: "u1", enabled: true, tps: 10 } };
    const b: B = { name: "b", user: { id: "u2", enabled: true, tps: 10 } };
    const c: B = { name: "c", user: { id: "u3", enabled: true, tps: 10 } };
    const bound = new Set([a, b, c]);
    const unbound: string[] = [];
    const users = [
      { id: "u1", enabled: true, tps: 50 },
      { id: "u2", enabled: false, tps: 10 },
    ];
    await refreshBound(
      bound,
      async (ids) => users.filter((u) => ids.includes(u.id)),
      (x) => unbound.push(x.name),
    );
    expect(unbound.sort()).toEqual(["b", "c"]);
    expect([...bound]).toEqual([a]);
    expect(a.user.tps).toBe(50);
  });

  it("leaves alone a session bound while the users were being read (it is judged on the next pass)", async () => {
    const old: B = { name: "old", user: { id: "u1", enabled: true, tps: 10 } };
    const bound = new Set([old]);
    const unbound: string[] = [];
    const slow = slowRead([
      { id: "u1", enabled: true, tps: 10 },
      { id: "u2", enabled: true, tps: 10 },
    ]);
    const pass = refreshBound(bound, slow.read, (x) => unbound.push(x.name));
    // An ESME binds as another user (and a second session of the same user) during the read.
    const fresh: B = { name: "fresh", user: { id: "u2", enabled: true, tps: 10 } };
    const again: B = { name: "again", user: { id: "u1", enabled: true, tps: 10 } };
    bound.add(fresh);
    bound.add(again);
    slow.answer();
    await pass;
    expect(slow.asked).toEqual([["u1"]]);
    expect(unbound).toEqual([]);
    expect(bound.has(fresh) && bound.has(again) && bound.has(old)).toBe(true);
    // The next pass reads them too.
    const next = slowRead([{ id: "u1", enabled: true, tps: 10 }]);
    const second = refreshBound(bound, next.read, (x) => unbound.push(x.name));
    next.answer();
    await second;
    expect(next.asked[0].sort()).toEqual(["u1", "u2"]);
    expect(unbound).toEqual(["fresh"]);
  });

  it("skips a session that closed while the users were read", async () => {
    const gone: B = { name: "gone", user: { id: "u1", enabled: true, tps: 10 } };
    const bound = new Set([gone]);
    const unbound: string[] = [];
    const slow = slowRead([]);
    const pass = refreshBound(bound, slow.read, (x) => unbound.push(x.name));
    bound.delete(gone);
    slow.answer();
    await pass;
    expect(unbound).toEqual([]);
  });
});
