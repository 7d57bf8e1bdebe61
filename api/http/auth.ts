/**
 * JWT bearer authentication for the integrator API. Access tokens are short-lived and carry
 * the user, the account and whether the second factor is done; refresh tokens are rotated
 * (one use each, stored as rows, reuse revokes the whole family).
 */
import { clientAddress, fromTrustedProxy } from "../lib/client-ip";
import { jwt } from "@elysiajs/jwt";
import { Elysia } from "elysia";
import { Op } from "sequelize";
import { loadActor } from "../auth/actor";
import { verifyHs256 } from "../auth/hs256";
import { assertTokenIssuedAfterRevocation, revokeTokenFamilies } from "../auth/revocation";
import { RefreshToken } from "../../models";
import type { Actor, SignedInCtx } from "../lib/context";
import { env } from "../lib/env";
import { AppError } from "../lib/errors";
import { SUSPENDED_API_PATHS } from "../policy/policy";

/** `at`: issued at, in milliseconds (revocation compares it with the person's last revocation). */
export type AccessClaims = { sub: string; acc?: string; tfa: "pending" | "ok"; typ: "access"; at?: number; iat?: number; sid?: string };

export const jwtPlugin = new Elysia({ name: "jwt-plugin" })
  .use(jwt({ name: "accessJwt", secret: env().JWT_SECRET, exp: `${env().JWT_ACCESS_TTL}s` }))
  .use(jwt({ name: "refreshJwt", secret: env().JWT_SECRET + ":refresh", exp: `${env().JWT_REFRESH_TTL}s` }));

/**
 * How refresh tokens are verified (jose, through the plugin): our algorithm only, and it must
 * expire. Every token we issue carries `exp`; one without it (signed by whoever holds the secret)
 * would be good forever. Access tokens, read on every request, are checked the same way by
 * verifyHs256 without the thread hop.
 */
type VerifyOptions = NonNullable<Parameters<typeof jwtPlugin.decorator.accessJwt.verify>[1]>;
const MUST_EXPIRE: VerifyOptions = { algorithms: ["HS256"], requiredClaims: ["exp"] };
type Verifier = { verify: (t?: string, options?: VerifyOptions) => Promise<false | Record<string, unknown>> };

/** The claims of a valid access token (signature, expiry, `typ`), else false. The one check of every access token (api/auth/hs256.ts: HS256 only, must expire). */
export async function accessClaims(raw: string | null | undefined): Promise<AccessClaims | false> {
  const claims = raw ? verifyHs256(raw, env().JWT_SECRET) : null;
  return claims && claims.typ === "access" && typeof claims.sub === "string" ? (claims as unknown as AccessClaims) : false;
}

/** The caller's IP: the socket, or, through our trusted proxies, the client they forwarded for (api/lib/client-ip.ts). */
export function clientIp(request: Request, socketIp: string | null | undefined) {
  return clientAddress(request.headers.get("X-Forwarded-For"), socketIp);
}

/** The host the person opened: X-Forwarded-Host when the socket is a trusted proxy (TRUSTED_PROXIES), else Host. */
export function clientHost(request: Request, socketIp: string | null | undefined) {
  const forwarded = request.headers.get("X-Forwarded-Host");
  if (forwarded && fromTrustedProxy(socketIp)) return forwarded.split(",")[0].trim();
  return request.headers.get("Host");
}

export function bearer(request: Request) {
  const h = request.headers.get("Authorization") ?? "";
  return h.startsWith("Bearer ") ? h.slice(7).trim() : null;
}

type Signer = { sign: (p: Record<string, string | number>) => Promise<string> };

/** Issue an access + refresh pair. */
export async function issueTokens(accessJwt: Signer, refreshJwt: Signer, userId: string, accountId: string | null | undefined, tfa: "pending" | "ok") {
  const claims = { sub: userId, ...(accountId ? { acc: accountId } : {}), tfa, typ: "access", at: Date.now() };
  if (tfa === "pending") return { token: await accessJwt.sign(claims), refresh_token: null as string | null };
  const row = await RefreshToken.create({ userId, expiresAt: new Date(Date.now() + env().JWT_REFRESH_TTL * 1000) });
  // `sid`: the token family (its refresh row), spared by revocations this pair itself causes.
  const token = await accessJwt.sign({ ...claims, sid: row.id });
  const refresh_token = await refreshJwt.sign({ sub: userId, jti: row.id, typ: "refresh", ...(accountId ? { acc: accountId } : {}) });
  return { token, refresh_token };
}

/** Use a refresh token once: it is revoked and a new pair is issued; a reused one revokes them all. */
export async function rotateRefresh(refreshJwt: Verifier, raw: string | null) {
  const claims = raw ? await refreshJwt.verify(raw, MUST_EXPIRE) : false;
  if (!claims || claims.typ !== "refresh" || typeof claims.jti !== "string" || typeof claims.sub !== "string") throw new AppError("INVALID_TOKEN");
  const [n] = await RefreshToken.update({ revokedAt: new Date() }, { where: { id: claims.jti, userId: claims.sub, revokedAt: null, expiresAt: { [Op.gt]: new Date() } } });
  if (n !== 1) {
    await RefreshToken.update({ revokedAt: new Date() }, { where: { userId: claims.sub, revokedAt: null } });
    throw new AppError("INVALID_TOKEN");
  }
  return { userId: claims.sub, accountId: typeof claims.acc === "string" ? claims.acc : undefined };
}

