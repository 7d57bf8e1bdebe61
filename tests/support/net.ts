/** Loopback helpers shared by the run's global set-up and the private process stacks. */
import { createServer } from "node:net";

export function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const s = createServer();
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as { port: number };
      s.close(() => res(port));
    });
    s.on("error", rej);
  });
}

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
