/** Notifications API: the person's in-app notifications with keyset paging, and marking them read. */
import { Elysia, t } from "elysia";
import { authenticated } from "../http/auth";
import { listNotifications, markRead } from "./services";

export const notificationRoutes = new Elysia({ prefix: "/notifications", tags: ["notifications"], detail: { security: [{ bearer: [] }] } })
  .use(authenticated)
  .get("", ({ ctx, query }) => listNotifications(ctx, { before: query.before, unreadOnly: query.unread === true }), {
    query: t.Object({
      before: t.Optional(t.String({ description: "Keyset: the `next` of the previous page" })),
      unread: t.Optional(t.BooleanString()),
    }),
    detail: { summary: "Newest first, 20 a page; answers {data, next, unread}" },
  })
  .post("/read", async ({ ctx, body }) => ({ updated: await markRead(ctx, body.all ? "all" : (body.ids ?? [])) }), {
    body: t.Object({ ids: t.Optional(t.Array(t.Integer({ minimum: 1 }), { maxItems: 500 })), all: t.Optional(t.Boolean()) }),
    detail: { summary: "Mark notifications read: {ids: [...]} or {all: true}; answers how many changed" },
  });
