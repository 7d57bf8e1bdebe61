/** `bun seeds/run.ts`: load the demo data (idempotent), then close the pool. */
import { closeDb } from "../models/db";
import { seed } from "./demo";
import { initModels } from "../models";

// Sequelize's model classes are mapped once per process, here at its entry point, never in a use-case (ADR 025).
initModels();

try {
  await seed({ log: (s) => console.log(s) });
  await closeDb();
  process.exit(0);
} catch (err) {
  console.error(`seed failed: ${(err as Error).message}`);
  await closeDb().catch(() => undefined);
  process.exit(1);
}
