/**
 * Two of each (issue 15): the chaos script of the reliability issue (bench/chaos.mjs, `npm run
 * chaos`) run with CHAOS_INSTANCES=2 — two web, two api, two realtime and two worker processes,
 * each kind behind a round-robin TCP balancer on loopback, on a private database and its own
 * redis-server — while it kills one process of a kind at a time (workers, an api, a web, a
 * realtime), restarts Redis empty and cuts every PostgreSQL connection, under SMS load, customer
 * webhooks and agents' websockets. It exits 0 only when no message is lost, doubled or charged
 * twice, no webhook event is lost or doubled, every agent resumed without missing an event, and
 * no process ended by itself. Its own figures are printed; a failure shows them.
 */
import { spawn } from "node:child_process";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";

const root = resolve(__dirname, "..", "..");

describe("two processes of each kind behind balancers, under the chaos script", () => {
  it("nothing lost, doubled or charged twice; every agent resumed; no process ended by itself", async () => {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      CHAOS_INSTANCES: "2",
      CHAOS_SECONDS: "30",
      CHAOS_RATE: "5",
      CHAOS_CLIENTS: "40",
      CHAOS_SETTLE_SECONDS: "150",
    };
    // The chaos run makes (and drops) its own database and starts its own redis-server: none of the run's.
    for (const k of ["DATABASE_URL", "DATABASE_REPLICA_URL", "REDIS_URL", "REDIS_PREFIX", "STREAM_SHARDS"]) delete env[k];
    const child = spawn(process.execPath, ["bench/chaos.mjs"], { cwd: root, env, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (c: Buffer) => (out += c));
    child.stderr.on("data", (c: Buffer) => (out += c));
    const code = await new Promise<number | null>((r) => child.on("exit", (c) => r(c)));
    expect(out).toContain("2 web, api, realtime and worker processes behind balancers");
    expect(code, out).toBe(0);
    expect(out).toContain("PASS: nothing lost, doubled or charged twice; every client resumed; no process ended by itself");
  }, 420_000);
});
