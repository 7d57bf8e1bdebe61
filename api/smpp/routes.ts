/** SMPP users API (spec section 7 "smpp/users"): thin; the use-cases in ./users check /sms/smpp and scope by account. */
import { Elysia, t } from "elysia";
import { authenticated } from "../http/auth";
import { createSmppUser, deleteSmppUser, deleteSmppUsers, getSmppUser, listSmppUsers, updateSmppUser } from "./users";

const bearer = [{ bearer: [] }];
const id = t.Object({ id: t.String() });
const route = t.Union([t.Literal("T1"), t.Literal("T2"), t.Literal("T4"), t.Literal("T6")]);
const flag = t.Union([t.Boolean(), t.String()]);

export const smppRoutes = new Elysia({ prefix: "/smpp", tags: ["smpp"], detail: { security: bearer } })
  .use(authenticated)
  .get("/users", ({ ctx }) => listSmppUsers(ctx), { detail: { summary: "SMPP users of the account, newest first (never their passwords)" } })
  .post("/users", ({ ctx, body }) => createSmppUser(ctx, body), {
    body: t.Object({
      system_id: t.String({ description: "3-15 characters A-Z a-z 0-9 _ . - ; unique on the platform" }),
      route: t.Optional(t.Union([route, t.Literal(""), t.Null()], { description: "Default T1" })),
      tps: t.Optional(t.Union([t.Number(), t.String()], { description: "Submits per second allowed, 1-1000 (default 10); over it submit_sm answers ESME_RTHROTTLED" })),
      enabled: t.Optional(flag),
    }),
    detail: { summary: "Create an SMPP user; the generated 8-character password is in this answer only" },
  })
  .delete("/users", ({ ctx, body }) => deleteSmppUsers(ctx, body), {
    body: t.Object({ ids: t.Union([t.Array(t.String()), t.String()]) }),
    detail: { summary: "Delete several SMPP users of the account; answers {deleted}" },
  })
  .get("/users/:id", ({ ctx, params }) => getSmppUser(ctx, params.id), { params: id, detail: { summary: "One SMPP user" } })
  .put("/users/:id", ({ ctx, params, body }) => updateSmppUser(ctx, params.id, body), {
    params: id,
    body: t.Object({
      route,
      tps: t.Union([t.Number(), t.String()]),
      enabled: t.Optional(flag),
      reset_password: t.Optional(flag),
    }),
    detail: { summary: "Change route, tps, enabled; reset_password: true answers a new password once" },
  })
  .delete("/users/:id", ({ ctx, params }) => deleteSmppUser(ctx, params.id), { params: id, detail: { summary: "Delete an SMPP user (its open binds are closed within seconds)" } });
