/** /invoice/{id}/pdf: the invoice as a PDF download (api/billing/invoice-pdf.ts; another account's invoice: 404). */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { invoicePdf } from "~api/billing/invoice-pdf";
import { orHttpError, requireRoute } from "~/lib/auth.server";

export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request);
  const { bytes, filename } = await orHttpError(invoicePdf(ctx, params.id ?? ""));
  return new Response(Buffer.from(bytes), {
    headers: { "Content-Type": "application/pdf", "Content-Disposition": `attachment; filename="${filename}"`, "Cache-Control": "private, no-store" },
  });
}
