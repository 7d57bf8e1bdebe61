/**
 * What the WhatsApp screens (remix/app/routes/whatsapp/) share on the server: the account's numbers
 * for the selects, the history's filters read from the URL and its page, São Paulo days, and a
 * use-case's AppError with its fields renamed to the form's (a thin adapter: the rules are the
 * use-cases' in api/whatsapp/).
 */
import { json } from "@remix-run/node";
import type { SignedInCtx } from "~api/lib/context";
import { AppError, isAppError } from "~api/lib/errors";
import { MESSAGE_STATUSES } from "~api/messages/status";
import { can } from "~api/policy/policy";
import { HISTORY_MAX_DAYS, saoPauloToday } from "~api/sms/history";
import { getWhatsappMessageDetail, listWhatsappMessages, type WhatsappHistoryItem } from "~api/whatsapp/history";
import { listWhatsappNumbers, type WhatsappNumber } from "~api/whatsapp/numbers";
import type { WhatsappHistoryFilters } from "~/components/whatsapp/history-filters";
import { orHttpError, requireRoute } from "./auth.server";

/** Every number of the account, oldest first (an account has a handful; the list pages by 200). */
export async function allNumbers(ctx: SignedInCtx): Promise<WhatsappNumber[]> {
  const out: WhatsappNumber[] = [];
  let cursor: string | undefined;
  do {
    const page = await listWhatsappNumbers(ctx, { limit: "200", ...(cursor ? { cursor } : {}) });
    out.push(...page.data);
    cursor = page.next_cursor ?? undefined;
  } while (cursor);
  return out;
}

/** A São Paulo day `n` days before today, YYYY-MM-DD. */
export function saoPauloDaysAgo(n: number, now = new Date()): string {
  const today = saoPauloToday(now);
  const d = new Date(`${today}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() - n);
  return d.toISOString().slice(0, 10);
}

/** The last `limit` messages of the longest range the history allows (31 São Paulo days up to today). */
export async function recentMessages(ctx: SignedInCtx, limit: number): Promise<WhatsappHistoryItem[]> {
  const { data } = await listWhatsappMessages(ctx, { "created_at[gte]": saoPauloDaysAgo(HISTORY_MAX_DAYS - 1), "created_at[lte]": saoPauloToday(), limit: String(limit) });
  return data;
}

/** The statuses a WhatsApp message can have (both directions). */
export const WHATSAPP_STATUSES = MESSAGE_STATUSES.filter((s) => s !== "pending" && s !== "scheduled" && s !== "unavailable");

const FIELD_OF: Record<string, keyof WhatsappHistoryFilters | "cursor"> = { "created_at.gte": "start", "created_at.lte": "end", status: "status", to: "to", cursor: "cursor" };

/** /whatsapp/history: the filters of the URL (São Paulo days, today by default), one keyset page, or the filters' errors. */
export async function whatsappHistoryLoader(request: Request) {
  const ctx = await requireRoute(request);
  const params = new URL(request.url).searchParams;
  const get = (k: string) => params.get(k)?.trim() ?? "";
  const today = saoPauloToday();
  const end = get("end") || today;
  const values: WhatsappHistoryFilters = { start: get("start") || end, end, status: get("status"), to: get("to") };
  const cursor = get("cursor");
  const errors: Partial<Record<keyof WhatsappHistoryFilters, string[]>> = {};
  let formErrors: string[] = [];
  let page: Awaited<ReturnType<typeof listWhatsappMessages>> | null = null;
  try {
    page = await listWhatsappMessages(ctx, { status: values.status, to: values.to, created_at: { gte: values.start, lte: values.end }, cursor: cursor || undefined });
  } catch (e) {
    if (!isAppError(e) || e.code !== "VALIDATION") throw e;
    for (const [k, v] of Object.entries(e.fields ?? {})) {
      const name = FIELD_OF[k];
      if (name && name !== "cursor") errors[name] = v;
      else formErrors = [...formErrors, ...v];
    }
  }
  return json(
    { page, values, cursor, errors, formErrors, statuses: WHATSAPP_STATUSES, canExport: can(ctx.actor, "/whatsapp/exports") },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

/** /whatsapp/history/{id}: one message of the account with its events (another account's is not found). */
export async function whatsappMessageLoader(request: Request, id: string) {
  const ctx = await requireRoute(request);
  const { data } = await orHttpError(getWhatsappMessageDetail(ctx, id));
  return json({ message: data }, { headers: { "Cache-Control": "private, no-store" } });
}

/** The same AppError with its field names renamed by `rename` (a use-case's input path -> the form's field). */
export function renameFields(e: unknown, rename: (fields: Record<string, string[]>) => Record<string, string[]>): unknown {
  if (!isAppError(e) || !e.fields) return e;
  return new AppError(e.code, { fields: rename(e.fields), params: e.params, message: e.message });
}
