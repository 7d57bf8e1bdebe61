/**
 * Platform administration's audit, logs and SMS trackers (issue 23, ADR 062). Thin: the use-cases
 * check the policy (/admin/audit: staff and resellers; /admin/logs and /admin/trackers: staff) and validate.
 */
import { Elysia, t } from "elysia";
import { authenticated } from "../http/auth";
import { created } from "../http/created";
import { createdResponse, successResponse } from "../http/openapi";
import { listAppLogs } from "../app-logs/list";
import { fromAcceptLanguage } from "../lib/i18n";
import { pageQuery } from "../lib/page-schema";
import { createTracker, deleteTracker, listTrackers, trackedMessages } from "../trackers/trackers";
import { listAdminAudit } from "./audit";
import * as R from "./responses";

const str = (description: string) => t.Optional(t.String({ description }));
const id = t.Object({ id: t.String() });
const days = { from: str("First São Paulo day, YYYY-MM-DD"), to: str("Last São Paulo day, YYYY-MM-DD (included)") };

export const adminAuditRoutes = new Elysia({ prefix: "/admin", tags: ["admin"], detail: { security: [{ bearer: [] }] } })
  .use(authenticated)
  .get("/audit", ({ ctx, query, request }) => listAdminAudit(ctx, query, fromAcceptLanguage(request.headers.get("accept-language"))), {
    query: t.Object({
      ...pageQuery,
      account: str("An account id"),
      user: str("A user's e-mail or id"),
      action: str("One action (users.invited), or every action under a prefix ending in a dot (auth.)"),
      ...days,
    }),
    detail: {
      responses: successResponse(R.AdminAuditPage),
      summary:
        "Audit entries of every account (platform staff) or of the reseller and its customers (a reseller's owner or admin), newest first by keyset, with each entry's before/after; others 403",
    },
  })
  .get("/logs", ({ ctx, query }) => listAppLogs(ctx, query), {
    query: t.Object({
      ...pageQuery,
      q: str("Text in the code, message or details (up to 100 characters)"),
      source: t.Optional(t.Union([t.Literal("api"), t.Literal(""), t.Literal("provider")])),
      account: str("An account id"),
      ...days,
    }),
    detail: { responses: successResponse(R.AppLogPage), summary: "Application errors and provider failures (kept 30 days), newest first by keyset; platform staff only" },
  })
  .get("/sms/trackers", ({ ctx }) => listTrackers(ctx), {
    detail: { responses: successResponse(R.TrackerPage), summary: "SMS trackers: phone numbers and sender ids followed across every account; platform staff only" },
  })
  .post(
    "/sms/trackers",
    async ({ ctx, body, set }) => {
      const r = await createTracker(ctx, body);
      return created(set, `/api/admin/sms/trackers/${r.data.id}`, r);
    },
    {
      body: t.Object({
        kind: t.Union([t.Literal("phone"), t.Literal("sender")]),
        value: t.String({ description: "phone: a number (stored E.164); sender: up to 11 letters and digits" }),
        label: t.Optional(t.String({ description: "A note, up to 100 characters" })),
      }),
      detail: { responses: createdResponse(R.TrackerOne, "Created; Location is its URL"), summary: "Follow a number or sender id; one already followed is 422 on value" },
    },
  )
  .get("/sms/trackers/:id", ({ ctx, params, query }) => trackedMessages(ctx, params.id, query), {
    params: id,
    query: t.Object({ ...pageQuery }),
    detail: { responses: successResponse(R.TrackedPage), summary: "A tracker and the matching SMS of every account of the last 30 days, newest first by keyset" },
  })
  .delete("/sms/trackers/:id", ({ ctx, params }) => deleteTracker(ctx, params.id), {
    params: id,
    detail: { responses: successResponse(R.TrackerDeleted), summary: "Stop following it" },
  });
