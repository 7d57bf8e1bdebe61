/**
 * A process with two Redis clients (the shared one and a fresh one, both from api/lib/redis)
 * pointed at REDIS_URL, which the test leaves closed: it runs RUN_MS and exits, so the test can
 * count what a Redis outage writes to its logs.
 */
import { connect, redis } from "../../api/lib/redis";

connect("reader");
redis()
  .get("probe")
  .catch(() => undefined);
setTimeout(() => process.exit(0), Number(process.env.RUN_MS ?? 4000));
