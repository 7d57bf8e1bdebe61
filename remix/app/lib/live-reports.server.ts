/** The query string of the live report screens as the use-cases' input, and their validation errors per field. */
import { isAppError } from "~api/lib/errors";
import { saoPauloDay } from "~api/live/reports";
import type { PeriodValues } from "~/components/live-reports/period-filters";

export function periodValues(params: URLSearchParams | FormData): PeriodValues {
  const get = (k: string) => String(params.get(k) ?? "").trim();
  const today = saoPauloDay();
  const end = get("end");
  return { begin: get("begin") || end || today, end: end || today, department_id: get("department_id"), agent_id: get("agent_id") };
}

/** Runs `work`; a VALIDATION error becomes field errors (null result) instead of an error page. */
export async function withFieldErrors<T>(work: () => Promise<T>): Promise<{ value: T | null; errors: Record<string, string[]> }> {
  try {
    return { value: await work(), errors: {} };
  } catch (e) {
    if (!isAppError(e) || e.code !== "VALIDATION") throw e;
    return { value: null, errors: e.fields ?? {} };
  }
}
