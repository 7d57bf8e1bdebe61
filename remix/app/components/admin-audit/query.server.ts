/** A GET screen's use-case: a VALIDATION refusal becomes the filter form's field errors (shown beside each field), anything else as the API answers. */
import { isAppError } from "~api/lib/errors";
import { orHttpError } from "~/lib/auth.server";

export async function withFieldErrors<T>(run: () => Promise<T>): Promise<{ result: T | null; errors: Record<string, string[]> | null }> {
  try {
    return { result: await run(), errors: null };
  } catch (e) {
    if (isAppError(e) && e.code === "VALIDATION") return { result: null, errors: e.fields ?? { "": ["errors.VALIDATION"] } };
    return { result: await orHttpError(Promise.reject(e)), errors: null };
  }
}

/** The query string's values, each trimmed and cut to 200 characters. */
export function searchOf(request: Request, names: string[]): Record<string, string> {
  const p = new URL(request.url).searchParams;
  return Object.fromEntries(names.map((n) => [n, (p.get(n) ?? "").trim().slice(0, 200)]));
}
