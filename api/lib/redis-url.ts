/** REDIS_URL: one server, or the seed nodes of a Redis Cluster (ADR 028). No imports: env.ts validates with it. */
export type RedisTarget = { cluster: false; url: string } | { cluster: true; seeds: Array<{ host: string; port: number }>; password?: string; username?: string };

/** What REDIS_URL names: one server, or the seed nodes of a cluster. Throws a sentence naming what is wrong. */
export function parseRedisUrl(value: string): RedisTarget {
  const parts = value
    .split(",")
    .map((p) => p.trim())
    .filter(Boolean);
  if (parts.length === 0) throw new Error("REDIS_URL is empty: give redis://host:port/db, or a comma-separated list of cluster seed nodes");
  const urls = parts.map((p) => {
    let u: URL;
    try {
      u = new URL(p);
    } catch {
      throw new Error(`REDIS_URL: "${p}" is not a URL (expected redis://host:port)`);
    }
    if (!["redis:", "rediss:", "redis+cluster:"].includes(u.protocol)) throw new Error(`REDIS_URL: "${p}" must start with redis://, rediss:// or redis+cluster://`);
    return u;
  });
  if (urls.length === 1 && urls[0].protocol !== "redis+cluster:") return { cluster: false, url: parts[0] };
  for (const u of urls) {
    if (u.pathname && u.pathname !== "/" && u.pathname !== "/0") throw new Error(`REDIS_URL: a Redis Cluster has only database 0 ("${u.href}" names ${u.pathname.slice(1)})`);
  }
  const first = urls[0];
  return {
    cluster: true,
    seeds: urls.map((u) => ({ host: u.hostname, port: Number(u.port || 6379) })),
    ...(first.password ? { password: decodeURIComponent(first.password) } : {}),
    ...(first.username ? { username: decodeURIComponent(first.username) } : {}),
  };
}
