import { Elysia, t } from "elysia";
import { authenticated } from "../http/auth";
import { successResponse } from "../http/openapi";
import { fromAcceptLanguage } from "../lib/i18n";
import { pageQuery } from "../lib/page-schema";
import { listAuditLog } from "./list";
import { AuditPage } from "./responses";

export const auditRoutes = new Elysia({ prefix: "/logs", tags: ["audit"], detail: { security: [{ bearer: [] }] } })
  .use(authenticated)
  .get("", ({ ctx, query, request }) => listAuditLog(ctx, query, fromAcceptLanguage(request.headers.get("accept-language"))), {
    query: t.Object({
      ...pageQuery,
      before: t.Optional(t.String({ deprecated: true, description: "Deprecated: the id of the last event seen (use `cursor`)" })),
      action: t.Optional(t.String({ description: "One action (auth.login), or every action under a prefix ending in a dot (auth.)" })),
    }),
    detail: {
      responses: successResponse(AuditPage),
      summary: "The account's audit trail, newest first, `limit` a page by keyset (`cursor`); owner, admin and information security see everyone's, others their own",
    },
  });
