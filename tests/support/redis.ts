/**
 * Redis for tests, on one server or a Redis Cluster alike (REDIS_URL as the processes read it,
 * ADR 028): a client, a SCAN over every master, and the key scheme under a run's or a private
 * stack's prefix (api/lib/redis-keys.ts: tests never build a key by hand).
 */
import Redis, { Cluster, type RedisOptions } from "ioredis";
import { keysFor } from "../../api/lib/redis-keys";
import { parseRedisUrl } from "../../api/lib/redis-url";

/** A client for `url` (one server, or a cluster's seed list). */
export function openRedis(url: string, options: RedisOptions = {}): Redis {
  const target = parseRedisUrl(url);
  if (!target.cluster) return new Redis(target.url, options);
  return new Cluster(target.seeds, { redisOptions: { ...options, password: target.password }, lazyConnect: options.lazyConnect }) as unknown as Redis;
}

const asCluster = (client: Redis): Cluster | null => ((client as unknown) instanceof Cluster ? (client as unknown as Cluster) : null);

/** A cluster client knows its masters once ready. */
async function ready(client: Redis) {
  const c = asCluster(client);
  if (!c || c.status === "ready") return;
  // A lazy client connects on its first command; a SCAN of the masters needs the slot map first.
  if (c.status === "wait") await c.connect();
  else await new Promise<void>((r) => c.once("ready", () => r()));
}

/** The nodes a SCAN must visit: every master of a cluster, or the one server. */
function scanNodes(client: Redis): Redis[] {
  return asCluster(client)?.nodes("master") ?? [client];
}

/** Every key matching `pattern`, on every master. */
export async function scanKeys(client: Redis, pattern: string): Promise<string[]> {
  await ready(client);
  const out: string[] = [];
  for (const node of scanNodes(client)) {
    let cursor = "0";
    do {
      const [next, page] = await node.scan(cursor, "MATCH", pattern, "COUNT", 1000);
      cursor = next;
      out.push(...page);
    } while (cursor !== "0");
  }
  return out;
}

/** Deletes every key under `prefix` (a run's or a private stack's clean-up). */
export async function deleteByPrefix(url: string, prefix: string): Promise<void> {
  const client = openRedis(url);
  try {
    await ready(client);
    // Per node, one DEL per key in a pipeline: a cluster refuses a DEL over keys of several slots.
    for (const node of scanNodes(client)) {
      let cursor = "0";
      do {
        const [next, page] = await node.scan(cursor, "MATCH", `${prefix}*`, "COUNT", 1000);
        cursor = next;
        if (page.length) {
          const p = node.pipeline();
          for (const k of page) p.del(k);
          await p.exec();
        }
      } while (cursor !== "0");
    }
  } finally {
    await client.quit();
  }
}

/** The key scheme under `prefix`. */
export const keysOf = (prefix: string) => keysFor(prefix);
