/**
 * What the platform-wide SMS screens and the analytics (issue 23) share on the server: the URL's
 * period (and other fields) run through the screen's service; its validation errors by field
 * instead of figures. Who may read is the service's check (api/admin-sms/scope.ts).
 */
import type { SignedInCtx } from "~api/lib/context";
import { isAppError } from "~api/lib/errors";
import { requireRoute } from "./auth.server";

export async function periodReport<T>(request: Request, fields: readonly string[], run: (ctx: SignedInCtx, input: Record<string, string>) => Promise<T>) {
  const ctx = await requireRoute(request);
  const params = new URL(request.url).searchParams;
  const values = Object.fromEntries(["from", "to", "account_id", ...fields].map((k) => [k, params.get(k)?.trim() ?? ""])) as Record<string, string>;
  try {
    return { report: await run(ctx, values), values, errors: {} as Record<string, string[]> };
  } catch (e) {
    if (isAppError(e) && e.code === "VALIDATION") return { report: null, values, errors: (e.fields ?? {}) as Record<string, string[]> };
    if (isAppError(e)) throw new Response(e.code, { status: e.status });
    throw e;
  }
}

export const NO_STORE = { "Cache-Control": "private, no-store" };
