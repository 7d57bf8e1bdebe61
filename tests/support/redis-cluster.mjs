/**
 * A local Redis Cluster of 3 masters and 3 replicas (ADR 028): six redis-server processes in
 * cluster mode on free loopback ports, keeping nothing on disk but their nodes.conf, joined and
 * given their slots with plain cluster commands (no redis-cli needed). Plain JavaScript so the
 * test set-up (tests/setup/global.ts, the second pass of `npm test`) and the benches start it
 * the same way. A short node timeout (1.5 s) lets a replica take over a killed master quickly.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Redis from "ioredis";
import { freePort } from "./redis-server.mjs";

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Polls `check` every 100 ms until it answers true, for at most `ms`; throws `what` after. */
async function until(what, check, ms = 30_000) {
  const end = Date.now() + ms;
  for (;;) {
    try {
      if (await check()) return;
    } catch (e) {
      if (e?.exited) throw e; // the checked process is gone: no use waiting
    }
    if (Date.now() > end) throw new Error(`redis cluster: ${what} not within ${ms} ms`);
    await sleep(100);
  }
}

const SLOTS = 16384;

export class RedisCluster {
  /** @type {Array<{ port: number; bus: number; child?: import("node:child_process").ChildProcess; output?: string }>} */
  nodes = [];
  dir = "";

  /** The seed list for REDIS_URL. */
  get url() {
    return this.nodes.map((n) => `redis://127.0.0.1:${n.port}`).join(",");
  }

