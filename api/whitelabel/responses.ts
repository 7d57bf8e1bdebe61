/**
 * The success answers of the whitelabel routes (routes.ts), as TypeBox schemas for the OpenAPI
 * document (api/http/openapi.ts successResponse). In tests every answer is checked against them.
 */
import { t } from "elysia";
import { Page } from "../lib/page-schema";

const color = t.String({ pattern: "^#[0-9a-f]{6}$", description: "#rrggbb, lower case" });

export const CurrentBrand = t.Object({
  brand: t.Union([t.Object({ name: t.String(), color }), t.Null()], { description: "Null when the host wears no reseller's brand (always on the platform's own hosts)" }),
});

export const Whitelabel = t.Object({
  id: t.String({ format: "uuid" }),
  name: t.String(),
  color,
  host: t.String({ description: "The host name the brand is shown on (lower case, unique)" }),
  account_id: t.Union([t.String({ format: "uuid" }), t.Null()], { description: "The reseller account that owns it" }),
});

export const WhitelabelAdmin = t.Composite([
  t.Object({ own: t.Union([Whitelabel, t.Null()], { description: "The acting (reseller) account's own whitelabel; null before it saves one" }) }),
  Page(Whitelabel, "Platform staff: every whitelabel by name; a reseller: its own (or none). One page: one whitelabel per reseller"),
]);
