/**
 * A stand-alone release sweeper for tests: runs api/sms/release.ts's releaseDue(batch) in a loop
 * for `ms` milliseconds against DATABASE_URL and prints how many messages it released, so a test
 * can race several sweepers (and the worker's own) on the same due messages.
 * Usage: DATABASE_URL=… bun tests/support/release-run.ts <batch> <ms>
 */
import { releaseDue } from "../../api/sms/release";
import { initModels } from "../../models";

// Sequelize's model classes are mapped once per process, here at its entry point, never in a use-case (ADR 025).
initModels();

const batch = Number(process.argv[2] ?? 100);
const until = Date.now() + Number(process.argv[3] ?? 3000);
let released = 0;
while (Date.now() < until) {
  released += await releaseDue(batch);
  await new Promise((r) => setTimeout(r, 20));
}
console.log(JSON.stringify({ released }));
process.exit(0);
