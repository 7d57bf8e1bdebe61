/**
 * The catalogue over the API (issue 22): CRUD of /catalog/products, a product's images (multipart
 * upload, delete, the bytes and the thumbnail, cacheable by ETag) and the signed image links the
 * providers and the screens' <img> tags open (/catalog/images/{id}.{ext}). One plugin for
 * api/app.ts. Thin: the use-cases (./products.ts) check who, validate and scope by account.
 */
import { Elysia, t } from "elysia";
import { authenticated } from "../http/auth";
import { created } from "../http/created";
import { createdResponse, errorResponses, fileResponse, successResponse } from "../http/openapi";
import { pageQuery } from "../lib/page-schema";
import { IMAGE_MAX_BYTES, IMAGES_PER_PRODUCT, PUBLISH_CHANNELS } from "./constants";
import { validImageSignature, multipartFile } from "./images";
import {
  type ImageFile,
  addImage,
  createProduct,
  deleteImage,
  deleteProduct,
  deleteProducts,
  getProduct,
  imageFile,
  listProducts,
  signedImageFile,
  updateProduct,
} from "./products";
import { CatalogProductBody } from "./body";
import { Deleted, ImageAnswer, ProductAnswer, ProductList } from "./responses";
import { AppError } from "../lib/errors";

const id = t.Object({ id: t.String() });
const imageParams = t.Object({ id: t.String(), imageId: t.String() });

/** The bytes of an image file, or 304 when the caller already has them (If-None-Match). Bytes never change under an id: cached a day. */
function serveImage(file: ImageFile, request: Request, cache: "private" | "public") {
  const headers = {
    ETag: file.etag,
    "Cache-Control": `${cache}, max-age=86400, immutable`,
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": "default-src 'none'; sandbox",
  };
  const wanted = request.headers.get("If-None-Match");
  if (wanted?.split(",").some((e) => e.trim() === file.etag || e.trim() === `W/${file.etag}`)) return new Response(null, { status: 304, headers });
  return new Response(Bun.file(file.path), { headers: { ...headers, "Content-Type": file.contentType, "Content-Length": String(file.size) } });
}

const imageBytes = fileResponse({ "image/jpeg": "The image (JPG)", "image/png": "The image (PNG)" }, "The image's bytes; 304 with If-None-Match of its ETag");
const thumbBytes = fileResponse({ "image/webp": "The 160x160 WebP thumbnail" }, "The thumbnail's bytes; 304 with If-None-Match of its ETag");

const multipartImage = {
  content: { "multipart/form-data": { schema: { type: "object" as const, properties: { file: { type: "string" as const, format: "binary" } }, required: ["file"] } } },
};

