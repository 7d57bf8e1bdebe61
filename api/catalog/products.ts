/**
 * The product catalogue (issue 22; spec sections 3, 5 and 9): an account's products — name,
 * description, brand, model, reference, barcode, included items, additional message, warranty,
 * weight, price and discount in the account's currency, URL — with their images (./images.ts), and
 * the messaging channels each is published to (/catalog/list/registered). Every query names the
 * account: another account's product is a 404. The /catalog screens and the API
 * (/api/catalog/products…) call these same functions. Who: the spec's product roles, by the
 * policy's /catalog/list and /catalog/list/registered.
 */
import type { Transaction } from "sequelize";
import { sequelize } from "../../models/db";
import { recordAudit } from "../audit/record";
import type { SignedInCtx } from "../lib/context";
import { AppError } from "../lib/errors";
import { UUID } from "../lib/owned";
import { decodeCursor, keyset } from "../lib/page";
import { escapeLike, row, rows } from "../lib/sql";
import { validate } from "../lib/validate";
import { can } from "../policy/policy";
import { IMAGES_PER_PRODUCT, type PublishChannel, type Warranty } from "./constants";
import { type CheckedImage, catalogFilePath, checkImage, extOf, putBytes, sha256Of } from "./images";
import { bulkDeleteSchema, listSchema, productSchema } from "./schemas";

export const LIST_PATH = "/catalog/list";
export const REGISTERED_PATH = "/catalog/list/registered";

type ProductRow = {
  id: string;
  account_id: string;
  name: string;
  description: string;
  brand: string;
  model: string;
  reference: string;
  barcode: string;
  included_items: string;
  additional_message: string;
  warranty: Warranty;
  weight_grams: number | null;
  price_cents: string | number;
  discount_cents: string | number;
  url: string;
  published_channels: PublishChannel[];
  created_at: Date;
  updated_at: Date;
  currency: string;
};
type ImageRow = {
  id: string;
  product_id: string;
  sha256: string;
  content_type: string;
  size: number;
  width: number;
  height: number;
  thumb_sha256: string;
  thumb_content_type: string;
  thumb_size: number;
  position: number;
  created_at: Date;
};

const COLUMNS = `p.id, p.account_id, p.name, p.description, p.brand, p.model, p.reference, p.barcode, p.included_items, p.additional_message, p.warranty,
  p.weight_grams, p.price_cents, p.discount_cents, p.url, p.published_channels, p.created_at, p.updated_at,
  (SELECT btrim(a.currency) FROM accounts a WHERE a.id = p.account_id) AS currency`;
const IMAGE_COLUMNS = "i.id, i.product_id, i.sha256, i.content_type, i.size, i.width, i.height, i.thumb_sha256, i.thumb_content_type, i.thumb_size, i.position, i.created_at";

const productPath = (id: string) => `/api/catalog/products/${id}`;

function imageOut(i: ImageRow) {
  return {
    id: i.id,
    position: i.position,
    content_type: i.content_type,
    size: i.size,
    width: i.width,
    height: i.height,
    url: `${productPath(i.product_id)}/images/${i.id}`,
    thumbnail_url: `${productPath(i.product_id)}/images/${i.id}/thumbnail`,
    created_at: new Date(i.created_at).toISOString(),
  };
}
export type CatalogImage = ReturnType<typeof imageOut>;

function productOut(p: ProductRow, images: ImageRow[]) {
  const price = Number(p.price_cents);
  const discount = Number(p.discount_cents);
  return {
    id: p.id,
    account_id: p.account_id,
    name: p.name,
    description: p.description,
    brand: p.brand,
    model: p.model,
    reference: p.reference,
    barcode: p.barcode,
    included_items: p.included_items,
    additional_message: p.additional_message,
    warranty: p.warranty,
    weight_grams: p.weight_grams,
    currency: p.currency,
    price_cents: price,
    discount_cents: discount,
    final_price_cents: price - discount,
    url: p.url,
    published_channels: [...p.published_channels].sort(),
    images: images.map(imageOut),
    created_at: new Date(p.created_at).toISOString(),
    updated_at: new Date(p.updated_at).toISOString(),
  };
}
export type CatalogProduct = ReturnType<typeof productOut>;

export const canUseCatalog = (ctx: SignedInCtx) => can(ctx.actor, LIST_PATH);
export const canSeeRegistered = (ctx: SignedInCtx) => can(ctx.actor, REGISTERED_PATH);
function assertCatalog(ctx: SignedInCtx) {
  if (!canUseCatalog(ctx)) throw new AppError("FORBIDDEN");
}

