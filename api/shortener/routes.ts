/**
 * The URL shortener over the API (issue 22, ADR 057), one plugin for api/app.ts: links (create,
 * read with its click count, list, delete, QR code) and the click report. Thin: the use-cases
 * (./links, ./stats) check the policy, validate and scope by account. The redirect itself is not
 * here: the short host is answered by the web process (./redirect.ts).
 */
import { Elysia, t } from "elysia";
import { authenticated } from "../http/auth";
import { created } from "../http/created";
import { createdResponse, errorResponses, fileResponse, successResponse } from "../http/openapi";
import { pageQuery } from "../lib/page-schema";
import { createLink, deleteLink, getLink, linkQr, listLinks } from "./links";
import * as R from "./responses";
import { clickStats } from "./stats";

const id = t.Object({ id: t.String() });

export const shortenerApi = new Elysia({ name: "shortener-api", tags: ["shortener"], detail: { security: [{ bearer: [] }] } })
  .use(authenticated)
  .post(
    "/shortener/links",
    async ({ ctx, body, set }) => {
      const answer = await createLink(ctx, body);
      return created(set, `/api/shortener/links/${answer.data.id}`, answer);
    },
    {
      body: t.Object({
        title: t.String({ description: "1 to 120 characters" }),
        original_url: t.String({ description: "An http(s) URL of a public host (no private or loopback address), up to 2048 characters" }),
        slug: t.Optional(t.String({ description: "The account's own slug, [A-Za-z0-9_-]{3,50}, unique on its domain (409 when taken); generated when absent" })),
        domain: t.Optional(t.String({ description: "A short domain the platform serves (default SHORTENER_HOST)" })),
      }),
      detail: {
        responses: { ...createdResponse(R.ShortLinkOne), ...errorResponses(403, 409, 422) },
        summary: "Shorten a URL: answers the link with its short_url",
      },
    },
  )
  .get("/shortener/links", ({ ctx, query }) => listLinks(ctx, query), {
    query: t.Object({ q: t.Optional(t.String({ description: "Part of the title, slug or original URL" })), ...pageQuery }),
    detail: { responses: { ...successResponse(R.ShortLinks), ...errorResponses(403, 422) }, summary: "The account's short links, newest first, with their click counts" },
  })
  .get("/shortener/links/:id", ({ ctx, params }) => getLink(ctx, params.id), {
    params: id,
    detail: { responses: { ...successResponse(R.ShortLinkOne), ...errorResponses(403, 404) }, summary: "One short link of the account with its click count" },
  })
  .delete("/shortener/links/:id", ({ ctx, params }) => deleteLink(ctx, params.id), {
    params: id,
    detail: { responses: { ...successResponse(R.Deleted), ...errorResponses(403, 404) }, summary: "Delete a short link and its clicks: its short URL answers 404 at once" },
  })
  .get(
    "/shortener/links/:id/qr",
    async ({ ctx, params, query, set }) => {
      const format = query.format === "png" ? "png" : "svg";
      const { link, body } = await linkQr(ctx, params.id, format);
      set.headers["content-type"] = format === "png" ? "image/png" : "image/svg+xml";
      set.headers["content-disposition"] = `attachment; filename="qr-${link.slug}.${format}"`;
      set.headers["cache-control"] = "private, no-store";
      return new Response(typeof body === "string" ? body : Buffer.from(body));
    },
    {
      params: id,
      query: t.Object({ format: t.Optional(t.String({ description: "svg (default) or png (512 px)" })) }),
      detail: {
        responses: {
          ...fileResponse({ "image/svg+xml": "The QR code as SVG", "image/png": "The QR code as PNG" }, "The link's QR code (its short URL)"),
          ...errorResponses(403, 404),
        },
        summary: "The QR code of a short link, SVG or PNG (attachment)",
      },
    },
  )
  .get("/shortener/reports/stat", ({ ctx, query }) => clickStats(ctx, query), {
    query: t.Object({
      from: t.Optional(t.String({ description: "First São Paulo day, YYYY-MM-DD (default: 29 days before `to`)" })),
      to: t.Optional(t.String({ description: "Last São Paulo day, YYYY-MM-DD (default: today); at most 31 days" })),
      link_id: t.Optional(t.String({ description: "Only this link's clicks" })),
    }),
    detail: {
      responses: { ...successResponse(R.ClickStats), ...errorResponses(403, 404, 422) },
      summary: "Clicks over a period: per day, per link, by user agent class, country and referrer",
    },
  });
