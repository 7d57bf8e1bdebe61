/**
 * A Redis outage must not flood the logs (issue 12 item 5): a process whose Redis is down writes
 * one line per client when the link is lost and one when it is back, not a stack per retry.
 * A real process (tests/support/redis-down-client.ts, two clients from api/lib/redis) points at a
 * closed port; a dedicated redis-server is then started on that port.
 */
import { spawn } from "node:child_process";
import { resolve } from "node:path";
import { afterAll, expect, it } from "vitest";
import { freePort } from "../support/net";
import { randomSecrets } from "../support/secrets";
import { RedisServer } from "../support/stack";

const root = resolve(__dirname, "..", "..");
let server: RedisServer | undefined;
afterAll(() => server?.kill());

it("logs one line per client and state change while Redis is down and when it comes back, not one per retry", async () => {
  const port = await freePort();
  const child = spawn(resolve(root, "node_modules/.bin/bun"), ["tests/support/redis-down-client.ts"], {
    cwd: root,
    env: { ...process.env, ...randomSecrets(), NODE_ENV: "test", REDIS_URL: `redis://127.0.0.1:${port}/0`, RUN_MS: "8000" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout!.on("data", (c: Buffer) => (out += c));
  child.stderr!.on("data", (c: Buffer) => (out += c));
  const exited = new Promise<void>((r) => child.once("exit", () => r()));
  const lines = () => out.split("\n").filter((l) => l.trim());
  // Down for a few seconds: ioredis retries every 50..2000 ms meanwhile (a dozen retries per client).
  await expect.poll(() => lines().filter((l) => l.includes("connection lost")).length, { timeout: 10_000 }).toBe(2);
  await new Promise((r) => setTimeout(r, 3000)); // the outage itself: retries happen, nothing more may be written
  expect(lines()).toHaveLength(2);
  server = new RedisServer(port);
  await server.start();
  await expect.poll(() => lines().filter((l) => l.includes("connected again")).length, { timeout: 10_000 }).toBe(2);
  await exited;
  expect(out).not.toContain("Unhandled error event");
  expect(lines()).toEqual([
    expect.stringMatching(/^redis (reader|shared): connection lost \(ECONNREFUSED\)/),
    expect.stringMatching(/^redis (reader|shared): connection lost \(ECONNREFUSED\)/),
    expect.stringMatching(/^redis (reader|shared): connected again after \d+ error\(s\)$/),
    expect.stringMatching(/^redis (reader|shared): connected again after \d+ error\(s\)$/),
  ]);
}, 40_000);