async function imagesOf(accountId: string, productIds: string[], transaction?: Transaction): Promise<Map<string, ImageRow[]>> {
  const found = productIds.length
    ? await rows<ImageRow>(
        `SELECT ${IMAGE_COLUMNS} FROM catalog_product_images i WHERE i.account_id = $1 AND i.product_id = ANY($2::uuid[]) ORDER BY i.position, i.id`,
        [accountId, productIds],
        { transaction },
      )
    : [];
  const by = new Map<string, ImageRow[]>();
  for (const i of found) by.set(i.product_id, [...(by.get(i.product_id) ?? []), i]);
  return by;
}

/** One product of the account (404 for another account's, an unknown id or a non-uuid); locked when asked. */
async function productRow(accountId: string, id: string, transaction?: Transaction, lock = false): Promise<ProductRow> {
  if (!UUID.test(id)) throw new AppError("NOT_FOUND");
  const p = await row<ProductRow>(`SELECT ${COLUMNS} FROM catalog_products p WHERE p.account_id = $1 AND p.id = $2 ${lock ? "FOR UPDATE OF p" : ""}`, [accountId, id], {
    transaction,
  });
  if (!p) throw new AppError("NOT_FOUND");
  return p;
}

async function withImages(accountId: string, p: ProductRow, transaction?: Transaction) {
  return productOut(p, (await imagesOf(accountId, [p.id], transaction)).get(p.id) ?? []);
}

/**
 * The account's products, newest first, keyset paged by (created_at, id) to the microsecond;
 * `q` matches the name, brand, model, reference or barcode (any case); `published` keeps the
 * products published to a channel ("any": to at least one).
 */
export async function listProducts(ctx: SignedInCtx, input: unknown = {}) {
  assertCatalog(ctx);
  const q = validate(listSchema, input ?? {});
  if (q.published) {
    if (!canSeeRegistered(ctx)) throw new AppError("FORBIDDEN");
  }
  const after = decodeCursor(q.cursor, ["string", "string"]);
  const like = q.q?.trim() ? `%${escapeLike(q.q.trim())}%` : null;
  const found = await rows<ProductRow & { created_key: string }>(
    `SELECT ${COLUMNS}, to_char(p.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS created_key
       FROM catalog_products p
      WHERE p.account_id = $1
        AND ($2::text IS NULL OR p.name ILIKE $2 OR p.brand ILIKE $2 OR p.model ILIKE $2 OR p.reference ILIKE $2 OR p.barcode ILIKE $2)
        AND ($3::text IS NULL OR ($3 = 'any' AND cardinality(p.published_channels) > 0) OR $3 = ANY(p.published_channels))
        AND ($4::timestamptz IS NULL OR (p.created_at, p.id) < ($4::timestamptz, $5::uuid))
      ORDER BY p.created_at DESC, p.id DESC LIMIT $6`,
    [ctx.actor.accountId, like, q.published || null, after?.[0] ?? null, after?.[1] ?? null, q.limit + 1],
  );
  const images = await imagesOf(
    ctx.actor.accountId,
    found.map((p) => p.id),
  );
  return keyset(
    found,
    q.limit,
    (p) => [p.created_key, p.id],
    (p) => productOut(p, images.get(p.id) ?? []),
  );
}

export async function getProduct(ctx: SignedInCtx, id: string) {
  assertCatalog(ctx);
  const p = await productRow(ctx.actor.accountId, id);
  return { data: await withImages(ctx.actor.accountId, p) };
}

const WRITE_COLUMNS = [
  "name",
  "description",
  "brand",
  "model",
  "reference",
  "barcode",
  "included_items",
  "additional_message",
  "warranty",
  "weight_grams",
  "price_cents",
  "discount_cents",
  "url",
  "published_channels",
] as const;
const valuesOf = (v: ReturnType<typeof productSchema.parse>) => WRITE_COLUMNS.map((c) => v[c]);

/** A new product (201 with its Location over the API). */
export async function createProduct(ctx: SignedInCtx, input: unknown) {
  assertCatalog(ctx);
  const v = validate(productSchema, input ?? {});
  return sequelize().transaction(async (transaction) => {
    const created = await row<{ id: string }>(
      `INSERT INTO catalog_products (account_id, ${WRITE_COLUMNS.join(", ")})
       VALUES ($1, ${WRITE_COLUMNS.map((_, i) => `$${i + 2}`).join(", ")}) RETURNING id`,
      [ctx.actor.accountId, ...valuesOf(v)],
      { transaction },
    );
    await recordAudit({ ...ctx, transaction }, "catalog.product_created", { meta: { id: created!.id, name: v.name } });
    return { data: productOut(await productRow(ctx.actor.accountId, created!.id, transaction), []) };
  });
}

