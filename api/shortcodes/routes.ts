/** Short codes API (spec section 7: GET sms/short_codes, sms/short_codes/available, GET/PUT sms/short_codes/{id}). */
import { Elysia, t } from "elysia";
import { authenticated } from "../http/auth";
import { successResponse } from "../http/openapi";
import { onePage } from "../lib/page";
import { ShortCode, ShortCodeList } from "./responses";
import { availableShortCodes, getShortCode, listShortCodes, updateShortCode } from "./services";

const params = t.Object({ id: t.String() });

export const shortCodeRoutes = new Elysia({ prefix: "/sms/short_codes", tags: ["sms"], detail: { security: [{ bearer: [] }] } })
  .use(authenticated)
  .get("", async ({ ctx }) => onePage(await listShortCodes(ctx)), {
    detail: {
      responses: successResponse(ShortCodeList),
      summary: "The account's short codes (one page: the few the platform assigned it), by number: number, nickname, deliverability (carriers it is homologated with), status",
    },
  })
  .get("/available", async ({ ctx }) => onePage(await availableShortCodes(ctx)), {
    detail: { responses: successResponse(ShortCodeList), summary: "The account's short codes it can send from now (active, homologated with at least one carrier); one page" },
  })
  .get("/:id", ({ ctx, params }) => getShortCode(ctx, params.id), {
    params,
    detail: { responses: successResponse(ShortCode), summary: "One short code of the account (404 for another account's)" },
  })
  .put("/:id", ({ ctx, params, body }) => updateShortCode(ctx, params.id, body), {
    params,
    body: t.Object({ nickname: t.String({ description: "Up to 40 characters; empty clears it" }) }),
    detail: { responses: successResponse(ShortCode), summary: "Rename a short code (owner, admin, sales); number and deliverability are set by the platform" },
  });
