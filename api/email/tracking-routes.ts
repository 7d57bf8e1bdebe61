/**
 * E-mail tracking over HTTP (issue 17, ADR 039):
 * - `emailTrackRoutes` (public, no JWT): GET /api/track/e/o/{token} — the open pixel, a 1x1 GIF,
 *   always (a bad token too), never cached; GET /api/track/e/c/{token} — 302 to the signed link, or a
 *   404 page for a token that is not one of ours (so the redirect is never open). The web process
 *   forwards `<EMAIL_TRACK_URL>/e/*` here (remix/web-server.ts). Fast and never 500: the token is checked
 *   without the database, and a recording that fails or takes longer than RECORD_WAIT_MS is logged
 *   and does not change the answer.
 * - `emailTrackingRoutes` (JWT): GET/PUT /api/email/subscription-tracking-settings, POST
 *   /api/email/insights, POST /api/email/insights/events; platform staff's POST /api/admin/email/insights.
 */
import { Elysia, t } from "elysia";
import { authenticated } from "../http/auth";
import { errorResponses, fileResponse, successResponse, zodBody } from "../http/openapi";
import { fromAcceptLanguage, translate } from "../lib/i18n";
import { Page } from "../lib/page-schema";
import { adminEmailInsights, emailEngagementEvents, emailInsights } from "./insights";
import { getTrackingSettings, readClickToken, readOpenToken, recordEngagement, trackingSettingsSchema, updateTrackingSettings } from "./tracking";

/** A transparent 1x1 GIF. */
const PIXEL = Buffer.from("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7", "base64");
const NO_STORE = { "Cache-Control": "no-store, no-cache, must-revalidate, private", Pragma: "no-cache", Expires: "0" };
/** How long an answer waits for its recording (the database slow or down): then it answers anyway. */
const RECORD_WAIT_MS = 1500;

async function recordQuietly(messageId: string, kind: "open" | "click", url: string | null) {
  const work = recordEngagement(messageId, kind, url).catch((e) => console.warn(`email tracking: ${kind} of ${messageId} not recorded: ${(e as Error).message}`));
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([work, new Promise((resolve) => (timer = setTimeout(resolve, RECORD_WAIT_MS)))]);
  clearTimeout(timer);
}

function pixel() {
  return new Response(PIXEL, { status: 200, headers: { "Content-Type": "image/gif", "Content-Length": String(PIXEL.length), ...NO_STORE } });
}

function notFoundPage(acceptLanguage: string | null) {
  const lng = fromAcceptLanguage(acceptLanguage);
  const esc = (s: string) => s.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
  const title = esc(translate(lng, "emailInsights:track.notFoundTitle"));
  const body = esc(translate(lng, "emailInsights:track.notFoundText"));
  return new Response(
    `<!doctype html><html lang="${lng}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex"><title>${title}</title></head><body style="font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem"><h1>${title}</h1><p>${body}</p></body></html>`,
    { status: 404, headers: { "Content-Type": "text/html; charset=utf-8", ...NO_STORE } },
  );
}

const token = t.Object({ token: t.String() });

export const emailTrackRoutes = new Elysia({ prefix: "/track", tags: ["email"] })
  .get(
    "/e/o/:token",
    async ({ params }) => {
      try {
        const open = readOpenToken(params.token);
        if (open) await recordQuietly(open.messageId, "open", null);
      } catch (e) {
        console.warn(`email tracking: pixel: ${(e as Error).message}`);
      }
      return pixel();
    },
    {
      params: token,
      detail: {
        responses: fileResponse({ "image/gif": "A transparent 1x1 GIF" }, "Always the pixel (a token that is not ours too), never cached"),
        summary: "An e-mail's open pixel (public, reached as <EMAIL_TRACK_URL>/e/o/{token}): records the open of the message the signed token names",
      },
    },
  )
  .get(
    "/e/c/:token",
    async ({ params, request }) => {
      let click: ReturnType<typeof readClickToken> = null;
      try {
        click = readClickToken(params.token);
        if (click) await recordQuietly(click.messageId, "click", click.url);
      } catch (e) {
        console.warn(`email tracking: click: ${(e as Error).message}`);
      }
      if (!click) return notFoundPage(request.headers.get("Accept-Language"));
      return new Response(null, { status: 302, headers: { Location: click.url, ...NO_STORE, "Referrer-Policy": "no-referrer" } });
    },
    {
      params: token,
      detail: {
        responses: {
          "302": { description: "To the link the token signs (the click recorded)" },
          "404": {
            description: "A token that is not ours, or whose link or message id was changed: an HTML page, no redirect",
            content: { "text/html": { schema: { type: "string" } } },
          },
        },
        summary: "An e-mail's tracked link (public, reached as <EMAIL_TRACK_URL>/e/c/{token}): records the click and redirects to the signed link",
      },
    },
  );