/**
 * Changes a product: the fields sent replace the stored ones (a field left out keeps its value),
 * then the whole product is checked again (a new price below the stored discount is refused on
 * `discount_cents`).
 */
export async function updateProduct(ctx: SignedInCtx, id: string, input: unknown) {
  assertCatalog(ctx);
  return sequelize().transaction(async (transaction) => {
    const p = await productRow(ctx.actor.accountId, id, transaction, true);
    const sent = input && typeof input === "object" && !Array.isArray(input) ? (input as Record<string, unknown>) : {};
    const merged: Record<string, unknown> = Object.fromEntries(WRITE_COLUMNS.map((c) => [c, c in sent ? sent[c] : p[c]]));
    const v = validate(productSchema, merged);
    await rows(
      `UPDATE catalog_products SET ${WRITE_COLUMNS.map((col, i) => `${col} = $${i + 3}`).join(", ")}, updated_at = now()
        WHERE account_id = $1 AND id = $2 RETURNING id`,
      [ctx.actor.accountId, p.id, ...valuesOf(v)],
      { transaction },
    );
    await recordAudit({ ...ctx, transaction }, "catalog.product_updated", { meta: { id: p.id, name: v.name } });
    return { data: await withImages(ctx.actor.accountId, await productRow(ctx.actor.accountId, p.id, transaction), transaction) };
  });
}

/** Publishes a product to a channel or takes it out (the screens' toggles): the other fields stay. */
export async function setPublished(ctx: SignedInCtx, id: string, channel: PublishChannel, on: boolean) {
  assertCatalog(ctx);
  const p = await productRow(ctx.actor.accountId, id);
  const next = on ? [...new Set([...p.published_channels, channel])] : p.published_channels.filter((x) => x !== channel);
  return updateProduct(ctx, id, { published_channels: next });
}

/** Deletes a product with its images' rows (the bytes stay on disk: they may be shared; ADR 059). Deals that named it keep their own copy of its name and price. */
export async function deleteProduct(ctx: SignedInCtx, id: string) {
  assertCatalog(ctx);
  return sequelize().transaction(async (transaction) => {
    const p = await productRow(ctx.actor.accountId, id, transaction, true);
    await rows(`DELETE FROM catalog_products WHERE account_id = $1 AND id = $2 RETURNING id`, [ctx.actor.accountId, p.id], { transaction });
    await recordAudit({ ...ctx, transaction }, "catalog.product_deleted", { meta: { id: p.id, name: p.name } });
    return { deleted: 1 };
  });
}

/** Deletes the products ticked (the list's bulk delete); ids of other accounts or unknown ones are ignored. */
export async function deleteProducts(ctx: SignedInCtx, input: unknown) {
  assertCatalog(ctx);
  const { ids } = validate(bulkDeleteSchema, input ?? {});
  const valid = ids.filter((x) => UUID.test(x));
  return sequelize().transaction(async (transaction) => {
    const gone = await rows<{ id: string }>(`DELETE FROM catalog_products WHERE account_id = $1 AND id = ANY($2::uuid[]) RETURNING id`, [ctx.actor.accountId, valid], {
      transaction,
    });
    if (gone.length) await recordAudit({ ...ctx, transaction }, "catalog.products_deleted", { meta: { ids: gone.map((g) => g.id) } });
    return { deleted: gone.length };
  });
}

/**
 * Adds an image to a product (after the last): checked and thumbnailed by ./images.ts, its bytes
 * and thumbnail written, the row inserted under the product's lock (so positions never collide).
 * The same bytes sent again to the same product answer the image already there (a retried upload
 * is one image). At most IMAGES_PER_PRODUCT.
 */
