/**
 * The success answers of the people routes (/users) and the person's own profile (/me), as TypeBox
 * schemas for the OpenAPI document (api/http/openapi.ts successResponse). In tests every answer is
 * checked against them (api/http/response-check.ts).
 */
import { Type } from "@sinclair/typebox";
import { t } from "elysia";
import { GENDERS, INVITE_ROLES, LOCALES, ROLES } from "../../models/constants";
import { Page } from "../lib/page-schema";

const int = Type.Integer;
const nullable = <T extends Parameters<typeof t.Union>[0][number]>(s: T) => t.Union([s, t.Null()]);
const oneOf = (values: readonly string[], description?: string) =>
  t.Union(
    values.map((v) => t.Literal(v)),
    description ? { description } : {},
  );
const date = (description?: string) => t.String({ format: "date-time", ...(description ? { description } : {}) });

export const User = t.Object({
  id: t.String({ format: "uuid", description: "The person's id" }),
  firstName: t.String(),
  lastName: t.String(),
  email: t.String(),
  mobile: nullable(t.String()),
  role: oneOf(ROLES, "The person's role in the acting account"),
  isAgent: t.Boolean({ description: "Attends live chat" }),
  departmentId: nullable(t.String({ format: "uuid" })),
  twoFactor: t.Boolean({ description: "An authenticator app is enrolled" }),
  lastLoginAt: nullable(date()),
  createdAt: date("When the person joined the account"),
});

const OpenInvitation = t.Object({
  id: t.String({ format: "uuid" }),
  email: t.String(),
  role: oneOf(INVITE_ROLES),
  expiresAt: date(),
  createdAt: date(),
});

export const UserPage = t.Composite([
  Page(User),
  t.Object({
    total: int({ description: "People matching `q` in the account" }),
    invitations: t.Array(OpenInvitation, { description: "The account's open invitations, newest first (at most 50)" }),
    page: t.Optional(int({ description: "Deprecated (only with `page`): the page answered" })),
    last_page: t.Optional(int({ description: "Deprecated (only with `page`): the last page at this `limit`" })),
  }),
]);

export const Invitation = t.Object({
  id: t.String({ format: "uuid" }),
  email: t.String(),
  role: oneOf(INVITE_ROLES),
  expiresAt: date("The link works for 7 days"),
});

export const SignInEvent = t.Object({
  id: int(),
  action: t.String({ description: "auth.login, auth.login_failed, auth.2fa_enabled, auth.password_reset…" }),
  ip: nullable(t.String()),
  userAgent: nullable(t.String()),
  createdAt: date(),
});

export const Profile = t.Object({
  id: t.String({ format: "uuid" }),
  email: t.String(),
  firstName: t.String(),
  lastName: t.String(),
  mobile: nullable(t.String()),
  gender: nullable(oneOf(GENDERS)),
  birthDate: nullable(t.String({ format: "date" })),
  locale: oneOf(LOCALES),
  twoFactor: t.Boolean({ description: "An authenticator app is enrolled" }),
  hasPassword: t.Boolean({ description: "false for people who only sign in with Google or Facebook" }),
});

export const LocaleSet = t.Object({ locale: oneOf(LOCALES) });

export const Ok = t.Object({ ok: t.Literal(true) });
