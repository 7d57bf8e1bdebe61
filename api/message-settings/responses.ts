/** The success answers of /api/settings/resources and /api/settings/messages (OpenAPI; checked in tests). */
import { t } from "elysia";

const date = () => t.String({ format: "date-time" });
const updated = t.Union([date(), t.Null()], { description: "Last change; null when never saved (the defaults)" });
const choice = t.Array(t.Object({ value: t.String(), label: t.String() }));

export const Resources = t.Object({
  data: t.Object({
    sms_sender: t.String({ description: "Default SMS sender: an active short code of the account; blank: the route's default" }),
    whatsapp_number_id: t.Union([t.String({ format: "uuid" }), t.Null()], { description: "Default WhatsApp number" }),
    rcs_agent_id: t.Union([t.String({ format: "uuid" }), t.Null()], { description: "Default RCS agent (launched)" }),
    email_from: t.Union([t.String(), t.Null()], { description: "Default e-mail sender address, on a validated domain of the account" }),
    email_from_name: t.String({ description: "Display name of the default e-mail sender" }),
    updated_at: updated,
  }),
});

export const ResourcesWithChoices = t.Object({
  data: Resources.properties.data,
  choices: t.Object({ sms: choice, whatsapp: choice, rcs: choice, email_domains: t.Array(t.String()) }, { description: "What the account may send from, per channel" }),
  editable: t.Boolean({ description: "Whether the caller may change them (owner, admin)" }),
});

const messagesData = t.Object({
  signature: t.String({ description: "Appended (on a new line) to every message of the signature's channels" }),
  signature_channels: t.Array(t.Union([t.Literal("sms"), t.Literal("whatsapp")])),
  optout_text: t.String({ description: "Appended (on a new line) to every SMS campaign message, e.g. 'Para sair, responda SAIR'" }),
  window_enabled: t.Boolean({ description: "Campaigns go out only inside the marketing window" }),
  window_start: t.Integer({ minimum: 0, maximum: 1439, description: "Opening, minute of the day in America/Sao_Paulo" }),
  window_end: t.Integer({ minimum: 1, maximum: 1440, description: "Closing, minute of the day in America/Sao_Paulo (exclusive)" }),
  window_days: t.Array(t.Integer({ minimum: 0, maximum: 6 }), { description: "Weekdays of the window, 0 = Sunday" }),
  updated_at: updated,
});
export const Messages = t.Object({ data: messagesData });
export const MessagesWithEditable = t.Object({ data: messagesData, editable: t.Boolean({ description: "Whether the caller may change them (owner, admin)" }) });
