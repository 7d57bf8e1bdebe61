/**
 * What the e-mail history screens share on the server (/mail/history, /mail/history/{id}; the
 * Export button and /mail/exports are the SMS history's, channel email: ./sms-reports.server.ts):
 * the filters read from the URL, one keyset page of the use-case, and its errors under the form's
 * field names. A thin adapter: the rules are api/email/history.ts's.
 */
import { json, type SerializeFrom } from "@remix-run/node";
import { getEmailMessage, listEmailMessages, previewEmailMessage } from "~api/email/history";
import { EMAIL_STATUSES } from "~api/email/statuses";
import { saoPauloToday } from "~api/sms/history";
import { can } from "~api/policy/policy";
import { EMAIL_HISTORY_FILTERS, type EmailHistoryFilters } from "~/components/email/history-filters";
import { orHttpError, requireRoute } from "./auth.server";
import { filterErrors } from "./sms-reports.server";

/** The use-case's input paths as the filter form's fields (a cursor's error shows above the form). */
export const EMAIL_FIELD_OF: Record<string, keyof EmailHistoryFilters> = { "created_at.gte": "start", "created_at.lte": "end", id: "id", status: "status", from: "from", to: "to" };

/** The filters of a URL (São Paulo days: the end defaults to today, the start to the end). */
export function emailHistoryValues(params: URLSearchParams): EmailHistoryFilters {
  const get = (k: string) => params.get(k)?.trim() ?? "";
  const end = get("end") || saoPauloToday();
  const values = Object.fromEntries(EMAIL_HISTORY_FILTERS.map((k) => [k, get(k)])) as EmailHistoryFilters;
  return { ...values, start: values.start || end, end };
}

/** The use-case's input of the filters shown and a page's cursor (/mail/history, platform staff's e-mail history). */
export const emailHistoryInput = (values: EmailHistoryFilters, cursor: string) => ({
  id: values.id,
  status: values.status,
  from: values.from,
  to: values.to,
  created_at: { gte: values.start, lte: values.end },
  cursor: cursor || undefined,
});

/** /mail/history: one keyset page of the URL's filters, or the filters' errors. */
export async function emailHistoryLoader(request: Request) {
  const ctx = await requireRoute(request);
  const params = new URL(request.url).searchParams;
  const values = emailHistoryValues(params);
  const cursor = params.get("cursor")?.trim() ?? "";
  let shown: ReturnType<typeof filterErrors<keyof EmailHistoryFilters>> = { errors: {}, formErrors: [] };
  let page: Awaited<ReturnType<typeof listEmailMessages>> | null = null;
  try {
    page = await listEmailMessages(ctx, emailHistoryInput(values, cursor));
  } catch (e) {
    shown = filterErrors(e, EMAIL_FIELD_OF);
  }
  return json({ page, values, cursor, ...shown, statuses: EMAIL_STATUSES, canExport: can(ctx.actor, "/mail/exports") }, { headers: { "Cache-Control": "private, no-store" } });
}
export type EmailHistoryData = SerializeFrom<typeof emailHistoryLoader>;

/** /mail/history/{id}: the message with its events and counts, and its rendered content for the sandboxed frame (another account's: not found). */
export async function emailMessageLoader(request: Request, id: string) {
  const ctx = await requireRoute(request);
  const { data } = await orHttpError(getEmailMessage(ctx, id));
  const { document } = await orHttpError(previewEmailMessage(ctx, id));
  return json({ message: data, preview: document }, { headers: { "Cache-Control": "private, no-store" } });
}
export type EmailMessageData = SerializeFrom<typeof emailMessageLoader>;