const productRoutes = new Elysia({ name: "catalog-product-routes", tags: ["catalog"], detail: { security: [{ bearer: [] }] } })
  .use(authenticated)
  .get("/catalog/products", ({ ctx, query }) => listProducts(ctx, query), {
    query: t.Object({
      q: t.Optional(t.String({ description: "Part of the name, brand, model, reference or barcode, any case" })),
      published: t.Optional(t.String({ description: `${PUBLISH_CHANNELS.join(" or ")}: only products published to it; any: to at least one (/catalog/list/registered)` })),
      ...pageQuery,
    }),
    detail: { responses: { ...successResponse(ProductList), ...errorResponses(403, 422) }, summary: "The account's catalogue products, newest first" },
  })
  .post(
    "/catalog/products",
    async ({ ctx, body, set }) => {
      const answer = await createProduct(ctx, body);
      return created(set, `/api/catalog/products/${answer.data.id}`, answer);
    },
    {
      body: CatalogProductBody,
      detail: {
        responses: { ...createdResponse(ProductAnswer, "The product; Location is the product"), ...errorResponses(403, 422) },
        summary: "A new catalogue product; each refused field is a 422 naming it (name 1-100, description 200, warranty, barcode digits, discount at most the price…)",
      },
    },
  )
  .get("/catalog/products/:id", ({ ctx, params }) => getProduct(ctx, params.id), {
    params: id,
    detail: { responses: { ...successResponse(ProductAnswer), ...errorResponses(403, 404) }, summary: "One product of the account, with its images" },
  })
  .put("/catalog/products/:id", ({ ctx, params, body }) => updateProduct(ctx, params.id, body), {
    params: id,
    body: t.Partial(CatalogProductBody),
    detail: {
      responses: { ...successResponse(ProductAnswer), ...errorResponses(403, 404, 422) },
      summary: "Change a product: the fields sent replace the stored ones (published_channels publishes it to RCS or WhatsApp, or takes it out)",
    },
  })
  .delete("/catalog/products/:id", ({ ctx, params }) => deleteProduct(ctx, params.id), {
    params: id,
    detail: { responses: { ...successResponse(Deleted), ...errorResponses(403, 404) }, summary: "Delete a product with its images" },
  })
  .post("/catalog/products/delete", ({ ctx, body }) => deleteProducts(ctx, body), {
    body: t.Object({ ids: t.Array(t.String(), { description: "Product ids (others' and unknown ones are ignored), up to 500" }) }),
    detail: { responses: { ...successResponse(Deleted), ...errorResponses(403, 422) }, summary: "Delete several products (the list's bulk delete)" },
  })
  .post(
    "/catalog/products/:id/images",
    async ({ ctx, params, request, set }) => {
      const { bytes } = await multipartFile(request);
      const answer = await addImage(ctx, params.id, bytes);
      if (!answer.created) return { data: answer.data };
      return created(set, answer.data.url, { data: answer.data });
    },
    {
      params: id,
      parse: "none",
      detail: {
        requestBody: multipartImage,
        responses: {
          ...createdResponse(ImageAnswer, "The image; Location is its bytes"),
          ...successResponse(ImageAnswer, "The same bytes were already this product's image"),
          ...errorResponses(403, 404, 422),
        },
        summary: `Add an image (multipart, field file): JPG or PNG, exactly 500x500 px, at most ${IMAGE_MAX_BYTES} bytes, decoded to check it ('Invalid image or corrupted', 'Invalid file size' on file); up to ${IMAGES_PER_PRODUCT} a product`,
      },
    },
  )
  .delete("/catalog/products/:id/images/:imageId", ({ ctx, params }) => deleteImage(ctx, params.id, params.imageId), {
    params: imageParams,
    detail: { responses: { ...successResponse(Deleted), ...errorResponses(403, 404) }, summary: "Remove an image (the ones after it move up)" },
  })
  .get("/catalog/products/:id/images/:imageId", async ({ ctx, params, request }) => serveImage(await imageFile(ctx, params.id, params.imageId, false), request, "private"), {
    params: imageParams,
    detail: { responses: { ...imageBytes, ...errorResponses(403, 404) }, summary: "An image's bytes (ETag: its SHA-256; If-None-Match answers 304)" },
  })
  .get(
    "/catalog/products/:id/images/:imageId/thumbnail",
    async ({ ctx, params, request }) => serveImage(await imageFile(ctx, params.id, params.imageId, true), request, "private"),
    {
      params: imageParams,
      detail: { responses: { ...thumbBytes, ...errorResponses(403, 404) }, summary: "An image's 160x160 WebP thumbnail (ETag; If-None-Match answers 304)" },
    },
  );

/** Signed links: for the screens' <img> tags and the providers that fetch a card's or a message's image. */
const signedRoutes = new Elysia({ name: "catalog-signed-routes", tags: ["catalog"] }).get(
  "/catalog/images/:file",
  async ({ params, query, request }) => {
    const m = /^([0-9a-f-]{36})\.(jpg|png|webp)$/i.exec(params.file);
    if (!m || !validImageSignature(params.file, query.exp, query.sig)) throw new AppError("NOT_FOUND");
    const file = await signedImageFile(m[1], m[2].toLowerCase());
    if (!file) throw new AppError("NOT_FOUND");
    return serveImage(file, request, "public");
  },
  {
    params: t.Object({ file: t.String({ description: "{imageId}.jpg or .png: the image; {imageId}.webp: its thumbnail" }) }),
    query: t.Object({ exp: t.Optional(t.String({ description: "Expiry (Unix seconds)" })), sig: t.Optional(t.String({ description: "Signature" })) }),
    detail: {
      security: [],
      responses: {
        ...fileResponse({ "image/jpeg": "The image", "image/png": "The image", "image/webp": "The thumbnail" }, "The bytes; 304 with If-None-Match of its ETag"),
        ...errorResponses(404),
      },
      summary: "A catalogue image by its signed link (no credential; an expired or altered link is 404)",
    },
  },
);

export const catalogApi = new Elysia({ name: "catalog-api" }).use(signedRoutes).use(productRoutes);
