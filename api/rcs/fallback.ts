/**
 * The SMS fallback of an RCS message whose handset is not RCS-capable (ADR 055): when the accept
 * decided so (content.fallbackSms: the request's `fallback_sms`, else the account's
 * `rcs_fallback_sms`; a message without the flag: the account's setting now), ONE SMS of the message's plain text (./content.ts plainText) to
 * the same number, written by the SMS accept itself (api/sms/accept.ts acceptSms: the account's
 * SMS sender rule — blank, the route's default sender —, its SMS price and route, opt-outs, deny
 * list, moderation, the debit), with `fallback_of` naming the RCS message, set in the accept's own
 * transaction. Called by the RCS adapter's afterFailure (api/channels/rcs/rbm.ts) after the
 * dispatcher failed and refunded the RCS leg.
 *
 * Exactly once: a leg already written is found by `fallback_of`; two calls at once meet on the
 * accept's Idempotency-Key (`rcs-fallback:<rcs id>`), so the later one answers the first's SMS.
 * The SMS is accepted as the account's first owner (as SMPP sends without a member do).
 */
import type { OutboundMessage } from "../channels/contract";
import { loadActor } from "../auth/actor";
import { exec, rows } from "../lib/sql";
import { acceptSms } from "../sms/accept";
import { MAX_BODY } from "../sms/constants";
import { plainText, rcsContentSchema } from "./content";

/** The SMS leg written for `message` (or found), or null when the account does not fall back to SMS. */
export async function sendSmsFallback(message: Pick<OutboundMessage, "id" | "accountId" | "recipient" | "body" | "content">): Promise<string | null> {
  const [account] = await rows<{ rcs_fallback_sms: boolean; owner: string | null }>(
    `SELECT a.rcs_fallback_sms,
            (SELECT user_id FROM memberships WHERE account_id = a.id AND role = 'owner' ORDER BY created_at LIMIT 1) AS owner
       FROM accounts a WHERE a.id = $1`,
    [message.accountId],
  );
  // The accept decided it (content.fallbackSms: the request's choice, else the account's setting then); else the account's setting now.
  const decided = (message.content as { fallbackSms?: unknown } | null)?.fallbackSms;
  if (!(typeof decided === "boolean" ? decided : account?.rcs_fallback_sms)) return null;
  const [existing] = await rows<{ id: string }>(`SELECT id FROM messages WHERE account_id = $1 AND fallback_of = $2 LIMIT 1`, [message.accountId, message.id]);
  if (existing) return existing.id;
  if (!account.owner) throw new Error(`account ${message.accountId} has no owner to send the SMS fallback of ${message.id} as`);
  const parsed = rcsContentSchema.safeParse(message.content);
  const text = (parsed.success ? plainText(parsed.data) : "") || message.body;
  const actor = await loadActor(account.owner, message.accountId, { strict: true });
  const answer = await acceptSms(
    { actor },
    { to: message.recipient, from: "", body: Array.from(text).slice(0, MAX_BODY).join("") },
    {
      idempotencyKey: `rcs-fallback:${message.id}`,
      also: async (accepted, transaction) => {
        const sms = accepted.data?.[0]?.id;
        if (sms) await exec(`UPDATE messages SET fallback_of = $1 WHERE id = $2 AND account_id = $3`, [message.id, sms, message.accountId], { transaction });
      },
    },
  );
  return answer.data?.[0]?.id ?? null;
}
