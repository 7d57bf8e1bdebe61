/**
 * `npm start`'s supervisor (api/cli/supervisor.mjs, issue 12 item 6): a crashed child restarts
 * with a growing, capped back-off and is logged, the others keep running, and only a signal stops
 * them all. Real processes: a Node harness supervises small Node child scripts.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, describe, expect, it } from "vitest";

const supervisorUrl = pathToFileURL(resolve(__dirname, "..", "..", "api", "cli", "supervisor.mjs")).href;

type Line = { at: number; text: string };
const dirs: string[] = [];
const harnesses: ChildProcess[] = [];

afterEach(() => {
  for (const h of harnesses.splice(0)) if (h.exitCode === null && h.signalCode === null) h.kill("SIGKILL");
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Starts a harness supervising a steady child and one that exits with code 1 shortly after each start. */
function startHarness() {
  const dir = mkdtempSync(join(tmpdir(), "supervisor-"));
  dirs.push(dir);
  writeFileSync(join(dir, "steady.mjs"), `console.log("up " + process.pid); setInterval(() => {}, 1000);`);
  writeFileSync(join(dir, "crash.mjs"), `console.log("start " + process.pid); setTimeout(() => process.exit(1), 30);`);
  writeFileSync(
    join(dir, "harness.mjs"),
    `import { supervise } from ${JSON.stringify(supervisorUrl)};
supervise(
  [{ name: "steady", command: ${JSON.stringify(`${process.execPath} ${join(dir, "steady.mjs")}`)} },
   { name: "crash", command: ${JSON.stringify(`${process.execPath} ${join(dir, "crash.mjs")}`)} }],
  { cwd: ${JSON.stringify(dir)}, initialDelayMs: 100, maxDelayMs: 400, stableMs: 60000, out: (l) => process.stdout.write(Date.now() + " " + l.replace(/\\x1b\\[[0-9;]*m/g, "") + "\\n") },
);
console.log(Date.now() + " harness ready");`,
  );
  const harness = spawn(process.execPath, [join(dir, "harness.mjs")], { cwd: dir, stdio: ["ignore", "pipe", "pipe"] });
  harnesses.push(harness);
  const lines: Line[] = [];
  let buffer = "";
  harness.stdout!.on("data", (chunk: Buffer) => {
    buffer += chunk;
    const parts = buffer.split("\n");
    buffer = parts.pop()!;
    for (const p of parts) {
      const i = p.indexOf(" ");
      lines.push({ at: Number(p.slice(0, i)), text: p.slice(i + 1) });
    }
  });
  const exited = new Promise<number | null>((r) => harness.on("exit", (code) => r(code)));
  const grep = (re: RegExp) => lines.filter((l) => re.test(l.text));
  return { harness, lines, exited, grep };
}

describe("npm start supervisor", () => {
  it("restarts a crashed child with a growing, capped back-off, logs it, keeps the others running, and stops all on SIGINT", async () => {
    const h = startHarness();
    await expect.poll(() => h.grep(/^steady \| up \d+/).length, { timeout: 15_000 }).toBe(1);
    const steadyPid = Number(h.grep(/^steady \| up (\d+)/)[0].text.match(/up (\d+)/)![1]);

    // Six crashes in a row: each one logged with its delay.
    await expect.poll(() => h.grep(/^crash +\| exited \(1\); restarting in \d+ ms/).length, { timeout: 20_000 }).toBeGreaterThanOrEqual(6);
    const restarts = h.grep(/^crash +\| exited \(1\); restarting in \d+ ms/).slice(0, 6);
    const delays = restarts.map((l) => Number(l.text.match(/restarting in (\d+) ms/)![1]));
    expect(delays).toEqual([100, 200, 400, 400, 400, 400]);

    // No hot loop: each start comes at least its delay after the exit before it.
    const starts = h.grep(/^crash +\| start \d+/);
    for (let i = 0; i < 5; i++) {
      const next = starts.find((s) => s.at >= restarts[i].at);
      expect(next, `a start after restart ${i + 1}`).toBeDefined();
      expect(next!.at - restarts[i].at).toBeGreaterThanOrEqual(delays[i] - 5);
    }

    // The steady one never restarted.
    expect(h.grep(/^steady \| up/)).toHaveLength(1);
    expect(h.grep(/^steady \| exited/)).toHaveLength(0);
    expect(alive(steadyPid)).toBe(true);

    // Ctrl-C: everything stops, the harness exits 0, nothing starts again.
    h.harness.kill("SIGINT");
    expect(await h.exited).toBe(0);
    expect(alive(steadyPid)).toBe(false);
    const startsAtStop = h.grep(/^crash +\| start/).length;
    const lastCrashPid = Number(
      h
        .grep(/^crash +\| start (\d+)/)
        .at(-1)!
        .text.match(/start (\d+)/)![1],
    );
    await expect.poll(() => alive(lastCrashPid), { timeout: 5_000 }).toBe(false);
    expect(h.grep(/^crash +\| start/).length).toBe(startsAtStop);
  });

  it("stops every child on SIGTERM", async () => {
    const h = startHarness();
    await expect.poll(() => h.grep(/^steady \| up \d+/).length, { timeout: 15_000 }).toBe(1);
    const steadyPid = Number(h.grep(/^steady \| up (\d+)/)[0].text.match(/up (\d+)/)![1]);
    h.harness.kill("SIGTERM");
    expect(await h.exited).toBe(0);
    expect(alive(steadyPid)).toBe(false);
    expect(h.grep(/^steady \| stopped/)).toHaveLength(1);
  });
});

describe("boot with a Redis that does not answer (issue 15)", () => {
  it("stops before starting anything, naming every address of REDIS_URL it tried", async () => {
    const boot = resolve(__dirname, "..", "..", "api", "cli", "boot.mjs");
    // Two closed loopback ports: a cluster seed list none of whose nodes answers.
    const child = spawn(process.execPath, [boot, "start"], {
      env: { ...process.env, REDIS_URL: "redis://127.0.0.1:1,redis://127.0.0.1:2" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    harnesses.push(child);
    let out = "";
    child.stdout?.on("data", (c: Buffer) => (out += c));
    child.stderr?.on("data", (c: Buffer) => (out += c));
    const code = await new Promise<number | null>((r) => child.once("exit", (c) => r(c)));
    expect(code).toBe(1);
    expect(out).toContain("Redis is not reachable at REDIS_URL: none of 127.0.0.1:1, 127.0.0.1:2 answered within 10 s.");
    expect(out).not.toContain("Open http://localhost");
  }, 40_000);

  it("refuses a REDIS_URL that is not a list of Redis URLs", async () => {
    const boot = resolve(__dirname, "..", "..", "api", "cli", "boot.mjs");
    const child = spawn(process.execPath, [boot, "start"], { env: { ...process.env, REDIS_URL: "redis://127.0.0.1:6379,::nonsense" }, stdio: ["ignore", "pipe", "pipe"] });
    harnesses.push(child);
    let out = "";
    child.stderr?.on("data", (c: Buffer) => (out += c));
    expect(await new Promise<number | null>((r) => child.once("exit", (c) => r(c)))).toBe(1);
    expect(out).toContain("REDIS_URL is not a Redis URL or a comma-separated list of them");
  }, 40_000);
});
