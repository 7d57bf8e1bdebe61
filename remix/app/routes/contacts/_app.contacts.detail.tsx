/** /contacts/detail (the spec's name for the contact screen): /contacts/detail?id=… goes to /contacts/{id}. */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { requireRoute } from "~/lib/auth.server";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function loader({ request }: LoaderFunctionArgs) {
  await requireRoute(request);
  const id = new URL(request.url).searchParams.get("id") ?? "";
  return redirect(UUID.test(id) ? `/contacts/${id}` : "/contacts");
}
