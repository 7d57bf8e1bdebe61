/**
 * A small closed-loop load generator (Node, undici keep-alive): `connections` clients each send
 * requests back to back for `seconds`. Bounded in time and count; loopback targets only.
 */
import { Agent, request } from "undici";

export async function load(url, { connections = 50, seconds = 8, headers = {}, warmup = 1 } = {}) {
  const target = new URL(url);
  if (!["127.0.0.1", "localhost", "::1"].includes(target.hostname)) throw new Error("loopback targets only");
  const agent = new Agent({ connections, pipelining: 1, keepAliveTimeout: 10_000 });
  const run = async (ms, record) => {
    const until = Date.now() + ms;
    let ok = 0,
      failed = 0;
    const latencies = [];
    await Promise.all(
      Array.from({ length: connections }, async () => {
        while (Date.now() < until && ok + failed < 5_000_000) {
          const t0 = performance.now();
          try {
            const res = await request(target, { dispatcher: agent, headers });
            await res.body.dump();
            if (res.statusCode === 200) ok++;
            else failed++;
          } catch {
            failed++;
          }
          if (record) latencies.push(performance.now() - t0);
        }
      }),
    );
    return { ok, failed, latencies };
  };
  await run(warmup * 1000, false);
  const started = performance.now();
  const { ok, failed, latencies } = await run(seconds * 1000, true);
  const elapsed = (performance.now() - started) / 1000;
  await agent.close();
  latencies.sort((a, b) => a - b);
  const pct = (p) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))] ?? 0;
  return { rps: ok / elapsed, ok, failed, p50: pct(0.5), p99: pct(0.99) };
}