/** Logout: revoke the given refresh token, or every refresh token of its person with `all`. */
export async function revokeRefresh(refreshJwt: Verifier, raw: string | null, all = false) {
  const claims = raw ? await refreshJwt.verify(raw, MUST_EXPIRE) : false;
  if (!claims || claims.typ !== "refresh" || typeof claims.jti !== "string" || typeof claims.sub !== "string") throw new AppError("INVALID_TOKEN");
  const where = all ? { userId: claims.sub, revokedAt: null } : { id: claims.jti, userId: claims.sub, revokedAt: null };
  const [n, rows] = await RefreshToken.update({ revokedAt: new Date() }, { where, returning: true });
  // Their access tokens and the realtime connections opened with them end too (issue 11 item 6).
  await revokeTokenFamilies(
    claims.sub,
    rows.map((r) => r.id),
  );
  return { revoked: n };
}

/**
 * The actor of an access token, checked as every authenticated route checks it (the same
 * accessClaims: signature and a required expiry; an access token, the second factor done). The acting
 * account is `wanted` (strict: one the person does not belong to is ACCOUNT_INFO_FAILED), else
 * the token's, else the person's current one. Also used by the realtime service (`?token=`).
 */
export async function actorFromAccessToken(raw: string | null | undefined, wanted: string | null = null): Promise<Actor> {
  return (await accessTokenIdentity(raw, wanted)).actor;
}

/**
 * actorFromAccessToken plus when the token was issued (ms), which the realtime service keeps to
 * re-check the token against later revocations. A token issued before the person's last
 * revocation (password change, reset, 2FA change, removal: api/auth/revocation.ts) is refused.
 */
export async function accessTokenIdentity(
  raw: string | null | undefined,
  wanted: string | null = null,
  opts: { billing?: boolean } = {},
): Promise<{ actor: Actor; issuedAt: number; family: string | null }> {
  const claims = await accessClaims(raw);
  if (!claims) throw new AppError("UNAUTHENTICATED");
  if (claims.tfa !== "ok") throw new AppError("TWO_FACTOR_NOT_CHECKED");
  const issuedAt = tokenIssuedAt(claims);
  const family = tokenFamily(claims);
  // The revocation check (Redis) and the actor (PostgreSQL) travel at the same time; a revoked
  // token is refused whatever the actor's load found, as when they ran one after the other.
  const [revocation, loaded] = await Promise.allSettled([
    assertTokenIssuedAfterRevocation(claims.sub, issuedAt, family),
    loadActor(claims.sub, wanted ?? claims.acc, { strict: wanted !== null, billing: opts.billing }),
  ]);
  if (revocation.status === "rejected") throw revocation.reason;
  if (loaded.status === "rejected") throw loaded.reason;
  return { actor: loaded.value, issuedAt, family };
}

/** The token family: the refresh row issued with the token (none for a pending token). */
const tokenFamily = (claims: AccessClaims) => (typeof claims.sid === "string" ? claims.sid : null);

/** `at` (ms, ours) is exact; older tokens only have the JWT's `iat` (whole seconds). */
function tokenIssuedAt(claims: AccessClaims): number {
  if (typeof claims.at === "number") return claims.at;
  return typeof claims.iat === "number" ? claims.iat * 1000 : 0;
}

type Socket = { requestIP(r: Request): { address: string } | null } | null;

/**
 * Routes that `.use(authenticated)` get `ctx` (SignedInCtx). The acting account is the
 * X-Account-Id header (strict: an account the person does not belong to answers 403
 * ACCOUNT_INFO_FAILED), else the token's, else the person's current account. Named: the OpenAPI
 * document (./openapi.ts) recognises the routes that run it.
 */
export async function resolveSignedIn({ request, server }: { request: Request; server: Socket }) {
  const wanted = request.headers.get("X-Account-Id")?.trim() || null;
  const { actor, family } = await accessTokenIdentity(bearer(request), wanted, { billing: true });
  // An account suspended for an unpaid invoice reaches only its invoices, to pay them (ADR 044).
  if (actor.suspended && !SUSPENDED_API_PATHS.some((r) => r.test(new URL(request.url).pathname))) throw new AppError("CLIENT_INACTIVE", { params: { context: "unpaid" } });
  const ctx: SignedInCtx = {
    actor,
    ...(family ? { sessionId: family } : {}),
    ip: clientIp(request, server?.requestIP(request)?.address),
    userAgent: request.headers.get("User-Agent"),
  };
  return { ctx };
}

export const authenticated = new Elysia({ name: "authenticated" }).use(jwtPlugin).resolve({ as: "scoped" }, resolveSignedIn);

/** Only the token check, for the second-factor step (a pending token is enough there). */
export async function resolvePending({ request }: { request: Request }) {
  const claims = await accessClaims(bearer(request));
  if (!claims) throw new AppError("UNAUTHENTICATED");
  await assertTokenIssuedAfterRevocation(claims.sub, tokenIssuedAt(claims), tokenFamily(claims));
  return { claims };
}

export const pendingAuth = new Elysia({ name: "pending-auth" }).use(jwtPlugin).resolve({ as: "scoped" }, resolvePending);
