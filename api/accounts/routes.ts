/** Accounts API: the person's accounts, the current one, creating, editing and switching. */
import { Elysia, t } from "elysia";
import { authenticated, issueTokens } from "../http/auth";
import { homeSummary } from "./home-summary";
import { accountInfo, createAccount, getAccount, listAccounts, switchAccount, updateAccount } from "./services";

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
  .get("", ({ ctx }) => listAccounts(ctx.actor.userId), { detail: { summary: "The accounts the signed-in person belongs to, with their role in each" } })
  .get("/info", ({ ctx }) => accountInfo(ctx), {
    detail: { summary: "The acting account: address, currency, balance, limit, role, is_agent, type, whitelabel_id and plans keyed by service" },
  })
  .get("/:id", ({ ctx, params }) => getAccount(ctx, params.id), { params: id, detail: { summary: "One of the person's accounts (404 when not a member)" } })
  .post("", ({ ctx, body }) => createAccount(ctx, body), { body: accountBody, detail: { summary: "Create an account owned by the signed-in person" } })
  .put("", ({ ctx, body }) => updateAccount(ctx, body), { body: accountBody, detail: { summary: "Update the acting account (owner or admin)" } })
  .post(
    "/summary/:id",
    async ({ ctx, params, accessJwt, refreshJwt }) => {
      const actor = await switchAccount(ctx, params.id);
      // New tokens bound to the new account, so later calls act there without a header.
      const tokens = await issueTokens(accessJwt, refreshJwt, actor.userId, actor.accountId, "ok");
      return { id: actor.accountId, ...tokens, summary: await homeSummary({ ...ctx, actor }) };
    },
    {
      params: id,
      detail: { summary: "Make another of the person's accounts the current one; answers its id, new {token, refresh_token} bound to it, and its summary" },
    },
  );
