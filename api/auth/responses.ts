/**
 * The success answers of the sign-in, registration, token and second-factor routes (routes.ts), as
 * TypeBox schemas for the OpenAPI document (api/http/openapi.ts successResponse). In tests every
 * answer is checked against them (api/http/response-check.ts).
 */
import { Type } from "@sinclair/typebox";
import { t } from "elysia";

/** A plain JSON integer (Elysia's t.Integer also accepts numeric strings, which the document would show). */
const int = Type.Integer;

export const Tokens = t.Object({
  token: t.String({ description: "Access token (JWT); send it as bearer" }),
  refresh_token: t.Union([t.String(), t.Null()], { description: "Null while the second factor is pending" }),
  preferred_tfa: t.Union([t.Literal("totp"), t.Null()], { description: "totp: confirm with POST /api/2fa/verify before the token is full" }),
});

/** POST /2fa/verify: the full pair once the second factor is done. */
export const FullTokens = t.Object({
  token: t.String({ description: "Access token (JWT), second factor done" }),
  refresh_token: t.String({ description: "Refresh token for POST /api/auth/token" }),
});

export const RefreshedTokens = t.Object({
  access_token: t.String(),
  token_type: t.Literal("Bearer"),
  expires_in: int({ description: "Seconds the access token lives" }),
  refresh_token: t.String({ description: "The next refresh token (this one is spent)" }),
  token: t.String({ description: "The same access token, under its original name" }),
});

export const Registered = t.Object(
  {
    user: t.Object({ id: t.String({ format: "uuid" }), email: t.String({ description: "Lower-cased" }) }),
    account: t.Object({ id: t.String({ format: "uuid" }), name: t.String() }),
  },
  { description: "The person and the company account. An e-mail already registered answers the same shape (no account is revealed); the mailbox learns of it" },
);

export const Revoked = t.Object({ revoked: int({ description: "Refresh tokens revoked (0 when this one was already revoked)" }) });

/** The neutral answer of the e-mail and password-reset routes: the same whether or not the account exists. */
export const Ok = t.Object({ ok: t.Literal(true) });

export const ResetTokenValid = t.Object({
  valid: t.Literal(true, { description: "An unusable token answers 401 INVALID_TOKEN instead" }),
  expiresAt: t.String({ format: "date-time", description: "When the link stops working" }),
});

export const PreferredTfa = t.Object({
  preferred_tfa: t.Union([t.Literal("totp"), t.Null()], { description: "totp when the person has an authenticator app enrolled, else null" }),
});

export const TotpEnrolment = t.Object({
  secret: t.String({ description: "Base32 secret to confirm with POST /api/2fa/enrol/confirm" }),
  uri: t.String({ description: "otpauth://totp/… URL for authenticator apps" }),
  qr: t.String({ description: "The URL as a QR code: a PNG data URL" }),
});
