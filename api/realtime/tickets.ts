/**
 * Stream tickets: a browser's EventSource cannot send headers, so the web app hands it a
 * short-lived ticket bound to the person and account; the realtime service redeems it.
 */
import type { Actor } from "../lib/context";
import { randomToken } from "../lib/crypto";
import { key, redis } from "../lib/redis";

const TTL_SECONDS = 3600;

export async function issueStreamTicket(actor: Pick<Actor, "userId" | "accountId">) {
  const ticket = randomToken(24);
  await redis().set(key("rt-ticket", ticket), JSON.stringify({ userId: actor.userId, accountId: actor.accountId }), "EX", TTL_SECONDS);
  return ticket;
}

export async function redeemStreamTicket(ticket: string | null): Promise<{ userId: string; accountId: string } | null> {
  if (!ticket || ticket.length > 64) return null;
  const raw = await redis().get(key("rt-ticket", ticket));
  return raw ? JSON.parse(raw) : null;
}
