/**
 * Loaders and actions shared by the SMS history and report screens (the same screen is reachable
 * as /sms/history and /sms/reports/history, /sms/exports and /sms/reports/exports, /sms/usage and
 * /sms/reports/usage): each route file passes its own paths. The export action, the exports list and the
 * file download also serve the WhatsApp history (`channel`).
 */
import { json } from "@remix-run/node";
import { createExport, listExports } from "~api/sms/exports";
import { getSmsMessage } from "~api/sms/get";
import { listSmsMessages, saoPauloToday, type SmsHistoryPage } from "~api/sms/history";
import { REPORT_STATUSES, type ReportChannel, smsUsage, type Usage } from "~api/sms/reports";
import { csvDownload, exportFile } from "~api/sms/exports";
import { isAppError } from "~api/lib/errors";
import type { SignedInCtx } from "~api/lib/context";
import { can } from "~api/policy/policy";
import type { HistoryFilterValues } from "~/components/sms-reports/history-filters";
import { orHttpError, requireRoute } from "~/lib/auth.server";
import { handleForm } from "~/lib/forms.server";
import { redirectWithToast } from "~/lib/toast.server";

const FIELD_OF: Record<string, keyof HistoryFilterValues> = { "created_at.gte": "start", "created_at.lte": "end", id: "id", from: "from", to: "to", status: "status" };

/**
 * A history use-case's VALIDATION error as its filter form shows it: each field's errors under the
 * form's name for it (`fieldOf`: the use-case's input path -> the field), the rest above the form.
 * Any other error is thrown on.
 */
export function filterErrors<F extends string>(e: unknown, fieldOf: Partial<Record<string, F>>): { errors: Partial<Record<F, string[]>>; formErrors: string[] } {
  if (!isAppError(e) || e.code !== "VALIDATION") throw e;
  const errors: Partial<Record<F, string[]>> = {};
  const formErrors: string[] = [];
  for (const [k, v] of Object.entries(e.fields ?? {})) {
    const name = fieldOf[k];
    if (name) errors[name] = v;
    else formErrors.push(...v);
  }
  return { errors, formErrors };
}

export function historyValues(params: URLSearchParams): HistoryFilterValues {
  const get = (k: string) => params.get(k)?.trim() ?? "";
  const today = saoPauloToday();
  const end = get("end");
  return { id: get("id"), start: get("start") || end || today, end: end || today, from: get("from"), to: get("to"), status: get("status") };
}

export async function historyLoader(request: Request) {
  const ctx = await requireRoute(request);
  const params = new URL(request.url).searchParams;
  const values = historyValues(params);
  let page: SmsHistoryPage | null = null;
  let shown: ReturnType<typeof filterErrors<keyof HistoryFilterValues>> = { errors: {}, formErrors: [] };
  try {
    page = await listSmsMessages(ctx, {
      id: values.id,
      from: values.from,
      to: values.to,
      status: values.status,
      created_at: { gte: values.start, lte: values.end },
      page: params.get("page") ?? undefined,
      cursor: params.get("cursor") ?? undefined,
    });
  } catch (e) {
    shown = filterErrors(e, FIELD_OF);
  }
  return json({ page, values, ...shown, statuses: REPORT_STATUSES, canExport: can(ctx.actor, "/sms/exports") }, { headers: { "Cache-Control": "private, no-store" } });
}

/** The history's Export button (SMS or WhatsApp): queue an export with the filters shown, then go to the exports list. */
export async function historyExportAction(request: Request, exportsPath: string, channel: ReportChannel = "sms") {
  const ctx = await requireRoute(request);
  return handleForm(request, null, async (_, form) => {
    const v = (k: string) => String(form.get(k) ?? "").trim();
    await createExport(ctx, { id: v("id"), from: v("from"), to: v("to"), status: v("status"), sent_at: { from: v("start"), to: v("end") } }, channel);
    return redirectWithToast(request, exportsPath, { type: "success", title: "smsReports:exports.requested" });
  });
}

export async function detailLoader(request: Request, id: string) {
  const ctx = await requireRoute(request);
  const { data } = await orHttpError(getSmsMessage(ctx, id));
  return json({ message: data }, { headers: { "Cache-Control": "private, no-store" } });
}

export async function exportsLoader(request: Request, channel: ReportChannel = "sms") {
  const ctx = await requireRoute(request);
  const exports = await orHttpError(listExports(ctx, 50, channel));
  return json({ exports }, { headers: { "Cache-Control": "private, no-store" } });
}

/** /{channel}/exports/{id}/file: the export's CSV as a download (another account's or channel's: 404; not finished: 409). */
export async function exportFileLoader(request: Request, id: string, channel: ReportChannel = "sms") {
  const ctx = await requireRoute(request);
  return csvDownload(await orHttpError(exportFile(ctx, id, channel)));
}

/** A usage screen (/sms/usage, /mail/usage): the period of the URL through the channel's use-case (default SMS's), or the period's errors. */
export async function usageLoader(request: Request, usageOf: (ctx: SignedInCtx, input: unknown) => Promise<Usage> = smsUsage) {
  const ctx = await requireRoute(request);
  const params = new URL(request.url).searchParams;
  const values = { from: params.get("from")?.trim() ?? "", to: params.get("to")?.trim() ?? "" };
  let usage: Usage | null = null;
  let errors: Record<string, string[]> = {};
  try {
    usage = await usageOf(ctx, values);
  } catch (e) {
    if (!isAppError(e) || e.code !== "VALIDATION") throw e;
    errors = e.fields ?? {};
  }
  return json({ usage, values, errors });
}
