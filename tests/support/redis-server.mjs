/**
 * A dedicated redis-server that keeps nothing on disk (no AOF, no snapshot, like production's
 * here), on a loopback port, restartable on the same port: a kill -9 loses everything. Plain
 * JavaScript so that both the fault tests (through ./stack.ts) and `npm run chaos`
 * (bench/chaos.mjs, run by Node) start it the same way. Needs `redis-server` on the PATH.
 */
import { spawn } from "node:child_process";
import Redis from "ioredis";
import { freePort } from "./ports.mjs";

/** A free loopback port (./ports.mjs; also used by ./redis-cluster.mjs). */
export { freePort };

export class RedisServer {
  /** @type {import("node:child_process").ChildProcess | undefined} */
  #child;
  /** @param {number} port */
  constructor(port) {
    this.port = port;
  }
  get url() {
    return `redis://127.0.0.1:${this.port}/0`;
  }
  /** A new server on a free port, answering PING. */
  static async start() {
    const s = new RedisServer(await freePort());
    await s.start();
    return s;
  }
  /** Starts (or starts again) the server on its port and waits until it answers PING (10 s at most). */
  async start() {
    this.#child = spawn("redis-server", ["--port", String(this.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--daemonize", "no"], {
      stdio: "ignore",
    });
    const until = Date.now() + 10_000;
    for (;;) {
      const c = new Redis(this.url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
      c.on("error", () => undefined);
      try {
        await c.connect();
        await c.ping();
        c.disconnect();
        return;
      } catch {
        c.disconnect();
        if (Date.now() > until) throw new Error(`redis-server on ${this.port} did not start`);
        await new Promise((r) => setTimeout(r, 50));
      }
    }
  }
  /** kill -9, once it has exited: everything in memory is gone. */
  async kill() {
    const c = this.#child;
    if (!c || c.exitCode !== null || c.signalCode !== null) return;
    await new Promise((r) => {
      c.once("exit", () => r(undefined));
      c.kill("SIGKILL");
    });
  }
  /** kill -9 without waiting (for exit hooks, which cannot wait). */
  killNow() {
    this.#child?.kill("SIGKILL");
  }
}
