import { Elysia, t } from "elysia";
import { authenticated, clientIp, issueTokens, jwtPlugin, pendingAuth, revokeRefresh, rotateRefresh } from "../http/auth";
import { env } from "../lib/env";
import { AppError } from "../lib/errors";
import { created } from "../http/created";
import { createdResponse as createdDoc, errorResponses, successResponse, zodBody } from "../http/openapi";
import { FullTokens, Ok, PreferredTfa, Registered, RefreshedTokens, ResetTokenValid, Revoked, Tokens, TotpEnrolment } from "./responses";
import { registerSchema } from "./schemas";
import type { Ctx } from "../lib/context";
import { login } from "./login";
import { oauthSignInWithToken } from "./oauth";
import { register } from "./register";
import { beginTotpEnrolment, confirmTotpEnrolment, disableTotp, preferredTfa, verifyTotp } from "./totp";
import { checkResetToken, requestPasswordReset, resetPassword, resendVerification, verifyEmail } from "./user-tokens";

function reqCtx(request: Request, server: { requestIP(r: Request): { address: string } | null } | null): Ctx {
  return { ip: clientIp(request, server?.requestIP(request)?.address), userAgent: request.headers.get("User-Agent") };
}

const neutral = { ok: true as const };

/** The body of an OAuth 2.0 refresh (RFC 6749 section 6); another grant_type is a field error. */
const RefreshGrantBody = t.Object({ grant_type: t.Literal("refresh_token"), refresh_token: t.String({ minLength: 1 }) });

type Jwts = Pick<typeof jwtPlugin.decorator, "accessJwt" | "refreshJwt">;

/**
 * The one refresh, whichever way the token came (bearer of GET, body of POST): rotate it, answer
 * the new pair as RFC 6749 section 5.1 says (never cached) plus `token`, the original field name.
 */
async function refreshGrant(raw: string | null, accessJwt: Jwts["accessJwt"], refreshJwt: Jwts["refreshJwt"], set: { headers: Record<string, string | number> }) {
  const { userId, accountId } = await rotateRefresh(refreshJwt, raw);
  const tokens = await issueTokens(accessJwt, refreshJwt, userId, accountId, "ok");
  set.headers["Cache-Control"] = "no-store";
  set.headers["Pragma"] = "no-cache";
  return { access_token: tokens.token, token_type: "Bearer" as const, expires_in: env().JWT_ACCESS_TTL, refresh_token: tokens.refresh_token, token: tokens.token };
}

export const authRoutes = new Elysia({ prefix: "/auth", tags: ["auth"] })
  .use(jwtPlugin)
  .post(
    "/login",
    async ({ body, request, server, accessJwt, refreshJwt }) => {
      const { user, twoFactorRequired } = await login(reqCtx(request, server), body);
      const tokens = await issueTokens(accessJwt, refreshJwt, user.id, user.currentAccountId, twoFactorRequired ? "pending" : "ok");
      return { ...tokens, preferred_tfa: twoFactorRequired ? "totp" : null };
    },
    {
      body: t.Object({ email: t.String(), password: t.String() }),
      detail: { summary: "Sign in with e-mail and password; answers {token, refresh_token}", responses: { ...successResponse(Tokens), ...errorResponses(401, 403, 429) } },
    },
  )
  .get(
    "/token",
    async ({ request, set, accessJwt, refreshJwt }) => refreshGrant(request.headers.get("Authorization")?.replace(/^Bearer\s+/, "") ?? null, accessJwt, refreshJwt, set),
    {
      detail: {
        summary: "Refresh (original form): send the refresh token as bearer; answers the same as POST /api/auth/token",
        security: [{ bearer: [] }],
        responses: { ...successResponse(RefreshedTokens), ...errorResponses(401) },
      },
    },
  )
  .post("/token", async ({ body, set, accessJwt, refreshJwt }) => refreshGrant(body.refresh_token, accessJwt, refreshJwt, set), {
    body: RefreshGrantBody,
    detail: {
      responses: { ...successResponse(RefreshedTokens), ...errorResponses(401) },
      summary:
        "Refresh as OAuth 2.0 clients do (RFC 6749 section 6): a JSON or form-urlencoded body {grant_type: refresh_token, refresh_token}; answers {access_token, token_type, expires_in, refresh_token} plus the original {token}",
    },
  })
  .post(
    "/login/:provider",
    async ({ params, body, request, server, accessJwt, refreshJwt }) => {
      if (params.provider !== "google" && params.provider !== "facebook") throw new AppError("NOT_FOUND");
      const { user, twoFactorRequired } = await oauthSignInWithToken(reqCtx(request, server), params.provider, body.access_token);
      const tokens = await issueTokens(accessJwt, refreshJwt, user.id, user.currentAccountId, twoFactorRequired ? "pending" : "ok");
      return { ...tokens, preferred_tfa: twoFactorRequired ? "totp" : null };
    },
    {
      params: t.Object({ provider: t.String() }),
      body: t.Object({ access_token: t.String() }),
      detail: {
        summary: "Sign in with a Google or Facebook access token (404 when that provider is not configured); answers {token, refresh_token}",
        responses: { ...successResponse(Tokens), ...errorResponses(401, 403, 429) },
      },
    },
  )
  .post("/logout", async ({ body, refreshJwt }) => revokeRefresh(refreshJwt, body.refresh_token, body.all === true), {
    body: t.Object({ refresh_token: t.String(), all: t.Optional(t.Boolean()) }),
    detail: {
      summary: "Sign out: revoke this refresh token (or all of the person's with all=true), the access tokens issued with it and the realtime connections opened with them",
      responses: { ...successResponse(Revoked), ...errorResponses(401) },
    },
  })
  .post(
    "/register",
    async ({ body, request, server, set }) => {
      const { user, account } = await register(reqCtx(request, server), body);
      return created(set, `/api/accounts/${account.id}`, { user: { id: user.id, email: user.email }, account: { id: account.id, name: account.name } });
    },
    {
      body: t.Record(t.String(), t.Any()),
      detail: {
        requestBody: zodBody(registerSchema),
        responses: { ...createdDoc(Registered, "Registered: Location is the new account (GET it once signed in)"), ...errorResponses(429) },
        summary: "Register a person and company (sends the verification e-mail)",
      },
    },
  )
  .post(
    "/register/trial",
    async ({ body, request, server, set }) => {
      const { user, account } = await register(reqCtx(request, server), body, { trial: true });
      return created(set, `/api/accounts/${account.id}`, { user: { id: user.id, email: user.email }, account: { id: account.id, name: account.name } });
    },
    {
      body: t.Record(t.String(), t.Any()),
      detail: {
        requestBody: zodBody(registerSchema),
        responses: { ...createdDoc(Registered, "Registered: Location is the new account (GET it once signed in)"), ...errorResponses(429) },
        summary: "Register with the 30-day experience plan",
      },
    },
  )
  .post(
    "/verify-email/:token",
    async ({ params, request, server }) => {
      await verifyEmail(reqCtx(request, server), params.token);
      return neutral;
    },
    {
      params: t.Object({ token: t.String() }),
      detail: {
        responses: { ...successResponse(Ok), ...errorResponses(401) },
        summary: "Confirm the e-mail address with the token of the verification link (401 INVALID_TOKEN when used or expired)",
      },
    },
  )
  .post(
    "/resend-verification",
    async ({ body, request, server }) => {
      await resendVerification(reqCtx(request, server), body);
      return neutral;
    },
    {
      body: t.Object({ email: t.String() }),
      detail: {
        responses: { ...successResponse(Ok), ...errorResponses(429) },
        summary: "Send the verification e-mail again; the answer is the same whether or not the account exists",
      },
    },
  )
  .post(
    "/reset-password",
    async ({ body, request, server }) => {
      await requestPasswordReset(reqCtx(request, server), body);
      return neutral;
    },
    {
      body: t.Object({ email: t.String() }),
      detail: { responses: { ...successResponse(Ok), ...errorResponses(429) }, summary: "Request a reset link; the answer is the same whether or not the account exists" },
    },
  )
  .get("/reset/:token", async ({ params }) => checkResetToken(params.token), {
    params: t.Object({ token: t.String() }),
    detail: {
      responses: { ...successResponse(ResetTokenValid), ...errorResponses(401) },
      summary: "Check a password reset token before showing the new-password form (401 INVALID_TOKEN when used or expired)",
    },
  })
  .post(
    "/reset-verification",
    async ({ body, request, server }) => {
      await resetPassword(reqCtx(request, server), body);
      return neutral;
    },
    {
      body: t.Object({ token: t.String(), password: t.String(), confirmPassword: t.String() }),
      detail: {
        responses: { ...successResponse(Ok), ...errorResponses(401, 429) },
        summary: "Set a new password with the reset token; every session and token of the person ends",
      },
    },
  );

