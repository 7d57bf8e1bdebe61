/** Catalogue (issue 22): the constants the browser needs without the schemas (and zod) beside them (ADR 052). */

/** Spec section 3: a product's warranty. */
export const WARRANTIES = ["none", "1_month", "5_months", "1_year"] as const;
export type Warranty = (typeof WARRANTIES)[number];

/** The messaging channels a product is published to (/catalog/list/registered). */
export const PUBLISH_CHANNELS = ["rcs", "whatsapp"] as const;
export type PublishChannel = (typeof PUBLISH_CHANNELS)[number];

/** Spec sections 3 and 5: the texts' limits (characters). */
export const LIMITS = {
  name: 100,
  description: 200,
  brand: 100,
  model: 100,
  reference: 100,
  includedItems: 200,
  additionalMessage: 200,
  url: 2048,
  /** GTIN-8/12/13/14: digits only. */
  barcode: 14,
  /** Grams: 1,000 kg. */
  weightGrams: 1_000_000,
  /** Minor units: 10,000,000.00. */
  priceCents: 1_000_000_000,
} as const;

/** Spec section 5: a product image is JPG or PNG, exactly 500x500 px, at most 8 MB. */
export const IMAGE_SIDE = 500;
export const IMAGE_MAX_BYTES = 8 * 1024 * 1024;
export const IMAGE_TYPES = ["image/jpeg", "image/png"] as const;
/** The thumbnail every image gets (ADR 059): WebP, this many pixels a side. */
export const THUMB_SIDE = 160;
/** Images a product holds (ADR 059: the spec gives no number; a card or a product message shows one). */
export const IMAGES_PER_PRODUCT = 8;
