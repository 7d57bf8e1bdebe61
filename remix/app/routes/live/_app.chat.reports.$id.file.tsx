/** /chat/reports/{id}/file: a conversation export's CSV as a download (another account's: 404; not finished: 409). */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { liveExportFile } from "~api/live/report-exports";
import { csvDownload } from "~api/sms/exports";
import { orHttpError, requireRoute } from "~/lib/auth.server";

export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  const file = await orHttpError(liveExportFile(ctx, params.id ?? ""));
  return csvDownload(file);
}
