/**
 * The WhatsApp customer-service window (issue 16; spec sections 4 and 9: 24 hours): per number and
 * contact, open from the contact's last message to the number until 24 hours later. Inside it
 * free-form messages may be sent; outside it only a template. Opened (moved forward, never back)
 * by the inbound message webhook; read by the send paths and the screens.
 */
import type { SignedInCtx } from "../lib/context";
import { AppError } from "../lib/errors";
import { exec, row } from "../lib/sql";
import { validate } from "../lib/validate";
import { z } from "../lib/zod";
import { can } from "../policy/policy";
import { ownNumber } from "./numbers";

/** Spec section 9: "WhatsApp session window 24 hours". */
export const WINDOW_HOURS = 24;

/** Records a contact's message at `at` (a later one wins; an older one, retried or out of order, changes nothing). */
export async function openWindow(accountId: string, numberId: string, contact: string, at: Date): Promise<void> {
  await exec(
    `INSERT INTO whatsapp_windows (account_id, number_id, contact, last_inbound_at) VALUES ($1, $2, $3, $4)
     ON CONFLICT (number_id, contact) DO UPDATE SET last_inbound_at = GREATEST(whatsapp_windows.last_inbound_at, EXCLUDED.last_inbound_at)`,
    [accountId, numberId, contact, at],
  );
}

export type WindowState = { open: boolean; last_inbound_at: Date | null; expires_at: Date | null };

/** The window of a number (of the account) and a contact, by the database's clock. */
export async function windowOf(accountId: string, numberId: string, contact: string): Promise<WindowState> {
  const w = await row<{ last_inbound_at: Date; expires_at: Date; open: boolean }>(
    `SELECT last_inbound_at, last_inbound_at + make_interval(hours => $4) AS expires_at, last_inbound_at + make_interval(hours => $4) > now() AS open
       FROM whatsapp_windows WHERE account_id = $1 AND number_id = $2 AND contact = $3`,
    [accountId, numberId, contact, WINDOW_HOURS],
  );
  return w ? { open: w.open, last_inbound_at: w.last_inbound_at, expires_at: w.expires_at } : { open: false, last_inbound_at: null, expires_at: null };
}

const windowSchema = z.object({
  number_id: z.string().regex(/^[0-9a-f-]{36}$/i, "validation.required"),
  to: z
    .string()
    .trim()
    .regex(/^\+[1-9]\d{7,14}$/, "validation.phone"),
});

/** GET /api/whatsapp/window?number_id=&to=: whether free-form messages may go to `to` from the number now, and until when. */
export async function getWhatsappWindow(ctx: SignedInCtx, input: unknown): Promise<{ data: WindowState }> {
  if (!can(ctx.actor, "/whatsapp/send")) throw new AppError("FORBIDDEN");
  const q = validate(windowSchema, input ?? {});
  const number = await ownNumber(ctx.actor.accountId, q.number_id);
  return { data: await windowOf(ctx.actor.accountId, number.id, q.to) };
}
