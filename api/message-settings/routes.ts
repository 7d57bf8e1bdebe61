/**
 * Account-wide message options (ADR 071): GET/PUT /api/settings/resources (default sender per
 * channel) and GET/PUT /api/settings/messages (signature, opt-out text, marketing window). Thin:
 * the use-cases (./settings.ts) validate, check permission and scope by account.
 */
import { Elysia, t } from "elysia";
import { authenticated } from "../http/auth";
import { successResponse } from "../http/openapi";
import * as R from "./responses";
import { getMessages, getResources, saveMessages, saveResources } from "./settings";

const bearer = [{ bearer: [] }];
const nullableString = t.Optional(t.Union([t.String(), t.Null()]));

export const messageSettingsRoutes = new Elysia({ tags: ["settings"], detail: { security: bearer } })
  .use(authenticated)
  .get("/settings/resources", ({ ctx }) => getResources(ctx), {
    detail: { responses: successResponse(R.ResourcesWithChoices), summary: "Default sender per channel, and what the account may send from" },
  })
  .put("/settings/resources", ({ ctx, body }) => saveResources(ctx, body), {
    body: t.Object({
      sms_sender: nullableString,
      whatsapp_number_id: nullableString,
      rcs_agent_id: nullableString,
      email_from: nullableString,
      email_from_name: nullableString,
    }),
    detail: {
      responses: successResponse(R.Resources),
      summary: "Replace the default senders (a send that names no sender goes from them); blank or absent clears one. Owner and admin",
    },
  })
  .get("/settings/messages", ({ ctx }) => getMessages(ctx), {
    detail: { responses: successResponse(R.MessagesWithEditable), summary: "Signature, opt-out text and marketing window of the account" },
  })
  .put("/settings/messages", ({ ctx, body }) => saveMessages(ctx, body), {
    body: t.Object({
      signature: nullableString,
      signature_channels: t.Optional(t.Array(t.String())),
      optout_text: nullableString,
      window_enabled: t.Optional(t.Boolean()),
      window_start: t.Union([t.String(), t.Integer()], { description: "HH:MM in America/Sao_Paulo, or the minute of the day" }),
      window_end: t.Union([t.String(), t.Integer()], { description: "HH:MM (24:00 for the end of the day), or the minute of the day" }),
      window_days: t.Optional(t.Array(t.Integer())),
    }),
    detail: {
      responses: successResponse(R.Messages),
      summary: "Replace the signature, the opt-out text and the marketing window (campaigns outside it are scheduled for its next opening). Owner and admin",
    },
  });
