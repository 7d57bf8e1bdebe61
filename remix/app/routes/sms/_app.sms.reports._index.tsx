/** /sms/reports has no screen of its own: the statistics are the first report. */
import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { requireRoute } from "~/lib/auth.server";

export async function loader({ request }: LoaderFunctionArgs) {
  await requireRoute(request, "/sms/reports/stat");
  return redirect("/sms/reports/stat");
}