  /** Starts 3 masters and 3 replicas and waits until the cluster is ok everywhere (60 s at most). */
  static async start({ masters = 3, replicasPerMaster = 1 } = {}) {
    const c = new RedisCluster();
    c.dir = mkdtempSync(join(tmpdir(), "mensageria-cluster-"));
    const count = masters * (1 + replicasPerMaster);
    try {
      const taken = new Set();
      const fresh = async () => {
        for (;;) {
          const p = await freePort();
          if (!taken.has(p)) {
            taken.add(p);
            return p;
          }
        }
      };
      for (let i = 0; i < count; i++) c.nodes.push({ port: await fresh(), bus: await fresh() });
      for (const n of c.nodes) c.#spawn(n);
      // A port free when asked can be taken before redis-server binds it (another process's
      // connection, on a busy machine): a node that exits or stays silent is started again on
      // other ports, a few times, before the cluster is built.
      for (const n of c.nodes) {
        for (let attempt = 1; ; attempt++) {
          const cl = c.#client(n.port);
          try {
            await until("a node answering PING", () => {
              if (n.child.exitCode !== null || n.child.signalCode !== null) throw Object.assign(new Error("exited"), { exited: true });
              return cl.ping().then((r) => r === "PONG");
            }, attempt < 3 ? 15_000 : 30_000);
            break;
          } catch (e) {
            if (attempt >= 3) throw new Error(`${e.message} (port ${n.port}; the node said: ${n.output?.trim().split("\n").slice(-3).join(" / ") || "nothing"})`);
            n.child.kill("SIGKILL");
            n.port = await fresh();
            n.bus = await fresh();
            c.#spawn(n);
          } finally {
            cl.disconnect();
          }
        }
      }
      const clients = c.nodes.map((n) => c.#client(n.port));
      try {
        // Slots to the masters, in equal ranges.
        for (let m = 0; m < masters; m++) {
          const from = Math.floor((m * SLOTS) / masters);
          const to = Math.floor(((m + 1) * SLOTS) / masters) - 1;
          await clients[m].call("CLUSTER", "ADDSLOTSRANGE", String(from), String(to));
        }
        for (let i = 1; i < count; i++) await clients[0].call("CLUSTER", "MEET", "127.0.0.1", String(c.nodes[i].port), String(c.nodes[i].bus));
        await until("every node knowing every other", async () => {
          for (const cl of clients) if (String(await cl.call("CLUSTER", "NODES")).trim().split("\n").length !== count) return false;
          return true;
        });
        const ids = await Promise.all(clients.map((cl) => cl.call("CLUSTER", "MYID")));
        for (let r = masters; r < count; r++) {
          const master = (r - masters) % masters;
          await until("a replica attached", () => clients[r].call("CLUSTER", "REPLICATE", String(ids[master])).then(() => true));
        }
        await c.waitHealthy(60_000, clients);
      } finally {
        for (const cl of clients) cl.disconnect();
      }
      return c;
    } catch (e) {
      await c.stop();
      throw e;
    }
  }

  /** Waits until every running node reports cluster_state:ok and every replica's link to its master is up. */
  async waitHealthy(ms = 30_000, given) {
    const clients = given ?? this.nodes.filter((n) => n.child && n.child.exitCode === null && n.child.signalCode === null).map((n) => this.#client(n.port));
    try {
      await until(
        "cluster_state:ok on every node",
        async () => {
          for (const cl of clients) {
            if (!String(await cl.call("CLUSTER", "INFO")).includes("cluster_state:ok")) return false;
            const info = String(await cl.info("replication"));
            if (info.includes("role:slave") && !info.includes("master_link_status:up")) return false;
          }
          return true;
        },
        ms,
      );
    } finally {
      if (!given) for (const cl of clients) cl.disconnect();
    }
  }

  /** The ports of the nodes that are masters now (asked of a running node). */
  async masters() {
    const alive = this.nodes.find((n) => n.child && n.child.exitCode === null && n.child.signalCode === null);
    const cl = this.#client(alive.port);
    try {
      const lines = String(await cl.call("CLUSTER", "NODES")).trim().split("\n");
      return lines
        .map((l) => l.split(" "))
        .filter((f) => f[2].includes("master") && !f[2].includes("fail") && f.length > 8)
        .map((f) => Number(f[1].split(":")[1].split("@")[0]));
    } finally {
      cl.disconnect();
    }
  }

  /** The port of the master serving `slot` now. */
  async masterOf(slot) {
    const alive = this.nodes.find((n) => n.child && n.child.exitCode === null && n.child.signalCode === null);
    const cl = this.#client(alive.port);
    try {
      const ranges = /** @type {Array<[number, number, [string, number]]>} */ (await cl.call("CLUSTER", "SLOTS"));
      const hit = ranges.find(([from, to]) => slot >= from && slot <= to);
      if (!hit) throw new Error(`redis cluster: no master serves slot ${slot}`);
      return Number(hit[2][1]);
    } finally {
      cl.disconnect();
    }
  }

  /** kill -9 the node on `port` (its memory is gone); answers once it has exited. */
  async kill(port) {
    const n = this.nodes.find((x) => x.port === port);
    const child = n?.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    await new Promise((r) => {
      child.once("exit", () => r(undefined));
      child.kill("SIGKILL");
    });
  }

  /** Starts the node on `port` again (it rejoins from its nodes.conf, as a replica of whoever took over). */
  restart(port) {
    const n = this.nodes.find((x) => x.port === port);
    if (n) this.#spawn(n);
  }

  async stop() {
    await Promise.all(
      this.nodes.map(
        (n) =>
          new Promise((r) => {
            const child = n.child;
            if (!child || child.exitCode !== null || child.signalCode !== null) return r(undefined);
            child.once("exit", () => r(undefined));
            child.kill("SIGKILL");
          }),
      ),
    );
    if (this.dir) rmSync(this.dir, { recursive: true, force: true });
  }

  #spawn(n) {
    n.child = spawn(
      "redis-server",
      [
        "--port",
        String(n.port),
        "--bind",
        "127.0.0.1",
        "--cluster-enabled",
        "yes",
        "--cluster-port",
        String(n.bus),
        "--cluster-config-file",
        join(this.dir, `nodes-${n.port}.conf`),
        "--cluster-node-timeout",
        "1500",
        "--dir",
        this.dir,
        "--save",
        "",
        "--appendonly",
        "no",
        "--daemonize",
        "no",
      ],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    // What the node said last (its start-up errors name a port it could not bind), for the error.
    n.output = "";
    const keep = (d) => {
      n.output = (n.output + d.toString()).slice(-2000);
    };
    n.child.stdout.on("data", keep);
    n.child.stderr.on("data", keep);
    n.child.on("error", () => undefined);
  }

  #client(port) {
    const c = new Redis({ host: "127.0.0.1", port, lazyConnect: false, maxRetriesPerRequest: 1, retryStrategy: () => 100 });
    c.on("error", () => undefined);
    return c;
  }
}
