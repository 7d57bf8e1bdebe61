/** `bun seeds/run.ts`: load the demo data (idempotent), then close the pool. */
import { closeDb } from "../models/db";
import { seed } from "./demo";

try {
  await seed({ log: (s) => console.log(s) });
  await closeDb();
  process.exit(0);
} catch (err) {
  console.error(`seed failed: ${(err as Error).message}`);
  await closeDb().catch(() => undefined);
  process.exit(1);
}
