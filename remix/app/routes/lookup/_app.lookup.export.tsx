/** /lookup/export: the account's single lookups as CSV (streamed, newest first). */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { lookupCsvResponse } from "~/components/lookup/csv.server";
import { requireRoute } from "~/lib/auth.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request, "/lookup");
  return lookupCsvResponse(request, ctx, null, "lookups.csv");
}
