/**
 * Prints a key of the key scheme (api/lib/redis-keys.ts, ADR 028) under this environment's
 * REDIS_PREFIX and shard counts: `bun api/cli/redis-key.ts accountLiveStream <account id>`.
 * For operators (which key holds this?) and for the plain-Node benches, which must not build
 * keys by hand.
 */
import { keys } from "../lib/redis-keys";

const [family, ...args] = process.argv.slice(2);
const build = (keys as Record<string, unknown>)[family ?? ""];
if (typeof build !== "function") {
  console.error(`usage: bun api/cli/redis-key.ts <family> [args…]; families: ${Object.keys(keys).join(", ")}`);
  process.exit(2);
}
const out = (build as (...a: string[]) => string | string[])(...args);
console.log(Array.isArray(out) ? out.join("\n") : out);
