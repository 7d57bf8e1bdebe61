/** Accounts API: the person's accounts, the current one, creating, editing and switching. */
import { Elysia, t } from "elysia";
import { authenticated, issueTokens } from "../http/auth";
import { created } from "../http/created";
import { createdResponse as createdDoc, successResponse } from "../http/openapi";
import { fromAcceptLanguage, translate } from "../lib/i18n";
import { pageQuery } from "../lib/page-schema";
import { homeSummary } from "./home-summary";
import * as R from "./responses";
import { accountInfo, createAccount, getAccount, listAccountsPage, switchAccount, updateAccount } from "./services";

/** createdResponse, typed as a response object (its Location header's schema type is a plain string in api/http/openapi.ts). */
const createdResponse201 = (...a: Parameters<typeof createdDoc>) => createdDoc(...a) as unknown as ReturnType<typeof successResponse>;

const bearer = [{ bearer: [] }];
const id = t.Object({ id: t.String({ format: "uuid" }) });
const accountBody = t.Object({
  name: t.String({ maxLength: 120 }),
  currency: t.Optional(t.String({ description: "ISO 4217 code, default BRL" })),
  street: t.Optional(t.String()),
  number: t.Optional(t.String()),
  complement: t.Optional(t.String()),
  district: t.Optional(t.String()),
  city: t.Optional(t.String()),
  province: t.Optional(t.String()),
  postalCode: t.Optional(t.String()),
});

export const accountRoutes = new Elysia({ prefix: "/accounts", tags: ["accounts"], detail: { security: bearer } })
  .use(authenticated)
  .get("", ({ ctx, query }) => listAccountsPage(ctx.actor.userId, query), {
    query: t.Object(pageQuery),
    detail: {
      responses: successResponse(R.AccountPage),
      summary: "The accounts the signed-in person belongs to, with their role in each, by name; `limit` a page by keyset (`cursor`)",
    },
  })
  .get("/info", ({ ctx }) => accountInfo(ctx), {
    detail: {
      responses: successResponse(R.AccountInfo),
      summary: "The acting account: address, currency, balance, limit, role, is_agent, type, whitelabel_id and plans keyed by service",
    },
  })
  .get("/:id", ({ ctx, params }) => getAccount(ctx, params.id), {
    params: id,
    detail: { responses: successResponse(R.Account), summary: "One of the person's accounts (404 when not a member)" },
  })
  .post(
    "",
    async ({ ctx, body, set }) => {
      const account = await createAccount(ctx, body);
      return created(set, `/api/accounts/${account.id}`, account);
    },
    {
      body: accountBody,
      detail: { responses: createdResponse201(R.Account, "Created: Location is the new account"), summary: "Create an account owned by the signed-in person" },
    },
  )
  .put("", ({ ctx, body }) => updateAccount(ctx, body), {
    body: accountBody,
    detail: { responses: successResponse(R.Account), summary: "Update the acting account (owner or admin)" },
  })
  .post(
    "/summary/:id",
    async ({ ctx, params, request, accessJwt, refreshJwt }) => {
      const actor = await switchAccount(ctx, params.id);
      // New tokens bound to the new account, so later calls act there without a header.
      const tokens = await issueTokens(accessJwt, refreshJwt, actor.userId, actor.accountId, "ok");
      const summary = await homeSummary({ ...ctx, actor });
      const locale = fromAcceptLanguage(request.headers.get("accept-language"));
      const recent = summary.recent.map((r) => ({
        ...r,
        description: translate(locale, `common:audit.${r.action}`, { defaultValue: translate(locale, "common:home.activity.other") }),
      }));
      return { id: actor.accountId, ...tokens, summary: { ...summary, recent } };
    },
    {
      params: id,
      detail: {
        responses: successResponse(R.AccountSwitched),
        summary: "Make another of the person's accounts the current one; answers its id, new {token, refresh_token} bound to it, and its summary",
      },
    },
  );
