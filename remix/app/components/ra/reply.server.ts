/** The /ra screens' form replies (issue 23): an AppError as the translated keys of its fields, or of its code. */
import { json } from "@remix-run/node";
import { isAppError } from "~api/lib/errors";

export type RaReply = { intent: string; fields?: Record<string, string[]>; formErrors?: string[]; values?: Record<string, string> };

export function replyOf(e: unknown, intent: string, values: Record<string, string> = {}) {
  if (!isAppError(e)) throw e;
  if (e.fields) return json<RaReply>({ intent, fields: e.fields, values }, { status: e.status });
  return json<RaReply>({ intent, formErrors: [`errors.${e.code}`], values }, { status: e.status });
}
