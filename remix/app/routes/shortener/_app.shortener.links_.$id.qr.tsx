/** /shortener/links/{id}/qr?format=svg|png: a short link's QR code as a download (another account's link: 404). */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { linkQr } from "~api/shortener/links";
import { orHttpError, requireRoute } from "~/lib/auth.server";

export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request, "/shortener/links");
  const format = new URL(request.url).searchParams.get("format") === "png" ? "png" : "svg";
  const { link, body } = await orHttpError(linkQr(ctx, params.id ?? "", format));
  return new Response(typeof body === "string" ? body : Buffer.from(body), {
    headers: {
      "Content-Type": format === "png" ? "image/png" : "image/svg+xml",
      "Content-Disposition": `attachment; filename="qr-${link.slug}.${format}"`,
      "Cache-Control": "private, no-store",
    },
  });
}
