/**
 * Zod's compiled fast path probes `new Function` when an object schema is built; under our
 * Content-Security-Policy (no 'unsafe-eval') the browser reports that probe as a violation even
 * though zod falls back. Forms' schemas are small, so the interpreted path is plenty. It is imported by
 * the chunk forms download with their schemas (lazy-validate.zod.ts, ADR 052), before any schema is built.
 */
import { config } from "zod/v4/core";

config({ jitless: true });