const bearer = [{ bearer: [] }];
const Settings = t.Object({ data: t.Object({ open_tracking: t.Boolean(), click_tracking: t.Boolean() }) });
const Figures = {
  sent: t.Integer({ description: "E-mails created in the period the relay took (or that went further)" }),
  delivered: t.Integer({ description: "Of them, delivered, opened or clicked" }),
  opens: t.Integer({ description: "Opens in the period (every pixel load)" }),
  unique_opens: t.Integer({ description: "E-mails opened in the period" }),
  clicks: t.Integer({ description: "Clicks in the period (every one)" }),
  unique_clicks: t.Integer({ description: "E-mails clicked in the period" }),
};
const Insights = t.Object({
  data: t.Object({
    from: t.String(),
    to: t.String(),
    campaign_id: t.Union([t.String(), t.Null()]),
    account: t.Union([t.Object({ id: t.String(), name: t.String() }), t.Null()]),
    totals: t.Object({
      ...Figures,
      open_rate: t.Number({ description: "unique_opens / delivered (0 to 1)" }),
      click_rate: t.Number({ description: "unique_clicks / delivered" }),
      click_to_open_rate: t.Number({ description: "unique_clicks / unique_opens" }),
    }),
    days: t.Array(t.Object({ day: t.String({ description: "YYYY-MM-DD, São Paulo" }), ...Figures }), { description: "Every day of the period" }),
    domains: t.Array(t.Object({ domain: t.String(), ...Figures }), { description: "The 50 recipient domains with the most e-mails" }),
    links: t.Array(t.Object({ url: t.String(), clicks: t.Integer(), unique: t.Integer({ description: "E-mails whose link was clicked" }) }), {
      description: "The click map: the 100 most clicked links",
    }),
  }),
});
const Event = t.Object({
  id: t.String(),
  message_id: t.String({ format: "uuid" }),
  campaign_id: t.Union([t.String(), t.Null()]),
  kind: t.Union([t.Literal("open"), t.Literal("click")]),
  url: t.Union([t.String(), t.Null()]),
  recipient_domain: t.String(),
  created_at: t.String({ format: "date-time" }),
});
const period = {
  from: t.Optional(t.String({ description: "First day YYYY-MM-DD (São Paulo); default `to`" })),
  to: t.Optional(t.String({ description: "Last day YYYY-MM-DD (São Paulo); default today; at most 31 days in all" })),
  campaign_id: t.Optional(t.Union([t.String(), t.Null()], { description: "One campaign's e-mails only" })),
};

export const emailTrackingRoutes = new Elysia({ tags: ["email"], detail: { security: bearer } })
  .use(authenticated)
  .get("/email/subscription-tracking-settings", ({ ctx }) => getTrackingSettings(ctx), {
    detail: { responses: successResponse(Settings), summary: "The account's open and click tracking (both on unless turned off)" },
  })
  .put("/email/subscription-tracking-settings", ({ ctx, body }) => updateTrackingSettings(ctx, body), {
    body: t.Record(t.String(), t.Any()),
    detail: {
      requestBody: zodBody(trackingSettingsSchema),
      responses: { ...successResponse(Settings), ...errorResponses(403, 422) },
      summary:
        "Turn open tracking (the pixel) and click tracking (signed redirect links) on or off for the account's next e-mails; a field left out keeps its value. Off: nothing is rewritten and no pixel is added. Owners and admins",
    },
  })
  .post("/email/insights", ({ ctx, body }) => emailInsights(ctx, body), {
    body: t.Object(period),
    detail: {
      responses: { ...successResponse(Insights), ...errorResponses(422) },
      summary:
        "E-mail insights of a period (at most 31 São Paulo days): sent, delivered, opens, unique opens, clicks, unique clicks, rates; by day, by recipient domain; the click map",
    },
  })
  .post("/email/insights/events", ({ ctx, body }) => emailEngagementEvents(ctx, body), {
    body: t.Object({
      ...period,
      kind: t.Optional(t.String({ description: "open or click" })),
      cursor: t.Optional(t.String()),
      limit: t.Optional(t.Union([t.String(), t.Integer()], { description: "1 to 200 (default 50)" })),
    }),
    detail: { responses: { ...successResponse(Page(Event, "Newest first")), ...errorResponses(422) }, summary: "The opens and clicks of a period, newest first, a keyset page" },
  })
  .post("/admin/email/insights", ({ ctx, body }) => adminEmailInsights(ctx, body), {
    body: t.Object({ ...period, account_id: t.Optional(t.Union([t.String(), t.Null()], { description: "One account; absent: every account" })) }),
    detail: { responses: { ...successResponse(Insights), ...errorResponses(403, 422) }, summary: "Platform staff: e-mail insights over every account, or one" },
  });
