/**
 * The one way a process runs a periodic sweep: `every(name, ms, fn)` runs `fn` every `ms`, never
 * two runs at once (a run that takes longer than `ms` makes the next one wait for it, it is not
 * stacked), and a failure is logged once per run with the sweep's name instead of becoming an
 * unhandled rejection. `stop()` clears the timer and resolves when the run in progress ends, so
 * a shutdown does not cut a sweep in half.
 */
export type Every = { stop(): Promise<void> /** Runs it now (if none is running), e.g. at start. */; kick(): Promise<void> };

export function every(name: string, ms: number, fn: () => Promise<unknown> | unknown, log: (msg: string, e: unknown) => void = console.error): Every {
  let running: Promise<void> | null = null;
  let stopped = false;
  const run = () => {
    if (running || stopped) return running ?? Promise.resolve();
    // Started on a microtask, so even a synchronous fn settles after `running` is set.
    const current: Promise<void> = Promise.resolve()
      .then(fn)
      .then(
        () => undefined,
        (e) => log(`${name} failed`, e),
      )
      .finally(() => {
        if (running === current) running = null;
      });
    running = current;
    return current;
  };
  const timer = setInterval(() => void run(), ms);
  timer.unref?.();
  return {
    kick: run,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
