/** Users API: the people of the acting account, invitations, sign-in events; the person's own profile. */
import { Elysia, t } from "elysia";
import { GENDERS, INVITE_ROLES, LOCALES, ROLES } from "../../models/constants";
import { authenticated } from "../http/auth";
import { created } from "../http/created";
import { createdResponse as createdDoc, errorResponses, successResponse } from "../http/openapi";
import { onePage } from "../lib/page";
import { Page, pageQuery } from "../lib/page-schema";
import * as R from "./responses";
import { changePassword, getProfile, getUser, inviteUser, listSignInEvents, listUsers, removeUser, revokeInvitation, setLocale, updateProfile, updateUser } from "./services";

const bearer = [{ bearer: [] }];
const id = t.Object({ id: t.String({ format: "uuid" }) });
/** A union of literals, not t.UnionEnum: Elysia fills an absent optional UnionEnum with its first value (a missing role became "owner"). */
const oneOf = (values: readonly string[]) => t.Union(values.map((v) => t.Literal(v)));

export const userRoutes = new Elysia({ prefix: "/users", tags: ["users"], detail: { security: bearer } })
  .use(authenticated)
  .get(
    "",
    async ({ ctx, query }) => {
      const { data, next_cursor, page, lastPage, total, invitations } = await listUsers(ctx, query);
      return { data, next_cursor, total, invitations, ...(query.page !== undefined && page !== null ? { page, last_page: lastPage } : {}) };
    },
    {
      query: t.Object({
        ...pageQuery,
        page: t.Optional(t.String({ deprecated: true, description: "Deprecated: 1-based page of `limit` (OFFSET); use `cursor`. Adds page and last_page to the answer" })),
        q: t.Optional(t.String({ maxLength: 100, description: "Search in the e-mail and the full name" })),
      }),
      detail: {
        responses: successResponse(R.UserPage),
        summary: "People of the acting account by first name, `limit` a page by keyset (`cursor`), with the total matching `q` and the account's open invitations",
      },
    },
  )
  .get("/sessions", async ({ ctx }) => onePage(await listSignInEvents(ctx)), {
    detail: {
      responses: successResponse(Page(R.SignInEvent)),
      summary: "The signed-in person's latest 20 sign-in events with IP, user agent and date, newest first (one page: at most 20)",
    },
  })
  .post(
    "/invite",
    async ({ ctx, body, set }) => {
      const { invitation } = await inviteUser(ctx, body);
      return created(set, `/api/users/invitations/${invitation.id}`, { id: invitation.id, email: invitation.email, role: invitation.role, expiresAt: invitation.expiresAt });
    },
    {
      body: t.Object({ email: t.String(), role: oneOf(INVITE_ROLES) }),
      detail: {
        responses: { ...createdDoc(R.Invitation, "Invited: the e-mail with the link is queued; Location is the invitation (DELETE it to revoke)"), ...errorResponses(409) },
        summary: "Invite a person by e-mail with a role (owner or admin only; otherwise 403 NO_PERMISSION_EDIT_USERS; 409 ALREADY_MEMBER)",
      },
    },
  )
  .delete(
    "/invitations/:id",
    async ({ ctx, params }) => {
      await revokeInvitation(ctx, params.id);
      return { ok: true };
    },
    { params: id, detail: { responses: successResponse(R.Ok), summary: "Revoke an open invitation of the acting account" } },
  )
  .get("/:id", ({ ctx, params }) => getUser(ctx, params.id), {
    params: id,
    detail: { responses: successResponse(R.User), summary: "One person of the acting account (404 otherwise)" },
  })
  .put("/:id", ({ ctx, params, body }) => updateUser(ctx, params.id, body), {
    params: id,
    body: t.Object({
      firstName: t.String(),
      lastName: t.Optional(t.String()),
      mobile: t.Optional(t.String()),
      role: t.Optional(oneOf(ROLES)),
      isAgent: t.Optional(t.Boolean()),
      departmentId: t.Optional(t.String()),
    }),
    detail: {
      responses: { ...successResponse(R.User), ...errorResponses(402, 409) },
      summary:
        "Edit a person's name, mobile, role, agent flag and department (owner or admin; 409 LAST_OWNER when the last owner would lose the role). " +
        "Turning isAgent on pays the agent seat's rest of the São Paulo month (ADR 047): 402 INSUFFICIENT_BALANCE on isAgent when balance and credit limit do not cover it",
    },
  })
  .delete(
    "/:id",
    async ({ ctx, params }) => {
      await removeUser(ctx, params.id);
      return { ok: true };
    },
    {
      params: id,
      detail: {
        responses: { ...successResponse(R.Ok), ...errorResponses(409) },
        summary: "Remove a person from the acting account (owner or admin; the last owner stays: 409 LAST_OWNER)",
      },
    },
  );

export const meRoutes = new Elysia({ prefix: "/me", tags: ["profile"], detail: { security: bearer } })
  .use(authenticated)
  .get("", ({ ctx }) => getProfile(ctx.actor.userId), { detail: { responses: successResponse(R.Profile), summary: "The signed-in person's profile" } })
  .put(
    "",
    async ({ ctx, body }) => {
      await updateProfile(ctx, body);
      return getProfile(ctx.actor.userId);
    },
    {
      body: t.Object({
        firstName: t.String(),
        lastName: t.Optional(t.String()),
        mobile: t.Optional(t.String()),
        gender: t.Optional(t.Union([oneOf(GENDERS), t.Literal("")])),
        birthDate: t.Optional(t.String({ description: "YYYY-MM-DD" })),
      }),
      detail: { responses: successResponse(R.Profile), summary: "Update the signed-in person's profile; answers the profile" },
    },
  )
  .put(
    "/password",
    async ({ ctx, body }) => {
      await changePassword(ctx, body);
      return { ok: true };
    },
    {
      body: t.Object({ currentPassword: t.String(), password: t.String(), confirmPassword: t.String() }),
      detail: {
        responses: { ...successResponse(R.Ok), ...errorResponses(429) },
        summary: "Change the password (needs the current one: 401 INVALID_PASSWORD otherwise); the person's other sessions end",
      },
    },
  )
  .put("/locale", async ({ ctx, body }) => ({ locale: await setLocale(ctx.actor.userId, body) }), {
    body: t.Object({ locale: oneOf(LOCALES) }),
    detail: { responses: successResponse(R.LocaleSet), summary: "Set the person's language (pt-BR, en, es, zh)" },
  });
