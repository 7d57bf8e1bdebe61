/** /contacts/{id}/export?format=json|csv: the LGPD export as a download (owner or admin; audited by the use-case). */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { exportContact } from "~api/contacts/services";
import { orHttpError, requireRoute } from "~/lib/auth.server";

export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  const format = new URL(request.url).searchParams.get("format") ?? "json";
  const file = await orHttpError(exportContact(ctx, params.id ?? "", format));
  return new Response(file.body, {
    headers: {
      "Content-Type": file.contentType,
      "Content-Disposition": `attachment; filename="${file.filename}"`,
      "Cache-Control": "no-store",
    },
  });
}
