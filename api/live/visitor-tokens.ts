/**
 * Visitor tokens: what a widget visitor (no account, no session) shows the realtime service to
 * read its own room's stream (`live:room:{roomId}`) and send the visitor's commands. Issued by
 * live-core when a widget conversation starts; kept in the widget (localStorage) so a page
 * reload resumes the same conversation.
 *
 * Stored in Redis like stream tickets (ADR 015): an opaque random token, kept only as its
 * SHA-256, with a sliding time to live (every redeem extends it), and revocable per room when the
 * conversation is over (`revokeVisitorTokens`).
 */
import { hashToken, randomToken } from "../lib/crypto";
import { perSlot, redis } from "../lib/redis";
import { keys } from "../lib/redis-keys";

/** A visitor who goes quiet this long must start a new conversation. */
export const VISITOR_TOKEN_TTL_SECONDS = 24 * 3600;

export type VisitorIdentity = { accountId: string; roomId: string };

const tokenKey = (token: string) => keys.liveVisitor(hashToken(token));
const roomKey = (roomId: string) => keys.liveVisitorRoom(roomId);

export async function issueVisitorToken(accountId: string, roomId: string): Promise<string> {
  const token = randomToken(32);
  const k = tokenKey(token);
  // The room's index first, then the token (different slots on a cluster): a crash in between
  // leaves an index entry without a token, never a token the room's revocation cannot find.
  await redis().multi().sadd(roomKey(roomId), k).expire(roomKey(roomId), VISITOR_TOKEN_TTL_SECONDS).exec();
  await redis().set(k, JSON.stringify({ accountId, roomId } satisfies VisitorIdentity), "EX", VISITOR_TOKEN_TTL_SECONDS);
  return token;
}

/** The visitor's account and room, or null for an unknown, expired or revoked token. */
export async function redeemVisitorToken(token: string | null | undefined): Promise<VisitorIdentity | null> {
  if (!token || token.length > 128) return null;
  const k = tokenKey(token);
  const [[, raw]] = (await redis().multi().get(k).expire(k, VISITOR_TOKEN_TTL_SECONDS, "XX").exec()) as [[Error | null, string | null], unknown];
  if (!raw) return null;
  const v = JSON.parse(raw) as VisitorIdentity;
  await redis().expire(roomKey(v.roomId), VISITOR_TOKEN_TTL_SECONDS);
  return v;
}

/** Ends every visitor token of a room (e.g. the room was erased); open connections keep reading until they reconnect. */
export async function revokeVisitorTokens(roomId: string): Promise<void> {
  const tokens = await redis().smembers(roomKey(roomId));
  await perSlot(tokens, (slotKeys) => redis().del(...slotKeys));
  await redis().del(roomKey(roomId));
}
