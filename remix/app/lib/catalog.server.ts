/**
 * What the catalogue screens (remix/app/routes/catalog/) do on the server besides calling the
 * use-cases: the images' links for <img> tags (signed, a day's worth, so the browser caches one
 * URL a day: api/catalog/images.ts), the account's currency for the forms, and the image form's
 * upload.
 */
import { json } from "@remix-run/node";
import { IMAGE_MAX_BYTES } from "~api/catalog/constants";
import { assertDeclaredLength, readLimited, signedImageUrl } from "~api/catalog/images";
import { addImage, type CatalogImage, type CatalogProduct } from "~api/catalog/products";
import type { SignedInCtx } from "~api/lib/context";
import { AppError } from "~api/lib/errors";
import { row } from "~api/lib/sql";
import { z } from "~api/lib/zod";
import { requireRoute } from "./auth.server";
import { requireCsrf } from "./csrf.server";
import { handleForm, type FormReply } from "./forms.server";
import { redirectWithToast } from "./toast.server";
import { streamUpload } from "./uploads.server";

const LIST = "/catalog/list";
const uploadSchema = z.object({ intent: z.literal("upload") });

const DAY = 86_400;

export const thumbUrl = (image: Pick<CatalogImage, "id">) => signedImageUrl(image.id, "webp", DAY);
export const imageUrl = (image: Pick<CatalogImage, "id" | "content_type">) => signedImageUrl(image.id, image.content_type === "image/png" ? "png" : "jpg", DAY);

/** A product as the tables show it. */
export function tableRow(p: CatalogProduct) {
  return {
    id: p.id,
    name: p.name,
    reference: p.reference,
    brand: p.brand,
    currency: p.currency,
    price_cents: p.price_cents,
    discount_cents: p.discount_cents,
    final_price_cents: p.final_price_cents,
    published_channels: p.published_channels,
    thumb: p.images[0] ? thumbUrl(p.images[0]) : null,
  };
}

export async function accountCurrency(ctx: SignedInCtx): Promise<string> {
  const a = await row<{ currency: string }>(`SELECT btrim(currency) AS currency FROM accounts WHERE id = $1`, [ctx.actor.accountId]);
  return a?.currency || "BRL";
}

/**
 * The image form: the file streamed to the use-case within 8 MB — refused by its declared length
 * before a byte is read (nothing done: the refusal alone), else as soon as it passes the limit.
 */
export async function uploadImage(request: Request, productId: string) {
  const ctx = await requireRoute(request, LIST);
  try {
    assertDeclaredLength(request);
  } catch (e) {
    if (!(e instanceof AppError)) throw e;
    const result = { status: "error", initialValue: { intent: "upload" }, error: { file: e.fields?.file ?? [] } } as FormReply["result"];
    return json({ result } satisfies FormReply, { status: e.status });
  }
  const { fields, outcome } = await streamUpload(request, {
    fileField: "file",
    acceptFiles: (f) =>
      f.get("intent") === "upload" &&
      requireCsrf(request, f).then(
        () => true,
        () => false,
      ),
    consume: async (files) => {
      for await (const file of files) return addImage(ctx, productId, await readLimited(file.stream, IMAGE_MAX_BYTES));
      return null;
    },
  });
  return handleForm(
    request,
    uploadSchema,
    async () => {
      if (outcome.status === "error") throw outcome.error;
      if (outcome.status !== "ok" || !outcome.value) throw new AppError("VALIDATION", { fields: { file: ["validation.required"] } });
      return redirectWithToast(request, `${LIST}/${productId}`, { type: "success", title: "catalog:images.added" });
    },
    { formData: fields },
  );
}
