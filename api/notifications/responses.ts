/**
 * The success answers of the notifications routes (routes.ts), as TypeBox schemas for the OpenAPI
 * document (api/http/openapi.ts successResponse). In tests every answer is checked against them.
 */
import { Type } from "@sinclair/typebox";
import { t } from "elysia";
import { Page } from "../lib/page-schema";

const int = Type.Integer;

export const Notification = t.Object({
  id: int(),
  kind: t.String({ description: "What happened: welcome, balance_low, user_joined, invitation_accepted, import_completed…" }),
  message: t.String({ description: "The notification as a person reads it, in the caller's language (Accept-Language)" }),
  params: t.Record(t.String(), t.Union([t.String(), t.Number()]), { description: "The values the message is built with (free-form per kind)" }),
  link: t.Union([t.String(), t.Null()], { description: "The screen it is about (a path of the web app)" }),
  readAt: t.Union([t.String({ format: "date-time" }), t.Null()], { description: "Null while unread" }),
  createdAt: t.String({ format: "date-time" }),
});

export const NotificationPage = t.Composite([Page(Notification), t.Object({ unread: int({ description: "The person's unread notifications in the account (all pages)" }) })]);

export const MarkedRead = t.Object({ updated: int({ description: "Notifications that changed from unread to read" }) });
