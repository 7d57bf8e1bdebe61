/**
 * Stream tickets: a browser's EventSource cannot send headers, so the web app hands it a
 * ticket bound to the person, the account and the web session; the realtime service redeems it.
 * A ticket is single-use (GETDEL) and lives a minute: every connect and reconnect asks the web
 * app for a new one, which it gives only to a live session. A ticket of a session that has since
 * ended (logout, revocation) is refused even within its minute.
 */
import { webSessionAlive } from "../auth/revocation";
import type { Actor } from "../lib/context";
import { randomToken } from "../lib/crypto";
import { redis } from "../lib/redis";
import { keys } from "../lib/redis-keys";

export const TICKET_TTL_SECONDS = 60;

export type StreamTicket = { userId: string; accountId: string; sessionId: string | null };

export async function issueStreamTicket(actor: Pick<Actor, "userId" | "accountId">, sessionId?: string | null) {
  const ticket = randomToken(24);
  const value: StreamTicket = { userId: actor.userId, accountId: actor.accountId, sessionId: sessionId ?? null };
  await redis().set(keys.realtimeTicket(ticket), JSON.stringify(value), "EX", TICKET_TTL_SECONDS);
  return ticket;
}

export async function redeemStreamTicket(ticket: string | null): Promise<StreamTicket | null> {
  if (!ticket || ticket.length > 64) return null;
  const raw = await redis().getdel(keys.realtimeTicket(ticket));
  if (!raw) return null;
  const who = JSON.parse(raw) as StreamTicket;
  if (who.sessionId && !(await webSessionAlive(who.sessionId, who.userId))) return null;
  return { userId: who.userId, accountId: who.accountId, sessionId: who.sessionId ?? null };
}
