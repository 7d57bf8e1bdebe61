/**
 * One run of the worker's billing job (api/billing/cycles.ts runBilling) against DATABASE_URL at
 * the instant a test gives (the clock under test's control); prints what it did as JSON.
 * Usage: DATABASE_URL=… SIMULATOR_URL=… bun tests/support/billing-run.ts <now ISO>
 */
import { runBilling } from "../../api/billing/cycles";
import { initModels } from "../../models";

// Sequelize's model classes are mapped once per process, here at its entry point, never in a use-case (ADR 025).
initModels();

const report = await runBilling(new Date(process.argv[2] ?? Date.now()));
console.log(JSON.stringify(report));
process.exit(0);
