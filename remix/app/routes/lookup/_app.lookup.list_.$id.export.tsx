/** /lookup/list/{id}/export: a list's results as CSV (streamed, in line order). Another account's list: 404. */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { lookupCsvResponse } from "~/components/lookup/csv.server";
import { requireRoute } from "~/lib/auth.server";

export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request, "/lookup/list");
  const id = params.id ?? "";
  return lookupCsvResponse(request, ctx, id, `lookup-${id.slice(0, 8)}.csv`);
}
