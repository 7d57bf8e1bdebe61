/**
 * One run of the worker's partition job (api/messages/partitions.ts maintainPartitions) against
 * DATABASE_URL with the clock and archive directory a test gives; prints the report as JSON.
 * Usage: DATABASE_URL=… bun tests/support/partitions-run.ts <now ISO> <archive dir> [ahead months]
 */
import { maintainPartitions } from "../../api/messages/partitions";

const report = await maintainPartitions({
  now: new Date(process.argv[2] ?? Date.now()),
  dir: process.argv[3],
  aheadMonths: process.argv[4] ? Number(process.argv[4]) : undefined,
});
console.log(JSON.stringify(report));
process.exit(0);
