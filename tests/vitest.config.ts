import { defineConfig } from "vitest/config";
import { resolve } from "node:path";

const root = resolve(__dirname, "..");

export default defineConfig({
  root,
  resolve: { alias: { "~": resolve(root, "remix/app"), "~api": resolve(root, "api") } },
  test: {
    include: ["tests/**/*.test.ts", "api/**/*.test.ts", "remix/*.test.ts", "remix/app/**/*.test.ts"],
    globalSetup: ["tests/setup/global.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // expect.poll waits on an observable condition; vitest's own bound (1 s) is shorter than one
    // form post, redirect and render takes on a loaded two-core CI machine (a rating post in
    // support-tickets missed it in CI). A poll passes as soon as its condition holds, so a longer
    // bound only costs time when a test is failing anyway.
    expect: { poll: { timeout: 20_000 } },
    pool: "forks",
    // Four files at once on two cores (ADR 040): most of a file's time is waiting on its servers,
    // so two left the cores half idle. TEST_WORKERS overrides it.
    maxWorkers: Number(process.env.TEST_WORKERS ?? 4),
    fileParallelism: true,
    reporters: ["default"],
  },
});
