/**
 * /rcs/campaigns/{id}/invalid-rows: the CSV of an RCS file send's rows without a valid number
 * (line, value, reason) in the reader's language, streamed as it is read (api/sms/invalid-rows.ts).
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { invalidRowsHeaders, invalidRowsReport, reportStream } from "~api/sms/invalid-rows";
import { orHttpError, requireRoute } from "~/lib/auth.server";
import { i18next } from "~/lib/i18n.server";

export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  const report = await orHttpError(invalidRowsReport(ctx, params.id ?? "", await i18next.getLocale(request), "rcs"));
  return new Response(reportStream(report), { headers: invalidRowsHeaders(report) });
}
