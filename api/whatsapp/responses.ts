/**
 * The success answers of the WhatsApp routes (./routes), as TypeBox schemas for the OpenAPI
 * document (api/http/openapi.ts successResponse). A number's secrets are never answered.
 */
import { Type } from "@sinclair/typebox";
import { t } from "elysia";
import { Page } from "../lib/page";

const nullable = <T extends Parameters<typeof t.Union>[0][number]>(s: T) => t.Union([s, t.Null()]);

export const WhatsappNumber = t.Object({
  id: t.String({ format: "uuid" }),
  integration: t.Union([t.Literal("cloud"), t.Literal("onprem")], { description: "cloud: Meta's WhatsApp Business Cloud API; onprem: the older integration" }),
  phone_number_id: t.String({ description: "Meta's phone number id" }),
  waba_id: nullable(t.String({ description: "The WhatsApp Business Account it belongs to (cloud)" })),
  display_phone_number: t.String(),
  verified_name: t.String(),
  quality_rating: t.String({ description: "Meta's quality rating: GREEN, YELLOW, RED or UNKNOWN" }),
  messaging_limit: t.String({ description: "Meta's messaging limit tier, e.g. TIER_1K" }),
  webhook_url: t.String({ description: "Where Meta posts this number's webhooks (subscribed at connect)" }),
  created_at: t.String({ format: "date-time" }),
  updated_at: t.String({ format: "date-time" }),
});
export const WhatsappNumbers = Page(WhatsappNumber, "Oldest first (created_at, id)");
export const WhatsappNumberOne = t.Object({ data: WhatsappNumber });

export const WhatsappTemplate = t.Object({
  id: t.String({ format: "uuid" }),
  number_id: t.String({ format: "uuid" }),
  name: t.String(),
  language: t.String(),
  category: t.String({ description: "utility, marketing or authentication" }),
  components: t.Any({ description: "Meta's components (HEADER, BODY, FOOTER, BUTTONS) as submitted" }),
  status: t.Union([t.Literal("pending"), t.Literal("approved"), t.Literal("rejected"), t.Literal("paused"), t.Literal("disabled")]),
  reason: nullable(t.String({ description: "Meta's reason of a rejection" })),
  provider_template_id: nullable(t.String()),
  created_at: t.String({ format: "date-time" }),
  updated_at: t.String({ format: "date-time" }),
});
export const WhatsappTemplates = Page(WhatsappTemplate, "Newest first (created_at, id)");
export const WhatsappTemplateOne = t.Object({ data: WhatsappTemplate });
export const Deleted = t.Object({ deleted: Type.Integer() });
export const CloudWebhookAck = t.Object({
  ok: t.Literal(true),
  results: t.Array(
    t.Object({
      field: t.String(),
      result: t.Union([t.Literal("applied"), t.Literal("unchanged"), t.Literal("unknown_template"), t.Literal("ignored"), t.Literal("received"), t.Literal("duplicate")], {
        description: "templates: applied, unchanged, unknown_template; messages: received, duplicate; other fields: ignored",
      }),
    }),
  ),
});

export const WhatsappWindowOne = t.Object({
  data: t.Object({
    open: t.Boolean({ description: "Free-form messages may be sent now" }),
    last_inbound_at: nullable(t.String({ format: "date-time", description: "The contact's last message to the number" })),
    expires_at: nullable(t.String({ format: "date-time", description: "24 hours after it" })),
  }),
});
