/** SMPP users API (spec section 7 "smpp/users"): thin; the use-cases in ./users check /sms/smpp and scope by account. */
import { Elysia, t } from "elysia";
import { authenticated } from "../http/auth";
import { created } from "../http/created";
import { successResponse } from "../http/openapi";
import { MAX_LIMIT } from "../lib/page";
import { pageQuery } from "../lib/page-schema";
import { created201 } from "../sms/responses";
import { SmppUserCreated, SmppUserDeleted, SmppUserOne, SmppUserPage, SmppUsersDeleted, SmppUserUpdated } from "./responses";
import { createSmppUser, deleteSmppUser, deleteSmppUsers, getSmppUser, pageSmppUsers, updateSmppUser } from "./users";

const bearer = [{ bearer: [] }];
const id = t.Object({ id: t.String() });
const route = t.Union([t.Literal("T1"), t.Literal("T2"), t.Literal("T4"), t.Literal("T6")]);
const flag = t.Union([t.Boolean(), t.String()]);

export const smppRoutes = new Elysia({ prefix: "/smpp", tags: ["smpp"], detail: { security: bearer } })
  .use(authenticated)
  .get("/users", ({ ctx, query }) => pageSmppUsers(ctx, query), {
    query: t.Object(pageQuery),
    detail: {
      responses: successResponse(SmppUserPage),
      summary: `SMPP users of the account, newest first (never their passwords); \`limit\` a page (default 50, at most ${MAX_LIMIT}), then \`cursor\``,
    },
  })
  .post(
    "/users",
    async ({ ctx, body, set }) => {
      const answer = await createSmppUser(ctx, body);
      return created(set, `/api/smpp/users/${answer.data.id}`, answer);
    },
    {
      body: t.Object({
        system_id: t.String({ description: "3-15 characters A-Z a-z 0-9 _ . - ; unique on the platform" }),
        route: t.Optional(t.Union([route, t.Literal(""), t.Null()], { description: "Default T1" })),
        tps: t.Optional(t.Union([t.Number(), t.String()], { description: "Submits per second allowed, 1-5000 (default 10); over it submit_sm answers ESME_RTHROTTLED" })),
        enabled: t.Optional(flag),
      }),
      detail: {
        responses: created201(SmppUserCreated),
        summary: "Create an SMPP user (system_id taken: 422 on system_id); the generated 8-character password is in this answer only; Location is its URL",
      },
    },
  )
  .delete("/users", ({ ctx, body }) => deleteSmppUsers(ctx, body), {
    body: t.Object({ ids: t.Union([t.Array(t.String()), t.String()], { description: "Up to 500 user ids; other accounts' are ignored" }) }),
    detail: { responses: successResponse(SmppUsersDeleted), summary: "Delete several SMPP users of the account; answers {deleted}" },
  })
  .get("/users/:id", ({ ctx, params }) => getSmppUser(ctx, params.id), {
    params: id,
    detail: { responses: successResponse(SmppUserOne), summary: "One SMPP user (never its password)" },
  })
  .put("/users/:id", ({ ctx, params, body }) => updateSmppUser(ctx, params.id, body), {
    params: id,
    body: t.Object({
      route,
      tps: t.Union([t.Number(), t.String()]),
      enabled: t.Optional(flag),
      reset_password: t.Optional(flag),
    }),
    detail: { responses: successResponse(SmppUserUpdated), summary: "Change route, tps, enabled; reset_password: true answers a new password once" },
  })
  .delete("/users/:id", ({ ctx, params }) => deleteSmppUser(ctx, params.id), {
    params: id,
    detail: { responses: successResponse(SmppUserDeleted), summary: "Delete an SMPP user (its open binds are closed within seconds)" },
  });
