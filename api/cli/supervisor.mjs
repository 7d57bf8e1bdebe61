/**
 * The development supervisor behind `npm start` (api/cli/boot.mjs): runs a Procfile's processes
 * with prefixed logs and keeps them running. A child that exits is logged and started again after
 * a back-off that doubles with each crash in a row (capped), so one crashing process neither stops
 * the others nor spins in a hot loop; a child that stayed up for `stableMs` starts over from the
 * first delay. Only a signal (Ctrl-C, SIGTERM) or stop() ends them all.
 *
 * Production does not use this: it runs the Procfile under a real supervisor (systemd, foreman,
 * a container orchestrator) with its own restart policy (README, Production).
 */
import { spawn } from "node:child_process";

const colors = [36, 35, 33, 32, 34, 31];

/** Delay before restart number `crashes` (1 = first crash in a row): initial·2^(n-1), at most max. */
export function backoffDelay(crashes, initialMs, maxMs) {
  return Math.min(maxMs, initialMs * 2 ** Math.max(0, crashes - 1));
}

/** Parses Procfile text into [{ name, command }] (blank lines and # comments skipped). */
export function parseProcfile(text) {
  return text
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith("#"))
    .map((l) => {
      const i = l.indexOf(":");
      return { name: l.slice(0, i).trim(), command: l.slice(i + 1).trim() };
    });
}

/**
 * Starts every process and supervises it. Options: cwd, env, resolve (maps a command's program,
 * e.g. "bun" to node_modules/.bin/bun), out (a line writer, default stdout), initialDelayMs (500),
 * maxDelayMs (30 s), stableMs (30 s), stopTimeoutMs (5 s: then SIGKILL), signals (true: SIGINT
 * and SIGTERM stop everything and exit the process).
 * Returns { stop(): Promise<void>, pids(): Record<name, pid> }.
 */
export function supervise(procs, opts = {}) {
  const {
    cwd = process.cwd(),
    env = process.env,
    resolve = (cmd) => cmd,
    out = (line) => process.stdout.write(line + "\n"),
    initialDelayMs = 500,
    maxDelayMs = 30_000,
    stableMs = 30_000,
    stopTimeoutMs = 5_000,
    signals = true,
  } = opts;
  const width = Math.max(...procs.map((p) => p.name.length));
  let stopping = false;
  const slots = procs.map((p, i) => ({
    ...p,
    prefix: `\x1b[${colors[i % colors.length]}m${p.name.padEnd(width)} |\x1b[0m `,
    child: null,
    crashes: 0,
    timer: null,
  }));

  function pipe(slot, stream) {
    let buffer = "";
    stream.on("data", (chunk) => {
      buffer += chunk;
      const lines = buffer.split("\n");
      buffer = lines.pop();
      for (const line of lines) out(slot.prefix + line);
    });
  }

  function start(slot) {
    slot.timer = null;
    if (stopping) return;
    const [cmd, ...args] = slot.command.split(/\s+/);
    const startedAt = Date.now();
    const child = spawn(resolve(cmd), args, { cwd, env });
    slot.child = child;
    pipe(slot, child.stdout);
    pipe(slot, child.stderr);
    // A program that cannot start at all ("ENOENT") counts as a crash like any other exit.
    child.on("error", (err) => out(`${slot.prefix}failed to start: ${err.message}`));
    child.on("close", (code, signal) => {
      slot.child = null;
      if (stopping) {
        out(`${slot.prefix}stopped (${code ?? signal})`);
        return;
      }
      slot.crashes = Date.now() - startedAt >= stableMs ? 1 : slot.crashes + 1;
      const delay = backoffDelay(slot.crashes, initialDelayMs, maxDelayMs);
      out(`${slot.prefix}exited (${code ?? signal}); restarting in ${delay} ms (crash ${slot.crashes} in a row)`);
      slot.timer = setTimeout(() => start(slot), delay);
    });
  }

  for (const slot of slots) start(slot);

  /** Stops every child (SIGTERM, then SIGKILL after stopTimeoutMs) and cancels pending restarts. */
  function stop() {
    stopping = true;
    return Promise.all(
      slots.map((slot) => {
        if (slot.timer) clearTimeout(slot.timer);
        const child = slot.child;
        if (!child || child.exitCode !== null || child.signalCode !== null) return undefined;
        return new Promise((resolveStop) => {
          const force = setTimeout(() => child.kill("SIGKILL"), stopTimeoutMs);
          child.once("close", () => {
            clearTimeout(force);
            resolveStop();
          });
          child.kill("SIGTERM");
        });
      }),
    ).then(() => undefined);
  }

  if (signals) {
    const onSignal = () => {
      if (stopping) return;
      out("stopping every process…");
      void stop().then(() => process.exit(0));
    };
    process.on("SIGINT", onSignal);
    process.on("SIGTERM", onSignal);
  }

  return { stop, pids: () => Object.fromEntries(slots.map((s) => [s.name, s.child?.pid ?? null])) };
}
