/**
 * The pictures of an RCS preview (the composer, the success screen, the history detail): the
 * customer's media links are on other hosts, and the pages' Content-Security-Policy loads images
 * only from our origin, so the web fetches a picture for the signed-in reader and serves it from
 * /rcs/media. Only what a handset would show as a picture: an https link of the content's media
 * rule ending .jpg, .jpeg, .png, .gif or .webp (no SVG: it can carry script), fetched through the
 * guarded client as the tenant's request (no private address, redirects checked, 5 s, the RCS
 * upload limit of 5,242,880 bytes), answered only when the host says it is such an image.
 */
import type { SignedInCtx } from "../lib/context";
import { AppError } from "../lib/errors";
import { outboundFetch } from "../lib/outbound";
import { can } from "../policy/policy";
import { mediaKind, rcsMediaLink } from "./content";

const PICTURE = /\.(jpe?g|png|gif|webp)$/i;
const PICTURE_TYPES = ["image/jpeg", "image/png", "image/gif", "image/webp"];
export const PREVIEW_MAX_BYTES = 5_242_880;
const TIMEOUT_MS = 5_000;

export async function previewPicture(ctx: SignedInCtx, url: string): Promise<{ bytes: Uint8Array; type: string }> {
  if (!can(ctx.actor, "/rcs/send") && !can(ctx.actor, "/rcs/history")) throw new AppError("FORBIDDEN");
  if (!rcsMediaLink(url) || mediaKind(url) !== "image" || !PICTURE.test(new URL(url).pathname)) throw new AppError("NOT_FOUND");
  let res: Awaited<ReturnType<typeof outboundFetch>>;
  try {
    res = await outboundFetch(url, { timeoutMs: TIMEOUT_MS, maxBytes: PREVIEW_MAX_BYTES, redirects: 3, trust: "tenant", headers: { Accept: PICTURE_TYPES.join(", ") } });
  } catch {
    throw new AppError("NOT_FOUND");
  }
  const type = (res.headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase();
  if (res.status !== 200 || !PICTURE_TYPES.includes(type)) throw new AppError("NOT_FOUND");
  return { bytes: res.body, type };
}
