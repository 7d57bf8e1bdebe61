/** Loopback helpers shared by the run's global set-up and the private process stacks. */
/** A free loopback port from this worker's own slice, below the ephemeral range (./ports.mjs). */
export { freePort } from "./ports.mjs";

/** Waits until `url` answers 2xx. */
export async function waitFor(url: string, seconds = 60, everyMs = 200) {
  const until = Date.now() + seconds * 1000;
  while (Date.now() < until) {
    try {
      const r = await fetch(url);
      if (r.ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, everyMs));
  }
  throw new Error(`${url} did not come up in ${seconds}s`);
}
