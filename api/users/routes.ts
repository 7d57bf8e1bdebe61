/** Users API: the people of the acting account, invitations, sign-in events; the person's own profile. */
import { Elysia, t } from "elysia";
import { GENDERS, INVITE_ROLES, LOCALES, ROLES } from "../../models/constants";
import { authenticated } from "../http/auth";
import {
  changePassword,
  getProfile,
  getUser,
  inviteUser,
  listSignInEvents,
  listUsers,
  removeUser,
  revokeInvitation,
  setLocale,
  updateProfile,
  updateUser,
} from "./services";

const bearer = [{ bearer: [] }];
const id = t.Object({ id: t.String({ format: "uuid" }) });
/** A union of literals, not t.UnionEnum: Elysia fills an absent optional UnionEnum with its first value (a missing role became "owner"). */
const oneOf = (values: readonly string[]) => t.Union(values.map((v) => t.Literal(v)));

export const userRoutes = new Elysia({ prefix: "/users", tags: ["users"], detail: { security: bearer } })
  .use(authenticated)
  .get(
    "",
    async ({ ctx, query }) => {
      const { lastPage, ...page } = await listUsers(ctx, query);
      return { ...page, last_page: lastPage };
    },
    {
      query: t.Object({ page: t.Optional(t.String({ description: "1-based page" })), q: t.Optional(t.String({ maxLength: 100 })) }),
      detail: { summary: "People of the acting account (20 a page) and its open invitations; answers {data, page, last_page, total, invitations}" },
    },
  )
  .get("/sessions", ({ ctx }) => listSignInEvents(ctx), { detail: { summary: "The signed-in person's latest 20 sign-in events with IP, user agent and date" } })
  .post(
    "/invite",
    async ({ ctx, body }) => {
      const { invitation } = await inviteUser(ctx, body);
      return { id: invitation.id, email: invitation.email, role: invitation.role, expiresAt: invitation.expiresAt };
    },
    {
      body: t.Object({ email: t.String(), role: oneOf(INVITE_ROLES) }),
      detail: { summary: "Invite a person by e-mail with a role (owner or admin only; otherwise 403 NO_PERMISSION_EDIT_USERS)" },
    },
  )
  .delete(
    "/invitations/:id",
    async ({ ctx, params }) => {
      await revokeInvitation(ctx, params.id);
      return { ok: true };
    },
    { params: id, detail: { summary: "Revoke an open invitation of the acting account" } },
  )
  .get("/:id", ({ ctx, params }) => getUser(ctx, params.id), { params: id, detail: { summary: "One person of the acting account (404 otherwise)" } })
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
    detail: { summary: "Edit a person's name, mobile, role, agent flag and department (owner or admin)" },
  })
  .delete(
    "/:id",
    async ({ ctx, params }) => {
      await removeUser(ctx, params.id);
      return { ok: true };
    },
    { params: id, detail: { summary: "Remove a person from the acting account (owner or admin; the last owner stays)" } },
  );

export const meRoutes = new Elysia({ prefix: "/me", tags: ["profile"], detail: { security: bearer } })
  .use(authenticated)
  .get("", ({ ctx }) => getProfile(ctx.actor.userId), { detail: { summary: "The signed-in person's profile" } })
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
      detail: { summary: "Update the signed-in person's profile" },
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
      detail: { summary: "Change the password (needs the current one)" },
    },
  )
  .put("/locale", async ({ ctx, body }) => ({ locale: await setLocale(ctx.actor.userId, body) }), {
    body: t.Object({ locale: oneOf(LOCALES) }),
    detail: { summary: "Set the person's language (pt-BR, en, es, zh)" },
  });
