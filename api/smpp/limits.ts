/**
 * How many refused binds our SMPP server (api/smpp/server.ts) takes before it stops listening to
 * a client: per TCP session, and per client IP through the one limiter (api/lib/rate-limit.ts).
 * Apart from the server so tests can read them without starting it.
 */
import type { Rule } from "../lib/rate-limit";

/** Refused binds one TCP session may make; then it is closed (each further guess needs a new connection). */
export const MAX_FAILED_BINDS = 3;
/** Failed credentials (unknown system_id or wrong password) per client IP, whatever the system_id. */
export const BIND_FAILURES_PER_IP: Rule = { name: "smpp-bind-ip", limit: 10, windowSeconds: 15 * 60 };
