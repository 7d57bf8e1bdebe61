import { Elysia, t } from "elysia";
import { authenticated } from "../http/auth";
import { listAuditLog } from "./list";

export const auditRoutes = new Elysia({ prefix: "/logs", tags: ["audit"], detail: { security: [{ bearer: [] }] } })
  .use(authenticated)
  .get("", ({ ctx, query }) => listAuditLog(ctx, query), {
    query: t.Object({ before: t.Optional(t.String()), action: t.Optional(t.String()) }),
    detail: { summary: "The account's audit trail, newest first (?before=<id> pages; ?action=auth. filters by prefix); owner, admin and information security see everyone's" },
  });
