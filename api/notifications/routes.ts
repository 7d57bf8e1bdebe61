/** Notifications API: the person's in-app notifications with keyset paging, and marking them read. */
import { Elysia, t } from "elysia";
import { authenticated } from "../http/auth";
import { successResponse } from "../http/openapi";
import { fromAcceptLanguage } from "../lib/i18n";
import { pageQuery } from "../lib/page-schema";
import * as R from "./responses";
import { listNotifications, markRead, notificationMessage } from "./services";

export const notificationRoutes = new Elysia({ prefix: "/notifications", tags: ["notifications"], detail: { security: [{ bearer: [] }] } })
  .use(authenticated)
  .get(
    "",
    async ({ ctx, query, request }) => {
      const { data, next_cursor, unread } = await listNotifications(ctx, {
        before: query.before,
        cursor: query.cursor,
        limit: query.limit ?? "",
        unreadOnly: query.unread === true,
      });
      const locale = fromAcceptLanguage(request.headers.get("accept-language"));
      return { data: data.map((n) => ({ ...n, message: notificationMessage(locale, n) })), next_cursor, unread };
    },
    {
      query: t.Object({
        ...pageQuery,
        before: t.Optional(t.String({ deprecated: true, description: "Deprecated: the id of the last notification seen (use `cursor`)" })),
        unread: t.Optional(t.BooleanString({ description: "true: unread ones only" })),
      }),
      detail: {
        responses: successResponse(R.NotificationPage),
        summary: "The person's notifications in the acting account (theirs and the account's), newest first, `limit` a page by keyset (`cursor`), with the unread count",
      },
    },
  )
  .post("/read", async ({ ctx, body }) => ({ updated: await markRead(ctx, body.all ? "all" : (body.ids ?? [])) }), {
    body: t.Object({ ids: t.Optional(t.Array(t.Integer({ minimum: 1 }), { maxItems: 500 })), all: t.Optional(t.Boolean()) }),
    detail: { responses: successResponse(R.MarkedRead), summary: "Mark notifications read: {ids: [...]} or {all: true}; answers how many changed" },
  });
