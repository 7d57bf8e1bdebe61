/**
 * PostgreSQL rolls a transaction back whole when it meets another in a lock cycle
 * (deadlock_detected, 40P01) or cannot serialize it (serialization_failure, 40001). Whoever
 * wrote it may run it again: retryOnConflict does, a few times, after a short random pause so the
 * two do not meet again. Only for work that is safe to run twice (one transaction, nothing done
 * outside it before it commits).
 */
const RETRYABLE = new Set(["40P01", "40001"]);
const ATTEMPTS = 4;

/** The SQLSTATE of an error from pg or Sequelize (which wraps it as parent/original). */
export function sqlState(e: unknown): string | undefined {
  const err = e as { parent?: { code?: string }; original?: { code?: string }; code?: string };
  return err?.parent?.code ?? err?.original?.code ?? err?.code;
}

export async function retryOnConflict<T>(run: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (e) {
      if (attempt >= ATTEMPTS || !RETRYABLE.has(sqlState(e) ?? "")) throw e;
      await new Promise((r) => setTimeout(r, 5 + Math.random() * 20 * attempt));
    }
  }
}
