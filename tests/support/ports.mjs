/**
 * Free loopback ports for the test harness, the one way every helper picks one.
 *
 * Asking the kernel for port 0 and closing the socket is racy: the number comes from the ephemeral
 * range (32768-60999 here), so until our process binds it, any outgoing connection on the machine
 * (a Redis Cluster client, a pg pool, a fetch) may take it as its local port, or a parallel test
 * file may be handed the same one. A CI run lost a pass to that ("Is port 42933 in use?").
 *
 * So ports come from below the ephemeral range, and each vitest/Playwright worker has a slice of its
 * own (the run's global set-up has slice 0): no other worker and no outgoing connection draws from
 * it. Within the slice a port is handed out once per process and must bind before it is given.
 */
import { createServer } from "node:net";

const BASE = 10000;
const SLICE = 1500;
const SLICES = 15; // 10000 + 15 * 1500 = 32500, below the ephemeral range

/** This process's slice: vitest's pool id, Playwright's parallel index (+1), or 0 (global set-up, scripts). */
function sliceIndex() {
  const vitest = Number(process.env.VITEST_POOL_ID);
  if (Number.isInteger(vitest) && vitest > 0) return vitest % SLICES || SLICES - 1;
  const playwright = Number(process.env.TEST_PARALLEL_INDEX);
  if (Number.isInteger(playwright) && playwright >= 0) return (playwright + 1) % SLICES || SLICES - 1;
  return 0;
}

const handedOut = new Set();
let next = -1;

/** @param {number} port */
const bindable = (port) =>
  new Promise((resolve) => {
    const s = createServer();
    s.once("error", () => resolve(false));
    s.listen(port, "127.0.0.1", () => s.close(() => resolve(true)));
  });

/** A loopback port nothing listens on, from this process's slice; never the same one twice. */
export async function freePort() {
  const start = BASE + sliceIndex() * SLICE;
  if (next < 0) next = Math.floor(Math.random() * SLICE);
  for (let tries = 0; tries < SLICE; tries++) {
    const port = start + (next++ % SLICE);
    if (handedOut.has(port)) continue;
    if (await bindable(port)) {
      handedOut.add(port);
      return port;
    }
  }
  throw new Error(`no free loopback port in ${start}-${start + SLICE - 1}`);
}
