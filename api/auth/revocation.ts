/**
 * Revocation: the one place that ends a person's signed-in state (SECURITY.md "Sessions and
 * revocation", ADR 015 amendment). Three kinds of credential outlive a request and all die here:
 *  - web sessions (data in Redis under keys.session(id); each person's ids are indexed in the
 *    set keys.userSessions(userId), kept by remix/app/lib/session.server.ts),
 *  - API refresh tokens (rows; revoked) and access tokens (stateless JWTs: a per-person
 *    "valid after" instant that every verification checks, kept as long as an access token lives),
 *  - open realtime connections (websockets and SSE streams): a revocation event on a Redis
 *    channel that every realtime process listens to, closing the matching ones within a second.
 */
import { Op } from "sequelize";
import { RefreshToken, type Role } from "../../models";
import { env } from "../lib/env";
import { AppError, isAppError } from "../lib/errors";
import { perSlot, redis } from "../lib/redis";
import { keys } from "../lib/redis-keys";
import { loadActor } from "./actor";

export const sessionKey = (sessionId: string) => keys.session(sessionId);
export const userSessionsKey = (userId: string) => keys.userSessions(userId);
const validAfterKey = (userId: string) => keys.tokensValidAfter(userId);
const familyRevokedKey = (userId: string, family: string) => keys.tokenFamilyRevoked(userId, family);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The channel realtime processes subscribe to. */
export const revocationChannel = () => keys.channel("revocations");

/**
 * Which realtime connections to close: every given field must match. `userId` alone is all of
 * that person's; with `accountId` only that account's; `accountId` alone is everyone's in the
 * account; `sessionId` the ones opened from that web session. `exceptSessionId` spares the
 * connections of the session that made the change.
 */
export type Revocation = { userId?: string; accountId?: string; sessionId?: string; exceptSessionId?: string; reason: string };

/**
 * What a realtime connection knows of who opened it (checked against revocations and
 * re-validated): `sessionId` is the web session of its ticket, or the token family of its
 * access token (`tokenIssuedAt` set).
 */
export type ConnectionSubject = { userId: string; accountId: string; role: Role; isAgent: boolean; sessionId: string | null; tokenIssuedAt: number | null };

export function revocationMatches(r: Revocation, s: Pick<ConnectionSubject, "userId" | "accountId" | "sessionId">) {
  if (!r.userId && !r.accountId && !r.sessionId) return false;
  if (r.userId && r.userId !== s.userId) return false;
  if (r.accountId && r.accountId !== s.accountId) return false;
  if (r.sessionId && r.sessionId !== s.sessionId) return false;
  if (r.exceptSessionId && r.exceptSessionId === s.sessionId) return false;
  return true;
}

/** Close the matching realtime connections on every realtime process. */
export async function publishRevocation(r: Revocation) {
  await redis().publish(revocationChannel(), JSON.stringify(r));
}

/**
 * Sign a person out everywhere except `except` (the web session making the change, if any):
 * their other web sessions, every refresh token, every access token issued until now, and
 * their open realtime connections. Call after the change is committed.
 */
export async function revokeUserSessions(userId: string, opts: { except?: string | null; reason: string }) {
  const except = opts.except ?? undefined;
  const ids = (await redis().smembers(userSessionsKey(userId))).filter((id) => id !== except);
  if (ids.length) {
    // Sessions live in slots of their own (a cookie names only the session): deleted per slot, then unindexed.
    await perSlot(ids.map(sessionKey), (slotKeys) => redis().del(...slotKeys));
    await redis().srem(userSessionsKey(userId), ...ids);
  }
  // An API caller's "session" is its token family (the refresh row its access token names).
  const spareRow = except && UUID.test(except) ? { id: { [Op.ne]: except } } : {};
  await RefreshToken.update({ revokedAt: new Date() }, { where: { userId, revokedAt: null, ...spareRow } });
  // Access tokens live JWT_ACCESS_TTL at most: the mark only has to outlive them.
  const mark: ValidAfter = { at: Date.now(), except: except ?? null };
  await redis().set(validAfterKey(userId), JSON.stringify(mark), "EX", env().JWT_ACCESS_TTL + 60);
  await publishRevocation({ userId, exceptSessionId: except, reason: opts.reason });
}

/**
 * API logout: the refresh rows `families` were revoked. The access tokens of those families die
 * with them (a mark kept as long as an access token lives) and so do the realtime connections
 * opened with them.
 */
export async function revokeTokenFamilies(userId: string, families: readonly string[], reason = "logout") {
  if (!families.length) return;
  const multi = redis().multi();
  for (const family of families) multi.set(familyRevokedKey(userId, family), "1", "EX", env().JWT_ACCESS_TTL + 60);
  await multi.exec();
  for (const family of families) await publishRevocation({ userId, sessionId: family, reason });
}

/** The web session ended (logout): close the realtime connections opened from it. */
export const revokeSessionConnections = (sessionId: string, reason = "logout") => publishRevocation({ sessionId, reason });

/** A person's role in an account changed: their connections there reconnect under the new role. */
export const revokeMembershipConnections = (userId: string, accountId: string, reason = "role_changed") => publishRevocation({ userId, accountId, reason });

/** An account was suspended or deactivated: every connection of its people closes. */
export const revokeAccountConnections = (accountId: string, reason = "account_inactive") => publishRevocation({ accountId, reason });

type ValidAfter = { at: number; except: string | null };

/**
 * An access token issued (ms) before the person's last revocation is refused, unless it belongs
 * to the token family (`family`: its refresh row) that made the change; so is one whose family
 * was signed out (API logout).
 */
export async function assertTokenIssuedAfterRevocation(userId: string, issuedAtMs: number, family: string | null) {
  const [raw, familyRevoked] = family ? await redis().mget(validAfterKey(userId), familyRevokedKey(userId, family)) : [await redis().get(validAfterKey(userId)), null];
  if (familyRevoked) throw new AppError("UNAUTHENTICATED");
  if (!raw) return;
  const mark = JSON.parse(raw) as ValidAfter;
  if (issuedAtMs <= mark.at && !(family && family === mark.except)) throw new AppError("UNAUTHENTICATED");
}

/** Does this web session still exist and belong to `userId`? */
export async function webSessionAlive(sessionId: string, userId: string) {
  const raw = await redis().get(sessionKey(sessionId));
  if (!raw) return false;
  try {
    return (JSON.parse(raw) as { userId?: string }).userId === userId;
  } catch {
    return false;
  }
}

/**
 * The backstop of the revocation events (a Redis blip loses pub/sub messages): is the person
 * who opened a connection still allowed it? Same membership, same role and agent flag, the account active,
 * the web session alive, the access token not revoked.
 */
export async function connectionStillAllowed(s: ConnectionSubject): Promise<boolean> {
  try {
    if (s.tokenIssuedAt !== null) await assertTokenIssuedAfterRevocation(s.userId, s.tokenIssuedAt, s.sessionId);
    else if (s.sessionId && !(await webSessionAlive(s.sessionId, s.userId))) return false;
    const actor = await loadActor(s.userId, s.accountId, { strict: true });
    return actor.role === s.role && actor.isAgent === s.isAgent;
  } catch (e) {
    // Only a refusal closes the connection; a database hiccup does not.
    return !isAppError(e);
  }
}
