/**
 * /rcs/media?u=<link>: a picture of an RCS preview, fetched for the signed-in reader through the
 * guarded client (api/rcs/media-preview.ts) so the page's img-src can stay our own origin. Not an
 * image the handset would show: 404, and the preview keeps its tile.
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { previewPicture } from "~api/rcs/media-preview";
import { orHttpError, requireRoute } from "~/lib/auth.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireRoute(request, "/rcs/history");
  const url = new URL(request.url).searchParams.get("u") ?? "";
  const picture = await orHttpError(previewPicture(ctx, url));
  return new Response(Buffer.from(picture.bytes), {
    headers: {
      "Content-Type": picture.type,
      "Cache-Control": "private, max-age=3600",
      "X-Content-Type-Options": "nosniff",
      "Content-Security-Policy": "default-src 'none'; sandbox",
    },
  });
}
