/**
 * /sms/blacklist: the spec's name for the same deny list (its API is /api/blacklist). One screen
 * for one list: after the guard, it redirects to /sms/denylist keeping the query (ADR 011).
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { requireRoute } from "~/lib/auth.server";

export async function loader({ request }: LoaderFunctionArgs) {
  await requireRoute(request);
  return redirect(`/sms/denylist${new URL(request.url).search}`);
}
