/**
 * A catalogue product as a message (issue 22): the RCS card and the WhatsApp message the
 * /catalog/list/registered screen opens the channels' own send screens with. Nothing is sent here:
 * the person sends from /rcs/send or /whatsapp/send, through each channel's one send path.
 * - RCS: a standalone rich card (api/rcs/content.ts): title the product's name, description its
 *   description and price, media its cover image by a signed link on APP_URL (ending in .jpg/.png,
 *   as RBM takes media), and its URL as an "open URL" suggestion.
 * - WhatsApp: the WhatsApp module has no product message (Graph's product messages need a
 *   Commerce Manager catalogue; its interactive types here are buttons and lists), so an image
 *   message: the cover by its signed link, the caption the name, description, price and URL.
 */
import { env } from "../lib/env";
import type { SignedInCtx } from "../lib/context";
import { translate } from "../lib/i18n";
import { RCS_LIMITS } from "../rcs/content";
import { type CatalogProduct, getProduct } from "./products";
import { extOf, signedImageUrl } from "./images";

/** A cover link the provider can fetch for a month (a card saved as a template, a message queued). */
const PROVIDER_TTL = 30 * 86_400;

function priceText(p: CatalogProduct, locale: string | undefined) {
  const money = (minor: number) => new Intl.NumberFormat(locale === "en" ? "en-US" : (locale ?? "pt-BR"), { style: "currency", currency: p.currency || "BRL" }).format(minor / 100);
  if (p.discount_cents > 0) return translate(locale, "catalog:message.priceDiscount", { price: money(p.price_cents), final: money(p.final_price_cents) });
  return translate(locale, "catalog:message.price", { price: money(p.price_cents) });
}

function coverUrl(p: CatalogProduct): string | undefined {
  const cover = p.images[0];
  if (!cover) return undefined;
  return signedImageUrl(cover.id, extOf(cover.content_type) as "jpg" | "png", PROVIDER_TTL, env().APP_URL.replace(/\/+$/, ""));
}

const cut = (s: string, max: number) =>
  Array.from(s).length > max
    ? `${Array.from(s)
        .slice(0, max - 1)
        .join("")}…`
    : s;

/** The RCS content of a product's card (the composer's initial content on /rcs/send?product=). */
export async function rcsCardOf(ctx: SignedInCtx, productId: string) {
  const { data: p } = await getProduct(ctx, productId);
  const description = [p.description, priceText(p, ctx.locale)].filter(Boolean).join("\n");
  const label = cut(translate(ctx.locale, "catalog:message.open"), RCS_LIMITS.suggestionText);
  return {
    type: "card" as const,
    messageText: cut(p.name, RCS_LIMITS.cardTitle),
    messageDescription: cut(description, RCS_LIMITS.cardDescription),
    ...(coverUrl(p) ? { imageUrl: coverUrl(p) } : {}),
    ...(p.url ? { suggestions: [{ type: "url" as const, text: label, url: p.url }] } : {}),
  };
}

/** The WhatsApp image message of a product (/whatsapp/send?type=image&media_link=&caption=), or text when it has no image. */
export async function whatsappMessageOf(ctx: SignedInCtx, productId: string) {
  const { data: p } = await getProduct(ctx, productId);
  const caption = cut([`*${p.name}*`, p.description, priceText(p, ctx.locale), p.url].filter(Boolean).join("\n"), 1024);
  const link = coverUrl(p);
  return link ? { type: "image" as const, media_link: link, caption } : { type: "text" as const, text: caption };
}

/** The link that opens /rcs/send with a product's card. */
export const rcsSendHref = (productId: string) => `/rcs/send?product=${encodeURIComponent(productId)}`;
/** The link that opens /whatsapp/send with a product's message. */
export const whatsappSendHref = (productId: string) => `/whatsapp/send?product=${encodeURIComponent(productId)}`;
