/**
 * The body of POST and PUT /catalog/products for the OpenAPI document. Each field is `Unknown`
 * here on purpose: the use-case checks them with the zod schema (./schemas.ts), so a wrong value
 * is a translated 422 naming its field, as the web form shows it.
 */
import { t } from "elysia";
import { LIMITS, PUBLISH_CHANNELS, WARRANTIES } from "./constants";

const f = (description: string) => t.Optional(t.Unknown({ description }));

export const CatalogProductBody = t.Object({
  name: t.Unknown({ description: `1 to ${LIMITS.name} characters (required)` }),
  description: f(`Up to ${LIMITS.description} characters`),
  brand: f(`Up to ${LIMITS.brand} characters`),
  model: f(`Up to ${LIMITS.model} characters`),
  reference: f(`Up to ${LIMITS.reference} characters`),
  barcode: f(`Digits only, up to ${LIMITS.barcode} (EAN/GTIN)`),
  included_items: f(`Up to ${LIMITS.includedItems} characters`),
  additional_message: f(`Up to ${LIMITS.additionalMessage} characters`),
  warranty: f(WARRANTIES.join(", ")),
  weight_grams: f(`Grams, 0 to ${LIMITS.weightGrams}, or null`),
  price_cents: f(`Minor units of the account's currency, 0 to ${LIMITS.priceCents} (default 0)`),
  discount_cents: f("Minor units, 0 to the price (default 0)"),
  url: f(`The product's page: an http or https address, up to ${LIMITS.url} characters`),
  published_channels: f(`Channels it is published to: ${PUBLISH_CHANNELS.join(", ")}`),
});