export const twoFactorRoutes = new Elysia({ prefix: "/2fa", tags: ["auth"] })
  .use(pendingAuth)
  .get("/preferred", ({ claims }) => preferredTfa(claims.sub), {
    detail: { responses: successResponse(PreferredTfa), summary: "The second factor the person uses (totp), for the step after sign-in" },
  })
  .post(
    "/verify",
    async ({ claims, body, request, server, accessJwt, refreshJwt }) => {
      if (claims.tfa === "ok") throw new AppError("VALIDATION");
      const user = await verifyTotp(reqCtx(request, server), claims.sub, body);
      return issueTokens(accessJwt, refreshJwt, user.id, claims.acc ?? user.currentAccountId, "ok");
    },
    {
      body: t.Object({ code: t.String() }),
      detail: {
        responses: { ...successResponse(FullTokens), ...errorResponses(401, 429) },
        summary: "Second factor: a pending token plus the TOTP code answers full tokens (401 INVALID_TOTP for a wrong code)",
      },
    },
  );

/** Second-factor management for the signed-in person (a full token is needed). */
export const twoFactorManageRoutes = new Elysia({ prefix: "/2fa", tags: ["auth"], detail: { security: [{ bearer: [] }] } })
  .use(authenticated)
  .post("/enrol", ({ ctx }) => beginTotpEnrolment(ctx.actor.userId), {
    detail: {
      responses: { ...successResponse(TotpEnrolment), ...errorResponses(409) },
      summary: "Start TOTP enrolment: answers {secret, uri (otpauth://), qr (PNG data URL)}; nothing changes until confirmed (409 TOTP_ALREADY_ENABLED)",
    },
  })
  .post(
    "/enrol/confirm",
    async ({ ctx, body }) => {
      await confirmTotpEnrolment(ctx, ctx.actor.userId, body.secret, body);
      return neutral;
    },
    {
      body: t.Object({ secret: t.String(), code: t.String() }),
      detail: {
        responses: { ...successResponse(Ok), ...errorResponses(401, 409) },
        summary: "Confirm enrolment with the secret and a first code from the app; switches 2FA on (401 INVALID_TOTP for a wrong code)",
      },
    },
  )
  .post(
    "/disable",
    async ({ ctx, body }) => {
      await disableTotp(ctx, ctx.actor.userId, body.password);
      return neutral;
    },
    {
      body: t.Object({ password: t.String() }),
      detail: { responses: { ...successResponse(Ok), ...errorResponses(401, 429) }, summary: "Switch 2FA off (needs the current password: 401 INVALID_PASSWORD otherwise)" },
    },
  );