export async function addImage(ctx: SignedInCtx, productId: string, bytes: Uint8Array) {
  assertCatalog(ctx);
  // The product first: another account's answers 404 before the bytes are looked at.
  await productRow(ctx.actor.accountId, productId);
  const checked: CheckedImage = await checkImage(bytes);
  const sha = sha256Of(checked.bytes);
  const [stored, thumb] = [await putBytes(checked.bytes), await putBytes(checked.thumb)];
  if (stored !== sha) throw new AppError("INTERNAL");
  return sequelize().transaction(async (transaction) => {
    const p = await productRow(ctx.actor.accountId, productId, transaction, true);
    const existing = (await imagesOf(ctx.actor.accountId, [p.id], transaction)).get(p.id) ?? [];
    const same = existing.find((i) => i.sha256 === sha);
    if (same) return { data: imageOut(same), created: false };
    if (existing.length >= IMAGES_PER_PRODUCT) throw new AppError("VALIDATION", { fields: { file: [`catalog.errors.tooManyImages::${IMAGES_PER_PRODUCT}`] } });
    const position = existing.length ? Math.max(...existing.map((i) => i.position)) + 1 : 0;
    const [inserted] = await rows<ImageRow>(
      `INSERT INTO catalog_product_images AS i (account_id, product_id, sha256, content_type, size, width, height, thumb_sha256, thumb_content_type, thumb_size, position)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'image/webp', $9, $10) RETURNING ${IMAGE_COLUMNS}`,
      [ctx.actor.accountId, p.id, sha, checked.contentType, checked.bytes.byteLength, checked.width, checked.height, thumb, checked.thumb.byteLength, position],
      { transaction },
    );
    await rows(`UPDATE catalog_products SET updated_at = now() WHERE account_id = $1 AND id = $2 RETURNING id`, [ctx.actor.accountId, p.id], { transaction });
    await recordAudit({ ...ctx, transaction }, "catalog.image_added", { meta: { product_id: p.id, image_id: inserted.id, size: inserted.size } });
    return { data: imageOut(inserted), created: true };
  });
}

/** Removes an image; the ones after it move up one place (the first is the product's cover). */
export async function deleteImage(ctx: SignedInCtx, productId: string, imageId: string) {
  assertCatalog(ctx);
  if (!UUID.test(imageId)) throw new AppError("NOT_FOUND");
  return sequelize().transaction(async (transaction) => {
    const p = await productRow(ctx.actor.accountId, productId, transaction, true);
    const [gone] = await rows<{ position: number }>(
      `DELETE FROM catalog_product_images WHERE account_id = $1 AND product_id = $2 AND id = $3 RETURNING position`,
      [ctx.actor.accountId, p.id, imageId],
      { transaction },
    );
    if (!gone) throw new AppError("NOT_FOUND");
    await rows(
      `UPDATE catalog_product_images SET position = position - 1 WHERE account_id = $1 AND product_id = $2 AND position > $3 RETURNING id`,
      [ctx.actor.accountId, p.id, gone.position],
      { transaction },
    );
    await recordAudit({ ...ctx, transaction }, "catalog.image_deleted", { meta: { product_id: p.id, image_id: imageId } });
    return { deleted: 1 };
  });
}

export type ImageFile = { path: string; contentType: string; size: number; etag: string };

function fileOf(i: ImageRow, thumbnail: boolean): ImageFile {
  const sha = thumbnail ? i.thumb_sha256 : i.sha256;
  return { path: catalogFilePath(sha), contentType: thumbnail ? i.thumb_content_type : i.content_type, size: thumbnail ? i.thumb_size : i.size, etag: `"${sha}"` };
}

/** An image's (or its thumbnail's) file for the account's people (bearer); 404 for anything not theirs. */
export async function imageFile(ctx: SignedInCtx, productId: string, imageId: string, thumbnail: boolean): Promise<ImageFile> {
  assertCatalog(ctx);
  if (!UUID.test(productId) || !UUID.test(imageId)) throw new AppError("NOT_FOUND");
  const i = await row<ImageRow>(`SELECT ${IMAGE_COLUMNS} FROM catalog_product_images i WHERE i.account_id = $1 AND i.product_id = $2 AND i.id = $3`, [
    ctx.actor.accountId,
    productId,
    imageId,
  ]);
  if (!i) throw new AppError("NOT_FOUND");
  return fileOf(i, thumbnail);
}

/** The file a signed link names (`{id}.jpg|png` the image, `{id}.webp` its thumbnail); null when the extension is not the file's own. */
export async function signedImageFile(imageId: string, ext: string): Promise<ImageFile | null> {
  if (!UUID.test(imageId)) return null;
  const i = await row<ImageRow>(`SELECT ${IMAGE_COLUMNS} FROM catalog_product_images i WHERE i.id = $1`, [imageId]);
  if (!i) return null;
  if (ext === "webp") return fileOf(i, true);
  return ext === extOf(i.content_type) ? fileOf(i, false) : null;
}

export { extOf };
