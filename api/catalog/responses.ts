/**
 * The success answers of the catalogue routes (routes.ts), as TypeBox schemas for the OpenAPI
 * document; in tests every answer is checked against them.
 */
import { t } from "elysia";
import { Page } from "../lib/page-schema";

const DateTime = (description: string) => t.String({ format: "date-time", description });

export const CatalogImage = t.Object({
  id: t.String({ format: "uuid" }),
  position: t.Integer({ minimum: 0, description: "Order among the product's images; 0 is its cover" }),
  content_type: t.Union([t.Literal("image/jpeg"), t.Literal("image/png")]),
  size: t.Integer({ description: "Bytes, at most 8 MB" }),
  width: t.Integer({ description: "Pixels: 500" }),
  height: t.Integer({ description: "Pixels: 500" }),
  url: t.String({ description: "GET: the image's bytes (bearer; ETag)" }),
  thumbnail_url: t.String({ description: "GET: its 160x160 WebP thumbnail (bearer; ETag)" }),
  created_at: DateTime("When it was added"),
});

export const CatalogProduct = t.Object({
  id: t.String({ format: "uuid" }),
  account_id: t.String({ format: "uuid" }),
  name: t.String({ description: "1 to 100 characters" }),
  description: t.String({ description: "Up to 200 characters" }),
  brand: t.String(),
  model: t.String(),
  reference: t.String(),
  barcode: t.String({ description: "Digits only, up to 14 (EAN/GTIN)" }),
  included_items: t.String(),
  additional_message: t.String(),
  warranty: t.Union([t.Literal("none"), t.Literal("1_month"), t.Literal("5_months"), t.Literal("1_year")]),
  weight_grams: t.Union([t.Integer({ minimum: 0 }), t.Null()], { description: "Grams; null when not given" }),
  currency: t.String({ description: "The account's currency (ISO 4217)" }),
  price_cents: t.Integer({ minimum: 0, description: "Minor units of the account's currency" }),
  discount_cents: t.Integer({ minimum: 0, description: "Minor units, at most the price" }),
  final_price_cents: t.Integer({ minimum: 0, description: "price_cents - discount_cents" }),
  url: t.String({ description: "The product's page (http or https), or empty" }),
  published_channels: t.Array(t.Union([t.Literal("rcs"), t.Literal("whatsapp")]), { description: "The channels it is published to (/catalog/list/registered)" }),
  images: t.Array(CatalogImage, { description: "In order; the first is the cover" }),
  created_at: DateTime("When it was created"),
  updated_at: DateTime("Last change"),
});

export const ProductAnswer = t.Object({ data: CatalogProduct });
export const ProductList = Page(CatalogProduct, "Products, newest first, keyset paged");
export const ImageAnswer = t.Object({ data: CatalogImage });
export const Deleted = t.Object({ deleted: t.Integer({ description: "How many were deleted" }) });
