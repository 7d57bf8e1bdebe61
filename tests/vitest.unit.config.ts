/**
 * The unit project (`npm run check`): the pure tests beside the code (api/, remix/, realtime/),
 * without the global stack set-up — no PostgreSQL, Redis or processes — so they run in seconds.
 * `npm test` (tests/vitest.config.ts) runs them too, with everything else.
 */
import { resolve } from "node:path";
import { defineConfig } from "vitest/config";

const root = resolve(__dirname, "..");

export default defineConfig({
  root,
  resolve: { alias: { "~": resolve(root, "remix/app"), "~api": resolve(root, "api") } },
  test: {
    include: ["api/**/*.test.ts", "remix/*.test.ts", "remix/app/**/*.test.ts", "realtime/**/*.test.ts"],
    testTimeout: 20_000,
    pool: "forks",
    maxWorkers: 2,
    reporters: ["default"],
  },
});
